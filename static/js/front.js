// The home page's game being played: when it ends, its result stays a moment, then the next game
// being played takes its place (the server picks it: GET data-next-url, the section alone).
(function () {
  "use strict";

  document.addEventListener("board:updated", function (e) {
    const live = e.detail.board.closest("#front-live");
    if (!live || live.dataset.ending || !e.detail.board.classList.contains("phase-match_over")) return;
    live.dataset.ending = "true";
    const watched = e.detail.board.closest("[data-socket]");
    setTimeout(function () {
      htmx.ajax("GET", live.dataset.nextUrl, { target: live, swap: "outerHTML" }).then(function () {
        // The ended game's socket goes with its board (socket.js forgets an element gone).
        const socket = watched && window.LiveSocket.socketOf(watched);
        if (socket) socket.close();
      });
    }, Number(live.dataset.nextAfterMs || 0));
  });
})();
