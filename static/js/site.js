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

  // Keep the cards picked for the crib when the board is redrawn under the player's hand.
  let picked = [];
  function rememberPicks() {
    picked = Array.from(document.querySelectorAll("#board input[name=cards]:checked")).map(function (i) {
      return i.value;
    });
  }
  function restorePicks() {
    picked.forEach(function (value) {
      const box = document.querySelector('#board input[name=cards][value="' + value + '"]');
      if (box) box.checked = true;
    });
    picked = [];
  }
  document.addEventListener("htmx:oobBeforeSwap", rememberPicks);
  document.addEventListener("htmx:oobAfterSwap", restorePicks);
  document.addEventListener("htmx:beforeSwap", function (e) {
    // Our own discard clears the picks on purpose; any other redraw keeps them.
    if (!(e.detail.requestConfig && e.detail.requestConfig.elt.closest(".discard-form"))) rememberPicks();
  });
  document.addEventListener("htmx:afterSwap", restorePicks);

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
