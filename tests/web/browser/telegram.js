// Stands in for https://telegram.org/js/telegram-web-app.js in the browser tests (the tests
// route that address to this file): the Telegram.WebApp the page uses, holding the initData
// the test signed, and window.telegramTest to fire Telegram's events as the client would and
// to read what the page asked of the client.
// The test puts the initData's text in place of INIT_DATA ("" for a plain browser) and the
// client's platform in place of TG_PLATFORM ("tdesktop", "android", "ios"...).
(() => {
  const initData = INIT_DATA;
  const unsafe = {};
  for (const [key, value] of new URLSearchParams(initData)) {
    unsafe[key] = key === "user" ? JSON.parse(value) : value;
  }
  const handlers = new Map();
  const haptics = [];
  const calls = []; // every method the page called on the client, in order
  const shares = []; // the prepared messages' ids shareMessage was given
  const zero = () => ({ top: 0, right: 0, bottom: 0, left: 0 });
  const fire = (name, payload) => {
    for (const handler of handlers.get(name) || []) handler.call(window.Telegram.WebApp, payload);
  };
  const newer = (version, than) => {
    const a = String(version).split(".").map(Number);
    const b = String(than).split(".").map(Number);
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if ((a[i] || 0) !== (b[i] || 0)) return (a[i] || 0) > (b[i] || 0);
    }
    return true;
  };
  const webApp = {
    initData,
    initDataUnsafe: unsafe,
    version: "8.0",
    platform: TG_PLATFORM,
    // No theme: the page's own light and dark colours (prefers-color-scheme) are tested.
    themeParams: {},
    colorScheme: "light",
    isExpanded: false,
    isFullscreen: false,
    isClosingConfirmationEnabled: false,
    isVerticalSwipesEnabled: true,
    safeAreaInset: zero(),
    contentSafeAreaInset: zero(),
    isVersionAtLeast(version) {
      return newer(this.version, version);
    },
    ready() {
      calls.push("ready");
    },
    close() {
      calls.push("close");
    },
    expand() {
      calls.push("expand");
      this.isExpanded = true;
    },
    requestFullscreen() {
      calls.push("requestFullscreen");
      this.isFullscreen = true;
      fire("fullscreenChanged");
    },
    enableClosingConfirmation() {
      calls.push("enableClosingConfirmation");
      this.isClosingConfirmationEnabled = true;
    },
    disableClosingConfirmation() {
      calls.push("disableClosingConfirmation");
      this.isClosingConfirmationEnabled = false;
    },
    enableVerticalSwipes() {
      calls.push("enableVerticalSwipes");
      this.isVerticalSwipesEnabled = true;
    },
    disableVerticalSwipes() {
      calls.push("disableVerticalSwipes");
      this.isVerticalSwipesEnabled = false;
    },
    // The client answers as the test set window.telegramTest.shareAnswer: "sent", or the
    // error Telegram reports (USER_DECLINED when the person closes the dialog).
    shareMessage(id, callback) {
      calls.push("shareMessage");
      shares.push(id);
      const answer = window.telegramTest.shareAnswer;
      Promise.resolve().then(() => {
        if (answer === "sent") {
          if (callback) callback(true);
          fire("shareMessageSent");
        } else {
          if (callback) callback(false);
          fire("shareMessageFailed", { error: answer });
        }
      });
    },
    onEvent(name, handler) {
      if (!handlers.has(name)) handlers.set(name, []);
      handlers.get(name).push(handler);
    },
    offEvent(name, handler) {
      handlers.set(name, (handlers.get(name) || []).filter((h) => h !== handler));
    },
    BackButton: {
      isVisible: false,
      show() {
        calls.push("BackButton.show");
        this.isVisible = true;
      },
      hide() {
        calls.push("BackButton.hide");
        this.isVisible = false;
      },
      onClick(handler) {
        webApp.onEvent("backButtonClicked", handler);
      },
      offClick(handler) {
        webApp.offEvent("backButtonClicked", handler);
      },
    },
    HapticFeedback: {
      notificationOccurred(kind) {
        haptics.push(kind);
      },
      impactOccurred(kind) {
        haptics.push(kind);
      },
      selectionChanged() {
        haptics.push("selection");
      },
    },
  };
  window.Telegram = { WebApp: webApp };
  window.telegramTest = {
    haptics,
    calls,
    shares,
    shareAnswer: "sent",
    fire,
    /** A new theme from the client (its parameters replace the old ones), as themeChanged. */
    setTheme(params, scheme = "light") {
      webApp.themeParams = params;
      webApp.colorScheme = scheme;
      fire("themeChanged");
    },
    /** New safe areas: the device's and Telegram's own controls over the content. */
    setInsets(device, content) {
      webApp.safeAreaInset = { ...zero(), ...device };
      webApp.contentSafeAreaInset = { ...zero(), ...content };
      fire("safeAreaChanged");
      fire("contentSafeAreaChanged");
    },
  };
})();
