// The printable pages' Print button (without JavaScript the browser's own Print does the same).
document.querySelectorAll("[data-print]").forEach((button) => {
  button.hidden = false;
  button.addEventListener("click", () => window.print());
});
