// A move (a POST to the board's act/ URL, data-act-url on .board-live) that does not reach the
// server is kept, said, and sent again until the server answers: every 1.5 s at most, and at once
// when the network, the socket or the tab comes back. Sending it again is safe: the server makes a
// move once, answers a move it has already made with the board, and refuses one made on a board
// that has changed since. It goes again through htmx.ajax, so its answer is handled as any of
// htmx's: morphed into the board, HX-Redirect and HX-Location followed.
//
// A kept move outlives its page: closed, reloaded or lost with the browser while the move waited,
// the next page of this board (in this browser, for this player) sends it. Late is as safe as
// again. Moves of more than a month ago are dropped unsent: the board has long gone on.
(function () {
  "use strict";
  const STORE = "cribbage:unsent-moves";
  const STORE_DAYS = 30;
  const ANSWER_MS = 10000;  // a resent move not answered in this long is sent again
  function live() { return document.querySelector(".board-live[data-act-url]"); }
  function actUrl() { const l = live(); return l ? l.dataset.actUrl : null; }
  function viewer() { const l = live(); return l ? l.dataset.viewer || "" : ""; }
  function storedKey(path) { return viewer() + " " + path; }

  function storedMoves() {
    try { return JSON.parse(window.localStorage.getItem(STORE)) || {}; } catch (err) { return {}; }
  }
  function updateStored(change) {
    try {
      const moves = storedMoves();
      change(moves);
      if (Object.keys(moves).length) window.localStorage.setItem(STORE, JSON.stringify(moves));
      else window.localStorage.removeItem(STORE);
    } catch (err) { /* storage off or full: the move is kept by this page alone */ }
  }
  function remember(move) {
    updateStored(function (moves) { moves[move.key] = { path: move.path, body: move.body, button: move.button, saved: Date.now() }; });
  }
  function forget(move) { updateStored(function (moves) { delete moves[move.key]; }); }

  let unsent = null;  // the move waiting: {path, body, button, key, tries}
  let retry = null;
  let resending = null;  // the XMLHttpRequest sending it again, while it is out

  function note(text, kind) {
    const el = document.getElementById("unsent");
    if (!el) return;
    if (el.textContent !== text) el.textContent = text;
    el.hidden = !text;
    if (kind) el.dataset.kind = kind;
    else delete el.dataset.kind;
  }
  function notSentYet(again) {
    note(navigator.onLine ? "Not sent yet: the server cannot be reached. " + (again ? "Trying again…" : "Your move goes as soon as it can.")
      : "Not sent yet: you are offline. Your move goes as soon as the network is back.", "waiting");
  }
  // A move sent again comes from .board-live itself (htmx.ajax's source, whose hx-ext names the board's
  // morph: htmx finds a swap style's extension from the source); the board's own from its forms.
  function isResend(e) { return e.detail.elt === live(); }
  function isMove(e) {
    const config = e.detail.requestConfig;
    return !!config && config.verb === "post" && config.path === actUrl() && !isResend(e);
  }

  // The button the move was made with stays marked while it waits (morph.js keeps the mark through
  // a morph), and loses the mark once it is answered.
  function markWaiting() {
    document.querySelectorAll("#board [data-unsent]").forEach(function (b) { b.removeAttribute("data-unsent"); });
    if (!unsent || !unsent.button) return;
    const button = Array.from(document.querySelectorAll("#board button[name]")).find(function (b) {
      return b.getAttribute("name") === unsent.button.name && b.getAttribute("value") === unsent.button.value;
    });
    if (button) button.setAttribute("data-unsent", "");
  }
  document.addEventListener("board:updated", markWaiting);

  function keep(config) {
    if (unsent) return;
    const submitter = config.triggeringEvent && config.triggeringEvent.submitter;
    unsent = { path: config.path, body: new URLSearchParams(config.formData).toString(), tries: 0,
      button: submitter && submitter.name ? { name: submitter.name, value: submitter.value } : null, key: storedKey(config.path) };
    remember(unsent);
    markWaiting();
    notSentYet(false);
    later();
  }
  function later() {
    clearTimeout(retry);
    retry = setTimeout(sendAgain, Math.min(1500, 300 * Math.pow(2, unsent ? unsent.tries : 0)));
  }
  function sendAgain() {
    if (!unsent || unsent.out || !live()) return;
    if (!navigator.onLine) { later(); return; }  // the online event sends it
    const move = unsent;
    move.tries += 1;
    move.out = true;
    const values = new FormData();
    new URLSearchParams(move.body).forEach(function (value, name) { values.append(name, value); });
    htmx.ajax("POST", move.path, { source: live(), target: "#board", swap: "morph", values: values })
      .catch(function () { /* told by htmx:afterRequest */ });
  }
  document.addEventListener("htmx:beforeSend", function (e) {
    if (!isResend(e) || !unsent || !unsent.out) return;
    resending = e.detail.xhr;
    const xhr = resending;
    setTimeout(function () { if (resending === xhr) xhr.abort(); }, ANSWER_MS);
  });
  // Every end of a resend comes here, before htmx follows a redirect it carries: a move answered
  // is forgotten before the page leaves.
  document.addEventListener("htmx:afterRequest", function (e) {
    if (!isResend(e) || !resending || e.detail.xhr !== resending) return;
    resending = null;
    const move = unsent;
    move.out = false;
    const status = e.detail.xhr.readyState === 4 ? e.detail.xhr.status : 0;
    if (window.LiveSocket.serverAway(status)) { notSentYet(true); later(); return; }
    unsent = null;
    forget(move);
    clearTimeout(retry);
    markWaiting();
    if (status === 409) note("Your move was not made: the board changed while you were away.", "refused");
    else if (status >= 400) note("Your move was not made: see the board for why.", "refused");
    else {
      note("Your move was sent.", "sent");
      setTimeout(function () {
        const el = document.getElementById("unsent");
        if (!unsent && el && el.dataset.kind === "sent") note("");
      }, 6000);
    }
  });
  document.addEventListener("socket:reachable", sendAgain);
  document.addEventListener("socket:open", sendAgain);

  // A second move while one waits would be refused as stale once the first lands: it waits too.
  document.addEventListener("htmx:beforeRequest", function (e) {
    if (unsent && isMove(e)) {
      e.preventDefault();
      note("Your last move is still waiting to be sent: it goes first.", "waiting");
    }
  });
  document.addEventListener("htmx:sendError", function (e) { if (isMove(e)) keep(e.detail.requestConfig); });
  // An answer lost (none in time, a 5xx): a move is kept and sent again; anything else from the
  // board asks for the board again rather than sit on a stale one.
  function answerLost(e, away) {
    if (isResend(e)) return;
    if (away && isMove(e)) { keep(e.detail.requestConfig); return; }
    const board = document.getElementById("board");
    const l = live();
    if (!board || !l || !e.detail.elt || !board.contains(e.detail.elt)) return;
    htmx.ajax("GET", l.dataset.boardUrl, { target: "#board", swap: "morph" });
  }
  document.addEventListener("htmx:timeout", function (e) { answerLost(e, true); });
  document.addEventListener("htmx:responseError", function (e) {
    answerLost(e, window.LiveSocket.serverAway(e.detail.xhr ? e.detail.xhr.status : 0));
  });
  document.addEventListener("htmx:afterRequest", function (e) {
    // A move answered by the server ends whatever the note said about an earlier one.
    const status = e.detail.xhr && e.detail.xhr.readyState === 4 ? e.detail.xhr.status : 0;
    if (!unsent && status && !window.LiveSocket.serverAway(status) && isMove(e)) note("");
  });

  function sendStored() {
    const path = actUrl();
    if (unsent || !path || !viewer()) return;
    const key = storedKey(path);
    let move = null;
    updateStored(function (moves) {
      Object.keys(moves).forEach(function (k) { if (!(Date.now() - moves[k].saved < STORE_DAYS * 86400000)) delete moves[k]; });
      move = moves[key] || null;
    });
    if (!move) return;
    unsent = { path: move.path, body: move.body, tries: 0, button: move.button, key: key };
    markWaiting();
    note("Sending the move you made before this page was closed…", "waiting");
    sendAgain();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", sendStored);
  else sendStored();
})();
