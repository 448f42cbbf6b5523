// Live table screens: commands over the htmx ws extension, with an id, the version the screen
// shows, a connection indicator, stale-message protection and a periodic resync.
(function () {
  "use strict";

  function uuid4() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var b = new Uint8Array(16);
    crypto.getRandomValues(b); // available on plain-http intranet pages too
    b[6] = (b[6] & 0x0f) | 0x40; b[8] = (b[8] & 0x3f) | 0x80;
    var h = Array.prototype.map.call(b, function (x) { return (x + 256).toString(16).slice(1); }).join("");
    return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" + h.slice(16, 20) + "-" + h.slice(20);
  }

  function liveVersion() {
    var el = document.getElementById("table-live");
    return el ? parseInt(el.getAttribute("data-version"), 10) : -1;
  }

  function setConn(state) {
    var el = document.getElementById("conn-state");
    if (!el) return;
    el.className = "conn conn-" + state;
    el.textContent = el.getAttribute("data-text-" + state) || state;
    document.body.classList.toggle("offline", state !== "open");
  }

  // Every command: a fresh id, the version on screen, and the tapped button's value.
  document.body.addEventListener("htmx:wsConfigSend", function (evt) {
    var params = Object.assign({}, evt.detail.parameters);
    var submitter = evt.detail.triggeringEvent && evt.detail.triggeringEvent.submitter;
    if (submitter && submitter.name) params[submitter.name] = submitter.value;
    params.id = uuid4();
    params.expected_version = liveVersion();
    evt.detail.messageBody = JSON.stringify(params);
    document.body.classList.add("pending");
  });

  // Drop a fragment that is not newer than the one on screen.
  document.body.addEventListener("htmx:wsBeforeMessage", function (evt) {
    var tpl = document.createElement("template");
    tpl.innerHTML = evt.detail.message;
    var children = tpl.content.children;
    for (var i = 0; i < children.length; i++) {
      var incoming = children[i].getAttribute("data-version");
      var current = children[i].id && document.getElementById(children[i].id);
      // Older than the screen: overtaken. Equal: the same state (the full state sent on
      // connect) — keep the screen, and whatever the croupier is typing into it.
      if (incoming !== null && current && current.getAttribute("data-version") !== null &&
          parseInt(incoming, 10) <= parseInt(current.getAttribute("data-version"), 10)) {
        evt.preventDefault();
        return;
      }
    }
  });

  document.body.addEventListener("htmx:wsAfterMessage", function () {
    document.body.classList.remove("pending");
  });
  document.body.addEventListener("htmx:wsConnecting", function () { setConn("connecting"); });
  document.body.addEventListener("htmx:wsOpen", function () { setConn("open"); });
  document.body.addEventListener("htmx:wsClose", function (evt) {
    var code = evt.detail.event && evt.detail.event.code;
    var refused = code >= 4000 && code < 5000;
    setConn(refused ? "refused" : "closed");
    document.body.classList.remove("pending");
    // The ws extension itself retries after 1006, 1011, 1012 and 1013. A server that shut
    // down cleanly (1000, 1001: a restarted worker) is retried here; a refusal is final.
    if (!refused && [1006, 1011, 1012, 1013].indexOf(code) < 0) {
      var wrapper = evt.detail.socketWrapper;
      setTimeout(function () {
        if (wrapper && document.getElementById("live-root")) wrapper.reconnect();
      }, 500 + Math.random() * 2000);
    }
  });

  // Resync every 20 s: a fragment lost by the channel layer heals without waiting for the
  // next change.
  setInterval(function () {
    var root = document.getElementById("live-root");
    if (!root || !window.htmx) return;
    var socket = root["htmx-internal-data"] && root["htmx-internal-data"].webSocket;
    if (socket && socket.socket && socket.socket.readyState === 1 && document.getElementById("table-live")) {
      socket.send(JSON.stringify({ action: "sync", known_version: liveVersion() }));
    }
  }, 20000);
})();
