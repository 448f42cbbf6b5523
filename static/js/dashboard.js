// The inspector's dashboard: "for how long" each person has worked the table, counted here
// from the assignment's start (data-since) and the server's clock at render (data-now), so
// the tile is rendered once per change and still reads "1 h 05 min" an hour later.
(function () {
  "use strict";

  function tick() {
    var els = document.querySelectorAll(".since[data-since]");
    for (var i = 0; i < els.length; i++) {
      var el = els[i];
      if (el._offset === undefined) {
        var serverNow = Date.parse(el.getAttribute("data-now"));
        el._offset = isNaN(serverNow) ? 0 : serverNow - Date.now();
      }
      var since = Date.parse(el.getAttribute("data-since"));
      var minutes = Math.max(0, Math.floor((Date.now() + el._offset - since) / 60000));
      var h = Math.floor(minutes / 60), m = minutes % 60;
      el.textContent = "(" + (h ? h + " h " + (m < 10 ? "0" : "") : "") + m + " min)";
    }
  }

  setInterval(tick, 15000);
  document.addEventListener("DOMContentLoaded", function () {
    document.body.addEventListener("htmx:wsAfterMessage", tick);
    tick();
  });
})();
