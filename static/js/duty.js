// The duty administrator's live screen. The server sends the complete live part
// (<section id="duty-live" data-seq>) on connect and on every sync (every 20 s: a lost push
// heals), and after every change a delta: the same section marked data-delta, holding the
// changed tables' rows (<tr data-table>) and the floor-wide parts (hx-swap-oob, by id).
// A delta applies only on top of the one just before it (data-seq one higher); after a gap,
// or when it names a row or part the screen lacks, the screen asks for the full state.
// Nothing is replaced while the administrator is typing in the live part: what arrives
// waits, in order, until the field is left.
(function () {
  "use strict";
  const root = document.getElementById("duty-root");
  if (!root) return;
  let delay = 1000;
  let socket = null;
  let pending = [];

  function live() { return document.getElementById("duty-live"); }

  function shownSeq() {
    const part = live();
    return part ? parseInt(part.getAttribute("data-seq"), 10) : -1;
  }

  function busy() {
    const part = live();
    const active = document.activeElement;
    return !!(part && active && part.contains(active) && active.matches("input, select, textarea"));
  }

  function askFull() {
    if (socket && socket.readyState === 1) socket.send(JSON.stringify({ action: "sync", known_seq: shownSeq() }));
  }

  function applyDelta(incoming, seq) {
    const shown = shownSeq();
    if (seq <= shown) return;
    if (seq !== shown + 1) { askFull(); return; }
    const part = live();
    let missing = false;
    incoming.querySelectorAll("tr[data-table]").forEach(function (row) {
      const old = part.querySelector('#duty-totals tr[data-table="' + row.getAttribute("data-table") + '"]');
      if (old) old.replaceWith(row); else missing = true;
    });
    incoming.querySelectorAll("[hx-swap-oob]").forEach(function (element) {
      const old = element.id ? document.getElementById(element.id) : null;
      element.removeAttribute("hx-swap-oob");
      if (old && part.contains(old)) old.replaceWith(element); else missing = true;
    });
    part.setAttribute("data-seq", String(seq));
    const totals = part.querySelector('[data-testid="live-totals"]');
    if (totals) totals.setAttribute("data-version", String(seq));
    if (missing) askFull();
  }

  function apply(html) {
    const tpl = document.createElement("template");
    tpl.innerHTML = html.trim();
    const incoming = tpl.content.firstElementChild;
    if (!incoming || incoming.id !== "duty-live") return;
    const seq = parseInt(incoming.getAttribute("data-seq"), 10);
    const delta = incoming.hasAttribute("data-delta");
    if (busy()) {
      if (!delta) pending = [];
      pending.push(html);
      return;
    }
    if (delta) { applyDelta(incoming, seq); return; }
    // The sync answer repeats the shown sequence: take it too (it is the healing copy).
    if (seq < shownSeq()) return;
    const part = live();
    if (part) part.replaceWith(incoming);
  }

  root.addEventListener("focusout", function () {
    setTimeout(function () {
      if (busy()) return;
      const waiting = pending;
      pending = [];
      waiting.forEach(apply);
    }, 0);
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

  setInterval(askFull, 20000);
})();
