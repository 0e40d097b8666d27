// Small page helpers; htmx does the rest.
document.addEventListener("htmx:wsOpen", (event) => {
  const el = event.detail.elt.closest("[data-state]");
  if (el) {
    el.dataset.state = "open";
    const s = el.querySelector(".ws-state");
    if (s) s.textContent = "connected";
  }
});
document.addEventListener("htmx:wsClose", (event) => {
  const el = event.detail.elt.closest("[data-state]");
  if (el) {
    el.dataset.state = "closed";
    const s = el.querySelector(".ws-state");
    if (s) s.textContent = "reconnecting…";
  }
});
