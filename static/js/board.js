// The board as the server draws it, applied in place. Every answer and push morphs #board (htmx's
// idiomorph extension): cards, seats and controls keep their ids, so the element under a finger,
// the focused control, a ticked card and a folded-open drawer stay what they were. This file keeps
// the rules a morph cannot know: never step back to an older board, a refusal of a ticked card is
// not the player's, focus on a control that left goes to the next thing to do, and the tab title.
// It fires "board:updated" ({board, previous}) on the document once per new board: the one hook
// the table's scripts (motion, cues) listen to. The morph itself is morph.js's.
(function () {
  "use strict";

  function board() { return document.getElementById("board"); }
  function versionOf(el) { return el ? Number(el.dataset.version) : NaN; }

  // Never step backwards: a push can come after a newer board came back from our own request, and
  // an answer after a newer push. A push of the board shown is not drawn again either, nor are the
  // calls and the presence it carries. The board's HTML is parsed once, by htmx: a push's version is
  // read from the board htmx parsed, an answer's from its Board-Version header.
  let stalePush = false;
  document.addEventListener("htmx:oobBeforeSwap", function (e) {
    const now = board();
    if (e.detail.target !== now) {
      if (stalePush) e.detail.shouldSwap = false;  // the rest of a push whose board was not drawn
      return;
    }
    if (versionOf(e.detail.fragment.firstElementChild) <= versionOf(now)) {
      e.detail.shouldSwap = false;
      stalePush = true;  // the board comes first in a push; the rest of it follows in this task
      queueMicrotask(function () { stalePush = false; });
      return;
    }
    if (e.detail.shouldSwap) beforeUpdate(now);
  });
  document.addEventListener("htmx:beforeSwap", function (e) {
    const now = board();
    if (!now || e.detail.target !== now || !e.detail.shouldSwap) return;
    const drawn = e.detail.xhr && e.detail.xhr.getResponseHeader("Board-Version");
    if (drawn !== null && Number(drawn) < versionOf(now)) { e.detail.shouldSwap = false; return; }
    beforeUpdate(now);
    // The control that sent the request may have left the board meanwhile (morphed away by a push):
    // htmx would look for the morph extension from there. The answer goes on the board shown now.
    const from = e.detail.requestConfig && e.detail.requestConfig.elt;
    if (from && !from.isConnected) {
      e.detail.shouldSwap = false;
      htmx.swap(now, e.detail.serverResponse, { swapStyle: "morph" }, { contextElement: now });
    }
  });
  // Just before a board is morphed: the motion measures where every card lies.
  let morphing = false;
  function beforeUpdate(now) {
    morphing = true;
    queueMicrotask(function () { morphing = false; });  // a swap is done within the task that starts it
    document.dispatchEvent(new CustomEvent("board:beforeUpdate", { detail: { board: now } }));
  }

  // A heartbeat says the game is further on than this board: ask the socket for the board.
  document.addEventListener("socket:beat", function (e) {
    if (typeof e.detail.beat === "number" && e.detail.beat > versionOf(board())) window.LiveSocket.ask(e.target);
  });

  // ---------- the cards ticked for the crib ----------
  // The form takes exactly as many cards as the crib wants from each player (data-pick): its button
  // waits for them, and one pick too many gives up the oldest, so the player never sees a refusal.
  let order = [];
  function boxes() { return Array.from(document.querySelectorAll("#board .discard-form input[name=cards]")); }
  function wanted() {
    const form = document.querySelector("#board .discard-form");
    return form ? Number(form.dataset.pick || 2) : 0;
  }
  function showPicks() {
    if (!document.querySelector("#board .discard-form")) return;
    const left = wanted() - boxes().filter(function (b) { return b.checked; }).length;
    const button = document.querySelector("#board .discard-submit");  // by the crib, outside the form
    if (button) button.disabled = left !== 0;
    const count = document.querySelector("#board .discard-count");
    const text = left > 0 ? "Pick " + (left === 1 ? "one more card" : left + " cards") + "." : "";
    if (count && count.textContent !== text) count.textContent = text;
  }
  document.addEventListener("change", function (e) {
    if (!e.target.matches("#board .discard-form input[name=cards]")) return;
    const checked = boxes().filter(function (b) { return b.checked; }).map(function (b) { return b.value; });
    order = order.filter(function (v) { return v !== e.target.value && checked.indexOf(v) >= 0; });
    if (e.target.checked) order.push(e.target.value);
    while (order.length > wanted()) {  // a third card replaces the first one picked
      const oldest = order.shift();
      boxes().forEach(function (box) { if (box.value === oldest) box.checked = false; });
    }
    showPicks();
  });

  // ---------- focus ----------
  // Focus on a control that is still on the board stays there by itself (the morph keeps it). A
  // control that went (the card just played, the cut deck) hands focus to the next thing to do, or
  // to the player's seat while the others move, if the keyboard was in the board.
  const NEXT_THING = [".card-button.playable:not(:disabled)", ".card-pick__box:not(:disabled)",
    ".fan .card-button:not(:disabled)", ".seat--me .button--primary", ".result .button--primary", "#show-hand"];
  let keyboardInBoard = false;
  document.addEventListener("focusin", function (e) {
    keyboardInBoard = !!(e.target.closest && e.target.closest("#board"));
  });
  document.addEventListener("focusout", function (e) {
    // Focus lost while the board is morphed (the control left it) is the board's doing, not the player's.
    if (!morphing) keyboardInBoard = !!(e.relatedTarget && e.relatedTarget.closest && e.relatedTarget.closest("#board"));
  });
  function focusable(el) { return el && !el.disabled && el.getClientRects().length > 0; }
  function refocus(now) {
    const active = document.activeElement;
    if (!keyboardInBoard || (active && active !== document.body)) return;
    for (const selector of NEXT_THING) {
      const next = Array.from(now.querySelectorAll(selector)).find(focusable);
      if (next) { next.focus(); return; }
    }
    const seat = now.querySelector(".seat--me");
    if (seat) { seat.setAttribute("tabindex", "-1"); seat.focus(); }
  }

  // ---------- the tab's title: written here alone ----------
  // It follows the board; in a live game a hidden tab says "Your turn" when the player must act.
  function title() {
    const now = board();
    if (!now || !now.dataset.title) return;
    const live = document.querySelector(".board-live[data-live]");
    const mine = !!live && now.hasAttribute("data-my-turn") && document.hidden;
    const wanted = mine ? "Your turn · " + now.dataset.title.replace(/^Your move · /, "") : now.dataset.title;
    if (document.title !== wanted) document.title = wanted;
  }
  document.addEventListener("visibilitychange", title);
  // After a board, once the browser is idle (within half a second): the tab's title is not part of
  // the table, and its change has the browser redraw its tab strip beside the board's first frame.
  function titleSoon() {
    if (window.requestIdleCallback) window.requestIdleCallback(title, { timeout: 500 });
    else setTimeout(title, 0);
  }

  // ---------- the one hook ----------
  // htmx settles once after every swap: an answer (on #board), a push (on its socket's element,
  // which holds the board), the board fetched again. Other parts of the page settle on their own.
  let last = null;
  function updated(e) {
    const now = board();
    if (!now || (e && e.type === "htmx:afterSettle" && !e.target.contains(now))) return;
    morphing = false;
    const previous = last;
    last = versionOf(now);
    if (!order.every(function (v) { return boxes().some(function (b) { return b.value === v && b.checked; }); })) order = [];
    showPicks();
    titleSoon();
    refocus(now);
    document.dispatchEvent(new CustomEvent("board:updated", { detail: { board: now, previous: previous } }));
  }
  document.addEventListener("htmx:afterSettle", updated);
  // The first board: once every deferred script (the table's among them) listens.
  if (document.readyState === "complete") updated();
  else document.addEventListener("DOMContentLoaded", function () { updated(); });
})();
