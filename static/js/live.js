// Live table screens: commands over the htmx ws extension, with an id and the round version
// the screen shows; fragments ordered by the screen sequence; a gap or a quiet minute asks
// the server whether the screen is behind; a connection indicator.
(function () {
  "use strict";
  var SYNC_MS = parseInt(document.body.getAttribute("data-sync-ms") || "20000", 10);

  function uuid4() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var b = new Uint8Array(16);
    crypto.getRandomValues(b); // available on plain-http intranet pages too
    b[6] = (b[6] & 0x0f) | 0x40; b[8] = (b[8] & 0x3f) | 0x80;
    var h = Array.prototype.map.call(b, function (x) { return (x + 256).toString(16).slice(1); }).join("");
    return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" + h.slice(16, 20) + "-" + h.slice(20);
  }

  function attr(el, name) {
    var value = el ? el.getAttribute(name) : null;
    return value === null ? -1 : parseInt(value, 10);
  }

  function liveVersion() { return attr(document.getElementById("table-live"), "data-version"); }

  function socket() {
    var root = document.getElementById("live-root");
    var data = root && root["htmx-internal-data"];
    var wrapper = data && data.webSocket;
    return wrapper && wrapper.socket && wrapper.socket.readyState === 1 ? wrapper : null;
  }

  // What this screen shows: the table's sequence, or each tile's.
  function syncMessage() {
    var live = document.getElementById("table-live");
    if (live) return { action: "sync", known_seq: attr(live, "data-seq") };
    var known = {};
    document.querySelectorAll("article[id^=tile-]").forEach(function (tile) {
      known[tile.id.slice(5)] = attr(tile, "data-seq");
    });
    return { action: "sync", known: known };
  }

  function sync() {
    var ws = socket();
    if (ws) ws.send(JSON.stringify(syncMessage()));
  }

  function setConn(state) {
    var el = document.getElementById("conn-state");
    if (!el) return;
    el.className = "conn conn-" + state;
    el.textContent = el.getAttribute("data-text-" + state) || state;
    document.body.classList.toggle("offline", state !== "open");
  }

  // Every command: a fresh id, the round version on screen, and the tapped button's value.
  document.body.addEventListener("htmx:wsConfigSend", function (evt) {
    var params = Object.assign({}, evt.detail.parameters);
    var submitter = evt.detail.triggeringEvent && evt.detail.triggeringEvent.submitter;
    if (submitter && submitter.name) params[submitter.name] = submitter.value;
    params.id = uuid4();
    params.expected_version = liveVersion();
    evt.detail.messageBody = JSON.stringify(params);
    document.body.classList.add("pending");
  });

  // Order fragments by the screen sequence: drop one that is not newer than the one shown
  // (equal: the same state, e.g. the full state sent on connect — keep the screen and
  // whatever is being typed into it); after a gap, ask whether anything else was missed.
  document.body.addEventListener("htmx:wsBeforeMessage", function (evt) {
    var tpl = document.createElement("template");
    tpl.innerHTML = evt.detail.message;
    var children = tpl.content.children;
    for (var i = 0; i < children.length; i++) {
      var incoming = attr(children[i], "data-seq");
      var current = children[i].id && document.getElementById(children[i].id);
      if (incoming < 0 || !current || current.getAttribute("data-seq") === null) continue;
      var shown = attr(current, "data-seq");
      if (incoming <= shown) { evt.preventDefault(); return; }
      if (incoming > shown + 1) setTimeout(sync, 0);
    }
  });

  // A panel the croupier opened (the rated players) stays open when a new fragment lands.
  var keptOpen = {};
  document.addEventListener("toggle", function (event) {
    var details = event.target;
    if (details.id && details.hasAttribute && details.hasAttribute("data-keep-open")) keptOpen[details.id] = details.open;
  }, true);

  document.body.addEventListener("htmx:wsAfterMessage", function () {
    document.body.classList.remove("pending");
    Object.keys(keptOpen).forEach(function (id) {
      var details = document.getElementById(id);
      if (details && keptOpen[id] && !details.open) details.open = true;
    });
  });
  document.body.addEventListener("htmx:wsConnecting", function () { setConn("connecting"); });
  document.body.addEventListener("htmx:wsOpen", function () { setConn("open"); });
  // The server closed the socket because this person may no longer use the screen (4403:
  // replaced, assignment ended; 4401: signed out): ask for the page again, which says why
  // and where to go. Once: a page that is refused again right after stays as it is.
  function screenRefused() {
    var closed = document.getElementById("screen-closed");
    if (closed) closed.hidden = false;
    var key = "refused:" + location.pathname;
    var last = parseInt(sessionStorage.getItem(key) || "0", 10);
    if (Date.now() - last < 15000) return;
    sessionStorage.setItem(key, String(Date.now()));
    setTimeout(function () { location.reload(); }, 300);
  }

  document.body.addEventListener("htmx:wsClose", function (evt) {
    var code = evt.detail.event && evt.detail.event.code;
    var refused = code >= 4000 && code < 5000;
    setConn(refused ? "refused" : "closed");
    document.body.classList.remove("pending");
    if (code === 4403 || code === 4401) screenRefused();
    // The ws extension itself retries after 1006, 1011, 1012 and 1013. A server that shut
    // down cleanly (1000, 1001: a restarted worker) is retried here; a refusal is final.
    if (!refused && [1006, 1011, 1012, 1013].indexOf(code) < 0) {
      var wrapper = evt.detail.socketWrapper;
      setTimeout(function () {
        if (wrapper && document.getElementById("live-root")) wrapper.reconnect();
      }, 500 + Math.random() * 2000);
    }
  });

  // A lost fragment, a restarted worker, a forgotten group: the server compares and heals.
  setInterval(sync, SYNC_MS);
})();
