// Reservation countdowns on every screen of a table and on the inspector's tiles. They tick
// between pushes, from the token's expiry time in the fragment and the server's clock at
// render (data-now), so a wrong clock on the device does not matter. At zero the screen asks
// the server, through the feed's sync (feed.js, "live:sync"), to end due tokens now; the
// run_reservation_expiry worker does it anyway.
(function () {
  "use strict";

  var lastAsk = 0;

  function tick() {
    var els = document.querySelectorAll(".countdown[data-expires]");
    var due = false;
    for (var i = 0; i < els.length; i++) {
      var el = els[i];
      if (el._offset === undefined) {
        var serverNow = Date.parse(el.getAttribute("data-now"));
        el._offset = isNaN(serverNow) ? 0 : serverNow - Date.now();
      }
      var expires = Date.parse(el.getAttribute("data-expires"));
      var left = Math.max(0, Math.ceil((expires - Date.now() - el._offset) / 1000));
      var m = Math.floor(left / 60), s = left % 60;
      el.textContent = m + ":" + (s < 10 ? "0" : "") + s;
      el.setAttribute("data-left", String(left));
      el.classList.toggle("soon", left <= 120);
      if (left === 0) due = true;
    }
    if (due && Date.now() - lastAsk > 2000) {
      lastAsk = Date.now();
      document.dispatchEvent(new CustomEvent("live:sync", { detail: { expire_due: true } }));
    }
  }

  setInterval(tick, 500);
  document.addEventListener("DOMContentLoaded", function () {
    document.body.addEventListener("htmx:wsAfterMessage", tick);
    tick();
  });
})();
