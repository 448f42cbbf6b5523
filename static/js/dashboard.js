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
      var uh = el.getAttribute("data-unit-hours") || "h";
      var um = el.getAttribute("data-unit-minutes") || "min";
      el.textContent = "(" + (h ? h + " " + uh + " " + (m < 10 ? "0" : "") : "") + m + " " + um + ")";
    }
  }

  // Acknowledging: the tile's button opens the page's dialog (outside the tiles, which
  // pushes replace) for the alert; the note is posted with htmx, the tile heals by push.
  function openAck(button) {
    var dialog = document.getElementById("ack-dialog");
    if (!dialog) return;
    var form = dialog.querySelector("form");
    form.elements.alert.value = button.getAttribute("data-ack");
    // A critical money alert is cleared by two people: the second signs with his password.
    var second = button.hasAttribute("data-ack-second");
    document.getElementById("ack-second").hidden = !second;
    form.elements.second.required = second;
    form.elements.second_password.required = second;
    var alert = button.closest(".alert");
    var text = alert ? alert.querySelector("span") : null;
    document.getElementById("ack-dialog-text").textContent = text ? text.textContent : "";
    if (typeof dialog.showModal === "function") dialog.showModal();
    else dialog.setAttribute("open", "");
    form.elements.note.focus();
  }

  function closeAck() {
    var dialog = document.getElementById("ack-dialog");
    if (!dialog) return;
    dialog.querySelector("form").reset();
    if (typeof dialog.close === "function") dialog.close();
    else dialog.removeAttribute("open");
  }

  setInterval(tick, 15000);
  document.addEventListener("DOMContentLoaded", function () {
    document.body.addEventListener("htmx:wsAfterMessage", tick);
    document.body.addEventListener("click", function (event) {
      var button = event.target.closest("[data-ack]");
      if (button) openAck(button);
      if (event.target.closest("[data-ack-cancel]")) closeAck();
    });
    document.body.addEventListener("htmx:afterRequest", function (event) {
      if (event.target.closest && event.target.closest("#ack-dialog")) closeAck();
    });
    tick();
  });
})();
