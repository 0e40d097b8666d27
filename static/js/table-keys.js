// A key for every action on the board, and "?" for the list of them (the dialog #table-keys).
// The buttons of one obvious move (Go, Next hand, Muggins, Accept, Lay away, Cut the pack) carry
// data-shortcut and are pressed by site.js; this file adds what is not one button: a card by its
// place in the hand (1-6), the cut for deal, the count's field, and the list itself.
// A key typed into a field, or held with a modifier, is the player's own.
(function () {
  "use strict";

  function typing(target) {
    return !!(target.closest && target.closest("input:not([type=checkbox]), textarea, select, [contenteditable]"));
  }

  function dialog() { return document.getElementById("table-keys"); }

  function toggleKeys() {
    const box = dialog();
    if (!box) return false;
    if (box.open) box.close();
    else box.showModal();
    return true;
  }

  // The n-th card of the hand: picked for the crib (or given back) while laying away, played in
  // the play. A card that cannot be played now is left alone, as its button is.
  function card(n) {
    const boxes = document.querySelectorAll("#board .discard-form input[name=cards]");
    if (boxes.length) {
      const box = boxes[n - 1];
      if (!box || box.disabled) return false;
      box.click();  // as a tap: site.js keeps the picks, and one too many gives up the oldest
      box.focus();
      return true;
    }
    const buttons = document.querySelectorAll("#board .play-form .hand button[name=card]");
    const button = buttons[n - 1];
    if (!button || button.disabled) return false;
    button.click();
    return true;
  }

  // Cut for deal: any card of the fan will do, so one of those still to be had, by chance.
  function cutForDeal() {
    const fan = Array.from(document.querySelectorAll("#board .fan button:not([disabled])"));
    if (!fan.length) return false;
    fan[Math.floor(Math.random() * fan.length)].click();
    return true;
  }

  function countField() {
    const field = document.querySelector("#board .count-form input[name=points]");
    if (!field) return false;
    field.focus();
    field.select();
    return true;
  }

  // site.js presses a data-shortcut button, except from a focused input: a picked card's checkbox
  // (focused after a tap or its key) is not a field being typed in, so the key works there too.
  function shortcut(key) {
    const target = document.activeElement;
    if (!target || !target.matches("input[type=checkbox]")) return false;
    const button = document.querySelector('[data-shortcut="' + key + '"]:not([disabled])');
    if (!button) return false;
    button.click();
    return true;
  }

  document.addEventListener("keydown", function (e) {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || e.repeat || e.key.length !== 1) return;
    if (typing(e.target)) return;
    if (!document.getElementById("board")) return;
    const key = e.key.toLowerCase();
    let done = false;
    if (key === "?") done = toggleKeys();
    else if (dialog() && dialog().open) return;  // the list is in front: the board waits
    else if (key >= "1" && key <= "6") done = card(Number(key));
    else if (shortcut(key)) done = true;
    else if (key === "c") done = cutForDeal();
    else if (key === "k") done = countField();
    if (done) e.preventDefault();
  });

  function wire() {
    document.querySelectorAll(".keys-open").forEach(function (button) {
      button.hidden = false;
      button.addEventListener("click", toggleKeys);
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", wire);
  else wire();
})();
