// Gaple drawn for the table page (docs/PAGE.md): the line of play as SVG dominoes where
// page_board laid them out (doubles crosswise, the tile it grew from ringed in gold, both
// open ends marked), a hand's tile standing with its pips, and every hand at a round's end.
// The faces follow the round-end picture (picture.py): ivory, a rim, a divider with a pin.

const SVG = "http://www.w3.org/2000/svg";
const PIP_SPOTS = [
  [],
  [[1, 1]],
  [[0, 0], [2, 2]],
  [[0, 0], [1, 1], [2, 2]],
  [[0, 0], [2, 0], [0, 2], [2, 2]],
  [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]],
  [[0, 0], [0, 1], [0, 2], [2, 0], [2, 1], [2, 2]],
]; // where each number's pips sit on a 3 x 3 grid (across, along) of an upright half
const COLOURS = {
  plain: { face: "#faf7ee", pip: "#1c1c1e" },
  first: { face: "#faf7ee", pip: "#1c1c1e" },
  dim: { face: "#cdc7ba", pip: "#605c56" },
};
const RIM = "#d6ccb4";
const EDGE = "#c4baa4";
const DIVIDER = "#8c8476";
const PIN = "#ba9648";
const GOLD = "#f2c446";
const GAP = 6; // between a line's end and its badge, as between two tiles
const BADGE = 22; // an open end's badge radius, in the line's units
const HAND_LENGTH = 88;

function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  return node;
}

function html(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** One domino with its top left corner at (x, y): `first` on the left (lying) or on top
 * (standing). `style` is "plain", "first" (ringed in gold) or "dim" (a discard). */
function domino(first, second, x, y, length, upright, style = "plain") {
  const short = length / 2;
  const [w, h] = upright ? [short, length] : [length, short];
  const radius = short / 7;
  const lift = Math.max(1, length / 45);
  const shadow = Math.max(1, length / 30);
  const { face, pip } = COLOURS[style] || COLOURS.plain;
  const g = svg("g", { class: `domino domino-${style}` });
  g.append(svg("rect", { x: x + shadow, y: y + shadow, width: w, height: h, rx: radius, fill: "#000", "fill-opacity": 0.31 }));
  if (style === "first") {
    const ring = 5;
    g.append(svg("rect", { x: x - ring, y: y - ring, width: w + 2 * ring, height: h + 2 * ring, rx: radius + ring, fill: GOLD }));
  }
  g.append(svg("rect", { x, y, width: w, height: h, rx: radius, fill: RIM }));
  g.append(svg("rect", { x: x + 0.5, y: y + 0.5, width: w - 1, height: h - lift - 1, rx: radius, fill: face, stroke: EDGE, "stroke-width": 1 }));
  const top = h - lift;
  let spanX, spanY, halves, pin;
  if (upright) {
    spanX = w;
    spanY = top / 2;
    halves = [[x, y, first], [x, y + spanY, second]];
    const inset = w / 6;
    g.append(svg("line", { x1: x + inset, y1: y + spanY, x2: x + w - inset, y2: y + spanY, stroke: DIVIDER, "stroke-width": 2 }));
    pin = [x + w / 2, y + spanY];
  } else {
    spanX = short;
    spanY = top;
    halves = [[x, y, first], [x + short, y, second]];
    const inset = top / 6;
    g.append(svg("line", { x1: x + short, y1: y + inset, x2: x + short, y2: y + top - inset, stroke: DIVIDER, "stroke-width": 2 }));
    pin = [x + short, y + top / 2];
  }
  g.append(svg("circle", { cx: pin[0], cy: pin[1], r: Math.max(1, short / 28), fill: PIN }));
  const size = short * 0.09;
  for (const [x0, y0, number] of halves) {
    for (const [across, along] of PIP_SPOTS[number] || []) {
      // Standing, across is x and along is y; lying, the grid turns a quarter.
      const [gx, gy] = upright ? [across, along] : [along, across];
      g.append(svg("circle", { cx: x0 + spanX * (0.25 + 0.25 * gx), cy: y0 + spanY * (0.25 + 0.25 * gy), r: size, fill: pip }));
    }
  }
  return g;
}

/** A standing tile on its own (a hand's, or a reveal's), as an <svg> of class gaple-face. */
function standing([high, low], style = "plain", length = HAND_LENGTH) {
  const margin = style === "first" ? 6 : 3;
  const box = svg("svg", {
    class: "gaple-face",
    viewBox: `${-margin} ${-margin} ${length / 2 + 2 * margin} ${length + 2 * margin}`,
    "aria-hidden": "true",
    focusable: "false",
  });
  box.append(domino(high, low, 0, 0, length, true, style));
  return box;
}

function size(tile, length) {
  return tile.upright ? [length / 2, length] : [length, length / 2];
}

function centre(tile, length) {
  const [w, h] = size(tile, length);
  return [tile.x + w / 2, tile.y + h / 2];
}

/** Where an end's badge goes: beyond `tile` on the side away from `inner` (its neighbour
 * on the line), or towards `fallback` (-1 left, 1 right) when the tile is alone. */
function badgeAt(tile, inner, length, fallback) {
  const [w, h] = size(tile, length);
  const [cx, cy] = centre(tile, length);
  let dx = fallback;
  let dy = 0;
  if (inner) {
    const [nx, ny] = centre(inner, length);
    if (Math.abs(cx - nx) >= Math.abs(cy - ny)) dx = cx >= nx ? 1 : -1;
    else [dx, dy] = [0, cy >= ny ? 1 : -1];
  }
  const reach = GAP + BADGE;
  return [cx + dx * (w / 2 + reach), cy + dy * (h / 2 + reach)];
}

function badge(number, [x, y], side) {
  const g = svg("g", { class: `gaple-end gaple-end-${side}`, "data-end": number });
  g.append(svg("circle", { cx: x, cy: y, r: BADGE, fill: GOLD, stroke: "#0f3e2b", "stroke-width": 3 }));
  const text = svg("text", {
    x,
    y: y + 1,
    "text-anchor": "middle",
    "dominant-baseline": "central",
    "font-size": 26,
    "font-weight": 800,
    "font-family": "system-ui, sans-serif",
    fill: "#1c1c1e",
  });
  text.textContent = String(number);
  g.append(text);
  return g;
}

/** The line of play where page_board laid it, centred across its width. */
function drawLine(board) {
  const length = board.length;
  const tiles = board.line || [];
  const box = svg("svg", {
    class: "gaple-line",
    viewBox: `0 0 ${board.width} ${board.height}`,
    role: "img",
    "aria-label": tiles.map((tile) => tile.label).join(", "),
  });
  const left = Math.min(...tiles.map((tile) => tile.x));
  const right = Math.max(...tiles.map((tile) => tile.x + size(tile, length)[0]));
  const shift = (board.width - (right - left)) / 2 - left;
  const g = svg("g", { transform: `translate(${shift} 0)` });
  for (const tile of tiles) {
    const face = domino(tile.a, tile.b, tile.x, tile.y, length, tile.upright, tile.first ? "first" : "plain");
    face.setAttribute("data-tile", `${tile.a}${tile.b}`);
    g.append(face);
  }
  if (board.ends) {
    const last = tiles.length - 1;
    g.append(badge(board.ends[0], badgeAt(tiles[0], tiles[1], length, -1), "left"));
    g.append(badge(board.ends[1], badgeAt(tiles[last], tiles[last - 1], length, 1), "right"));
  }
  box.append(g);
  return box;
}

function recentList(lines) {
  const list = html("ul", "recent");
  for (const line of lines || []) list.append(html("li", "", line));
  return list;
}

function seatName(state, number) {
  return state.seats?.find((seat) => seat.number === number)?.name ?? `#${number + 1}`;
}

export function drawBoard(board, state, texts) {
  const root = html("div", "board gaple-board");
  if (board.line && board.line.length) {
    const frame = html("div", "gaple-line-box");
    frame.append(drawLine(board));
    root.append(frame);
  } else {
    // No tile yet: an empty place where the first one will lie.
    const empty = html("div", "gaple-empty");
    const outline = svg("svg", { class: "gaple-face", viewBox: "-3 -3 70 134", "aria-hidden": "true" });
    outline.append(svg("rect", { x: 0, y: 0, width: 64, height: 128, rx: 9, fill: "none", stroke: "#aac4b4", "stroke-width": 3, "stroke-dasharray": "8 6" }));
    empty.append(outline);
    root.append(empty);
  }
  const discards = (board.discards || [])
    .map((count, number) => (count ? `${seatName(state, number)} ${count}` : ""))
    .filter(Boolean);
  const mine = state.hand?.discarded || [];
  if (discards.length || mine.length) {
    const note = html("div", "board-note gaple-discards");
    if (discards.length) note.append(html("span", "", `🂠 ${discards.join(" · ")} `));
    if (mine.length) {
      const own = html("span", "gaple-small");
      for (const face of mine) own.append(standing(face, "dim", 40));
      note.append(own);
    }
    root.append(note);
  }
  root.append(recentList(board.recent));
  return root;
}

export function drawItem(item, state) {
  const face = standing(item.face);
  if ((item.moves || []).some((move) => move.discard)) face.classList.add("gaple-discard");
  return face;
}

export function drawReveal(reveal, state, texts) {
  const root = html("div", "reveal-body gaple-reveal");
  const seats = html("div", "reveal-seats");
  (reveal.hands || []).forEach((hand, number) => {
    const row = html("div", "reveal-seat");
    row.dataset.seat = String(number);
    row.append(html("span", "reveal-name", seatName(state, number)));
    const tiles = html("span", "gaple-small");
    for (const face of hand) tiles.append(standing(face, "plain", 40));
    if (!hand.length) tiles.append(html("span", "", "—"));
    row.append(tiles);
    const discarded = reveal.discarded?.[number] || [];
    if (discarded.length) {
      const dim = html("span", "gaple-small");
      for (const face of discarded) dim.append(standing(face, "dim", 40));
      row.append(dim);
    }
    seats.append(row);
  });
  root.append(seats);
  const summary = html("ul", "summary");
  for (const line of reveal.summary || []) summary.append(html("li", "", line));
  root.append(summary);
  return root;
}
