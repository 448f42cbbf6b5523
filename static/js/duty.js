// The duty administrator's live totals: the server sends the complete fragment on connect
// and after every cash-desk write; reconnect with a back-off when the socket drops.
(function () {
  const box = document.getElementById("duty-totals");
  if (!box) return;
  let delay = 1000;
  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    const socket = new WebSocket(scheme + location.host + box.dataset.ws);
    socket.onopen = () => { delay = 1000; };
    socket.onmessage = (event) => {
      // The replacement requests panel comes whole, by its id; anything else is the totals.
      if (event.data.startsWith('<section id="duty-replacements"')) {
        const panel = document.getElementById("duty-replacements");
        if (panel) panel.outerHTML = event.data;
        return;
      }
      box.innerHTML = event.data;
    };
    socket.onclose = (event) => {
      if (event.code === 4401 || event.code === 4403) return;
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 30000);
    };
  }
  connect();
})();
