// The home page's game being played: when it ends, its result stays a moment, then the next game
// being played takes its place (the server picks it: GET data-next-url, the section alone).
(function () {
  "use strict";
  const ENDED = /class="[^"]*\bphase-match_over\b/;

  document.addEventListener("socket:message", function (e) {
    const live = e.target.closest && e.target.closest("#front-live");
    if (!live || live.dataset.ending || !ENDED.test(e.detail.html.slice(0, 400))) return;
    live.dataset.ending = "true";
    const board = e.target;
    setTimeout(function () {
      htmx.ajax("GET", live.dataset.nextUrl, { target: live, swap: "outerHTML" }).then(function () {
        // The ended game's socket goes with its board (socket.js forgets an element gone).
        const socket = window.LiveSocket.socketOf(board);
        if (socket) socket.close();
      });
    }, Number(live.dataset.nextAfterMs || 0));
  });
})();
