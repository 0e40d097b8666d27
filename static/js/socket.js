// The page's live connections. An element with data-socket="<path>" gets a WebSocket to that path,
// kept open by this file (the browser's own WebSocket, no htmx extension), and every HTML message
// on it is applied with htmx's public htmx.swap: its out-of-band parts (hx-swap-oob) go where htmx
// puts them, those marked "morph" morphed by the idiomorph extension.
//
// What the page says of a connection is what it knows, from three sources together: the socket
// (open or not), the server's heartbeats on it ({"beat": the game's version, "live": whether pushes
// reach the socket}; their silence says the socket is dead even while the browser keeps it open),
// and the page's own requests (one that cannot reach the server says so before any socket notices).
// The status is written on the element's data-state (if it has one) and on the element whose id is
// its data-socket-status. Others hear of it by events on the element: socket:open, socket:close,
// socket:beat ({beat, live}), the cancelable socket:message ({html}) before a message is applied,
// and socket:reachable on the document. window.LiveSocket is the small public handle.
(function () {
  "use strict";
  const links = new Map();  // element -> its link: the socket and what is known of it
  // A handshake this recent already proves the socket: a request that fails now does not replace it
  // (each new socket sends a waiting move again; one that still cannot go must not replace it again).
  const FRESH_SOCKET_MS = 5000;
  const ASK_ANSWER_MS = 3000;

  // Retries come quickly and stop growing at a second: a board is back within two seconds of the
  // server, and a refused connection costs the server nothing. Jitter spreads a restart's pages.
  function retryDelay(retries) { return Math.min(1000, 250 * Math.pow(2, retries)) * (0.6 + 0.4 * Math.random()); }
  function up(ws) { return !!ws && (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING); }

  function statusElements(elt) {
    const own = elt.hasAttribute("data-state") ? [elt] : [];
    const other = elt.dataset.socketStatus && document.getElementById(elt.dataset.socketStatus);
    return other ? own.concat([other]) : own;
  }
  function show(elt) {
    const l = links.get(elt);
    let state = "closed", text = "Reconnecting…";
    if (!navigator.onLine) { state = "offline"; text = "Offline: waiting for the network…"; }
    else if (l.open && !l.failed) {
      // The socket lives but the server says pushes do not reach it (its channel layer is away):
      // moves still go through, and the board is brought up to date by the heartbeats.
      state = l.live ? "open" : "delayed";
      text = l.live ? "Connected" : "Live updates delayed";
    } else if (!l.tried && !l.failed) { state = "connecting"; text = "Connecting…"; }
    statusElements(elt).forEach(function (el) {
      if (el.dataset.state !== state) el.dataset.state = state;
      const label = el.querySelector(".ws-state");
      if (label && label.textContent !== text) label.textContent = text;
    });
  }
  function tell(elt, name, detail) {
    return elt.dispatchEvent(new CustomEvent(name, { bubbles: true, cancelable: true, detail: detail || {} }));
  }

  function open(elt) {
    const l = links.get(elt);
    clearTimeout(l.timer);
    if (!elt.isConnected) { links.delete(elt); return; }
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    const ws = new WebSocket(scheme + location.host + elt.dataset.socket);
    l.socket = ws;
    ws.onopen = function () {
      if (l.socket !== ws) return;
      Object.assign(l, { open: true, tried: true, live: true, failed: false, retries: 0, asked: 0 });
      l.heard = l.openedAt = Date.now();
      show(elt);
      tell(elt, "socket:open");
    };
    ws.onmessage = function (e) {
      if (l.socket !== ws) return;
      l.heard = Date.now();
      l.asked = 0;
      const text = String(e.data);
      if (text.charAt(0) === "{") { beat(elt, text); return; }
      if (tell(elt, "socket:message", { html: text })) htmx.swap(elt, text, { swapStyle: "none" });
    };
    ws.onclose = function (e) {
      if (l.socket !== ws) return;  // replaced on purpose: the new one speaks for the link
      l.open = false;
      l.tried = true;
      show(elt);
      tell(elt, "socket:close", { code: e.code });
      // A refusal (4xxx: not a player here, gone) is final; anything else is tried again.
      if (e.code < 4000) l.timer = setTimeout(function () { reconnect(elt); }, retryDelay(l.retries++));
    };
  }

  function beat(elt, text) {
    const l = links.get(elt);
    let data;
    try { data = JSON.parse(text); } catch (err) { return; }
    if (typeof data.live === "boolean") l.live = data.live;
    show(elt);
    tell(elt, "socket:beat", { beat: data.beat, live: l.live });
  }

  // A new socket now: if the old one is down, or (evenIfOpen) because it proves nothing any more.
  function reconnect(elt, evenIfOpen) {
    const l = links.get(elt);
    if (!l || (!evenIfOpen && up(l.socket))) return;
    const old = l.socket;
    l.socket = null;
    l.open = false;
    if (old && up(old)) old.close();
    open(elt);
  }

  // Ask an open socket for a fresh board: the answer is news and proof that the socket lives.
  function ask(elt) {
    const l = links.get(elt);
    if (!l || !l.socket || l.socket.readyState !== WebSocket.OPEN) return false;
    l.socket.send("board");
    l.asked = Date.now();
    return true;
  }

  function start(root) {
    const found = Array.from(root.querySelectorAll("[data-socket]"));
    if (root.matches && root.matches("[data-socket]")) found.push(root);
    found.forEach(function (elt) {
      if (links.has(elt)) return;
      links.set(elt, { open: false, tried: false, live: true, failed: false, heard: 0, openedAt: 0, asked: 0, retries: 0 });
      show(elt);
      open(elt);
    });
  }
  htmx.onLoad(start);

  // A socket the browser still calls open but that has not been heard from for a few beats (or
  // since it was asked for the board) is dead: the network went without a word. Make a new one.
  setInterval(function () {
    const now = Date.now();
    links.forEach(function (l, elt) {
      const every = Number(elt.dataset.beatMs || 0);
      if (!l.open || !every) return;
      if (now - l.heard > 2.5 * every || (l.asked && now - l.asked > ASK_ANSWER_MS)) {
        l.asked = 0;
        reconnect(elt, true);
        show(elt);
      }
    });
  }, 1000);

  // The network or the tab comes back: reconnect at once rather than at the next retry, and check
  // a socket that stayed open (a sleeping laptop's socket may be long dead).
  function wake() {
    links.forEach(function (l, elt) {
      show(elt);
      if (!up(l.socket)) reconnect(elt);
      else if (elt.dataset.beatMs) ask(elt);
    });
    document.dispatchEvent(new CustomEvent("socket:reachable"));
  }
  window.addEventListener("online", wake);
  window.addEventListener("offline", function () { links.forEach(function (l, elt) { show(elt); }); });
  document.addEventListener("visibilitychange", function () { if (document.visibilityState === "visible") wake(); });

  // The page's own requests: one that could not reach the server, or came back from a proxy with
  // the server away, says the connection is not what the status said.
  function away(status) { return status === 0 || status === 502 || status === 503 || status === 504; }
  function requestFailed() {
    links.forEach(function (l, elt) {
      l.failed = true;
      show(elt);
      // An older socket the browser calls open proves nothing now: a new handshake does.
      if (l.open && Date.now() - l.openedAt > FRESH_SOCKET_MS) reconnect(elt, true);
    });
  }
  function requestReached() {
    let any = false;
    links.forEach(function (l, elt) {
      if (!l.failed) return;
      any = true;
      l.failed = false;
      show(elt);
      reconnect(elt);
    });
    if (any) document.dispatchEvent(new CustomEvent("socket:reachable"));
  }
  document.addEventListener("htmx:sendError", requestFailed);
  document.addEventListener("htmx:timeout", requestFailed);
  document.addEventListener("htmx:afterRequest", function (e) {
    const status = e.detail.xhr ? e.detail.xhr.status : 0;
    if (e.detail.xhr && e.detail.xhr.readyState === 4 && !away(status)) requestReached();
    else if (e.detail.xhr && e.detail.xhr.readyState === 4) requestFailed();
  });

  window.LiveSocket = {
    ask: ask,
    reconnect: reconnect,
    socketOf: function (elt) { const l = links.get(elt); return l ? l.socket : null; },
    serverAway: away,
  };
})();
