// Stands in for https://telegram.org/js/telegram-web-app.js in the browser tests (the tests
// route that address to this file): the Telegram.WebApp the page uses, holding the initData
// the test signed, and window.telegramTest to fire Telegram's events as the client would.
// The test puts the initData's text in place of INIT_DATA ("" for a plain browser).
(() => {
  const initData = INIT_DATA;
  const unsafe = {};
  for (const [key, value] of new URLSearchParams(initData)) {
    unsafe[key] = key === "user" ? JSON.parse(value) : value;
  }
  const handlers = new Map();
  const haptics = [];
  window.Telegram = {
    WebApp: {
      initData,
      initDataUnsafe: unsafe,
      version: "8.0",
      platform: "tdesktop",
      // No theme: the page's own light and dark colours (prefers-color-scheme) are tested.
      themeParams: {},
      isExpanded: false,
      ready() {},
      expand() {
        this.isExpanded = true;
      },
      onEvent(name, handler) {
        if (!handlers.has(name)) handlers.set(name, []);
        handlers.get(name).push(handler);
      },
      offEvent(name, handler) {
        handlers.set(name, (handlers.get(name) || []).filter((h) => h !== handler));
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
    },
  };
  window.telegramTest = {
    haptics,
    fire(name) {
      for (const handler of handlers.get(name) || []) handler.call(window.Telegram.WebApp);
    },
  };
})();
