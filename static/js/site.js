// Small page helpers; htmx and its websocket extension do the rest.
(function () {
  "use strict";

  function statusElements(socketElt) {
    // The home page's probe sits on the socket element itself; a board has #connection beside it.
    const own = socketElt && socketElt.matches("[data-state]") ? [socketElt] : [];
    const board = document.getElementById("connection");
    return board ? own.concat([board]) : own;
  }

  function setState(socketElt, state, text) {
    statusElements(socketElt).forEach(function (el) {
      el.dataset.state = state;
      const label = el.querySelector(".ws-state");
      if (label) label.textContent = text;
    });
  }

  document.addEventListener("htmx:wsOpen", function (e) { setState(e.detail.elt, "open", "Connected"); });
  document.addEventListener("htmx:wsClose", function (e) { setState(e.detail.elt, "closed", "Reconnecting…"); });
  document.addEventListener("htmx:wsError", function (e) { setState(e.detail.elt, "closed", "Reconnecting…"); });

  function boardVersion(html) {
    const m = /id="board"[^>]*data-version="(\d+)"|data-version="(\d+)"[^>]*id="board"/.exec(html);
    return m ? Number(m[1] || m[2]) : null;
  }

  // A push can arrive after a newer board came back from our own POST: never step backwards,
  // and skip an identical version so a half-made selection is not redrawn for nothing.
  document.addEventListener("htmx:wsBeforeMessage", function (e) {
    const incoming = boardVersion(e.detail.message || "");
    const board = document.getElementById("board");
    if (incoming !== null && board && Number(board.dataset.version) >= incoming) {
      e.preventDefault();
    }
  });

  // The cards ticked for the crib, with the deal and hand they were ticked in. Any redraw of the
  // board (the computer's or another player's lay-away, a refused discard) ticks them again while
  // the hand is the same; a new hand starts clean.
  let picks = null;
  function discardBoxes(checked) {
    return Array.from(document.querySelectorAll("#board .discard-form input[name=cards]" + (checked ? ":checked" : "")));
  }
  function handKey() {
    const form = document.querySelector("#board .discard-form");
    return form ? form.dataset.deal + ":" + discardBoxes(false).map(function (i) { return i.value; }).join(",") : null;
  }
  document.addEventListener("change", function (e) {
    if (!e.target.matches("#board .discard-form input[name=cards]")) return;
    picks = { hand: handKey(), cards: discardBoxes(true).map(function (i) { return i.value; }) };
  });
  function restorePicks() {
    if (!picks || picks.hand !== handKey()) return;
    discardBoxes(false).forEach(function (box) { box.checked = picks.cards.indexOf(box.value) >= 0; });
  }
  document.addEventListener("htmx:afterSwap", restorePicks);
  document.addEventListener("htmx:oobAfterSwap", restorePicks);

  // On a phone the pegboard scrolls sideways (board.css): keep the player's front peg in view.
  function showMyPeg() {
    const figure = document.querySelector("#board .cribbage-board");
    const peg = figure && figure.querySelector(".peg--front");  // the player's track comes first
    if (!peg || figure.scrollWidth <= figure.clientWidth) return;
    const at = peg.getBoundingClientRect(), box = figure.getBoundingClientRect();
    figure.scrollLeft += at.left + at.width / 2 - (box.left + figure.clientWidth / 2);
  }
  document.addEventListener("DOMContentLoaded", showMyPeg);
  document.addEventListener("htmx:afterSwap", showMyPeg);
  document.addEventListener("htmx:oobAfterSwap", showMyPeg);

  // An answer to a request sent from a board replaced since (a push or the computer's move landed
  // first) would go into the detached old board and be lost, and its out-of-band parts would be
  // looked for there too (htmx:oobErrorNoTarget). htmx still finds this extension from a detached
  // board (hx-ext on its root), so the answer goes on the board shown now, unless that is newer.
  htmx.defineExtension("board-answer", {
    onEvent: function (name, evt) {
      const old = evt.detail && evt.detail.target;
      if (name !== "htmx:beforeSwap" || !old || old.id !== "board" || document.body.contains(old)) return true;
      evt.detail.shouldSwap = false;
      const board = document.getElementById("board");
      const incoming = boardVersion(evt.detail.serverResponse || "");
      if (board && incoming !== null && incoming >= Number(board.dataset.version)) {
        htmx.swap(board, evt.detail.serverResponse, { swapStyle: "outerHTML" });
      }
      return true;
    },
  });

  // A move's answer carries the new board, and this page's socket is spared the same push. If the
  // answer is lost (network, a 5xx), ask for the board again rather than sit on a stale one.
  function refetchBoard(e) {
    const board = document.getElementById("board");
    if (!board || !e.detail.elt || !board.contains(e.detail.elt)) return;
    htmx.ajax("GET", window.location.pathname, { target: "#board", swap: "outerHTML" });
  }
  document.addEventListener("htmx:sendError", refetchBoard);
  document.addEventListener("htmx:responseError", refetchBoard);
  document.addEventListener("htmx:timeout", refetchBoard);
})();

// The turn clock counts down between server renders; the server alone decides when time is up.
(function () {
  "use strict";
  function tick() {
    document.querySelectorAll(".clock[data-deadline]").forEach(function (el) {
      const left = Math.max(0, Math.round((Date.parse(el.dataset.deadline) - Date.now()) / 1000));
      const out = el.querySelector(".clock__time");
      if (out) out.textContent = left + "s";
      el.classList.toggle("clock--low", left <= 10);
    });
  }
  setInterval(tick, 1000);

  // A seek of ours was taken: follow the link the lobby socket sends.
  document.addEventListener("htmx:oobAfterSwap", function (e) {
    const link = document.querySelector("a[data-follow]");
    if (link) window.location.assign(link.getAttribute("href"));
  });
})();
