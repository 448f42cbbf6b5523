// The tablet's card pad (templates/game/_card_pad.html), outside the pushed fragment: shown
// while the table's fragment says a card may be entered or the last one corrected.
// "Correct the last card" is one act: it names the card being corrected (the fragment's
// #correcting-note), the next tap corrects exactly that card, and the pad deals again.
(function () {
  "use strict";

  function pad() { return document.getElementById("card-pad-box"); }

  function setCorrecting(box, on) {
    box.classList.toggle("correcting", on);
    box.querySelector("[data-pad-action]").value = on ? "correct-card" : "card";
    box.querySelector("[data-correct-open]").setAttribute("aria-expanded", on ? "true" : "false");
  }

  function update() {
    var box = pad();
    var live = document.getElementById("table-live");
    if (!box || !live) return;
    var legal = " " + (live.getAttribute("data-legal") || "") + " ";
    var card = legal.indexOf(" card ") >= 0;
    var correct = legal.indexOf(" correct-card ") >= 0;
    if (!correct) setCorrecting(box, false);
    box.hidden = !(card || correct);
    box.classList.toggle("can-correct", correct);
    var note = document.getElementById("correcting-note");
    box.querySelector(".pad-correcting").textContent = note ? note.textContent : "";
    // Only a correction is possible (e.g. the dealer's last card ended the round): the keys
    // show only once the croupier chose to correct.
    box.classList.toggle("keys-hidden", !card && !box.classList.contains("correcting"));
  }

  document.addEventListener("click", function (event) {
    var box = pad();
    if (!box) return;
    if (event.target.closest("[data-correct-open]")) setCorrecting(box, true);
    else if (event.target.closest("[data-correct-cancel]")) setCorrecting(box, false);
    else return;
    update();
  });

  // The correction is on its way: the next tap is the next card again.
  document.body.addEventListener("htmx:wsConfigSend", function (evt) {
    var box = pad();
    if (box && evt.detail.parameters && evt.detail.parameters.action === "correct-card") {
      setCorrecting(box, false);
      update();
    }
  });
  document.body.addEventListener("htmx:wsAfterMessage", update);
  document.addEventListener("DOMContentLoaded", update);
})();
