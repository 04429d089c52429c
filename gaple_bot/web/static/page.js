// The table page's shell, shared by every game (docs/PAGE.md): signs in (Telegram's initData
// or local play), keeps one WebSocket to the server (reconnecting, resyncing when the page
// comes back), and draws the seats, lobby, hand, choices and standings; the game's own module
// (welcome.script) draws the board, the hand's faces and a round's reveal.
//
// TEXTS_NEEDED (welcome.texts, as gaple_bot/web/texts.py gives them; English for a missing key):
//   join          the lobby's Join button                     "Join"
//   leave         the lobby's Leave button                    "Leave"
//   start         the lobby's Start button                    "Start"
//   again         Play again, after the game's end            "Play again"
//   your_turn     the status line on the viewer's turn        "Your turn"
//   waiting       the status line on another seat's turn      "Waiting for {name}"
//   spectating    the status line of a viewer with no seat    "You are watching this table."
//   back          leaves a choice of moves                    "Back"
//   left          the turn's countdown                        "{seconds} s left"
//   reconnecting  the banner while the socket is down         "Reconnecting…"
//   closed        local play's server was stopped for good      "The table closed: its server was stopped."
//   computer      a computer player's mark (screen readers)   "computer"
//   autoplay      a seat the computer plays for its person    "the computer plays for them"
//   score         a seat's points (screen readers)            "{points} pts"
//   lobby         the status line of a lobby                  "Waiting for players"
//   over          the standings' heading                      "Game over"
//   stopped       the heading of a game stopped early         "This game was stopped."
//   seat_back     takes back a seat the computer plays          "🙋 Take my seat back"
//   next          ends the break after a round for the viewer   "Next"
//   ready         Next, once tapped                             "Ready ✓"
//   break         the break's countdown                         "Next round in {seconds} s"
//   share         shares the standings (Telegram only)          "Share"
//   in_hand       a seat's face-down tiles (screen readers)     "{count} in hand"
//   shared, share_failed, share_unavailable: what came of Share (web/share.py's texts)
//   replay        the game end's button to play the game again  "📼 Replay"
//   review        the heading of the review under the standings "Review"
//   preparing     under the standings until the review is ready "The review is being prepared…"
//   reviews_off   instead, when this bot reviews no game        "This bot does not review games: …"
//   and the review summary's words (web/replay_texts.py, replay.js's ENGLISH)

import { el, post } from "./dom.js";
import {
  canShare,
  hapticRefused,
  hapticTurn,
  isSeatedLive,
  setupTelegram,
  shareStandings,
  updateTelegram,
} from "./telegram_ui.js";

const ENGLISH = {
  join: "Join",
  leave: "Leave",
  start: "Start",
  again: "Play again",
  your_turn: "Your turn",
  waiting: "Waiting for {name}",
  spectating: "You are watching this table.",
  back: "Back",
  left: "{seconds} s left",
  reconnecting: "Reconnecting…",
  closed: "The table closed: its server was stopped.",
  computer: "computer",
  autoplay: "the computer plays for them",
  score: "{points} pts",
  lobby: "Waiting for players",
  over: "Game over",
  stopped: "This game was stopped.",
  seat_back: "🙋 Take my seat back",
  next: "Next",
  ready: "Ready ✓",
  break: "Next round in {seconds} s",
  share: "Share",
  in_hand: "{count} in hand",
  shared: "Shared.",
  share_failed: "The standings could not be shared.",
  share_unavailable: "Sharing is not available here.",
  replay: "📼 Replay",
  review: "Review",
  preparing: "The review is being prepared…",
  reviews_off: "This bot does not review games: its host turned reviews off.",
};

const SLIDE_MS = 420; // a tile just played slides in from its player's seat this long
const SLIDE_GAP_MS = 260; // several tiles of one state slide in one after another
const PLAYED_MS = 2600; // a move's line stays this long
const TOAST_MS = 3200;
const BACKOFF_MS = [500, 1000, 2000, 4000, 8000, 15000];
const URGENT_MS = 10000; // the countdown turns red below this

const REPLAY_PREFIX = "rp_"; // a replay link's start parameter: this, then the replay's token
const REVIEW_POLL_MS = [2000, 4000, 8000, 15000, 30000]; // the game end asks for the review again after these

const $ = (id) => document.getElementById(id);

/** One text of the shell, its {fields} filled in. */
function say(key, fields = {}) {
  const template = (page.texts && page.texts[key]) || ENGLISH[key] || key;
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in fields ? String(fields[name]) : whole));
}

const page = {
  tg: window.Telegram?.WebApp || null,
  initData: "",
  table: null, // the table's token (Telegram's start parameter or ?table=)
  local: null, // "gaple" | "gap" when playing locally
  session: null,
  socket: null,
  attempts: 0,
  retryTimer: null,
  welcomed: false,
  texts: {},
  script: null,
  game: null, // the game's drawing module, once imported
  gameLoading: null,
  state: null,
  clockOffset: 0, // server's now minus performance.now() at receipt
  receivedAt: 0,
  pending: false, // a move was sent and its state has not come yet
  autoStart: false, // local play's Play again: start the new table once it shows
  choosing: null, // the hand item whose moves are offered as a choice
  showing: null, // the finished round shown while the break before the next one runs
  lastMover: null, // the seat of the move just announced (its tile slides in from there)
  lastReveal: null,
  shape: null, // the felt's snake shape, kept for a round: {round, kind, name}
  resized: false, // the window changed since the felt was last drawn
  buzzed: null, // the game and revision whose turn the phone last buzzed for
  turnTotal: 0,
  turnDeadline: null,
  share: null, // Share at the game's end: {available(), run()} where Telegram offers it
  toastTimer: null,
  playedTimer: null,
  ended: false, // a sign-in failed for good: no reconnecting
  replay: null, // a replay's token: the page shows that finished game again (replay.js)
  offer: null, // the finished game's replay and review, for its end: {game, answer, tries, timer}
  replayView: null, // the replay opened over the game's end (Back or Escape closes it)
};

// Signing in -----------------------------------------------------------------------------

function readLaunch() {
  const params = new URLSearchParams(location.search);
  const tg = page.tg;
  page.initData = tg?.initData || "";
  page.table = tg?.initDataUnsafe?.start_param || params.get("table") || null;
  // A replay's link (start parameter rp_<token>, or ?replay=<token>) opens the replay view.
  if (page.table?.startsWith(REPLAY_PREFIX)) {
    page.replay = page.table.slice(REPLAY_PREFIX.length);
    page.table = null;
  } else if (params.get("replay")) {
    page.replay = params.get("replay");
  }
  const local = params.get("local");
  if (local === "gaple" || local === "gap") page.local = local;
  else if (!page.initData && !page.table && !page.replay) page.local = "gaple";
}

/** A session for the current table (or a new local one). */
async function signIn() {
  // Local play keeps its session in the tab's storage (one per kind): a reload asks for the
  // same table again, and the server opens a new one only when that game is over or gone.
  const local = page.local && !page.table;
  const answer = local
    ? await post("/app/api/local", { kind: page.local, session: sessionStorage.getItem(`local-${page.local}`) })
    : await post("/app/api/session", { init_data: page.initData, table: page.table });
  page.session = answer.session;
  if (local) sessionStorage.setItem(`local-${page.local}`, answer.session);
  if (answer.language) document.documentElement.lang = answer.language;
  return answer;
}

function fail(text) {
  page.ended = true;
  hideBanner();
  const root = $("table");
  root.setAttribute("aria-busy", "false");
  root.replaceChildren(el("p", { class: "fatal", role: "alert", text }));
}

// The socket -----------------------------------------------------------------------------

function socketUrl() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/app/ws`;
}

function connect() {
  if (page.ended || !page.session) return;
  if (page.socket && page.socket.readyState <= WebSocket.OPEN) return;
  clearTimeout(page.retryTimer);
  page.retryTimer = null;
  page.welcomed = false;
  const socket = new WebSocket(socketUrl());
  page.socket = socket;
  socket.addEventListener("open", () => send({ t: "hello", session: page.session }, socket));
  socket.addEventListener("message", (event) => {
    if (page.socket !== socket) return;
    let frame;
    try {
      frame = JSON.parse(event.data);
    } catch {
      return;
    }
    receive(frame).catch((error) => console.error("frame", frame.t, error));
  });
  socket.addEventListener("close", (event) => {
    if (page.socket !== socket) return; // replaced on purpose (a new table)
    page.socket = null;
    page.pending = false;
    // Local play's server going away (1001) was stopped for good: the page says the table
    // closed. A bot's going away is a restart that comes back: that page reconnects.
    if (event.code === 1001 && page.local && !page.initData) {
      page.ended = true;
      showBanner(say("closed"));
      // Nothing to tap and no clock running at a table that is gone.
      if (page.state) render();
      return;
    }
    if (!page.ended) {
      showBanner(say("reconnecting"));
      retryLater();
    }
  });
}

function retryLater() {
  if (page.retryTimer) return;
  const base = BACKOFF_MS[Math.min(page.attempts, BACKOFF_MS.length - 1)];
  page.attempts += 1;
  // Several pages that lost the server together do not all come back in the same instant.
  const delay = base * (0.75 + Math.random() * 0.5);
  page.retryTimer = setTimeout(() => {
    page.retryTimer = null;
    connect();
  }, delay);
}

function send(frame, socket = page.socket) {
  if (!socket || socket.readyState !== WebSocket.OPEN) return false;
  socket.send(JSON.stringify(frame));
  return true;
}

/** Coming back from the background: ask for the state now (reconnecting first if needed). */
function resync() {
  if (page.ended) return;
  if (page.socket && page.socket.readyState === WebSocket.OPEN) {
    send({ t: "sync" });
  } else {
    page.attempts = 0;
    if (page.socket && page.socket.readyState === WebSocket.CONNECTING) return;
    page.socket = null;
    connect(); // its hello is answered with the state
  }
}

/** Play again opened a new lobby: a session for it and a new socket. Local play has no
 * initData to sign in to it with: it opens a new local table of the same kind instead. */
async function follow(frame) {
  if (frame.game_id === page.gameId) return; // followed already
  const old = page.socket;
  page.socket = null;
  if (old) old.close();
  page.table = frame.table || page.table;
  if (frame.session) {
    // The server vouches for the viewer at the group's next table.
    page.session = frame.session;
    page.gameId = frame.game_id;
    // Local play's next table is the one a reload returns to.
    if (page.local && !page.initData) sessionStorage.setItem(`local-${page.local}`, frame.session);
  } else {
    try {
      await signIn();
    } catch (error) {
      fail(error.message);
      return;
    }
  }
  page.state = null;
  page.attempts = 0;
  // Alone against the computers there is nobody to wait for: the new table starts at once.
  page.autoStart = Boolean(page.local);
  $("ticker").textContent = "";
  connect();
}

async function receive(frame) {
  switch (frame.t) {
    case "welcome":
      page.welcomed = true;
      page.attempts = 0;
      page.session = frame.session || page.session;
      page.gameId = frame.game_id;
      page.texts = frame.texts || {};
      hideBanner();
      if (frame.script && frame.script !== page.script) {
        page.script = frame.script;
        page.gameLoading = import(frame.script).then(
          (module) => {
            page.game = module;
            // A game whose felt lists the last moves shows them there: the move's line is
            // then only read out (screen readers), or the last move would show twice.
            $("ticker").classList.toggle("spoken", Boolean(module.listsMoves));
          },
          (error) => {
            console.error("the game's drawing", error);
            fail(String(error.message || error));
          },
        );
      }
      break;
    case "state":
      if (page.gameLoading) await page.gameLoading;
      page.pending = false;
      setState(frame);
      if (page.autoStart && frame.phase === "lobby" && frame.lobby?.can_start) {
        page.autoStart = false;
        send({ t: "start" });
      }
      break;
    case "played":
      showPlayed(frame);
      break;
    case "reveal":
      if (page.gameLoading) await page.gameLoading;
      showReveal(frame);
      break;
    case "moved":
      await follow(frame);
      break;
    case "refused":
      page.pending = false;
      if (!page.welcomed) {
        // The session was refused: sign in again when Telegram can vouch for the viewer.
        if (page.initData && page.table) {
          try {
            await signIn();
            page.socket?.close();
          } catch (error) {
            fail(error.message);
          }
        } else {
          fail(frame.text || frame.reason);
        }
        break;
      }
      hapticRefused(page.tg);
      toast(frame.text || frame.reason);
      if (page.state) render();
      break;
    default:
      break;
  }
}

// The state ------------------------------------------------------------------------------

function setState(state) {
  page.state = state;
  page.receivedAt = performance.now();
  // The server's clock when the frame says it (the page's own may be off), else the page's.
  page.clockOffset = (typeof state.now === "number" ? state.now : Date.now()) - page.receivedAt;
  // A choice survives a state only while its item still offers the same moves.
  if (page.choosing) {
    const item = state.hand?.items?.find((i) => i.id === page.choosing.id);
    if (!item || codes(item) !== codes(page.choosing)) page.choosing = null;
    else page.choosing = item;
  }
  render();
}

function isMyTurn(state) {
  return (
    state.phase === "playing" &&
    !roundEnd(state) &&
    state.you &&
    !state.you.spectator &&
    state.to_move !== null &&
    state.to_move === state.you.seat
  );
}

function codes(item) {
  return (item.moves || []).map((move) => move.code).join(" ");
}

function timeLeft(state) {
  if (!state.deadline) return null;
  return Math.max(0, state.deadline - serverNow());
}

/** The server's clock now, as the page reckons it from the last state. */
function serverNow() {
  return page.clockOffset + performance.now();
}

/** The finished round the table shows while the break before the next one runs, or null. */
function roundEnd(state) {
  const end = state.round_end;
  if (!end || state.phase !== "playing") return null;
  if (typeof state.break_until === "number" && state.break_until <= serverNow()) return null;
  return end;
}

function breakLeft(state) {
  return typeof state.break_until === "number" ? Math.max(0, state.break_until - serverNow()) : 0;
}

function render() {
  const state = page.state;
  if (!state) return;
  const root = $("table");
  const end = roundEnd(state);
  page.showing = end;
  root.setAttribute("aria-busy", "false");
  root.dataset.game = state.kind;
  root.dataset.round = state.round ?? "";
  root.dataset.toMove = end ? "" : state.to_move ?? "";
  root.dataset.revision = state.revision;
  root.dataset.phase = state.phase;
  root.dataset.roundEnd = end ? end.round : "";
  root.dataset.layout = wideTable() ? "wide" : "narrow";
  root.classList.toggle("mine", !end && isMyTurn(state));
  // The phone buzzes once for each turn of the viewer's, when it shows (a break's end too).
  const turn = `${page.gameId}/${state.revision}`;
  if (isMyTurn(state) && page.buzzed !== turn) {
    page.buzzed = turn;
    hapticTurn(page.tg);
  }
  // In the break the title names the round that ended, as the status line does.
  $("title").textContent = (end ? end.board?.title : null) || state.title || "";
  document.title = state.title || document.title;
  renderStatus(state, end);
  renderSeats(state, end);
  renderLobby(state);
  renderOver(state);
  renderHand(state, end);
  renderChoice(state, end);
  renderBreak(state, end);
  // Last: the felt is measured with everything around it in place.
  renderBoard(state, end);
  tick();
  updateTelegram(page.tg, { seatedLive: isSeatedLive(state), dialogOpen: Boolean(page.choosing || page.replayView) });
}

function seatName(state, number) {
  return state.seats?.find((seat) => seat.number === number)?.name ?? "";
}

function renderStatus(state, end) {
  const status = $("status");
  let text = "";
  if (state.phase === "lobby") text = say("lobby");
  else if (end) text = end.reveal?.headline || end.reveal?.summary?.[0] || "";
  else if (state.phase === "playing") {
    if (state.you?.spectator) text = say("spectating");
    if (state.to_move !== null && state.to_move !== undefined) {
      const turn = isMyTurn(state) ? say("your_turn") : say("waiting", { name: seatName(state, state.to_move) });
      text = text ? `${text} · ${turn}` : turn;
    }
  }
  status.replaceChildren(el("span", { class: "status-text", text }));
  status.hidden = !text;
}

// Seats ----------------------------------------------------------------------------------

/** Whether the others sit along the sides of the felt (a wide window) or all along its top. */
function wideTable() {
  return window.matchMedia("(min-aspect-ratio: 1/1) and (min-width: 600px)").matches;
}

/** Where each seat sits: the viewer's at the bottom (seat 0 for a spectator), the others in
 * the order play goes round from the viewer's left: left, top…, right. */
function places(state) {
  const seats = state.seats || [];
  const count = seats.length;
  const mine = state.you?.seat ?? 0;
  const others = [];
  for (let step = 1; step < count; step += 1) others.push((mine + step) % count);
  const where = new Map([[mine, "bottom"]]);
  if (!wideTable() || others.length === 1) {
    others.forEach((number) => where.set(number, "top"));
  } else {
    others.forEach((number, index) => {
      const place = index === 0 ? "left" : index === others.length - 1 ? "right" : "top";
      where.set(number, place);
    });
  }
  return where;
}

/** A seat's name as the page shows it: a computer's avatar already shows its robot. */
function shownName(seat) {
  return seat.computer ? seat.name.replace(/^🤖\s*/u, "") : seat.name;
}

const AVATAR_COLOURS = ["#e17076", "#7bc862", "#65aadd", "#a695e7", "#ee7aae", "#6ec9cb", "#faa774", "#e5a64e"];

function avatar(seat, turn) {
  const face = el("span", { class: "avatar-face", "aria-hidden": "true" });
  const photo = seat.photo || (seat.you ? page.tg?.initDataUnsafe?.user?.photo_url : null);
  const initial = Array.from(seat.name.replace(/^[^\p{L}\p{N}]+/u, "") || seat.name)[0]?.toUpperCase() || "?";
  if (seat.computer) face.textContent = "🤖";
  else if (photo && /^https:\/\/t\.me\//.test(photo)) {
    // A photo that does not load leaves the initial, not a broken picture.
    face.append(el("img", { src: photo, alt: "", referrerpolicy: "no-referrer", onerror: () => face.replaceChildren(initial) }));
  } else face.textContent = initial;
  let hash = 0;
  for (const char of seat.name) hash = (hash * 31 + char.codePointAt(0)) % 9973;
  face.style.setProperty("--avatar", AVATAR_COLOURS[hash % AVATAR_COLOURS.length]);
  return el("span", { class: "avatar" }, face, turn ? el("span", { class: "seat-clock", "data-clock": "seat" }) : null);
}

/** A seat's tiles or cards, face down: a few backs and their number. */
function backs(count) {
  const node = el("span", { class: "seat-backs", role: "img", "aria-label": say("in_hand", { count }) });
  for (let i = 0; i < Math.min(count, 4); i += 1) node.append(el("span", { class: "back", "aria-hidden": "true" }));
  node.append(el("span", { class: "seat-count", "aria-hidden": "true", text: String(count) }));
  return node;
}

function seatNode(state, seat, place, end) {
  const turn = !end && state.phase === "playing" && seat.number === state.to_move;
  const marks = [seat.computer ? say("computer") : "", seat.autoplay ? say("autoplay") : ""].filter(Boolean);
  const counted = seat.count !== null && seat.count !== undefined && state.phase === "playing" && !end;
  const line = state.phase === "lobby"
    ? null
    : el(
        "span",
        { class: "seat-line" },
        counted ? backs(seat.count) : null,
        seat.autoplay && !seat.computer ? el("span", { class: "seat-marks", "aria-hidden": "true", text: "🤖" }) : null,
        el("span", { class: "seat-score", "aria-label": say("score", { points: seat.score ?? 0 }), text: String(seat.score ?? 0) }),
      );
  let extra = null;
  if (!end && state.board && page.game?.drawSeat) {
    try {
      extra = page.game.drawSeat(state.board, seat.number, state, page.texts);
    } catch (error) {
      console.error("drawSeat", error);
    }
  }
  let shown = null;
  if (end && page.game?.drawSeatReveal) {
    try {
      shown = page.game.drawSeatReveal(end.reveal, seat.number, state, page.texts);
    } catch (error) {
      console.error("drawSeatReveal", error);
    }
    const points = end.points?.[seat.number] ?? end.reveal?.points?.[seat.number] ?? 0;
    if (points) shown?.prepend(el("span", { class: `seat-points${points < 0 ? " negative" : ""}`, text: points > 0 ? `+${points}` : String(points) }));
  }
  return el(
    "div",
    {
      class: `seat${turn ? " turn" : ""}${seat.you ? " you" : ""}${seat.computer ? " computer" : ""}${seat.autoplay ? " autoplay" : ""}${end ? " revealed" : ""}`,
      "data-seat": seat.number,
      "data-place": place,
      "aria-current": turn ? "true" : null,
      title: marks.length ? `${seat.name} (${marks.join(", ")})` : seat.name,
    },
    avatar(seat, turn),
    el(
      "span",
      { class: "seat-body" },
      el("span", { class: "seat-name" }, shownName(seat), marks.length ? el("span", { class: "hidden-text", text: ` (${marks.join(", ")})` }) : null),
      line,
    ),
    extra,
    shown,
  );
}

function renderSeats(state, end) {
  const boxes = { top: $("seats-top"), left: $("seats-left"), right: $("seats-right"), bottom: $("seats-bottom") };
  const filled = { top: [], left: [], right: [], bottom: [] };
  const seats = state.seats || [];
  if (state.phase === "lobby") {
    // The lobby: everyone who sat down, in order, and the places still free.
    for (const seat of seats) filled.top.push(seatNode(state, seat, "top", null));
    const capacity = state.lobby?.capacity || seats.length;
    for (let i = seats.length; i < capacity; i += 1) filled.top.push(el("div", { class: "seat empty", "aria-hidden": "true" }, el("span", { class: "avatar" }, el("span", { class: "avatar-face" }))));
  } else if (state.phase === "playing" || lastRound(state)) {
    // At the game's end the seats show the hands of the round that decided it, when the page
    // saw that round end; the standings name everyone anyway.
    const where = places(state);
    const shown = end || lastRound(state);
    for (const seat of seats) {
      const place = where.get(seat.number) || "top";
      filled[place].push(seatNode(state, seat, place, shown));
    }
  }
  for (const [place, box] of Object.entries(boxes)) {
    box.replaceChildren(...filled[place]);
    box.hidden = !filled[place].length;
  }
  $("arena").dataset.sides = String(filled.left.length + filled.right.length > 0);
}

// The felt -------------------------------------------------------------------------------

/** The snake's shape for the felt, kept for a whole round (its end included) so that no
 * tile moves under the eyes; a window resized well past the other shape picks again. */
function feltShape(state, round) {
  const felt = $("felt");
  const ratio = felt.clientHeight ? felt.clientWidth / felt.clientHeight : 1.5;
  const kept = page.shape && page.shape.round === round && page.shape.kind === state.kind ? page.shape.name : null;
  // Either side of 1.15, with room, so a small change of layout keeps the shape.
  if (kept === "narrow" && !(page.resized && ratio > 1.4)) return kept;
  if (kept === "wide" && !(page.resized && ratio < 0.95)) return kept;
  const name = ratio < 1.15 ? "narrow" : "wide";
  page.shape = { round, kind: state.kind, name };
  return name;
}

/** The round that ended the game, as the seats show it under the standings (null if this
 * page did not see it end). */
function lastRound(state) {
  const last = page.lastReveal;
  if (state.phase !== "over" || !last || last.round !== state.round || last.game !== page.gameId) return null;
  return { round: last.round, reveal: last.reveal, points: last.reveal.points };
}

function renderBoard(state, end) {
  const felt = $("felt");
  const board = end ? end.board : state.board;
  // The game's end keeps its last line under the standings.
  if (!board || !page.game || state.phase === "aborted") {
    felt.replaceChildren();
    // The lobby's card lies on the empty felt; the standings take its place.
    felt.hidden = state.phase !== "playing" && state.phase !== "lobby";
    return;
  }
  felt.hidden = false;
  const before = new Set(Array.from(felt.querySelectorAll("[data-tile]"), (node) => node.dataset.tile));
  const sameRound = felt.dataset.round === String(state.round) && !end && felt.dataset.final !== "true";
  try {
    const shape = feltShape(state, end ? end.round : state.round);
    page.resized = false;
    felt.replaceChildren(page.game.drawBoard(board, state, page.texts, { shape }));
  } catch (error) {
    console.error("drawBoard", error);
    return;
  }
  felt.dataset.round = String(state.round);
  felt.dataset.final = String(Boolean(end));
  if (sameRound) slideIn(felt, before, page.lastMover);
  page.lastMover = null;
}

/** The tiles just placed slide in, one after another, each from the seat that laid it (its
 * data-seat; else the seat of the last move announced). */
function slideIn(felt, before, lastMover) {
  if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  const line = felt.querySelector("svg");
  if (!line || !line.getScreenCTM) return;
  const scale = line.getScreenCTM()?.a || 1;
  let order = 0;
  for (const node of felt.querySelectorAll("[data-tile]")) {
    if (before.has(node.dataset.tile)) continue;
    const seatNumber = node.dataset.seat ?? lastMover;
    const from = seatNumber === null ? null : document.querySelector(`.seat[data-seat="${seatNumber}"] .avatar`);
    if (!from) continue;
    const start = from.getBoundingClientRect();
    const place = node.getBoundingClientRect();
    const dx = (start.left + start.width / 2 - (place.left + place.width / 2)) / scale;
    const dy = (start.top + start.height / 2 - (place.top + place.height / 2)) / scale;
    node.animate([{ transform: `translate(${dx}px, ${dy}px)`, opacity: 0.6 }, { transform: "translate(0px, 0px)", opacity: 1 }], {
      duration: SLIDE_MS,
      delay: order * SLIDE_GAP_MS,
      fill: "backwards",
      easing: "cubic-bezier(0.2, 0.7, 0.3, 1)",
    });
    order += 1;
  }
}

function button(key, frame, attrs = {}) {
  return el("button", { type: "button", class: `act act-${key}`, "data-act": key, text: say(key), onclick: () => send(frame), ...attrs });
}

function renderLobby(state) {
  const box = $("lobby");
  const lobby = state.lobby;
  box.hidden = state.phase !== "lobby" || !lobby;
  if (box.hidden) return box.replaceChildren();
  const buttons = [];
  if (lobby.can_join) buttons.push(button("join", { t: "join" }));
  if (lobby.can_leave) buttons.push(button("leave", { t: "leave" }));
  if (lobby.can_start) buttons.push(button("start", { t: "start" }));
  const count = `${(state.seats || []).length} / ${lobby.capacity ?? "?"}`;
  box.replaceChildren(el("p", { class: "lobby-count", text: count }), el("div", { class: "actions" }, ...buttons));
}

function renderOver(state) {
  const box = $("over");
  box.hidden = state.phase !== "over" && state.phase !== "aborted";
  if (box.hidden) return box.replaceChildren();
  // Best first; on a tie the winner the rules chose (G6's tie-breaks) leads.
  const rank = (seat) => (seat.score ?? 0) * 2 + (seat.number === state.winner ? 1 : 0);
  const ranked = [...(state.seats || [])].sort((a, b) => rank(b) - rank(a));
  const rows = ranked.map((seat, index) =>
    el(
      "li",
      { class: `standing${seat.number === state.winner ? " winner" : ""}${seat.you ? " you" : ""}${seat.computer ? " computer" : ""}`, "data-place": index + 1 },
      el("span", { class: "standing-place", text: seat.number === state.winner ? "🏆" : `${index + 1}.` }),
      avatar(seat, false),
      el("span", { class: "standing-name", text: shownName(seat) }),
      el("span", { class: "standing-score", text: say("score", { points: seat.score ?? 0 }) }),
    ),
  );
  const heading = el("h2", { class: "over-title", text: say(state.phase === "aborted" ? "stopped" : "over") });
  // The first three on a podium: second, first, third, the winner's step the highest.
  const podium =
    state.phase === "over" && ranked.length > 1
      ? el(
          "div",
          { class: "podium", "aria-hidden": "true" },
          ...[1, 0, 2]
            .filter((index) => index < ranked.length)
            .map((index) =>
              el(
                "div",
                { class: `step step-${index + 1}${ranked[index].computer ? " computer" : ""}` },
                avatar(ranked[index], false),
                el("span", { class: "step-name", text: shownName(ranked[index]) }),
                el("span", { class: "step-score", text: String(ranked[index].score ?? 0) }),
                el("span", { class: "step-block", text: index === 0 ? "🏆" : String(index + 1) }),
              ),
            ),
        )
      : null;
  // The last round's result, which ended the game.
  const last = page.lastReveal?.reveal?.headline || page.lastReveal?.reveal?.summary?.[0];
  // Each sentence of it is kept whole on a line of its own where it fits ("🤖 Easy 3 has
  // the lowest count." never loses its name's number to the next line).
  const sentences = last ? last.split(/(?<=[.!?])\s+/u).filter(Boolean) : [];
  const lastRound = last && state.phase === "over"
    ? el("p", { class: "over-round" }, ...sentences.flatMap((text, index) => [index ? " " : null, el("span", { class: "over-round-part", text })]))
    : null;
  const actions = [button("again", { t: "again" })];
  if (state.phase === "over" && page.share?.available()) {
    actions.push(el("button", { type: "button", class: "act act-share", "data-act": "share", text: say("share"), onclick: () => page.share.run() }));
  }
  if (state.phase === "over") actions.push(el("button", { type: "button", class: "act act-replay", "data-act": "replay", text: say("replay"), onclick: () => openReplay() }));
  const review = state.phase === "over" ? reviewBox() : null;
  box.replaceChildren(...[heading, podium, lastRound, el("ol", { class: "standings" }, ...rows), review, el("div", { class: "actions" }, ...actions)].filter(Boolean));
  if (state.phase === "over") offerReplay();
}

// The game's end: its replay and review ------------------------------------------------------

/** Asks once per finished game for its replay and review (the review again, with a growing
 * pause, until it is ready). */
function offerReplay() {
  if (page.offer?.game === page.gameId) return;
  const offer = { game: page.gameId, answer: null, tries: 0, timer: null, summary: null };
  page.offer = offer;
  offer.asked = post("/app/api/replay/of_table", { session: page.session }).then(
    (answer) => {
      if (page.offer !== offer) return;
      offer.answer = answer;
      if (answer.review) showReview(offer, answer.review);
      else {
        if (!answer.reviews_off) pollReview(offer);
        if (page.state) render(); // "The review is being prepared…" under the standings
      }
    },
    (error) => console.warn("the replay", error.message),
  );
}

function pollReview(offer) {
  const delay = REVIEW_POLL_MS[Math.min(offer.tries, REVIEW_POLL_MS.length - 1)];
  offer.tries += 1;
  offer.timer = setTimeout(async () => {
    // Stops once the page follows the next game (Play again) or another game's end.
    if (page.offer !== offer || page.gameId !== offer.game) return;
    try {
      const answer = await post("/app/api/replay/review", { session: offer.answer.session });
      if (answer.session) offer.answer.session = answer.session; // each answer renews it
      if (answer.review) return showReview(offer, answer.review);
      if (answer.reviews_off) {
        offer.answer.reviews_off = true;
        if (page.state) render();
        return;
      }
    } catch (error) {
      console.warn("the review", error.message);
    }
    pollReview(offer);
  }, delay);
}

async function showReview(offer, review) {
  const { reviewSummary } = await import("./replay.js");
  offer.summary = reviewSummary(review, say);
  if (page.offer === offer && page.state) render();
}

/** Everyone seated's review under the standings once it is ready; until then, a line that
 * says it is coming. */
function reviewBox() {
  const offer = page.offer?.game === page.gameId ? page.offer : null;
  if (!offer?.answer) return null;
  const summary = offer.summary;
  if (!summary) return el("p", { class: "over-preparing", role: "status", text: say(offer.answer.reviews_off ? "reviews_off" : "preparing") });
  return el("section", { class: "over-review", "aria-label": say("review") }, el("h3", { class: "over-review-title", text: say("review") }), summary);
}

/** The finished game played again, over the standings (✕ comes back to them). */
async function openReplay() {
  const offer = page.offer;
  if (!offer) return;
  await offer.asked;
  if (!offer.answer) return;
  const { startReplay } = await import("./replay.js");
  const closed = () => {
    page.replayView = null;
    render();
  };
  page.replayView = await startReplay({ tg: page.tg, session: offer.answer.session, onClose: closed });
  render(); // Telegram's Back button shows: it closes the replay
}

function renderHand(state, end) {
  const box = $("hand");
  const items = state.hand?.items || [];
  box.hidden = !state.hand || state.phase !== "playing" || Boolean(end);
  if (box.hidden || !page.game) return box.replaceChildren();
  const nodes = items.map((item) => {
    const moves = codes(item);
    const playable = moves !== "" && !page.pending && !page.ended;
    let face;
    try {
      face = page.game.drawItem(item, state, page.texts);
    } catch (error) {
      console.error("drawItem", error);
      face = el("span", { text: item.label });
    }
    return el(
      "button",
      {
        type: "button",
        class: `item${moves ? " playable" : ""}${page.choosing?.id === item.id ? " chosen" : ""}`,
        "data-move": moves,
        "data-id": item.id,
        "aria-label": item.label,
        disabled: !playable,
        onclick: () => tap(item),
      },
      face,
    );
  });
  let note = null;
  if (page.game.drawHandNote) {
    try {
      note = page.game.drawHandNote(state.hand, state);
    } catch (error) {
      console.error("drawHandNote", error);
    }
  }
  // Two turns ran out: the computer plays the seat until its person takes it back.
  const away = (state.seats || []).some((seat) => seat.you && seat.autoplay);
  const back = away ? [el("div", { class: "actions seat-back" }, button("seat_back", { t: "back" }))] : [];
  box.replaceChildren(...back, ...nodes, ...(note ? [note] : []));
}

function renderChoice(state, end) {
  const box = $("choice");
  const item = page.choosing;
  box.hidden = !item || state.phase !== "playing" || Boolean(end);
  if (box.hidden) return box.replaceChildren();
  const options = item.moves.map((move) =>
    el("button", {
      type: "button",
      class: "option",
      "data-move": String(move.code),
      "aria-label": move.choice || move.label || item.label,
      text: move.choice || move.label || item.label,
      disabled: page.pending,
      onclick: () => play(move.code),
    }),
  );
  const back = el("button", {
    type: "button",
    class: "option back",
    "data-act": "back",
    text: say("back"),
    onclick: () => {
      page.choosing = null;
      render();
    },
  });
  box.replaceChildren(...options, back);
}

/** The break after a round: its countdown and Next (everyone's Next deals at once). */
function renderBreak(state, end) {
  const box = $("break");
  box.hidden = !end;
  if (!end) return box.replaceChildren();
  const seated = state.you && !state.you.spectator && state.you.seat !== null;
  const ready = seated && (end.ready || []).includes(state.you.seat);
  const next = seated
    ? el("button", {
        type: "button",
        class: "act act-next",
        "data-act": "next",
        text: ready ? say("ready") : say("next"),
        disabled: ready,
        onclick: () => {
          if (send({ t: "next" })) {
            end.ready = [...(end.ready || []), state.you.seat];
            render();
          }
        },
      })
    : null;
  box.replaceChildren(el("p", { class: "break-clock", "data-clock": "break" }), el("div", { class: "actions" }, next));
}

function tap(item) {
  const moves = item.moves || [];
  if (!moves.length || page.pending) return;
  if (moves.length === 1) {
    play(moves[0].code);
    return;
  }
  page.choosing = page.choosing?.id === item.id ? null : item;
  render();
}

function play(code) {
  if (!page.state || page.pending) return;
  if (send({ t: "move", version: page.state.revision, code })) {
    page.pending = true;
    page.choosing = null;
    render();
  }
}

// The clock ------------------------------------------------------------------------------

function tick() {
  const state = page.state;
  if (!state) return;
  if (page.showing && !roundEnd(state)) {
    render(); // the break ran out before the server's next state came: show the live table
    return;
  }
  const running = !page.ended && !page.showing && state.phase === "playing" && state.to_move !== null && state.to_move !== undefined;
  const left = running ? timeLeft(state) : null;
  if (left !== null && page.turnDeadline !== state.deadline) {
    // The ring is full when the page first sees the turn (the server says when it ends).
    page.turnTotal = Math.max(left, 1);
    page.turnDeadline = state.deadline;
  }
  for (const node of document.querySelectorAll("[data-clock]")) {
    if (node.dataset.clock === "break") {
      node.textContent = say("break", { seconds: Math.ceil(breakLeft(state) / 1000) });
      continue;
    }
    node.textContent = left === null ? "" : String(Math.ceil(left / 1000));
    node.setAttribute("aria-label", left === null ? "" : say("left", { seconds: Math.ceil(left / 1000) }));
    const urgent = left !== null && left < URGENT_MS;
    node.classList.toggle("urgent", urgent);
    const ring = node.closest(".avatar");
    if (ring) {
      ring.style.setProperty("--left", String(left === null ? 0 : Math.min(1, left / page.turnTotal)));
      ring.classList.toggle("urgent", urgent);
    }
  }
}

// Transient things: a move's line, a refusal --------------------------------------------

function showPlayed(frame) {
  page.lastMover = typeof frame.seat === "number" ? frame.seat : null;
  const ticker = $("ticker");
  ticker.textContent = unbroken(frame.text || "");
  ticker.classList.remove("fresh");
  void ticker.offsetWidth; // restarts the animation
  ticker.classList.add("fresh");
  clearTimeout(page.playedTimer);
  page.playedTimer = setTimeout(() => ticker.classList.remove("fresh"), PLAYED_MS);
}

/** A text whose coloured squares never part from the number after them (Gap's "🟧0"). */
function unbroken(text) {
  return text.replace(/(\p{Extended_Pictographic}\uFE0F?)(?=\d)/gu, "$1\u2060");
}

/** A round's reveal frame: the table shows the finished round from the state's round_end;
 * the game's last round, which has no break, from this frame. */
function showReveal(frame) {
  page.lastReveal = { ...frame, game: page.gameId };
}

/** Back (Telegram's button or Escape) closes the open choice of moves, if any. */
function closeDialog() {
  if (page.replayView) {
    page.replayView.close();
    return true;
  }
  if (!page.choosing) return false;
  page.choosing = null;
  render();
  return true;
}

function toast(text) {
  if (!text) return;
  const box = $("toast");
  box.textContent = text;
  box.hidden = false;
  box.classList.remove("fresh");
  void box.offsetWidth;
  box.classList.add("fresh");
  clearTimeout(page.toastTimer);
  page.toastTimer = setTimeout(() => {
    box.hidden = true;
  }, TOAST_MS);
}

function showBanner(text) {
  const banner = $("banner");
  banner.textContent = text;
  banner.hidden = false;
}

function hideBanner() {
  $("banner").hidden = true;
}

// Start ----------------------------------------------------------------------------------

async function start() {
  readLaunch();
  if (page.replay) {
    const { startReplay } = await import("./replay.js");
    await startReplay({ tg: page.tg, initData: page.initData, token: page.replay });
    return;
  }
  setupTelegram(page.tg, {
    back: closeDialog,
    state: () => ({ seatedLive: isSeatedLive(page.state), dialogOpen: Boolean(page.choosing || page.replayView) }),
  });
  page.share = {
    available: () => canShare(page.tg),
    async run() {
      const shared = await shareStandings(page.tg, page.session);
      if (shared.result === "shared") toast(say("shared"));
      else if (shared.result !== "cancelled") toast(shared.text || say(`share_${shared.result}`));
    },
  };
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") resync();
  });
  try {
    page.tg?.onEvent?.("activated", resync);
  } catch {
    // older clients have no "activated" event: visibilitychange covers them
  }
  // Escape closes an open choice of moves, as Telegram's Back button does.
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") closeDialog();
  });
  // Another shape of window may seat the others elsewhere and want the other snake.
  window.addEventListener("resize", () => {
    page.resized = true;
    render();
  });
  setInterval(tick, 250);
  try {
    await signIn();
  } catch (error) {
    fail(error.message);
    return;
  }
  connect();
}

start();
