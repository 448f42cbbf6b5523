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

  // Forms inside pushed fragments are rendered once for every screen, so they carry no CSRF
  // token of their own: add this page's token when such a form is posted.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form || (form.getAttribute("method") || "").toLowerCase() !== "post") return;
    if (form.querySelector("input[name=csrfmiddlewaretoken]")) return;
    var headers = document.body.getAttribute("hx-headers");
    var token = "";
    try { token = JSON.parse(headers || "{}")["X-CSRFToken"] || ""; } catch (e) { token = ""; }
    if (!token) return;
    var input = document.createElement("input");
    input.type = "hidden";
    input.name = "csrfmiddlewaretoken";
    input.value = token;
    form.appendChild(input);
  }, true);
})();
