// The table moves like a card table. The server draws every board; this file only carries each
// card from where it lay on the board before the update to where it lies after it (a FLIP step:
// measure before the swap, measure after, animate the difference with the Web Animations API).
// A dealt card comes from the pack, a card the opponent plays from their side, a laid-away card
// goes to the crib, and a card turned face up (the starter, a shown hand, the crib) turns over.
//
// Nothing waits for a motion: the new board is in place, and clickable, from the moment it is
// swapped in; a board swapped in mid-motion starts its own motions from where the cards are seen
// (a moving card's rectangle includes its transform). Under prefers-reduced-motion, or with the
// player's "Animations" switch off (data-motion="off" on .board-live), nothing moves.
(function () {
  "use strict";
  const DURATION = 240;
  const STAGGER = 12;  // between the cards of a deal...
  const LAST = 60;  // ...and no later than this, so the last of them still lands within 300 ms
  const EASE = "cubic-bezier(0.2, 0.7, 0.3, 1)";
  const reduced = window.matchMedia("(prefers-reduced-motion: reduce)");

  function enabled() {
    const live = document.querySelector(".board-live");
    return !reduced.matches && !(live && live.dataset.motion === "off");
  }

  function rectOf(el) {
    const r = el.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2, w: r.width, h: r.height };
  }

  // Where a card back lies: one seat's hand, the crib or the pack. Backs have no identity, so
  // they are matched by count within their place.
  function placeOf(el) {
    const seat = el.closest(".seat[data-seat]");
    if (seat) return "seat-" + seat.dataset.seat;
    if (el.closest(".crib")) return "crib";
    if (el.closest(".starter")) return "pack";
    return "";
  }

  // The cut for deal shows cards of the deck before the shuffle: the same codes may be dealt.
  function tracked(el) { return !el.closest(".cut-result"); }

  function snapshot(board) {
    const table = board.querySelector(".table");
    if (!table) return null;
    const faces = {};
    table.querySelectorAll(".card[data-card]").forEach(function (el) {
      if (tracked(el)) faces[el.dataset.card] = { rect: rectOf(el), mine: !!el.closest(".seat--me") };
    });
    const backs = {};
    table.querySelectorAll(".card--back").forEach(function (el) {
      const place = placeOf(el);
      if (place) (backs[place] = backs[place] || []).push(rectOf(el));
    });
    const seats = {};
    table.querySelectorAll(".seat--opponent[data-seat]").forEach(function (seat) {
      seats[seat.dataset.seat] = rectOf(seat.querySelector(".cards") || seat);
    });
    const pack = board.querySelector(".starter .card--back");
    return { faces: faces, backs: backs, seats: seats, pack: pack ? rectOf(pack) : null };
  }

  function glide(el, from, delay, turn) {
    const to = rectOf(el);
    if (!to.w || !from.w) return;
    const dx = from.x - to.x;
    const dy = from.y - to.y;
    const scale = from.w / to.w;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1 && Math.abs(scale - 1) < 0.02 && !turn) return;
    const start = "translate(" + dx + "px, " + dy + "px) scale(" + scale + ")" + (turn ? " scaleX(0.1)" : "");
    el.animate([{ transform: start }, { transform: "translate(0px, 0px) scale(1)" + (turn ? " scaleX(1)" : "") }],
      { duration: DURATION, delay: delay || 0, easing: EASE, fill: "backwards", composite: "add" });
  }

  function turnOver(el) {
    el.animate([{ transform: "scaleX(0.05)" }, { transform: "scaleX(1)" }],
      { duration: DURATION, easing: EASE, composite: "add" });
  }

  function play(snap, board) {
    const table = board.querySelector(".table");
    if (!table) return;
    const seen = {};
    let dealt = 0;
    // A new deal comes from the pack: where it lay before (the starter still face down), else
    // where it lies now (the last deal's starter was face up).
    const packNow = board.querySelector(".starter .card--back");
    const pack = snap.pack || (packNow ? rectOf(packNow) : null);
    table.querySelectorAll(".card[data-card]").forEach(function (el) {
      if (!tracked(el)) return;
      const code = el.dataset.card;
      const was = snap.faces[code];
      seen[code] = true;
      if (was) { glide(el, was.rect); return; }
      const played = el.closest(".pile li[data-seat]");
      if (played && !played.classList.contains("pile__mine")) {
        const from = lastOf(snap.backs["seat-" + played.dataset.seat]) || snap.seats[played.dataset.seat];
        if (from) { glide(el, from, 0, true); return; }
      }
      if (el.closest(".seat--me") && pack) { glide(el, pack, Math.min(LAST, STAGGER * dealt++)); return; }
      turnOver(el);  // the starter, a shown hand, the crib: turned face up where they lie
    });
    // My cards that left the table's faces (laid away): where the crib's new backs come from.
    const laid = Object.keys(snap.faces).filter(function (code) { return !seen[code] && snap.faces[code].mine; })
      .map(function (code) { return snap.faces[code].rect; });
    const counts = {};
    const newBacks = [];
    table.querySelectorAll(".card--back").forEach(function (el) {
      const place = placeOf(el);
      if (!place) return;
      counts[place] = (counts[place] || 0) + 1;
      if (counts[place] > (snap.backs[place] || []).length) newBacks.push({ el: el, place: place });
    });
    // Backs an opponent gave up (laid away), nearest the crib last.
    Object.keys(snap.backs).forEach(function (place) {
      if (place.indexOf("seat-") !== 0) return;
      const gone = snap.backs[place].length - (counts[place] || 0);
      if (gone > 0) laid.push.apply(laid, snap.backs[place].slice(-gone));
    });
    newBacks.forEach(function (b) {
      if (b.place === "crib") { const from = laid.shift(); if (from) glide(b.el, from); }
      else if (b.place.indexOf("seat-") === 0 && pack) glide(b.el, pack, Math.min(LAST, STAGGER * dealt++));
    });
  }

  function lastOf(list) { return list && list.length ? list[list.length - 1] : null; }

  // Measured just before a board is morphed (board.js says when, for an answer, a push or the board
  // fetched again), played once it is in place. The cards that stay are the same elements, so a
  // card still moving from the last board carries on from where it is seen.
  let before = null;
  document.addEventListener("board:beforeUpdate", function (e) {
    before = enabled() ? snapshot(e.detail.board) : null;
  });
  document.addEventListener("board:updated", function (e) {
    const snap = before;
    before = null;
    if (snap && enabled()) play(snap, e.detail.board);
  });
})();
