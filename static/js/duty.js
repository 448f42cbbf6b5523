// The duty administrator's live screen: the server sends the complete live part on connect,
// after every change it shows, and on every sync (every 20 s: a lost push heals). A newer
// part replaces the one on screen, but never while the administrator is typing in it:
// it waits until the field is left.
(function () {
  "use strict";
  const root = document.getElementById("duty-root");
  if (!root) return;
  let delay = 1000;
  let socket = null;
  let pending = null;

  function shownSeq() {
    const live = document.getElementById("duty-live");
    return live ? parseInt(live.getAttribute("data-seq"), 10) : -1;
  }

  function busy() {
    const live = document.getElementById("duty-live");
    const active = document.activeElement;
    return !!(live && active && live.contains(active) && active.matches("input, select, textarea"));
  }

  function apply(html) {
    const tpl = document.createElement("template");
    tpl.innerHTML = html.trim();
    const incoming = tpl.content.firstElementChild;
    if (!incoming || incoming.id !== "duty-live") return;
    // The sync answer repeats the shown sequence: take it too (it is the healing copy).
    if (parseInt(incoming.getAttribute("data-seq"), 10) < shownSeq()) return;
    if (busy()) { pending = html; return; }
    pending = null;
    const live = document.getElementById("duty-live");
    if (live) live.replaceWith(incoming);
  }

  root.addEventListener("focusout", function () {
    setTimeout(function () { if (pending && !busy()) apply(pending); }, 0);
  });

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + root.dataset.ws);
    socket.onopen = () => { delay = 1000; };
    socket.onmessage = (event) => apply(event.data);
    socket.onclose = (event) => {
      if (event.code === 4401 || event.code === 4403) return;
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 30000);
    };
  }
  connect();

  setInterval(function () {
    if (socket && socket.readyState === 1) socket.send(JSON.stringify({ action: "sync", known_seq: shownSeq() }));
  }, 20000);
})();
