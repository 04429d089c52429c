// Gap drawn for the table page (docs/PAGE.md): the middle's cards as coloured faces with
// their values, the pile's count, every seat's collection by colour with what it scores now;
// a hand's card with what each of its moves would take shown small under it; and every
// collection at a round's end. Card colours are page.css's .card-<colour> classes.

const ORDER = ["red", "green", "blue", "yellow", "purple", "orange"];

function html(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
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

function seatName(state, number) {
  return state.seats?.find((seat) => seat.number === number)?.name ?? `#${number + 1}`;
}

/** A collection by colour (a chip per colour with its count) and its score now. */
function collection(held, name, you) {
  const row = html("li", `gap-collection${you ? " you" : ""}`);
  row.append(html("span", "gap-who", name));
  const chips = html("span", "gap-chips");
  for (const colour of ORDER) {
    const count = held.colours?.[colour];
    if (!count) continue;
    const chip = html("span", `gap-chip card-${colour}`, `×${count}`);
    chip.dataset.colour = colour;
    chips.append(chip);
  }
  if (!chips.childElementCount) chips.append(html("span", "", "—"));
  row.append(chips);
  row.append(html("span", `gap-score${held.score < 0 ? " negative" : ""}`, String(held.score)));
  return row;
}

function collections(list, state) {
  const box = html("ul", "gap-collections");
  (list || []).forEach((held, number) => {
    const seat = state.seats?.find((s) => s.number === number);
    box.append(collection(held, seatName(state, number), Boolean(seat?.you)));
  });
  return box;
}

export function drawBoard(board, state, texts) {
  const root = html("div", "board gap-board");
  const top = html("div", "gap-top");
  const middle = html("div", "gap-middle");
  for (const face of board.middle || []) middle.append(card(face));
  if (!middle.childElementCount) middle.append(html("span", "gap-middle-empty", "—"));
  const pile = html("div", "gap-pile");
  pile.append(html("span", "", "🂠"), html("span", "gap-pile-count", String(board.pile ?? 0)));
  pile.setAttribute("aria-label", `🂠 ${board.pile ?? 0}`);
  top.append(middle, pile);
  root.append(top, collections(board.collections, state));
  const recent = html("ul", "recent");
  for (const line of board.recent || []) recent.append(html("li", "", line));
  root.append(recent);
  return root;
}

export function drawItem(item, state) {
  const root = html("span", "gap-item");
  root.append(card({ colour: item.colour, value: item.value }, "big"));
  const takes = html("span", "gap-takes");
  for (const move of item.moves || []) {
    const take = html("span", "gap-take");
    if (move.takes?.length) for (const face of move.takes) take.append(card(face, "mini"));
    else take.append(html("span", "", "↓")); // the card joins the middle
    takes.append(take);
  }
  root.append(takes);
  return root;
}

export function drawReveal(reveal, state, texts) {
  const root = html("div", "reveal-body gap-reveal");
  root.append(collections(reveal.collections, state));
  const summary = html("ul", "summary");
  for (const line of reveal.summary || []) summary.append(html("li", "", line));
  root.append(summary);
  return root;
}
