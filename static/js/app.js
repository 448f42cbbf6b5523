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

  // A table wider than its box scrolls inside it: say so above it while there is more to
  // see sideways (data-scroll-cue holds the words, in the person's language).
  function scrollCues() {
    document.querySelectorAll("[data-scroll-cue]").forEach(function (box) {
      var cue = box.previousElementSibling;
      if (!cue || !cue.classList.contains("scroll-cue")) {
        cue = document.createElement("p");
        cue.className = "scroll-cue";
        cue.setAttribute("data-testid", "scroll-cue");
        cue.textContent = box.getAttribute("data-scroll-cue");
        box.parentNode.insertBefore(cue, box);
      }
      var wider = box.scrollWidth > box.clientWidth + 1;
      cue.hidden = !wider;
      // A region that scrolls is reachable by the keyboard too (arrow keys scroll it).
      if (wider) {
        box.setAttribute("tabindex", "0");
        box.setAttribute("role", "region");
        box.setAttribute("aria-label", box.getAttribute("data-scroll-cue"));
      } else {
        box.removeAttribute("tabindex");
      }
    });
  }
  document.addEventListener("DOMContentLoaded", scrollCues);
  window.addEventListener("resize", scrollCues);
})();
