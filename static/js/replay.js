// Replay keyboard: left/right arrows step back and forward, Home/End jump to the ends.
// The buttons do the work (htmx swaps #replay and pushes ?step=N), so keys and clicks agree.
(function () {
  "use strict";
  const KEYS = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
  let busy = false;
  let refocus = null;

  document.addEventListener("keydown", function (e) {
    const which = KEYS[e.key];
    if (!which || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    const target = e.target;
    if (target && target.closest && target.closest("input, textarea, select, [contenteditable]")) return;
    const replay = document.getElementById("replay");
    if (!replay) return;
    e.preventDefault();
    if (busy) return;  // a held-down key must not queue a pile of requests
    const button = replay.querySelector('[data-replay="' + which + '"]');
    if (button && !button.disabled) button.click();
  });

  document.addEventListener("htmx:beforeRequest", function (e) {
    const replay = document.getElementById("replay");
    if (!replay || !replay.contains(e.detail.elt)) return;
    busy = true;
    const focused = document.activeElement;
    refocus = focused && focused.dataset ? focused.dataset.replay || null : null;
  });

  document.addEventListener("htmx:afterRequest", function () { busy = false; });

  // The swap replaces the focused button: put keyboard focus back on its successor.
  document.addEventListener("htmx:afterSettle", function () {
    const replay = document.getElementById("replay");
    if (!replay || !refocus) return;
    const order = refocus === "next" || refocus === "last" ? [refocus, "prev"] : [refocus, "next"];
    for (const which of order) {
      const button = replay.querySelector('[data-replay="' + which + '"]:not([disabled])');
      if (button) { button.focus(); break; }
    }
    refocus = null;
  });
})();
