// A finished game played again (docs/PAGE.md, "Replays"): signs in to the replay over HTTP
// (POST /app/api/replay), fetches each round's positions as it is shown
// (/app/api/replay/round), and draws them with the game's own drawing module, as the live
// table does: the board, every hand face up (the round is over), each move's name and, once
// the review is ready (polled from /app/api/replay/review with a growing pause), its mark,
// the better move, and every person's summary at the game's end.
//
// The view's root (#replay) carries data-replay (the game), data-round and data-ply (moves
// made in the round shown: 0 is the deal); the move list's entries carry data-ply, data-seat
// and, once reviewed, data-mark and data-loss (points, one decimal).

import { el, post } from "./dom.js";
import { setupTelegram } from "./telegram_ui.js";

const ENGLISH = {
  replay: "📼 Replay",
  replay_title: "Replay · {title}",
  play: "Play",
  pause: "Pause",
  prev_move: "Previous move",
  next_move: "Next move",
  prev_round: "Previous round",
  next_round: "Next round",
  game_end: "The game's end",
  position: "Position in the round",
  round_of: "Round {round} of {rounds}",
  move_of: "Move {ply} of {moves}",
  dealt: "Dealt",
  moves: "Moves",
  close: "Close",
  totals: "Totals after round {round}: {totals}",
  played: "{name}: {move}",
  mark_best: "Best",
  mark_good: "Good",
  mark_inaccuracy: "Inaccuracy",
  mark_mistake: "Mistake",
  mark_blunder: "Blunder",
  loss: "{loss} pts lost",
  better: "Better: {move}",
  preparing: "The review is being prepared…",
  reviews_off: "This bot does not review games: its host turned reviews off.",
  review: "Review",
  accuracy: "Accuracy {accuracy}",
  average_loss: "{loss} pts lost per decision",
  decisions_one: "{count} decision",
  decisions: "{count} decisions",
  worst: "Biggest mistake: round {round}, move {ply}, {move}, {loss} pts lost",
  no_worst: "No mistake",
  score: "{points} pts",
  computer: "computer",
  over: "Game over",
};

const STEP_MS = 1300; // play: one move this often
const REVIEW_POLL_MS = [2000, 4000, 8000, 15000, 30000]; // the review is asked for again after these
const MARKS = ["best", "good", "inaccuracy", "mistake", "blunder"];

/** One decimal, as data-loss and data-accuracy say a number (for tests and tools). */
function decimal(number) {
  return (Math.round(Number(number) * 10) / 10).toFixed(1);
}

/** One decimal written the reader's way (the page's language: "0,4" in French). */
function shownDecimal(number) {
  const value = Math.round(Number(number) * 10) / 10;
  try {
    return new Intl.NumberFormat(document.documentElement.lang || undefined, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(value);
  } catch {
    return value.toFixed(1);
  }
}

// A card's or a tile's name ("🟥8", "[6|4]") is never broken over two lines.
const CARD_NAME = /(\p{Extended_Pictographic}\uFE0F?\d+|\[\d+\|\d+\])/u;

/** `text` as strings and nowrap spans (each card's or tile's name kept whole), to append. */
function keepCards(text) {
  return String(text ?? "")
    .split(CARD_NAME)
    .map((part, index) => (index % 2 ? el("span", { class: "card-name", text: part }) : part))
    .filter((part) => part !== "");
}

class Replay {
  constructor(options) {
    this.tg = options.tg || null;
    this.onClose = options.onClose || null;
    // Opened by its link, nothing lies under the replay: ✕ leaves the page for what it came
    // from (Telegram's chat) or what it would be without the replay (local play's table).
    this.direct = !this.onClose;
    this.texts = {};
    this.game = null; // the game's drawing module
    this.info = null; // the sign-in's answer: seats, rounds, review
    this.rounds = new Map(); // round number → its positions (fetched once)
    this.loading = new Map();
    this.round = 1;
    this.ply = 0;
    this.playing = null; // the play timer
    this.reviewTimer = null;
    this.reviewTries = 0;
    this.shape = null; // the felt's snake shape, kept for a round
    this.root = null;
  }

  say(key, fields = {}) {
    const template = this.texts[key] || ENGLISH[key] || key;
    return template.replace(/\{(\w+)\}/g, (whole, name) => (name in fields ? String(fields[name]) : whole));
  }

  async open(body) {
    const info = await post("/app/api/replay", body);
    this.info = info;
    this.session = info.session;
    this.texts = info.texts || {};
    if (info.language) document.documentElement.lang = info.language;
    this.game = await import(info.script);
    this.build();
    this.keepAddress();
    await this.show(1, 0);
    if (!info.review && !info.reviews_off) this.pollReview();
    // The next round is fetched while this one is watched.
    this.fetchRound(2).catch(() => {});
  }

  // Fetching ----------------------------------------------------------------------------

  fetchRound(number) {
    if (number < 1 || number > this.info.rounds.length) return Promise.resolve(null);
    if (this.rounds.has(number)) return Promise.resolve(this.rounds.get(number));
    if (!this.loading.has(number)) {
      const request = post("/app/api/replay/round", { session: this.session, round: number }).then(
        (frames) => {
          if (frames.session) this.session = frames.session; // each answer renews it
          this.rounds.set(number, frames);
          this.loading.delete(number);
          return frames;
        },
        (error) => {
          this.loading.delete(number);
          throw error;
        },
      );
      this.loading.set(number, request);
    }
    return this.loading.get(number);
  }

  pollReview() {
    clearTimeout(this.reviewTimer);
    const delay = REVIEW_POLL_MS[Math.min(this.reviewTries, REVIEW_POLL_MS.length - 1)];
    this.reviewTries += 1;
    this.reviewTimer = setTimeout(async () => {
      if (!this.root) return; // closed meanwhile
      try {
        const answer = await post("/app/api/replay/review", { session: this.session });
        if (!this.root) return;
        if (answer.session) this.session = answer.session;
        if (answer.review || answer.reviews_off) {
          this.info.review = answer.review;
          this.info.reviews_off = answer.reviews_off;
          this.render();
          return;
        }
      } catch (error) {
        console.warn("the review", error.message);
      }
      this.pollReview();
    }, delay);
  }

  // Moving about ------------------------------------------------------------------------

  frames() {
    return this.rounds.get(this.round) || null;
  }

  lastPly(number = this.round) {
    return this.info.rounds[number - 1]?.moves ?? 0;
  }

  async show(round, ply) {
    const count = this.info.rounds.length;
    if (!count) return this.render();
    round = Math.max(1, Math.min(count, round));
    try {
      await this.fetchRound(round);
    } catch (error) {
      this.toast(error.message);
      return;
    }
    this.round = round;
    this.ply = Math.max(0, Math.min(this.lastPly(round), ply));
    this.render();
    if (round < count) this.fetchRound(round + 1).catch(() => {});
  }

  atEnd() {
    return this.round === this.info.rounds.length && this.ply === this.lastPly();
  }

  async step(delta) {
    if (delta > 0 && this.ply >= this.lastPly()) {
      if (this.round < this.info.rounds.length) await this.show(this.round + 1, 0);
      return;
    }
    if (delta < 0 && this.ply === 0) {
      if (this.round > 1) await this.show(this.round - 1, this.lastPly(this.round - 1));
      return;
    }
    await this.show(this.round, this.ply + delta);
  }

  async toggle() {
    if (this.playing) return this.pause();
    if (this.atEnd()) await this.show(1, 0);
    this.playing = setInterval(async () => {
      if (this.atEnd()) return this.pause();
      await this.step(1);
    }, STEP_MS);
    this.render();
  }

  pause() {
    clearInterval(this.playing);
    this.playing = null;
    this.render();
  }

  // Drawing -----------------------------------------------------------------------------

  build() {
    // The replay takes the table's place (the table's own parts hidden until it closes).
    const table = document.getElementById("table");
    document.getElementById("replay")?.remove();
    // page.css hides the table's own parts while it is replaying (whatever the live table
    // draws under it meanwhile).
    table.classList.add("replaying");
    table.setAttribute("aria-busy", "false");
    const button = (act, label, symbol, onclick) =>
      el("button", { type: "button", class: `replay-act replay-${act}`, "data-act": act, "aria-label": label, title: label, text: symbol, onclick });
    this.bar = el("input", {
      type: "range",
      class: "replay-bar",
      min: "0",
      max: "0",
      step: "1",
      value: "0",
      "aria-label": this.say("position"),
      oninput: (event) => this.show(this.round, Number(event.target.value)),
    });
    this.controls = el(
      "nav",
      { class: "replay-controls", "aria-label": this.say("replay") },
      button("prev-round", this.say("prev_round"), "⏮", () => this.show(this.round - 1, 0)),
      button("prev-move", this.say("prev_move"), "‹", () => this.step(-1)),
      button("play", this.say("play"), "▶", () => this.toggle()),
      button("next-move", this.say("next_move"), "›", () => this.step(1)),
      // On the last round, ⏭ goes to the game's end (its summary).
      button("next-round", this.say("next_round"), "⏭", () =>
        this.round >= this.info.rounds.length ? this.show(this.round, this.lastPly()) : this.show(this.round + 1, 0),
      ),
    );
    this.root = el(
      "main",
      { id: "replay", class: "replay", "data-replay": this.info.game_id, "data-game": this.info.kind, "aria-busy": "false" },
      el(
        "header",
        { class: "head replay-head" },
        el("h1", { class: "title", text: this.say("replay_title", { title: this.info.title }) }),
        this.closeButton(),
      ),
      el("p", { class: "status replay-status", "aria-live": "polite" }),
      el("div", { class: "replay-seats" }),
      el("section", { class: "felt replay-felt" }),
      // The position and the controls: one bar that stays in sight on a phone however far
      // the column scrolls (page.css), so no step needs a scroll first.
      el("div", { class: "replay-dock" }, el("div", { class: "replay-where" }, el("span", { class: "replay-counter" }), this.bar), this.controls),
      el("section", { class: "replay-summary", "aria-label": this.say("review") }),
      el("section", { class: "replay-list" }, el("h2", { class: "replay-list-title" }), el("p", { class: "replay-preparing", role: "status" }), el("ol", { class: "replay-moves" })),
    );
    table.append(this.root);
    this.title = document.title;
    document.title = this.say("replay_title", { title: this.info.title });
    // Taken off again by close(): a replay opened twice must not step twice a key.
    this.listening = new AbortController();
    const { signal } = this.listening;
    document.addEventListener(
      "keydown",
      (event) => {
        if (!this.root?.isConnected || event.target?.tagName === "INPUT") return;
        if (event.key === "ArrowRight") this.step(1);
        else if (event.key === "ArrowLeft") this.step(-1);
        // Over the table, the table's Escape closes the replay; opened alone, this one does.
        else if (event.key === "Escape" && this.direct) this.leave();
      },
      { signal },
    );
    window.addEventListener("resize", () => this.render(), { signal });
  }

  /** Outside Telegram (local play), the address names the replay while it is open
   * (?replay=<token>), so it can be kept or bookmarked; inside Telegram the start parameter
   * does that job. close() gives the table its address back. */
  keepAddress() {
    if (this.tg?.initData || !this.info.replay || !window.history?.replaceState) return;
    const url = new URL(location.href);
    this.address = url.href;
    for (const name of ["table", "local", "replay"]) url.searchParams.delete(name);
    url.searchParams.set("replay", this.info.replay);
    if (url.href !== location.href) history.replaceState(history.state, "", url.href);
  }

  /** The ✕: over the table it closes the replay; opened by its link, it leaves. */
  closeButton() {
    return el("button", { type: "button", class: "replay-close", "data-act": "close", "aria-label": this.say("close"), title: this.say("close"), text: "✕", onclick: () => (this.direct ? this.leave() : this.close()) });
  }

  /** ✕ of a replay opened by its link: inside Telegram the Mini App closes (back to the
   * chat whose link opened it); in a browser (local play) the page becomes local play's
   * table of the replay's game, the address without the replay (as close() gives the table
   * its address back), or local play's first table where the replay did not open. */
  leave() {
    this.pause();
    if (this.tg?.initData) {
      try {
        this.tg.close();
      } catch (error) {
        console.warn("Telegram's close", error);
      }
      return;
    }
    const url = new URL(location.href);
    for (const name of ["table", "local", "replay"]) url.searchParams.delete(name);
    if (this.info) url.searchParams.set("local", this.info.kind);
    location.replace(url.href);
  }

  close() {
    this.pause();
    clearTimeout(this.reviewTimer);
    this.listening?.abort();
    this.root?.remove();
    this.root = null;
    document.getElementById("table").classList.remove("replaying");
    if (this.title) document.title = this.title;
    if (this.address && this.address !== location.href) history.replaceState(history.state, "", this.address);
    this.address = null;
    this.onClose?.();
  }

  /** The state object the game's drawing functions are given. */
  state(position) {
    const seats = this.info.seats.map((seat) => ({ ...seat, score: position?.scores?.[seat.number] ?? seat.score }));
    const you = this.info.seats.find((seat) => seat.you);
    return { kind: this.info.kind, phase: "over", round: this.round, seats, you: { seat: you ? you.number : null, spectator: !you }, to_move: position?.to_move ?? null };
  }

  reviewed(round = this.round) {
    const moves = this.info.review?.moves || [];
    return new Map(moves.filter((move) => move.round === round).map((move) => [move.ply, move]));
  }

  render() {
    if (!this.root) return;
    const frames = this.frames();
    const position = frames?.positions?.[this.ply] || null;
    const root = this.root;
    root.dataset.round = String(this.round);
    root.dataset.ply = String(this.ply);
    root.dataset.end = String(Boolean(frames && this.ply === this.lastPly()));
    root.dataset.review = this.info.review ? "ready" : this.info.reviews_off ? "off" : "preparing";
    root.dataset.layout = "narrow";
    const play = root.querySelector(".replay-play");
    play.textContent = this.playing ? "⏸" : "▶";
    play.setAttribute("aria-label", this.say(this.playing ? "pause" : "play"));
    play.title = play.getAttribute("aria-label");
    play.setAttribute("aria-pressed", String(Boolean(this.playing)));
    const count = this.info.rounds.length;
    const moves = this.lastPly();
    root.querySelector(".replay-prev-round").disabled = this.round <= 1;
    const next = root.querySelector(".replay-next-round");
    next.disabled = this.atEnd();
    // On the last round ⏭ goes to the game's end, and says so.
    next.setAttribute("aria-label", this.say(this.round >= count ? "game_end" : "next_round"));
    next.title = next.getAttribute("aria-label");
    root.querySelector(".replay-prev-move").disabled = this.round <= 1 && this.ply === 0;
    root.querySelector(".replay-next-move").disabled = this.atEnd();
    this.bar.max = String(moves);
    this.bar.value = String(this.ply);
    this.bar.setAttribute("aria-valuetext", this.ply ? this.say("move_of", { ply: this.ply, moves }) : this.say("dealt"));
    root.querySelector(".replay-counter").textContent = `${this.say("round_of", { round: this.round, rounds: count })} · ${
      this.ply ? this.say("move_of", { ply: this.ply, moves }) : this.say("dealt")
    }`;
    if (!position) return;
    const state = this.state(position);
    const end = this.ply === moves ? frames.reveal : null;
    this.renderStatus(position, end);
    this.renderSeats(position, state, end);
    this.renderFelt(position, state);
    this.renderMoves(frames);
    this.renderSummary();
  }

  seatName(number) {
    const seat = this.info.seats.find((s) => s.number === number);
    return seat ? seat.name.replace(/^🤖\s*/u, "🤖 ") : "";
  }

  renderStatus(position, end) {
    const status = this.root.querySelector(".replay-status");
    let text = "";
    if (end) text = this.rounds.get(this.round)?.headline || "";
    else if (position.move) text = this.say("played", { name: this.seatName(position.move.seat), move: position.move.label });
    else text = this.say("dealt");
    const mark = position.move && !end ? this.reviewed().get(this.ply) : null;
    const better = mark && mark.mark !== "best" && mark.best !== mark.code ? el("span", { class: "replay-better" }, ...keepCards(this.say("better", { move: mark.best_label || "" }))) : null;
    status.replaceChildren(...[el("span", { class: "status-text" }, ...keepCards(text)), mark ? this.badge(mark) : null, better].filter(Boolean));
  }

  badge(move) {
    return el("span", { class: `replay-mark mark-${move.mark}`, "data-mark": move.mark, text: this.say(`mark_${move.mark}`) });
  }

  renderSeats(position, state, end) {
    const box = this.root.querySelector(".replay-seats");
    // In the seats' order, as the move list names them.
    const nodes = this.info.seats.map((seat) => seat.number).map((number) => {
      const seat = state.seats.find((s) => s.number === number);
      const turn = !end && position.to_move === number;
      const moved = !end && position.move?.seat === number;
      const hand = el("span", { class: "replay-hand" });
      let shown = null;
      if (end && this.game.drawSeatReveal) {
        try {
          shown = this.game.drawSeatReveal(end, number, state, this.texts);
        } catch (error) {
          console.error("drawSeatReveal", error);
        }
        const points = end.points?.[number] ?? 0;
        if (points && shown) shown.prepend(el("span", { class: `seat-points${points < 0 ? " negative" : ""}`, text: points > 0 ? `+${points}` : String(points) }));
      } else {
        const own = position.hands?.[number] || { items: [] };
        for (const item of own.items || []) {
          let face;
          try {
            face = this.game.drawItem({ ...item, moves: [] }, state, this.texts);
          } catch (error) {
            console.error("drawItem", error);
            face = el("span", { text: item.label });
          }
          hand.append(el("span", { class: "replay-item", role: "img", "aria-label": item.label }, face));
        }
        if (this.game.drawHandNote) {
          try {
            const note = this.game.drawHandNote(own, state);
            if (note) hand.append(note);
          } catch (error) {
            console.error("drawHandNote", error);
          }
        }
      }
      let extra = null;
      if (!end && this.game.drawSeat) {
        try {
          extra = this.game.drawSeat(position.board, number, state, this.texts);
        } catch (error) {
          console.error("drawSeat", error);
        }
      }
      const initial = Array.from(seat.name.replace(/^[^\p{L}\p{N}]+/u, "") || seat.name)[0]?.toUpperCase() || "?";
      return el(
        "div",
        {
          class: `seat replay-seat revealed${turn ? " turn" : ""}${moved ? " moved" : ""}${seat.you ? " you" : ""}${seat.computer ? " computer" : ""}`,
          "data-seat": number,
          "aria-current": turn ? "true" : null,
        },
        el("span", { class: "avatar" }, el("span", { class: "avatar-face", "aria-hidden": "true", text: seat.computer ? "🤖" : initial })),
        el(
          "span",
          { class: "seat-body" },
          el("span", { class: "seat-name", text: seat.name.replace(/^🤖\s*/u, "") }),
          el("span", { class: "seat-line" }, el("span", { class: "seat-score", "aria-label": this.say("score", { points: seat.score ?? 0 }), text: String(seat.score ?? 0) })),
        ),
        extra,
        shown || hand,
      );
    });
    box.replaceChildren(...nodes);
  }

  renderFelt(position, state) {
    const felt = this.root.querySelector(".replay-felt");
    const ratio = felt.clientHeight ? felt.clientWidth / felt.clientHeight : 1.5;
    if (!this.shape || this.shape.round !== this.round) this.shape = { round: this.round, name: ratio < 1.15 ? "narrow" : "wide" };
    try {
      felt.replaceChildren(this.game.drawBoard(position.board, state, this.texts, { shape: this.shape.name }));
    } catch (error) {
      console.error("drawBoard", error);
    }
  }

  renderMoves(frames) {
    const list = this.root.querySelector(".replay-moves");
    const reviewed = this.reviewed();
    this.root.querySelector(".replay-list-title").textContent = `${this.say("moves")} · ${this.say("round_of", { round: this.round, rounds: this.info.rounds.length })}`;
    const preparing = this.root.querySelector(".replay-preparing");
    preparing.hidden = Boolean(this.info.review);
    preparing.textContent = this.info.review ? "" : this.pending();
    const entries = frames.positions.slice(1).map((position) => {
      const move = position.move;
      const ply = position.ply;
      const review = reviewed.get(ply);
      const parts = [el("span", { class: "replay-ply", text: `${ply}.` }), el("span", { class: "replay-who", text: this.seatName(move.seat) }), el("span", { class: "replay-label" }, ...keepCards(move.label))];
      if (review) {
        parts.push(this.badge(review));
        if (review.mark !== "best") {
          parts.push(el("span", { class: "replay-loss", text: this.say("loss", { loss: shownDecimal(review.loss) }) }));
          if (review.best !== review.code) parts.push(el("span", { class: "replay-better" }, ...keepCards(this.say("better", { move: review.best_label || "" }))));
        }
      }
      return el(
        "li",
        {
          class: `replay-move${ply === this.ply ? " current" : ""}`,
          "data-ply": ply,
          "data-seat": move.seat,
          "data-mark": review ? review.mark : null,
          "data-loss": review ? decimal(review.loss) : null,
          "aria-current": ply === this.ply ? "step" : null,
        },
        el("button", { type: "button", class: "replay-goto", onclick: () => this.show(this.round, ply) }, ...parts),
      );
    });
    list.replaceChildren(...entries);
    // The current move in sight within the list (the page itself does not jump).
    const current = list.querySelector(".current");
    if (current) {
      const top = current.offsetTop;
      if (top < list.scrollTop || top + current.offsetHeight > list.scrollTop + list.clientHeight) {
        list.scrollTop = Math.max(0, top - list.clientHeight / 2);
      }
    }
  }

  renderSummary() {
    const box = this.root.querySelector(".replay-summary");
    const review = this.info.review;
    box.hidden = !this.atEnd();
    if (box.hidden) return box.replaceChildren();
    const last = this.info.rounds[this.info.rounds.length - 1];
    const totals = el("p", {
      class: "replay-totals",
      text: this.say("totals", { round: last.round, totals: this.info.seats.map((seat) => `${seat.name} ${seat.score}`).join(" · ") }),
    });
    const heading = el("h2", { class: "over-title", text: this.say("review") });
    if (!review) return box.replaceChildren(el("h2", { class: "over-title", text: this.say("over") }), totals, el("p", { class: "replay-preparing", text: this.pending() }));
    box.replaceChildren(heading, totals, reviewSummary(review, (key, fields) => this.say(key, fields)));
  }

  /** What stands in for the review while there is none: it is coming, or never will. */
  pending() {
    return this.say(this.info.reviews_off ? "reviews_off" : "preparing");
  }

  toast(text) {
    const box = document.getElementById("toast");
    if (!box || !text) return;
    box.textContent = text;
    box.hidden = false;
    setTimeout(() => {
      box.hidden = true;
    }, 3200);
  }
}

/** Each person's review in a few lines: accuracy, points lost per decision, the biggest
 * mistake with its round, move and the better move (shared with the live table's end). */
/** A count's plural category in the page's language ("one" or another). */
function pluralRule(count) {
  try {
    return new Intl.PluralRules(document.documentElement.lang || "en").select(count);
  } catch {
    return count === 1 ? "one" : "other";
  }
}

export function reviewSummary(review, say) {
  const list = el("ul", { class: "review-summary" });
  for (const seat of review.seats || []) {
    const worst = seat.worst;
    const lines = [
      el("span", { class: "review-name", text: seat.name || "" }),
      el("span", { class: "review-accuracy", "data-accuracy": decimal(seat.accuracy), text: say("accuracy", { accuracy: shownDecimal(seat.accuracy) }) }),
      el("span", { class: "review-loss", text: `${say("average_loss", { loss: shownDecimal(seat.average_loss) })} · ${say(pluralRule(seat.decisions) === "one" ? "decisions_one" : "decisions", { count: seat.decisions })}` }),
      el(
        "span",
        { class: "review-worst" },
        ...keepCards(
          // As the chat's /review names it: a move that cost an inaccuracy or worse.
          worst && !["best", "good"].includes(worst.mark)
            ? `${say("worst", { round: worst.round, ply: worst.ply, move: worst.label || "", loss: shownDecimal(worst.loss) })} · ${say("better", { move: worst.best_label || "" })}`
            : say("no_worst"),
        ),
      ),
    ];
    list.append(el("li", { class: "review-seat", "data-seat": seat.seat }, ...lines));
  }
  return list;
}

/** Opens the replay: by a replay token (a replay link's start parameter, ?replay=) with
 * Telegram's initData, or by a replay session the live table's end was given. */
export async function startReplay({ tg = null, initData = "", token = "", session = "", onClose = null } = {}) {
  if (!onClose) setupTelegram(tg, { back: () => false, state: () => ({ seatedLive: false, dialogOpen: false }) });
  const replay = new Replay({ tg, onClose });
  const body = session ? { session } : { init_data: initData, replay: token };
  try {
    await replay.open(body);
  } catch (error) {
    const table = document.getElementById("table");
    if (onClose) {
      replay.toast(error.message);
      return null;
    }
    if (table) {
      table.setAttribute("aria-busy", "false");
      // A link whose replay does not open (gone with local play's throwaway database, say)
      // still has its way out, or the page would be a dead end; the refusal names it.
      replay.texts = error.answer?.texts || {};
      table.replaceChildren(el("p", { class: "fatal", role: "alert", text: error.message }), replay.closeButton());
    }
    return null;
  }
  return replay;
}

export { MARKS };
