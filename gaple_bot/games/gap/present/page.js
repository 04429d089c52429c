// Gap drawn for the table page (docs/PAGE.md): the middle's cards as coloured faces with their
// values and the pile's count on the felt; each seat's collection by colour beside its name; a
// hand's card with what each of its moves would take shown small under it; and at a round's
// end every collection as coloured columns, the colours that score marked (+ for the largest
// counts, − for the smallest) and the sum written out. Colours are page.css's .card-<colour>.

const ORDER = ["red", "green", "blue", "yellow", "purple", "orange"];

/** The felt lists the last moves (drawBoard's .recent): the page's move line under it would
 * show the last one twice, so the page keeps that line for screen readers only. */
export const listsMoves = true;
const ENGLISH = { to_middle: "to the middle" };

function html(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function word(texts, key) {
  return (texts && texts[key]) || ENGLISH[key];
}

/** A score as typeset: a true minus sign. */
function signed(number) {
  return number < 0 ? `−${-number}` : String(number);
}

function card(face, size = "") {
  const node = html("span", `card card-${face.colour}${size ? ` ${size}` : ""}`, String(face.value));
  node.dataset.colour = face.colour;
  if (face.label) {
    node.setAttribute("role", "img");
    node.setAttribute("aria-label", face.label);
  }
  return node;
}

export function drawBoard(board, state, texts) {
  const root = html("div", "board gap-board");
  const top = html("div", "gap-top");
  const middle = html("div", "gap-middle");
  for (const face of board.middle || []) middle.append(card(face, "big"));
  if (!middle.childElementCount) middle.append(html("span", "gap-middle-empty", "—"));
  const pile = html("div", "gap-pile");
  pile.append(html("span", "gap-pile-count", String(board.pile ?? 0)));
  pile.setAttribute("role", "img");
  pile.setAttribute("aria-label", `🂠 ${board.pile ?? 0}`);
  top.append(middle, pile);
  root.append(top);
  const recent = html("ul", "recent");
  // A coloured square never parts from the number after it ("🟧0").
  const joined = (line) => line.replace(/(\p{Extended_Pictographic}\uFE0F?)(?=\d)/gu, "$1\u2060");
  // Three lines: at four seats, each other seat's move since yours (they come at once).
  for (const line of (board.recent || []).slice(-3)) recent.append(html("li", "", joined(line)));
  root.append(recent);
  return root;
}

/** A collection as chips: a colour's square and its count, never broken across lines. */
function chips(held) {
  const box = html("span", "gap-chips");
  for (const colour of ORDER) {
    const count = held?.colours?.[colour];
    if (!count) continue;
    const chip = html("span", `gap-chip card-${colour}`, String(count));
    chip.dataset.colour = colour;
    box.append(chip);
  }
  return box;
}

/** Beside a seat's name: its collection this round and what it would score now. */
export function drawSeat(board, number, state, texts) {
  const held = board.collections?.[number];
  if (!held || !Object.keys(held.colours || {}).length) return null;
  const root = html("span", "seat-extra gap-collection");
  root.append(chips(held), html("span", `gap-score${held.score < 0 ? " negative" : ""}`, `= ${signed(held.score)}`));
  return root;
}

export function drawItem(item, state, texts) {
  const root = html("span", "gap-item");
  root.append(card({ colour: item.colour, value: item.value }, "big"));
  const takes = html("span", "gap-takes");
  for (const move of item.moves || []) {
    const take = html("span", "gap-take");
    if (move.takes?.length) for (const face of move.takes) take.append(card(face, "mini"));
    else take.append(html("span", "gap-to-middle", word(texts, "to_middle")));
    takes.append(take);
  }
  root.append(takes);
  return root;
}

/** A seat's collection at a round's end: a column per colour, the scoring ones marked, and
 * the sum written out (G5). */
export function drawSeatReveal(reveal, number, state, texts) {
  const held = reveal.collections?.[number] || { columns: [], score: 0 };
  const root = html("div", "seat-reveal gap-seat-reveal");
  const columns = html("span", "gap-columns");
  const terms = [];
  for (const column of held.columns || []) {
    const node = html("span", `gap-column${column.mark ? ` ${column.mark}` : ""}`);
    node.dataset.colour = column.colour;
    const stack = html("span", "gap-stack");
    for (let i = 0; i < column.count; i += 1) stack.append(html("span", `gap-block card-${column.colour}`));
    node.append(html("span", "gap-mark", column.mark === "plus" ? "+" : column.mark === "minus" ? "−" : ""), stack, html("span", "gap-column-count", String(column.count)));
    columns.append(node);
    if (column.mark === "plus") terms.push([terms.length ? "+" : "=", column.count]);
  }
  for (const column of held.columns || []) if (column.mark === "minus") terms.push(["−", column.count]);
  root.append(columns);
  // The score first, then how it is made: a narrow seat wraps the terms, never the score,
  // and only between terms: each is its operator and number joined ("= 3", "+ 3", "− 1").
  const total = html("span", `seat-reveal-count gap-sum${held.score < 0 ? " negative" : ""}`);
  total.append(html("b", "gap-sum-score", signed(held.score)));
  if (terms.length) {
    const sum = html("span", "gap-sum-terms");
    for (const [operator, count] of terms) sum.append(" ", html("span", "gap-sum-term", `${operator}\u00a0${count}`));
    total.append(sum);
  }
  total.dataset.score = String(held.score);
  root.append(total);
  return root;
}
