// Telegram's Mini App conventions for the table page (Bot API 8.0 and later): expand, full
// screen on phones with the safe areas as CSS variables, the theme applied live, vertical
// swipes off and a closing confirmation while the viewer sits in a live game, the Back button
// closing a dialog, haptics on the viewer's turn and on a refused tap, and Share.
//
// Every call is guarded: `tg` is null outside Telegram (local play), and an older client
// lacks newer methods (each is called only from the version that brought it, and a throw is
// never the page's failure).
//
// CSS variables set on <html>: --safe-top, --safe-right, --safe-bottom, --safe-left (pixels:
// the device's safe area plus Telegram's own controls over the content in full screen; unset
// before Bot API 8.0, so use them as var(--safe-top, env(safe-area-inset-top, 0px))), and
// --tg-theme-<key> for each of Telegram's theme parameters (bg_color → --tg-theme-bg-color).

const SINCE = {
  backButton: "6.1",
  haptics: "6.1",
  closingConfirmation: "6.2",
  verticalSwipes: "7.7",
  fullscreen: "8.0",
  safeArea: "8.0",
  shareMessage: "8.0",
};
/** Clients where full screen suits the page: phones. A desktop window stays a window. */
const FULLSCREEN_PLATFORMS = new Set(["android", "ios"]);
const SIDES = ["top", "right", "bottom", "left"];
/** What updateTelegram last applied, by client (so each change is one call). */
const applied = new WeakMap();
const themeKeys = new WeakMap();

function atLeast(tg, version) {
  try {
    return Boolean(tg) && typeof tg.isVersionAtLeast === "function" && tg.isVersionAtLeast(version);
  } catch {
    return false;
  }
}

/** Runs one call to Telegram; an old or odd client's throw is noted, never raised. */
function attempt(what, call) {
  try {
    return call();
  } catch (error) {
    console.warn(`Telegram ${what}`, error);
    return undefined;
  }
}

function listen(tg, event, handler) {
  attempt(`onEvent(${event})`, () => tg.onEvent(event, handler));
}

/** The viewer sits at a game being played (not a spectator, not a lobby, not its end). */
export function isSeatedLive(state) {
  return Boolean(
    state &&
      state.phase === "playing" &&
      state.you &&
      !state.you.spectator &&
      state.you.seat !== null &&
      state.you.seat !== undefined,
  );
}

/** Once, at the page's start. hooks.back() closes the open dialog and says whether it did;
 *  hooks.state() (optional) gives updateTelegram's {seatedLive, dialogOpen} as they are now. */
export function setupTelegram(tg, hooks = {}) {
  if (!tg) return;
  attempt("ready", () => tg.ready());
  attempt("expand", () => tg.expand());
  applyTheme(tg);
  listen(tg, "themeChanged", () => applyTheme(tg));
  applyInsets(tg);
  for (const event of ["safeAreaChanged", "contentSafeAreaChanged", "fullscreenChanged"]) {
    listen(tg, event, () => applyInsets(tg));
  }
  if (atLeast(tg, SINCE.fullscreen) && FULLSCREEN_PLATFORMS.has(tg.platform) && !tg.isFullscreen) {
    attempt("requestFullscreen", () => tg.requestFullscreen());
  }
  if (atLeast(tg, SINCE.backButton) && tg.BackButton) {
    attempt("BackButton.onClick", () =>
      tg.BackButton.onClick(() => {
        const closed = Boolean(hooks.back?.());
        const now = hooks.state?.();
        if (now) updateTelegram(tg, now);
        else if (!closed) updateTelegram(tg, { ...applied.get(tg), dialogOpen: false });
      }),
    );
  }
}

/** On every render: a closing confirmation and no vertical swipes while the viewer sits in a
 *  live game; the Back button while a dialog is open. */
export function updateTelegram(tg, { seatedLive = false, dialogOpen = false } = {}) {
  if (!tg) return;
  const last = applied.get(tg) || {};
  if (last.seatedLive !== seatedLive) {
    if (atLeast(tg, SINCE.closingConfirmation)) {
      attempt("closing confirmation", () =>
        seatedLive ? tg.enableClosingConfirmation() : tg.disableClosingConfirmation(),
      );
    }
    // A swipe down on the felt would otherwise minimise or close the app mid-game.
    if (atLeast(tg, SINCE.verticalSwipes)) {
      attempt("vertical swipes", () =>
        seatedLive ? tg.disableVerticalSwipes() : tg.enableVerticalSwipes(),
      );
    }
  }
  if (last.dialogOpen !== dialogOpen && atLeast(tg, SINCE.backButton) && tg.BackButton) {
    attempt("BackButton", () => (dialogOpen ? tg.BackButton.show() : tg.BackButton.hide()));
  }
  applied.set(tg, { seatedLive, dialogOpen });
}

function haptic(tg, kind) {
  if (!atLeast(tg, SINCE.haptics) || !tg.HapticFeedback) return;
  attempt("HapticFeedback", () => tg.HapticFeedback.notificationOccurred(kind));
}

/** The viewer's turn has come. */
export function hapticTurn(tg) {
  haptic(tg, "success");
}

/** The server refused what the viewer tapped. */
export function hapticRefused(tg) {
  haptic(tg, "error");
}

/** Whether Share can be offered: inside a Telegram client that has shareMessage, signed in
 *  through Telegram (local play has no Telegram, and a plain browser no initData). */
export function canShare(tg) {
  return (
    Boolean(tg && tg.initData) &&
    atLeast(tg, SINCE.shareMessage) &&
    typeof tg.shareMessage === "function"
  );
}

/** Shares the finished game's standings picture: the server has the bot prepare it, then
 *  Telegram's dialog lets the viewer pick a chat. Resolves to {result, text, reason}: result
 *  "shared", "cancelled" (the viewer closed the dialog), "unavailable" or "failed"; text is
 *  the server's sentence for a refusal in the viewer's language (null otherwise). */
export async function shareStandings(tg, session) {
  if (!canShare(tg) || !session) return { result: "unavailable", text: null, reason: null };
  let status = 0;
  let answer = {};
  try {
    const response = await fetch("/app/api/share", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ session }),
      credentials: "same-origin",
    });
    status = response.status;
    answer = await response.json().catch(() => ({}));
  } catch {
    return { result: "failed", text: null, reason: "network" };
  }
  if (status !== 200 || typeof answer.id !== "string") {
    const result = answer.reason === "no_share" ? "unavailable" : "failed";
    return { result, text: answer.text || null, reason: answer.reason || null };
  }
  return offer(tg, answer.id);
}

/** Telegram's share dialog for a prepared message; its callback says whether it was sent,
 *  the shareMessageFailed event why not (it comes right after the callback). */
function offer(tg, id) {
  return new Promise((resolve) => {
    let error = null;
    const failed = (event) => {
      error = event?.error || "failed";
    };
    listen(tg, "shareMessageFailed", failed);
    const done = (outcome) => {
      attempt("offEvent(shareMessageFailed)", () => tg.offEvent("shareMessageFailed", failed));
      resolve(outcome);
    };
    try {
      tg.shareMessage(id, (sent) => {
        if (sent) {
          done({ result: "shared", text: null, reason: null });
          return;
        }
        // The failure's event follows the callback within the same dispatch.
        Promise.resolve().then(() =>
          done({ result: error === "USER_DECLINED" ? "cancelled" : "failed", text: null, reason: error }),
        );
      });
    } catch (thrown) {
      done({ result: "failed", text: null, reason: String(thrown?.message || thrown) });
    }
  });
}

function applyTheme(tg) {
  const root = document.documentElement;
  const params = tg.themeParams || {};
  const before = themeKeys.get(tg) || new Set();
  const now = new Set();
  for (const [key, value] of Object.entries(params)) {
    if (typeof value !== "string" || !value) continue;
    const name = `--tg-theme-${key.replace(/_/g, "-")}`;
    root.style.setProperty(name, value);
    now.add(name);
  }
  // A colour the new theme no longer gives falls back to the page's own.
  for (const name of before) if (!now.has(name)) root.style.removeProperty(name);
  themeKeys.set(tg, now);
  if (tg.colorScheme === "light" || tg.colorScheme === "dark") root.dataset.tgScheme = tg.colorScheme;
}

function applyInsets(tg) {
  // An older client says nothing of safe areas: the CSS falls back to env(safe-area-inset-*).
  if (!atLeast(tg, SINCE.safeArea)) return;
  const root = document.documentElement;
  const device = tg.safeAreaInset || {};
  const content = tg.contentSafeAreaInset || {};
  for (const side of SIDES) {
    const pixels = (Number(device[side]) || 0) + (Number(content[side]) || 0);
    root.style.setProperty(`--safe-${side}`, `${pixels}px`);
  }
}
