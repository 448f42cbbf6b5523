/* The print view prints itself once it is drawn (charts included), then marks the page
 * (html[data-printed]) so anyone waiting for the print dialogue to be over can tell. */
window.addEventListener("load", function () {
  window.setTimeout(function () {
    window.print();
    document.documentElement.dataset.printed = "true";
  }, 50);
});
