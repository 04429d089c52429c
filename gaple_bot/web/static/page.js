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
//   computer      a computer player's mark (screen readers)   "computer"
//   autoplay      a seat the computer plays for its person    "the computer plays for them"
//   score         a seat's points (screen readers)            "{points} pts"
//   lobby         the status line of a lobby                  "Waiting for players"
//   over          the standings' heading                      "Game over"
//   stopped       the heading of a game stopped early         "This game was stopped."
//   seat_back     takes back a seat the computer plays          "🙋 Take my seat back"

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
  computer: "computer",
  autoplay: "the computer plays for them",
  score: "{points} pts",
  lobby: "Waiting for players",
  over: "Game over",
  stopped: "This game was stopped.",
  seat_back: "🙋 Take my seat back",
};

const REVEAL_MS = 6000; // a round's reveal stays this long, or until the next tap
const PLAYED_MS = 2600; // a move's line stays this long
const TOAST_MS = 3200;
const BACKOFF_MS = [500, 1000, 2000, 4000, 8000, 15000];
const URGENT_MS = 10000; // the countdown turns red below this

const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
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
  revealTimer: null,
  toastTimer: null,
  playedTimer: null,
  ended: false, // a sign-in failed for good: no reconnecting
};

// Signing in -----------------------------------------------------------------------------

function readLaunch() {
  const params = new URLSearchParams(location.search);
  const tg = page.tg;
  if (tg) {
    try {
      tg.ready();
      tg.expand();
    } catch (error) {
      console.warn("Telegram WebApp", error);
    }
  }
  page.initData = tg?.initData || "";
  page.table = tg?.initDataUnsafe?.start_param || params.get("table") || null;
  const local = params.get("local");
  if (local === "gaple" || local === "gap") page.local = local;
  else if (!page.initData && !page.table) page.local = "gaple";
}

async function post(path, body) {
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

/** A session for the current table (or a new local one). */
async function signIn() {
  const answer = page.local && !page.table
    ? await post("/app/api/local", { kind: page.local })
    : await post("/app/api/session", { init_data: page.initData, table: page.table });
  page.session = answer.session;
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
  socket.addEventListener("close", () => {
    if (page.socket !== socket) return; // replaced on purpose (a new table)
    page.socket = null;
    page.pending = false;
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
      toast(frame.text || frame.reason);
      if (page.state) render();
      break;
    default:
      break;
  }
}

// The state ------------------------------------------------------------------------------

function setState(state) {
  const before = page.state;
  page.state = state;
  page.receivedAt = performance.now();
  // The server's clock when the frame says it (the page's own may be off), else the page's.
  page.clockOffset = (typeof state.now === "number" ? state.now : Date.now()) - page.receivedAt;
  const mine = isMyTurn(state);
  if (mine && !(before && isMyTurn(before))) haptic();
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
    state.you &&
    !state.you.spectator &&
    state.to_move !== null &&
    state.to_move === state.you.seat
  );
}

function haptic() {
  try {
    page.tg?.HapticFeedback?.notificationOccurred("success");
  } catch {
    // older clients have no haptics
  }
}

function codes(item) {
  return (item.moves || []).map((move) => move.code).join(" ");
}

/** What is left of the turn, by the server's clock (milliseconds; null with no deadline). */
function timeLeft(state) {
  if (!state.deadline) return null;
  const serverNow = page.clockOffset + performance.now();
  return Math.max(0, state.deadline - serverNow);
}

function clock(ms) {
  const seconds = Math.ceil(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

function render() {
  const state = page.state;
  if (!state) return;
  const root = $("table");
  root.setAttribute("aria-busy", "false");
  root.dataset.game = state.kind;
  root.dataset.round = state.round ?? "";
  root.dataset.toMove = state.to_move ?? "";
  root.dataset.revision = state.revision;
  root.dataset.phase = state.phase;
  root.classList.toggle("mine", isMyTurn(state));
  $("title").textContent = state.title || "";
  document.title = state.title || document.title;
  renderStatus(state);
  renderSeats(state);
  renderBoard(state);
  renderLobby(state);
  renderOver(state);
  renderHand(state);
  renderChoice(state);
  tick();
}

function seatName(state, number) {
  return state.seats?.find((seat) => seat.number === number)?.name ?? "";
}

function renderStatus(state) {
  const status = $("status");
  let text = "";
  if (state.phase === "lobby") text = say("lobby");
  else if (state.phase === "playing") {
    if (state.you?.spectator) text = say("spectating");
    if (state.to_move !== null && state.to_move !== undefined) {
      const turn = isMyTurn(state) ? say("your_turn") : say("waiting", { name: seatName(state, state.to_move) });
      text = text ? `${text} · ${turn}` : turn;
    }
  }
  status.replaceChildren(el("span", { class: "status-text", text }), el("span", { class: "countdown", "data-clock": "status" }));
}

function renderSeats(state) {
  const box = $("seats");
  const seats = state.seats || [];
  const capacity = state.phase === "lobby" ? state.lobby?.capacity || seats.length : seats.length;
  box.dataset.count = String(Math.max(capacity, seats.length));
  const nodes = seats.map((seat) => {
    const turn = state.phase === "playing" && seat.number === state.to_move;
    // The server's names already carry 🤖 for computers and autoplay; the marks say it in words.
    const marked = seat.name.includes("🤖");
    const marks = [seat.computer ? say("computer") : "", seat.autoplay ? say("autoplay") : ""].filter(Boolean);
    return el(
      "div",
      {
        class: `seat${turn ? " turn" : ""}${seat.you ? " you" : ""}${seat.computer ? " computer" : ""}${seat.autoplay ? " autoplay" : ""}`,
        "data-seat": seat.number,
        "aria-current": turn ? "true" : null,
        title: marks.join(", ") || null,
      },
      el(
        "span",
        { class: "seat-top" },
        el(
          "span",
          { class: "seat-name" },
          seat.computer ? seat.name.replace(/^🤖\s*/u, "") : seat.name,
          marks.length ? el("span", { class: "hidden-text", text: ` (${marks.join(", ")})` }) : null,
        ),
      ),
      state.phase === "lobby"
        ? null
        : el(
            "span",
            { class: "seat-line" },
            seat.computer || (seat.autoplay && !marked) ? el("span", { class: "seat-marks", "aria-hidden": "true", text: "🤖" }) : null,
            seat.count === null || seat.count === undefined ? null : el("span", { class: "seat-count", text: `✋ ${seat.count}` }),
            // The turn's clock beside the count, so that the name keeps the seat's whole width.
            turn ? el("span", { class: "countdown", "data-clock": "seat" }) : null,
            el("span", { class: "seat-score", "aria-label": say("score", { points: seat.score ?? 0 }), text: String(seat.score ?? 0) }),
          ),
    );
  });
  for (let i = seats.length; i < capacity; i += 1) nodes.push(el("div", { class: "seat empty", "aria-hidden": "true", text: "·" }));
  box.replaceChildren(...nodes);
}

function renderBoard(state) {
  const felt = $("felt");
  if (!state.board || !page.game) {
    felt.replaceChildren();
    felt.hidden = !state.board;
    return;
  }
  felt.hidden = false;
  try {
    felt.replaceChildren(page.game.drawBoard(state.board, state, page.texts));
  } catch (error) {
    console.error("drawBoard", error);
  }
}

function button(key, frame) {
  return el("button", { type: "button", class: `act act-${key}`, "data-act": key, text: say(key), onclick: () => send(frame) });
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
  const ranked = [...(state.seats || [])].sort((a, b) => (b.score ?? 0) - (a.score ?? 0));
  const rows = ranked.map((seat, index) =>
    el(
      "li",
      { class: `standing${seat.number === state.winner ? " winner" : ""}${seat.you ? " you" : ""}` },
      el("span", { class: "standing-place", text: seat.number === state.winner ? "🏆" : `${index + 1}.` }),
      el("span", { class: "standing-name", text: seat.name }),
      el("span", { class: "standing-score", text: say("score", { points: seat.score ?? 0 }) }),
    ),
  );
  const heading = el("h2", { class: "over-title", text: say(state.phase === "aborted" ? "stopped" : "over") });
  box.replaceChildren(heading, el("ol", { class: "standings" }, ...rows), el("div", { class: "actions" }, button("again", { t: "again" })));
}

function renderHand(state) {
  const box = $("hand");
  const items = state.hand?.items || [];
  box.hidden = !state.hand || state.phase !== "playing";
  if (box.hidden || !page.game) return box.replaceChildren();
  const nodes = items.map((item) => {
    const moves = codes(item);
    const playable = moves !== "" && !page.pending;
    let face;
    try {
      face = page.game.drawItem(item, state);
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
  // Two turns ran out: the computer plays the seat until its person takes it back.
  const away = (state.seats || []).some((seat) => seat.you && seat.autoplay);
  const back = away ? [el("div", { class: "actions seat-back" }, button("seat_back", { t: "back" }))] : [];
  box.replaceChildren(...back, ...nodes);
}

function renderChoice(state) {
  const box = $("choice");
  const item = page.choosing;
  box.hidden = !item || state.phase !== "playing";
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

function tap(item) {
  dismissReveal();
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
  const running = state.phase === "playing" && state.to_move !== null && state.to_move !== undefined;
  const left = running ? timeLeft(state) : null;
  for (const node of document.querySelectorAll("[data-clock]")) {
    if (left === null) node.textContent = "";
    else if (node.dataset.clock === "status") node.textContent = `⏱ ${say("left", { seconds: Math.ceil(left / 1000) })}`;
    else node.textContent = clock(left);
    node.classList.toggle("urgent", left !== null && left < URGENT_MS);
  }
}

// Transient things: a move's line, a round's reveal, a refusal ----------------------------

function showPlayed(frame) {
  const ticker = $("ticker");
  ticker.textContent = frame.text || "";
  ticker.classList.remove("fresh");
  void ticker.offsetWidth; // restarts the animation
  ticker.classList.add("fresh");
  clearTimeout(page.playedTimer);
  page.playedTimer = setTimeout(() => ticker.classList.remove("fresh"), PLAYED_MS);
  const seat = document.querySelector(`.seat[data-seat="${frame.seat}"]`);
  if (seat) {
    seat.classList.remove("moved");
    void seat.offsetWidth;
    seat.classList.add("moved");
  }
}

function showReveal(frame) {
  const box = $("reveal");
  if (!page.game || !frame.reveal) return;
  let drawn;
  try {
    drawn = page.game.drawReveal(frame.reveal, page.state || { seats: [] }, page.texts);
  } catch (error) {
    console.error("drawReveal", error);
    return;
  }
  box.replaceChildren(el("div", { class: "reveal-card" }, drawn));
  // Screen readers name the dialog by the round's result (its summary's first line).
  const summary = Array.isArray(frame.reveal.summary) ? frame.reveal.summary[0] : "";
  if (summary) box.setAttribute("aria-label", summary);
  else box.removeAttribute("aria-label");
  box.dataset.round = frame.round ?? "";
  box.hidden = false;
  clearTimeout(page.revealTimer);
  page.revealTimer = setTimeout(dismissReveal, REVEAL_MS);
}

function dismissReveal() {
  const box = $("reveal");
  if (box.hidden) return;
  clearTimeout(page.revealTimer);
  box.hidden = true;
  box.replaceChildren();
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
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") resync();
  });
  try {
    page.tg?.onEvent?.("activated", resync);
  } catch {
    // older clients have no "activated" event: visibilitychange covers them
  }
  // A tap anywhere closes a round's reveal; so does Escape, for a keyboard.
  document.addEventListener("pointerdown", dismissReveal, true);
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") dismissReveal();
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
