// Gaple drawn for the table page (docs/PAGE.md): the line of play as SVG dominoes where the
// server's snake placed them (the first tile at the centre, every tile keeping its place for
// the whole round; the page only scales the line to the felt), both open ends marked; a hand's
// tile standing with its pips; a seat's discards; and every hand face up at a round's end.
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
  dim: { face: "#cdc7ba", pip: "#605c56" },
};
const RIM = "#d6ccb4";
const EDGE = "#c4baa4";
const DIVIDER = "#8c8476";
const PIN = "#ba9648";
const BADGE = 15; // an open end's badge radius, in the line's units (a tile is 80 x 40)
const BADGE_GAP = 5;
const MARGIN = 12; // around everything drawn, so shadows and badges are not cut
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

/** One domino in the box (x, y, w, h): `first` on the left (lying) or on top (standing). */
function domino(first, second, x, y, w, h, style = "plain") {
  const upright = h > w;
  const length = Math.max(w, h);
  const short = length / 2;
  const radius = short / 7;
  const lift = Math.max(1, length / 45);
  const shadow = Math.max(1, length / 30);
  const { face, pip } = COLOURS[style] || COLOURS.plain;
  const g = svg("g", { class: `domino domino-${style}` });
  g.append(svg("rect", { x: x + shadow, y: y + shadow, width: w, height: h, rx: radius, fill: "#000", "fill-opacity": 0.31 }));
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
  const margin = 3;
  const box = svg("svg", {
    class: `gaple-face${style === "dim" ? " gaple-dim" : ""}`,
    viewBox: `${-margin} ${-margin} ${length / 2 + 2 * margin} ${length + 2 * margin}`,
    "aria-hidden": "true",
    focusable: "false",
  });
  box.append(domino(high, low, 0, 0, length / 2, length, style));
  return box;
}

function badge(number, open, side) {
  const reach = BADGE_GAP + BADGE;
  const x = open.x + open.dx * reach;
  const y = open.y + open.dy * reach;
  const g = svg("g", { class: `gaple-end gaple-end-${side}`, "data-open": side, "data-value": number });
  g.append(svg("circle", { cx: x, cy: y, r: BADGE, class: "gaple-end-disc" }));
  const text = svg("text", {
    x,
    y: y + 1,
    "text-anchor": "middle",
    "dominant-baseline": "central",
    "font-size": 19,
    "font-weight": 800,
    "font-family": "system-ui, sans-serif",
    class: "gaple-end-number",
  });
  text.textContent = String(number);
  g.append(text);
  return { node: g, box: [x - BADGE, y - BADGE, x + BADGE, y + BADGE] };
}

/** The layout for the felt's shape: "narrow" (taller than wide) or "wide". */
function layoutOf(board, shape) {
  const layouts = board.layouts || {};
  return layouts[shape] || layouts.wide || Object.values(layouts)[0] || null;
}

/** The line of play where the server's snake placed it, scaled as a whole to the felt. */
function drawLine(board, shape) {
  const layout = layoutOf(board, shape);
  const tiles = board.line || [];
  const box = svg("svg", {
    class: "gaple-line",
    role: "img",
    "aria-label": tiles.map((tile) => tile.label).join(", "),
    preserveAspectRatio: "xMidYMid meet",
  });
  let [x0, y0, x1, y1] = layout.span;
  const grow = ([a, b, c, d]) => {
    x0 = Math.min(x0, a);
    y0 = Math.min(y0, b);
    x1 = Math.max(x1, c);
    y1 = Math.max(y1, d);
  };
  const g = svg("g", { class: "gaple-tiles" });
  tiles.forEach((tile, index) => {
    const place = layout.tiles[index];
    const face = domino(place.a, place.b, place.x, place.y, place.w, place.h);
    face.setAttribute("data-tile", tile.key);
    face.setAttribute("data-end", tile.end);
    // The numbers as drawn: on the left (or top) half, then the right (or bottom) one.
    face.setAttribute("data-a", place.a);
    face.setAttribute("data-b", place.b);
    // Who laid it: a tile just played slides in from that seat.
    if (tile.seat !== null && tile.seat !== undefined) face.setAttribute("data-seat", tile.seat);
    g.append(face);
    grow([place.x, place.y, place.x + place.w, place.y + place.h]);
  });
  box.append(g);
  if (board.ends && layout.open) {
    ["left", "right"].forEach((side, index) => {
      const drawn = badge(board.ends[index], layout.open[index], side);
      box.append(drawn.node);
      grow(drawn.box);
    });
  }
  box.setAttribute("viewBox", `${x0 - MARGIN} ${y0 - MARGIN} ${x1 - x0 + 2 * MARGIN} ${y1 - y0 + 2 * MARGIN}`);
  return box;
}

/** The board: the line (or the place of the first tile). `view.shape` picks the snake. */
export function drawBoard(board, state, texts, view = {}) {
  const root = html("div", "board gaple-board");
  if (board.line && board.line.length && board.layouts) {
    root.append(drawLine(board, view.shape || "wide"));
  } else {
    // No tile yet: an empty place where the first one will lie.
    const empty = html("div", "gaple-empty");
    const outline = svg("svg", { class: "gaple-face", viewBox: "-3 -3 70 134", "aria-hidden": "true" });
    outline.append(svg("rect", { x: 0, y: 0, width: 64, height: 128, rx: 9, fill: "none", stroke: "#aac4b4", "stroke-width": 3, "stroke-dasharray": "8 6" }));
    empty.append(outline);
    root.append(empty);
  }
  return root;
}

/** What a seat shows of the board beside its name: its face-down discards, counted. */
export function drawSeat(board, number, state, texts) {
  const count = board.discards?.[number] || 0;
  if (!count) return null;
  const note = html("span", "seat-extra gaple-discards", `✕ ${count}`);
  note.title = texts?.discards ? texts.discards.replace("{count}", count) : `${count}`;
  return note;
}

/** Beside the viewer's hand: their own face-down discards. */
export function drawHandNote(hand, state) {
  const mine = hand?.discarded || [];
  if (!mine.length) return null;
  const own = html("span", "gaple-small gaple-own-discards");
  for (const face of mine) own.append(standing(face, "dim", 44));
  return own;
}

export function drawItem(item, state) {
  const face = standing(item.face);
  if ((item.moves || []).some((move) => move.discard)) face.classList.add("gaple-discard");
  return face;
}

/** "{count} pips" in the page's language, singular where its plural rule says "one". */
function pipsText(texts, n) {
  const language = document.documentElement.lang || "en";
  const one = new Intl.PluralRules(language).select(n) === "one";
  return (one ? texts?.pips_one : texts?.pips_other) || (n === 1 ? "{count} pip" : "{count} pips");
}

/** A seat's hand at a round's end, face up, with its pips (and its discards, dimmed). */
export function drawSeatReveal(reveal, number, state, texts) {
  const root = html("div", "seat-reveal gaple-seat-reveal");
  const tiles = html("span", "gaple-revealed");
  for (const face of reveal.hands?.[number] || []) tiles.append(standing(face, "plain", 60));
  for (const face of reveal.discarded?.[number] || []) tiles.append(standing(face, "dim", 60));
  if (tiles.childElementCount) root.append(tiles);
  const pips = reveal.pips?.[number] ?? 0;
  const dropped = reveal.discard_pips?.[number] ?? 0;
  const word = (n) => pipsText(texts, n).replace("{count}", n);
  const count = html("span", "seat-reveal-count", dropped ? `${word(pips)} · ✕ ${dropped}` : word(pips));
  count.dataset.pips = String(pips);
  root.append(count);
  return root;
}
