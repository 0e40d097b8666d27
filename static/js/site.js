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
    const button = form.querySelector(".discard-submit");
    if (button) button.disabled = left !== 0;
    const count = form.querySelector(".discard-count");
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

  // A move's answer carries the new board, and this page's socket is spared the same push. If the
  // answer is lost (network, a 5xx), ask for the board again rather than sit on a stale one.
  function refetchBoard(e) {
    const board = document.getElementById("board");
    if (!board || !e.detail.elt || !board.contains(e.detail.elt)) return;
    htmx.ajax("GET", window.location.pathname, { target: "#board", swap: "outerHTML" });
  }
  document.addEventListener("htmx:responseError", refetchBoard);
  document.addEventListener("htmx:timeout", refetchBoard);

  // A move that could not reach the server at all (the network or the server is down) is not
  // dropped: the page says so, and sends it again once the socket is back (or the next try gets
  // through). A board changed meanwhile answers the late move with the new board and a word.
  let unsent = null;
  function unsentNote(text) {
    const note = document.getElementById("unsent");
    if (!note) return;
    note.textContent = text;
    note.hidden = !text;
  }
  function resend() {
    if (!unsent) return;
    const move = unsent;
    unsent = null;
    unsentNote("Sending again…");
    htmx.ajax(move.verb, move.path, { values: move.values, target: "#board", swap: "outerHTML",
      headers: move.headers });
  }
  document.addEventListener("htmx:sendError", function (e) {
    const board = document.getElementById("board");
    const elt = e.detail.elt;
    const config = e.detail.requestConfig;
    if (!board || !elt || !config || !(board.contains(elt) || elt === board)) return;
    const values = {};
    if (config.formData) {
      config.formData.forEach(function (value, key) {
        if (key in values) values[key] = [].concat(values[key], value);
        else values[key] = value;
      });
    }
    unsent = { verb: config.verb, path: config.path, values: values, headers: config.headers };
    unsentNote("Not sent: reconnecting…");
    setTimeout(resend, 3000);
  });
  document.addEventListener("htmx:wsOpen", function () { if (unsent) setTimeout(resend, 300); });
  document.addEventListener("htmx:afterRequest", function (e) {
    if (e.detail.successful && !unsent) unsentNote("");
  });
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
