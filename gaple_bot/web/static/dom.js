// What both of the page's scripts build with: an element from a tag, attributes and children,
// and a JSON request to the bot's server.

/** An element: `attrs` as attributes (class, text and on* handled), then its children. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

/** POST `body` as JSON to `path`; the answer's JSON, or an Error carrying the status, the
 * refusal's text and the whole answer. */
export async function post(path, body) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
    credentials: "same-origin",
  });
  let answer = {};
  try {
    answer = await response.json();
  } catch {
    answer = {};
  }
  if (!response.ok) {
    const error = new Error(answer.text || `${response.status}`);
    error.status = response.status;
    error.answer = answer;
    throw error;
  }
  return answer;
}
