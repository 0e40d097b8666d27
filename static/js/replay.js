// Replay keyboard: left/right arrows step back and forward, Home/End jump to the ends.
// The buttons do the work (htmx swaps #replay and pushes ?step=N), so keys and clicks agree.
(function () {
  "use strict";
  const KEYS = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
  // The step in flight, from its beforeRequest until its request has ended. htmx takes over the
  // swapped-in form only when it settles: a press before that would click a button htmx does not
  // yet handle, and the browser would submit the form itself.
  let pending = null;
  let refocus = null;
  // Presses and clicks made while a step is loading, played in turn once it has settled: two quick
  // presses are two steps. A held-down key (e.repeat) queues nothing, so it cannot pile up requests.
  const queue = [];
  const QUEUE_MAX = 8;

  function press(which) {
    const replay = document.getElementById("replay");
    const button = replay && replay.querySelector('[data-replay="' + which + '"]');
    if (button && !button.disabled) button.click();
  }

  // A click on a step button while a step is loading joins the same queue: htmx would otherwise
  // hold it for the form being swapped away and drop it, so quick clicks lost a step.
  document.addEventListener("click", function (e) {
    if (!pending) return;
    const button = e.target && e.target.closest && e.target.closest("[data-replay]");
    const replay = document.getElementById("replay");
    if (!button || !replay || !replay.contains(button)) return;
    e.preventDefault();
    e.stopPropagation();
    if (queue.length < QUEUE_MAX) queue.push(button.dataset.replay);
  }, true);

  document.addEventListener("keydown", function (e) {
    const which = KEYS[e.key];
    if (!which || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    const target = e.target;
    if (target && target.closest && target.closest("input, textarea, select, [contenteditable]")) return;
    const replay = document.getElementById("replay");
    if (!replay) return;
    e.preventDefault();
    if (pending) {
      if (!e.repeat && queue.length < QUEUE_MAX) queue.push(which);
      return;
    }
    press(which);
  });

  // A step is in flight from its beforeRequest until its request ends, however it ends: the answer
  // swapped and settled, refused, lost, or swapped into a page Back took away. Its end is read off the
  // request itself ("loadend" comes after htmx has handled the answer, and settles with no delay), so a
  // settle that is never heard cannot leave the keys queueing behind a step that is over.
  document.addEventListener("htmx:beforeRequest", function (e) {
    const replay = document.getElementById("replay");
    if (!replay || !replay.contains(e.detail.elt)) return;
    const xhr = e.detail.xhr;
    pending = xhr;
    const focused = document.activeElement;
    refocus = focused && focused.dataset ? focused.dataset.replay || null : null;
    xhr.addEventListener("loadend", function () {
      if (pending !== xhr) return;
      pending = null;
      if (xhr.status >= 200 && xhr.status < 300) next();
      else queue.length = 0;  // a refused or lost step: what was queued behind it is dropped
    });
  });

  // The new step is in and htmx handles its buttons: put keyboard focus back on the successor of the
  // button the swap replaced.
  document.addEventListener("htmx:afterSettle", function (e) {
    const replay = document.getElementById("replay");
    if (!replay || e.target !== replay || !refocus) return;
    const order = refocus === "next" || refocus === "last" ? [refocus, "prev"] : [refocus, "next"];
    for (const which of order) {
      const button = replay.querySelector('[data-replay="' + which + '"]:not([disabled])');
      if (button) { button.focus(); break; }
    }
    refocus = null;
  });

  function next() {
    if (queue.length) press(queue.shift());
  }

  // Back or Forward through htmx's history puts an earlier page in place: the step still loading
  // belongs to the page taken away, and is called off before its answer pushes that page's URL.
  document.addEventListener("htmx:historyRestore", function () {
    const xhr = pending;
    pending = null;
    queue.length = 0;
    refocus = null;
    if (xhr) xhr.abort();
  });
})();
