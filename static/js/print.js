// The printable cash report opens the print dialog once loaded (no inline handler: the
// Content-Security-Policy allows scripts from files only).
window.addEventListener("load", () => window.print());
