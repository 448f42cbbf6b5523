/* The print view prints itself once it is drawn (charts included). */
window.addEventListener("load", function () {
  window.setTimeout(function () { window.print(); }, 50);
});
