// The dealing croupier's card pad (outside the pushed fragment, part of the tablet's page):
// shown while the fragment's data-legal has "card" or "correct-card"; its mode chooses the
// command a key sends. The transport (feed.js) knows nothing of it: the pad shapes its own
// command through the "live:command" event.
(function () {
  "use strict";

  function updatePad() {
    var box = document.getElementById("card-pad-box");
    var live = document.getElementById("table-live");
    if (!box || !live) return;
    var legal = " " + (live.getAttribute("data-legal") || "") + " ";
    var card = legal.indexOf(" card ") >= 0;
    var correct = legal.indexOf(" correct-card ") >= 0;
    box.hidden = !(card || correct);
    box.classList.toggle("can-correct", correct);
    box.classList.toggle("correct-only", correct && !card);
    if (!correct) box.classList.remove("correcting");
    if (card) {
      var mode = box.querySelector("input[name=pad_mode]:checked");
      if (!correct && mode && mode.value !== "card") box.querySelector("input[name=pad_mode][value=card]").checked = true;
    }
    var form = box.querySelector("form");
    if (form) form.hidden = correct && !card && !box.classList.contains("correcting");
  }

  document.addEventListener("click", function (event) {
    var toggle = event.target.closest(".pad-correction-toggle");
    if (!toggle) return;
    var box = document.getElementById("card-pad-box");
    box.classList.toggle("correcting");
    toggle.setAttribute("aria-expanded", box.classList.contains("correcting") ? "true" : "false");
    updatePad();
  });

  // A key sends "card", or "correct-card" in the correction mode (or when only a correction
  // is legal).
  document.addEventListener("live:command", function (event) {
    var params = event.detail.params;
    if (params.pad_mode === undefined) return;
    var box = document.getElementById("card-pad-box");
    var onlyCorrect = box && box.classList.contains("correct-only");
    params.action = onlyCorrect ? "correct-card" : params.pad_mode;
    delete params.pad_mode;
  });

  document.addEventListener("DOMContentLoaded", function () {
    document.body.addEventListener("htmx:wsAfterMessage", updatePad);
    updatePad();
  });
})();
