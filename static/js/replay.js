// Replay keyboard: left/right arrows step back and forward, Home/End jump to the ends.
// The buttons do the work (htmx swaps #replay and pushes ?step=N), so keys and clicks agree.
(function () {
  "use strict";
  const KEYS = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
  let busy = false;
  let refocus = null;
  // Presses made while a step is loading, played in turn once it lands: two quick presses are two
  // steps. A held-down key (e.repeat) queues nothing, so it cannot pile up requests.
  const queue = [];
  const QUEUE_MAX = 8;

  function press(which) {
    const replay = document.getElementById("replay");
    const button = replay && replay.querySelector('[data-replay="' + which + '"]');
    if (button && !button.disabled) button.click();
  }

  document.addEventListener("keydown", function (e) {
    const which = KEYS[e.key];
    if (!which || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    const target = e.target;
    if (target && target.closest && target.closest("input, textarea, select, [contenteditable]")) return;
    const replay = document.getElementById("replay");
    if (!replay) return;
    e.preventDefault();
    if (busy) {
      if (!e.repeat && queue.length < QUEUE_MAX) queue.push(which);
      return;
    }
    press(which);
  });

  document.addEventListener("htmx:beforeRequest", function (e) {
    const replay = document.getElementById("replay");
    if (!replay || !replay.contains(e.detail.elt)) return;
    busy = true;
    const focused = document.activeElement;
    refocus = focused && focused.dataset ? focused.dataset.replay || null : null;
  });

  // The step has been swapped in by now: the next press waits for htmx to finish with this one.
  document.addEventListener("htmx:afterRequest", function (e) {
    busy = false;
    if (!e.detail.successful) queue.length = 0;
    if (queue.length) setTimeout(function () { if (!busy && queue.length) press(queue.shift()); }, 0);
  });

  // The swap replaces the focused button: put keyboard focus back on its successor.
  document.addEventListener("htmx:afterSettle", function () {
    const replay = document.getElementById("replay");
    if (!replay) return;
    if (refocus) {
      const order = refocus === "next" || refocus === "last" ? [refocus, "prev"] : [refocus, "next"];
      for (const which of order) {
        const button = replay.querySelector('[data-replay="' + which + '"]:not([disabled])');
        if (button) { button.focus(); break; }
      }
      refocus = null;
    }
  });
})();
