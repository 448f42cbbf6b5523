// The one client of every live screen (docs/protocol.md, "The one client"): the tablet, the
// observer's and inspector's table screens, the dashboards of tiles, the duty floor.
//
// * The htmx ws extension holds the socket (hx-ext="ws,morph" and ws-connect on the page's
//   [data-live-root]) and swaps what arrives by id, morphed by idiomorph ("morph", registered
//   here) so the field being typed in keeps its focus and value and a panel the person
//   opened stays open.
// * Every pushed part carries its topic and sequence (data-topic, data-seq; data-delta on a
//   part that applies only on top of the one before). What the page shows of a topic is in
//   the DOM; an older message is dropped, a delta after a gap is dropped and the screen asks
//   sync with what it shows ({"action": "sync", "known": {topic: seq}}), as it does every
//   20 s; the server answers what is missing.
// * Taps (ws-send forms) go out one at a time, in order, each with its id; the next one
//   leaves when the previous one is answered, on the round version that answer gave. While
//   the socket is down they wait here ("offline — 3 taps waiting") and go out on reconnect
//   with the same ids (a repeated id acts once). The first refused one stops the queue: the
//   refusal says why, the rest are shown as not sent.
// * Reconnects with exponential back-off and full jitter.
// Screen logic (the card pad, countdowns, the tiles' clocks, charts) lives in its own
// scripts: they shape a command through the "live:command" event and ask a sync with
// "live:sync"; nothing here knows them, and nothing here reads htmx's internals.
(function () {
  "use strict";
  var root = document.querySelector("[data-live-root]");
  if (!root || !window.htmx || !window.Idiomorph) return;
  var SYNC_MS = parseInt(document.body.getAttribute("data-sync-ms") || "20000", 10);
  var socket = null; // the ws extension's public wrapper (send, reconnect, queue)
  var open = false;
  var retries = 0;
  var queue = []; // taps not yet answered, in order; queue[0] may be in flight
  var inFlight = null;
  var answered = null; // the round version the last answered tap left
  var notSent = [];
  var current = null; // the topic of the message being swapped
  var lastSync = 0;

  // -- morphing ---------------------------------------------------------------------------
  var touched = new WeakSet(); // <details> the person opened or closed themselves
  document.addEventListener("click", function (event) {
    var summary = event.target.closest && event.target.closest("summary");
    if (summary && summary.parentElement) touched.add(summary.parentElement);
  }, true);

  function keepOwnState(name, node) {
    return !(name === "open" && node.tagName === "DETAILS" && touched.has(node));
  }

  var MORPH = {
    morphStyle: "outerHTML",
    ignoreActiveValue: true,
    callbacks: { beforeAttributeUpdated: keepOwnState },
  };

  var missing = false; // an "upsert" named an element the page lacks

  function outermostWithIds(wrapper) {
    return Array.prototype.filter.call(wrapper.querySelectorAll("[id]"), function (el) {
      for (var up = el.parentElement; up && up !== wrapper; up = up.parentElement) if (up.id) return false;
      return true;
    });
  }

  // "morph": the element replaces its namesake by morphing. "upsert:#target": each element
  // with an id inside it morphs its namesake inside the target — the rows of a table that
  // changed, carried in a <table> so that the HTML parser keeps them; an element the page
  // lacks asks for the topic's full state.
  htmx.defineExtension("morph", {
    isInlineSwap: function (style) { return style === "morph" || style === "upsert"; },
    handleSwap: function (style, target, fragment) {
      if (style === "morph") return Idiomorph.morph(target, fragment.children, MORPH);
      if (style !== "upsert" || !fragment.firstElementChild) return false;
      var morphed = [];
      outermostWithIds(fragment.firstElementChild).forEach(function (incoming) {
        var old = document.getElementById(incoming.id);
        if (old && target.contains(old)) morphed = morphed.concat(Idiomorph.morph(old, incoming, MORPH));
        else missing = true;
      });
      return morphed; // an array, even empty: handled here
    },
  });

  // -- what the page shows ------------------------------------------------------------------
  function number(el, name) {
    var value = el ? parseInt(el.getAttribute(name), 10) : NaN;
    return isNaN(value) ? -1 : value;
  }

  function shown() {
    var known = {};
    root.querySelectorAll("[data-topic]").forEach(function (el) {
      var topic = el.getAttribute("data-topic");
      known[topic] = Math.max(known[topic] === undefined ? -1 : known[topic], number(el, "data-seq"));
    });
    return known;
  }

  function shownVersion() { return number(document.getElementById("table-live"), "data-version"); }

  function send(message) {
    if (!open || !socket) return false;
    socket.send(JSON.stringify(message));
    return true;
  }

  function sync(extra) {
    return send(Object.assign({ action: "sync", known: shown() }, extra || {}));
  }

  // The page lacks part of a topic: forget what it shows of it, so that the full state the
  // server answers with is taken whatever its number.
  function askFull(topic) {
    root.querySelectorAll("[data-topic]").forEach(function (el) {
      if (el.getAttribute("data-topic") === topic) el.setAttribute("data-seq", "-1");
    });
    sync();
  }

  function syncSoon() {
    if (Date.now() - lastSync < 500) return;
    lastSync = Date.now();
    setTimeout(function () { sync(); }, 0);
  }

  document.addEventListener("live:sync", function (event) { sync(event.detail || {}); });

  // -- what arrives ---------------------------------------------------------------------------
  document.body.addEventListener("htmx:wsBeforeMessage", function (evt) {
    var tpl = document.createElement("template");
    tpl.innerHTML = evt.detail.message;
    var answer = tpl.content.querySelector("[data-ack]");
    if (answer) onAnswer(answer);
    var marker = tpl.content.querySelector("[data-topic][data-seq]");
    current = null;
    if (!marker) return;
    var topic = marker.getAttribute("data-topic");
    var seq = number(marker, "data-seq");
    var showing = shown()[topic];
    showing = showing === undefined ? -1 : showing;
    var delta = marker.getAttribute("data-delta") === "true";
    // Not newer: the same state again (the full state after a reconnection) or an older one
    // overtaken — keep the page and whatever is being typed into it.
    if (seq <= showing) { evt.preventDefault(); return; }
    if (delta && seq !== showing + 1) { evt.preventDefault(); syncSoon(); return; }
    current = { topic: topic, delta: delta };
  });

  // A part with no place on the page: a complete one (a tile of a table just assigned) is
  // added; a delta that names what the page lacks asks for the topic's full state.
  document.body.addEventListener("htmx:oobErrorNoTarget", function (evt) {
    var content = evt.detail && evt.detail.content;
    if (!current || !content) return;
    if (!current.delta && content.hasAttribute && content.hasAttribute("data-topic")) {
      content.removeAttribute("hx-swap-oob");
      root.appendChild(content);
      htmx.process(content);
    } else {
      askFull(current.topic);
    }
  });

  document.body.addEventListener("htmx:wsAfterMessage", function () {
    if (missing && current) askFull(current.topic);
    missing = false;
    current = null;
  });

  // -- taps -------------------------------------------------------------------------------------
  function uuid4() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var b = new Uint8Array(16);
    crypto.getRandomValues(b); // available on plain-http intranet pages too
    b[6] = (b[6] & 0x0f) | 0x40; b[8] = (b[8] & 0x3f) | 0x80;
    var h = Array.prototype.map.call(b, function (x) { return (x + 256).toString(16).slice(1); }).join("");
    return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" + h.slice(16, 20) + "-" + h.slice(20);
  }

  function labelOf(submitter, form) {
    var button = submitter || (form && form.querySelector("button[type=submit], button:not([type])"));
    return ((button && (button.getAttribute("aria-label") || button.textContent)) || "").replace(/\s+/g, " ").trim();
  }

  document.body.addEventListener("htmx:wsConfigSend", function (evt) {
    evt.preventDefault(); // sent from here: in order, once, after an outage too
    var form = evt.target;
    var params = Object.assign({}, evt.detail.parameters);
    var submitter = evt.detail.triggeringEvent && evt.detail.triggeringEvent.submitter;
    if (submitter && submitter.name) params[submitter.name] = submitter.value;
    var tap = {
      id: uuid4(),
      params: params,
      version: shownVersion(),
      chained: queue.length > 0, // made before the one ahead was answered
      label: labelOf(submitter, form),
      form: form,
    };
    // A screen's own script may shape the command (the card pad's mode) or keep it back.
    var shaping = new CustomEvent("live:command", { detail: tap, bubbles: true, cancelable: true });
    if (!form.dispatchEvent(shaping)) return;
    notSent = [];
    queue.push(tap);
    pump();
  });

  function pump() {
    if (!inFlight && queue.length && open) {
      var tap = queue[0];
      var message = Object.assign({}, tap.params, { id: tap.id });
      message.expected_version = tap.chained && answered !== null ? answered : tap.version;
      if (send(message)) inFlight = tap;
    }
    showQueue();
  }

  function onAnswer(el) {
    if (!inFlight || el.getAttribute("data-ack") !== inFlight.id) return;
    var tap = queue.shift();
    inFlight = null;
    var version = number(el, "data-version");
    answered = version >= 0 ? version : null;
    if (!el.getAttribute("data-code")) {
      // Accepted: what was typed for it is done with (a refused one keeps it, to correct).
      if (tap.form.tagName === "FORM" && document.body.contains(tap.form) &&
          !tap.form.hasAttribute("data-keep-values")) tap.form.reset();
    } else {
      // Refused: it says why (this very element, swapped in); what was tapped after it was
      // made on a table that did not move that way — not sent.
      notSent = queue.map(function (t) { return t.label; });
      queue = [];
      answered = null;
    }
    pump();
  }

  function plural(count) {
    var box = document.getElementById("tap-queue");
    var forms = {};
    try { forms = JSON.parse(box.getAttribute("data-waiting") || "{}"); } catch (e) { forms = {}; }
    var category = "other";
    try { category = new Intl.PluralRules(document.documentElement.lang || "en").select(count); } catch (e) { category = "other"; }
    return (forms[category] || forms.other || "%(count)s").replace("%(count)s", String(count));
  }

  function showQueue() {
    var box = document.getElementById("tap-queue");
    document.body.classList.toggle("pending", !!inFlight);
    if (!box) return;
    var text = "";
    var state = "";
    if (!open && queue.length) {
      text = plural(queue.length);
      state = "waiting";
    } else if (notSent.length) {
      text = (box.getAttribute("data-not-sent") || "%(taps)s").replace("%(taps)s", notSent.join(" · "));
      state = "not-sent";
    }
    box.textContent = text;
    box.setAttribute("data-state", state);
    box.setAttribute("data-count", String(state === "waiting" ? queue.length : notSent.length));
    box.hidden = !text;
  }

  // -- the connection ---------------------------------------------------------------------------
  function backoff(attempt) {
    // Full jitter: anywhere up to 0.5 s × 2^attempt, capped at 30 s; at least 0.25 s.
    var cap = Math.min(30000, 500 * Math.pow(2, Math.min(attempt, 6)));
    return 250 + Math.random() * cap;
  }
  htmx.config.wsReconnectDelay = backoff;

  function setConn(state) {
    var el = document.getElementById("conn-state");
    document.body.classList.toggle("offline", state !== "open");
    if (!el) return;
    el.className = "conn conn-" + state;
    el.textContent = el.getAttribute("data-text-" + state) || state;
  }

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

  document.body.addEventListener("htmx:wsConnecting", function () { setConn("connecting"); });
  document.body.addEventListener("htmx:wsOpen", function (evt) {
    socket = evt.detail.socketWrapper;
    open = true;
    retries = 0;
    setConn("open");
    pump(); // what waited goes out now, with its ids (the server acts on each id once)
  });
  document.body.addEventListener("htmx:wsClose", function (evt) {
    var code = evt.detail.event && evt.detail.event.code;
    var refused = code >= 4000 && code < 5000;
    open = false;
    inFlight = null; // unanswered: it goes again, with the same id, on reconnect
    socket = evt.detail.socketWrapper || socket;
    if (socket && socket.queue) socket.queue.length = 0; // ours to resend, not the extension's
    setConn(refused ? "refused" : "closed");
    showQueue();
    if (code === 4403 || code === 4401) screenRefused();
    // The ws extension itself retries after 1006, 1011, 1012 and 1013 (with backoff above).
    // A server that shut down cleanly (1000, 1001: a restarted worker) is retried here; a
    // refusal is final.
    if (!refused && [1006, 1011, 1012, 1013].indexOf(code) < 0 && socket) {
      var wrapper = socket;
      setTimeout(function () { if (document.body.contains(root)) wrapper.reconnect(); }, backoff(retries++));
    }
  });

  // A lost message, a restarted worker: the server compares with the database and heals.
  setInterval(function () { sync(); }, SYNC_MS);
})();
