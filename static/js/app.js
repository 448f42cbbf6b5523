// Small helpers shared by every screen. No framework: htmx does the rest.
(function () {
  "use strict";
  // PIN keypad: taps fill the PIN field.
  document.addEventListener("click", function (event) {
    var key = event.target.closest("[data-keypad] [data-digit], [data-keypad] [data-clear]");
    if (!key) return;
    var form = key.closest("form");
    var field = form && form.querySelector("[data-pin]");
    if (!field) return;
    if (key.hasAttribute("data-clear")) field.value = "";
    else if (field.value.length < 6) field.value += key.getAttribute("data-digit");
    field.focus();
  });
})();
