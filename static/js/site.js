// Small page helpers; htmx and its websocket extension do the rest.

// The site's menu folds behind a button on a phone (site.css says when).
(function () {
  "use strict";
  function wire() {
    const toggle = document.querySelector(".nav-toggle");
    if (!toggle) return;
    toggle.hidden = false;
    toggle.addEventListener("click", function () {
      toggle.setAttribute("aria-expanded", String(toggle.getAttribute("aria-expanded") !== "true"));
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", wire);
  else wire();
})();

// A one-letter key for the one obvious move (C cuts the pack): the button carries data-shortcut,
// and a key typed into a field, or held with a modifier, is the player's own.
(function () {
  "use strict";
  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey || e.repeat || e.key.length !== 1) return;
    if (e.target.closest && e.target.closest("input, textarea, select, [contenteditable]")) return;
    const button = document.querySelector('[data-shortcut="' + e.key.toLowerCase() + '"]:not([disabled])');
    if (!button) return;
    e.preventDefault();
    button.click();
  });
})();

(function () {
  "use strict";

  function statusElements(socketElt) {
    // The home page's probe sits on the socket element itself; a board has #connection beside it,
    // which speaks for the board's socket alone (not the page's news socket beside it).
    const own = socketElt && socketElt.matches("[data-state]") ? [socketElt] : [];
    const board = socketElt && socketElt.closest(".board-live") ? document.getElementById("connection") : null;
    return board ? own.concat([board]) : own;
  }

  function setState(socketElt, state, text) {
    statusElements(socketElt).forEach(function (el) {
      el.dataset.state = state;
      const label = el.querySelector(".ws-state");
      if (label) label.textContent = text;
    });
  }

  // What a page says of its connection is what it knows, from three sources together: the socket
  // (open or not), the server's heartbeats on it (each says whether pushes reach it, and their
  // silence says the socket is dead even while the browser keeps it open) and the page's own
  // requests (one that cannot reach the server says so before any socket notices).
  function link(elt) {
    if (!elt.connectionLink) elt.connectionLink = { open: false, tried: false, live: true, failed: false, heard: 0, openedAt: 0 };
    return elt.connectionLink;
  }
  function sockets() { return Array.from(document.querySelectorAll("[ws-connect]")); }
  function showLink(elt) {
    const l = link(elt);
    if (!navigator.onLine) setState(elt, "offline", "Offline: waiting for the network…");
    else if (l.open && l.live && !l.failed) setState(elt, "open", "Connected");
    else if (!l.tried && !l.failed) setState(elt, "connecting", "Connecting…");
    else setState(elt, "closed", "Reconnecting…");
  }
  function wrapperOf(elt) {
    const data = elt["htmx-internal-data"];  // where htmx keeps the websocket extension's wrapper
    return data && data.webSocket;
  }
  function socketUp(socket) {
    return !!socket && (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING);
  }
  // The extension's retry timer would replace a socket opened since by reconnectNow (below) with
  // yet another one: a retry finds the socket up and leaves it be.
  function guard(elt) {
    const wrapper = wrapperOf(elt);
    if (!wrapper || wrapper.retryGuarded) return;
    const init = wrapper.init;
    wrapper.retryGuarded = true;
    wrapper.replace = init;
    wrapper.init = function () { if (!socketUp(this.socket)) init.call(this); };
  }
  // Retries come quickly and stop growing at a second: a board is back within two seconds of the
  // server (the handshake and the first board take the rest), and a refused connection costs the
  // server nothing. Jitter spreads a restart's pages.
  htmx.config.wsReconnectDelay = function (retries) {
    return Math.min(1000, 250 * Math.pow(2, retries)) * (0.6 + 0.4 * Math.random());
  };
  function reconnectNow(elt, evenIfOpen) {
    const wrapper = wrapperOf(elt);
    if (!wrapper || !document.body.contains(elt)) return;
    if (evenIfOpen) (wrapper.replace || wrapper.init).call(wrapper);
    else if (!socketUp(wrapper.socket)) wrapper.init();
  }
  // Ask a board's open socket for the board: the answer is news of the game and proof it lives.
  function askForBoard(elt) {
    const wrapper = wrapperOf(elt);
    if (elt.dataset.beatMs && wrapper && wrapper.socket && wrapper.socket.readyState === WebSocket.OPEN) {
      wrapper.socket.send("board");
      link(elt).asked = Date.now();
    }
  }
  function isCurrent(e) {
    const wrapper = wrapperOf(e.detail.elt);
    const socket = e.detail.event && e.detail.event.target;
    return !wrapper || !socket || wrapper.socket === socket;  // not a socket replaced since
  }

  // The first connecting comes before the extension has stored its wrapper: open and close guard too.
  document.addEventListener("htmx:wsConnecting", function (e) { guard(e.detail.elt); });
  document.addEventListener("htmx:wsOpen", function (e) {
    guard(e.detail.elt);
    if (!isCurrent(e)) return;
    const l = link(e.detail.elt);
    l.open = l.tried = l.live = true;
    l.failed = false;  // a handshake just went through: the server can be reached
    l.heard = l.openedAt = Date.now();
    l.asked = 0;
    showLink(e.detail.elt);
  });
  document.addEventListener("htmx:wsClose", function (e) {
    guard(e.detail.elt);
    if (!isCurrent(e)) return;
    const elt = e.detail.elt;
    link(elt).open = false;
    link(elt).tried = true;
    showLink(elt);
    // The extension retries only after an abnormal close; a server that shut down cleanly for a
    // restart (1000, 1001) is retried too. A refusal (4xxx) is final.
    const code = e.detail.event && e.detail.event.code;
    if (code === 1000 || code === 1001) setTimeout(function () { reconnectNow(elt); }, htmx.config.wsReconnectDelay(0));
  });
  document.addEventListener("htmx:wsError", function (e) {
    const l = link(e.detail.elt);
    l.open = false;
    l.tried = true;
    showLink(e.detail.elt);
  });

  // The server's heartbeat: {"beat": the game's version, "live": whether pushes reach the socket}.
  document.addEventListener("htmx:wsBeforeMessage", function (e) {
    const l = link(e.detail.elt);
    l.heard = Date.now();
    l.asked = 0;
    const text = e.detail.message || "";
    if (text.indexOf('{"beat"') !== 0) return;
    e.preventDefault();
    let beat;
    try { beat = JSON.parse(text); } catch (err) { return; }
    if (typeof beat.live === "boolean") l.live = beat.live;
    showLink(e.detail.elt);
    const board = document.getElementById("board");
    if (board && typeof beat.beat === "number" && beat.beat > Number(board.dataset.version)) askForBoard(e.detail.elt);
  });

  // A socket the browser still calls open but that has not been heard from for a few beats (or
  // since it was asked for the board) is dead: the network went without a word. Make a new one.
  setInterval(function () {
    const now = Date.now();
    sockets().forEach(function (elt) {
      const l = link(elt);
      const beat = Number(elt.dataset.beatMs || 0);
      if (!l.open || !beat) return;
      if (now - l.heard > 2.5 * beat || (l.asked && now - l.asked > 3000)) {
        l.open = false;
        l.asked = 0;
        showLink(elt);
        reconnectNow(elt, true);
      }
    });
  }, 1000);

  // The network or the tab comes back: reconnect at once rather than at the next retry, and check
  // a socket that stayed open (a sleeping laptop's socket may be long dead).
  function wake() {
    sockets().forEach(function (elt) {
      showLink(elt);
      if (socketUp((wrapperOf(elt) || {}).socket)) askForBoard(elt);
      else reconnectNow(elt);
    });
    document.dispatchEvent(new CustomEvent("board:reachable"));
  }
  window.addEventListener("online", wake);
  window.addEventListener("offline", function () { sockets().forEach(showLink); });
  document.addEventListener("visibilitychange", function () { if (document.visibilityState === "visible") wake(); });

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
  // The form takes exactly as many cards as the crib wants from each player (data-pick): its button
  // waits for them, and one pick too many gives up the oldest, so the player never sees a refusal.
  function wanted() {
    const form = document.querySelector("#board .discard-form");
    return form ? Number(form.dataset.pick || 2) : 0;
  }
  function showPicks() {
    const form = document.querySelector("#board .discard-form");
    if (!form) return;
    const left = wanted() - discardBoxes(true).length;
    const button = document.querySelector("#board .discard-submit");  // by the crib, outside the form
    if (button) button.disabled = left !== 0;
    const count = document.querySelector("#board .discard-count");
    if (count) count.textContent = left > 0 ? "Pick " + (left === 1 ? "one more card" : left + " cards") + "." : "";
  }
  document.addEventListener("change", function (e) {
    if (!e.target.matches("#board .discard-form input[name=cards]")) return;
    const order = picks && picks.hand === handKey() ? picks.cards.slice() : [];
    const value = e.target.value;
    const at = order.indexOf(value);
    if (at >= 0) order.splice(at, 1);
    if (e.target.checked) order.push(value);
    while (order.length > wanted()) {  // a third card replaces the first one picked
      const oldest = order.shift();
      discardBoxes(false).forEach(function (box) { if (box.value === oldest) box.checked = false; });
    }
    picks = { hand: handKey(), cards: order };
    showPicks();
  });
  function restorePicks() {
    if (picks && picks.hand === handKey()) {
      discardBoxes(false).forEach(function (box) { box.checked = picks.cards.indexOf(box.value) >= 0; });
    }
    showPicks();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", restorePicks);
  else restorePicks();
  document.addEventListener("htmx:afterSwap", restorePicks);
  document.addEventListener("htmx:oobAfterSwap", restorePicks);

  // A redraw replaces the whole board, and the focused control with it: focus fell to <body> and a
  // keyboard player tabbed a dozen times back to their hand after every move. Focus last seen in
  // the board goes back to the same control in the new one (a card by its value, the same
  // button), else to the next thing to do; focus anywhere else (the chat, the page) is left alone.
  let focused = null;
  const NEXT_THING = [".card-button.playable:not(:disabled)", ".card-pick__box:not(:disabled)",
    ".fan .card-button:not(:disabled)", ".seat--me .button--primary", ".result .button--primary"];
  function inBoard(el) { return !!(el && el.closest && el.closest("#board")); }
  function formOf(el) { const f = el.form || el.closest("form"); return f ? f.className : ""; }
  function focusKey(el) {
    return { park: el.hasAttribute("data-focus-park"), tag: el.tagName, name: el.getAttribute("name"),
      value: el.getAttribute("value"), form: formOf(el), cls: el.className, text: el.textContent.trim() };
  }
  function sameControl(el, key) {
    if (el.tagName !== key.tag || formOf(el) !== key.form) return false;
    if (key.name) return el.getAttribute("name") === key.name && el.getAttribute("value") === key.value;
    return key.tag === "BUTTON" || key.tag === "A" ? el.textContent.trim() === key.text : el.className === key.cls;
  }
  function focusable(el) { return el && !el.disabled && el.getClientRects().length > 0; }
  function focusTarget(board, key) {
    const same = key.park ? null : Array.from(board.querySelectorAll(key.tag)).find(function (el) { return sameControl(el, key); });
    if (focusable(same)) return same;
    for (const selector of NEXT_THING) {
      const next = Array.from(board.querySelectorAll(selector)).find(focusable);
      if (next) return next;
    }
    // Nothing to do until the others move: wait in the player's seat, so the board drawn after
    // their move still knows the keyboard was here.
    const seat = board.querySelector(".seat--me");
    if (seat) {
      seat.setAttribute("tabindex", "-1");
      seat.setAttribute("data-focus-park", "");
    }
    return seat;
  }
  document.addEventListener("focusin", function (e) {
    focused = inBoard(e.target) ? { el: e.target, key: focusKey(e.target) } : null;
  });
  document.addEventListener("focusout", function (e) {
    const el = e.target;
    setTimeout(function () {  // a move of focus out of the board, not the board redrawn under it
      if (focused && focused.el === el && el.isConnected && !inBoard(document.activeElement)) focused = null;
    }, 0);
  });
  function restoreFocus() {
    const board = document.getElementById("board");
    const active = document.activeElement;
    if (!board || !focused || focused.el.isConnected || (active && active !== document.body)) return;
    const target = focusTarget(board, focused.key);
    if (target) target.focus();
  }
  // Every way a board comes in (an answer, a push, a late answer put on the newer board) replaces
  // #board in its parent: watching that catches them all, once htmx has finished the swap.
  function watchBoard() {
    const board = document.getElementById("board");
    if (board) new MutationObserver(restoreFocus).observe(board.parentNode, { childList: true });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", watchBoard);
  else watchBoard();

  // The tab's title follows the board (it says "Your move" when it is): a push redraws the board only.
  function titleFromBoard() {
    const board = document.getElementById("board");
    if (board && board.dataset.title && document.title !== board.dataset.title) document.title = board.dataset.title;
  }
  document.addEventListener("htmx:afterSwap", titleFromBoard);
  document.addEventListener("htmx:oobAfterSwap", titleFromBoard);

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

  // A handshake this recent already proves the socket: a request that fails now does not replace it.
  // Each new socket's wsOpen sends a waiting move again, and a move that still cannot go would
  // otherwise replace that socket too, over and over, before the board it brings could be drawn.
  const FRESH_SOCKET_MS = 5000;
  // A request that could not reach the server, or came back from a proxy with the server away:
  // the connection is not what the status said.
  function requestFailed() {
    sockets().forEach(function (elt) {
      const l = link(elt);
      l.failed = true;
      showLink(elt);
      // An older socket the browser calls open proves nothing now: a new handshake does (wsOpen).
      if (l.open && Date.now() - l.openedAt > FRESH_SOCKET_MS) reconnectNow(elt, true);
    });
  }
  function requestReached() {
    sockets().forEach(function (elt) {
      const l = link(elt);
      if (!l.failed) return;
      l.failed = false;
      showLink(elt);
      reconnectNow(elt);
    });
  }
  function serverAway(status) { return status === 0 || status === 502 || status === 503 || status === 504; }

  // A move (a POST to the board's act/ URL) that does not reach the server is kept, said, and sent
  // again until the server answers: every 1.5 s at most, and at once when the network, the socket
  // or the tab comes back. Sending it again is safe: the server makes a move once, answers a move
  // it has already made with the board, and refuses one made on a board that has changed since.
  const MOVE = /\/games\/[^/]+\/act\/$/;
  let unsent = null;

  // A kept move outlives its page: closed, reloaded or lost with the browser while the move waited,
  // the next page of this board (in this browser, for this player) sends it. Late is as safe as
  // again. Moves of more than a month ago are dropped unsent: the board has long gone on.
  const STORE = "cribbage:unsent-moves";
  const STORE_DAYS = 30;
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
  function viewer() {
    const live = document.querySelector(".board-live[data-viewer]");
    return live ? live.dataset.viewer : "";
  }
  function storedKey(path) { return viewer() + " " + path; }
  function remember(move) {
    updateStored(function (moves) {
      moves[move.key] = { path: move.path, body: move.body, button: move.button, saved: Date.now() };
    });
  }
  function forget(move) { updateStored(function (moves) { delete moves[move.key]; }); }
  function headersHere() {
    const headers = { "Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true",
      "HX-Current-URL": window.location.href };
    [document.body, document.querySelector(".board-live")].forEach(function (elt) {
      try { Object.assign(headers, JSON.parse(elt.getAttribute("hx-headers") || "{}")); } catch (err) { /* none */ }
    });
    return headers;
  }
  function sendStored() {
    if (unsent || !viewer()) return;
    const key = storedKey(window.location.pathname + "act/");
    let move = null;
    updateStored(function (moves) {
      Object.keys(moves).forEach(function (k) {
        if (!(Date.now() - moves[k].saved < STORE_DAYS * 86400000)) delete moves[k];
      });
      move = moves[key] || null;
    });
    if (!move) return;
    unsent = { path: move.path, body: move.body, headers: headersHere(), tries: 0, button: move.button, key: key };
    markWaiting();
    unsentNote("Sending the move you made before this page was closed…", "waiting");
    sendAgain();
  }
  let retry = null;
  function unsentNote(text, kind) {
    const note = document.getElementById("unsent");
    if (!note) return;
    note.textContent = text;
    note.hidden = !text;
    if (kind) note.dataset.kind = kind;
    else delete note.dataset.kind;
  }
  function isMove(config) {
    const board = document.getElementById("board");
    return !!(board && config && config.verb === "post" && MOVE.test(config.path) && config.elt &&
      (board.contains(config.elt) || config.elt.closest("[hx-ext~='board-answer']")));
  }
  // The button the move was made with stays marked while it waits, through any redraw of the board.
  function markWaiting() {
    document.querySelectorAll("#board [data-unsent]").forEach(function (b) { b.removeAttribute("data-unsent"); });
    if (!unsent || !unsent.button) return;
    const button = Array.from(document.querySelectorAll("#board button[name]")).find(function (b) {
      return b.getAttribute("name") === unsent.button.name && b.getAttribute("value") === unsent.button.value;
    });
    if (button) button.setAttribute("data-unsent", "");
  }
  document.addEventListener("htmx:afterSwap", markWaiting);
  document.addEventListener("htmx:oobAfterSwap", markWaiting);
  function keep(config) {
    if (unsent) return;
    const headers = Object.assign({}, config.headers, { "Content-Type": "application/x-www-form-urlencoded" });
    const submitter = config.triggeringEvent && config.triggeringEvent.submitter;
    unsent = { path: config.path, body: new URLSearchParams(config.formData).toString(), headers: headers, tries: 0,
      button: submitter && submitter.name ? { name: submitter.name, value: submitter.value } : null,
      key: storedKey(config.path) };
    remember(unsent);
    markWaiting();
    unsentNote(navigator.onLine ? "Not sent yet: the server cannot be reached. Your move goes as soon as it can."
      : "Not sent yet: you are offline. Your move goes as soon as the network is back.", "waiting");
    later();
  }
  function later() {
    clearTimeout(retry);
    retry = setTimeout(sendAgain, Math.min(1500, 300 * Math.pow(2, unsent ? unsent.tries : 0)));
  }
  let sending = false;
  function sendAgain() {
    if (!unsent || sending) return;
    if (!navigator.onLine) { later(); return; }  // the online event sends it
    const move = unsent;
    move.tries += 1;
    sending = true;
    const stop = new AbortController();
    const timer = setTimeout(function () { stop.abort(); }, 10000);
    fetch(move.path, { method: "POST", body: move.body, headers: move.headers, credentials: "same-origin",
      signal: stop.signal })
      .then(function (response) {
        if (serverAway(response.status)) throw new Error("server away");
        return response.text().then(function (html) { answered(move, response.status, html); });
      })
      .catch(function () {
        sending = false;
        if (unsent !== move) return;  // answered: what failed was drawing the answer, not sending
        requestFailed();
        unsentNote(navigator.onLine ? "Not sent yet: the server cannot be reached. Trying again…"
          : "Not sent yet: you are offline. Your move goes as soon as the network is back.", "waiting");
        later();
      })
      .finally(function () { clearTimeout(timer); });
  }
  function answered(move, status, html) {
    sending = false;
    unsent = null;
    forget(move);
    markWaiting();
    clearTimeout(retry);
    requestReached();
    const incoming = boardVersion(html);
    if (incoming === null) { window.location.reload(); return; }  // signed out meanwhile: the page says
    const board = document.getElementById("board");
    if (board && incoming >= Number(board.dataset.version)) htmx.swap(board, html, { swapStyle: "outerHTML" });
    if (status === 409) unsentNote("Your move was not made: the board changed while you were away.", "refused");
    else if (status >= 400) unsentNote("Your move was not made: see the board for why.", "refused");
    else {
      unsentNote("Your move was sent.", "sent");
      setTimeout(function () {
        const note = document.getElementById("unsent");
        if (!unsent && note && note.dataset.kind === "sent") unsentNote("");
      }, 6000);
    }
  }
  document.addEventListener("board:reachable", sendAgain);
  document.addEventListener("htmx:wsOpen", sendAgain);

  // A second move while one waits would be refused as stale once the first lands: it waits too.
  document.addEventListener("htmx:beforeRequest", function (e) {
    if (unsent && isMove(e.detail.requestConfig)) {
      e.preventDefault();
      unsentNote("Your last move is still waiting to be sent: it goes first.", "waiting");
    }
  });
  document.addEventListener("htmx:sendError", function (e) {
    const config = e.detail.requestConfig;
    requestFailed();
    if (isMove(config)) keep(config);
  });
  // An answer lost (no answer in time, a 5xx): a move is kept and sent again, anything else from
  // the board asks for the board again rather than sit on a stale one.
  function answerLost(e, away) {
    const config = e.detail.requestConfig;
    if (away) requestFailed();
    if (away && isMove(config)) { keep(config); return; }
    const board = document.getElementById("board");
    if (!board || !e.detail.elt || !board.contains(e.detail.elt)) return;
    htmx.ajax("GET", window.location.pathname, { target: "#board", swap: "outerHTML" });
  }
  document.addEventListener("htmx:timeout", function (e) { answerLost(e, true); });
  document.addEventListener("htmx:responseError", function (e) {
    answerLost(e, serverAway(e.detail.xhr ? e.detail.xhr.status : 0));
  });
  document.addEventListener("htmx:afterRequest", function (e) {
    const status = e.detail.xhr ? e.detail.xhr.status : 0;
    if (!serverAway(status)) requestReached();
    // A move answered by the server ends whatever the note said about an earlier one.
    if (!unsent && status && !serverAway(status) && isMove(e.detail.requestConfig)) unsentNote("");
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", sendStored);
  else sendStored();
})();

// Presence says how long ago a player left and counts down to the claim of a win, between the
// server's redraws (it redraws the line itself when a claim becomes possible).
(function () {
  "use strict";
  function ago(seconds) {
    if (seconds < 60) return "just now";
    const minutes = Math.floor(seconds / 60);
    if (minutes < 60) return minutes === 1 ? "1 minute ago" : minutes + " minutes ago";
    const hours = Math.floor(minutes / 60);
    return hours === 1 ? "1 hour ago" : hours + " hours ago";
  }
  function tick() {
    const now = Date.now();
    document.querySelectorAll("time[data-countdown]").forEach(function (el) {
      const left = Math.max(0, Math.round((Date.parse(el.getAttribute("datetime")) - now) / 1000));
      el.textContent = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
    });
    document.querySelectorAll("time[data-ago]").forEach(function (el) {
      el.textContent = ago(Math.max(0, (now - Date.parse(el.getAttribute("datetime"))) / 1000));
    });
  }
  setInterval(tick, 1000);
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

  // What a reader did to a part of the page (scrolled a box sideways, opened a fold) survives a
  // push that redraws it: an attribute marks the elements that keep it, their id is the key.
  function keepAcrossSwaps(event, attribute, property) {
    const kept = {};
    document.addEventListener(event, function (e) {
      const box = e.target;
      if (box.nodeType === 1 && box.hasAttribute(attribute) && box.id) kept[box.id] = box[property];
    }, true);
    function restore() {
      Object.keys(kept).forEach(function (id) {
        const box = document.getElementById(id);
        if (box && box[property] !== kept[id]) box[property] = kept[id];
      });
    }
    document.addEventListener("htmx:afterSwap", restore);
    document.addEventListener("htmx:oobAfterSwap", restore);
  }
  keepAcrossSwaps("scroll", "data-keep-scroll", "scrollLeft");  // the bracket on a phone
  keepAcrossSwaps("toggle", "data-keep-open", "open");  // the last deal's show

  // On a phone the drawer is a sheet over the table: Escape closes it, as it closes a dialog, and
  // focus goes back to the button that opened it. On a wide screen it is the side column: no sheet.
  document.addEventListener("keydown", function (e) {
    if (e.key !== "Escape" || e.defaultPrevented) return;
    const drawer = document.querySelector("details.board-drawer[open]");
    const toggle = drawer && drawer.querySelector(":scope > summary");
    if (!toggle || !toggle.offsetParent) return;
    drawer.open = false;
    toggle.focus();
  });

  // A seek of ours was taken, or the rematch we offered began: follow the link the socket sends.
  document.addEventListener("htmx:oobAfterSwap", function (e) {
    const link = document.querySelector("a[data-follow]");
    if (link) window.location.assign(link.getAttribute("href"));
  });
})();

// The calls fade a few seconds after they come (board.css); once every call on the line has faded
// they go, so a claim's or a result's two or three wrapped calls do not keep the board pushed down.
// The next move's calls fill the line again.
(function () {
  "use strict";
  document.addEventListener("animationend", function (e) {
    if (e.animationName !== "announce-fade") return;
    const line = e.target.closest(".announce");
    if (!line) return;
    e.target.dataset.faded = "true";
    const calls = line.querySelectorAll(".call");
    if (Array.prototype.every.call(calls, function (c) { return c.dataset.faded === "true"; })) {
      line.replaceChildren();
    }
  });
})();

// The service worker (served at /sw.js so that it covers every page): the site installs as an app,
// shows its offline page when the network is gone, and receives browser notifications.
(function () {
  "use strict";
  if (!("serviceWorker" in navigator)) return;
  window.addEventListener("load", function () {
    navigator.serviceWorker.register("/sw.js", {scope: "/"}).catch(function () { /* the site works without it */ });
  });
})();

// Logging out forgets this browser's push subscription, at the site and in the browser, so the next
// person to use it gets none of this player's notices. Bounded: the log-out goes ahead within 2 s.
(function () {
  "use strict";
  document.addEventListener("submit", function (e) {
    const form = e.target;
    if (!form.matches || !form.matches("form[data-push-forget]") || form.dataset.pushForgotten) return;
    if (!("serviceWorker" in navigator) || !navigator.serviceWorker.controller) return;
    e.preventDefault();
    form.dataset.pushForgotten = "true";
    const token = (form.querySelector("[name=csrfmiddlewaretoken]") || {}).value || "";
    const forget = navigator.serviceWorker.getRegistration().then(function (reg) {
      return reg && reg.pushManager ? reg.pushManager.getSubscription() : null;
    }).then(function (sub) {
      if (!sub) return null;
      return fetch(form.dataset.pushForget, {
        method: "POST", credentials: "same-origin", body: JSON.stringify({endpoint: sub.endpoint}),
        headers: {"Content-Type": "application/json", "X-CSRFToken": token},
      }).then(function () { return sub.unsubscribe(); });
    });
    const bound = new Promise(function (resolve) { setTimeout(resolve, 2000); });
    const submit = function () { form.submit(); };
    Promise.race([forget, bound]).then(submit, submit);
  });
})();
