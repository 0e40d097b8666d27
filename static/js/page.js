// Page helpers for every page: the folded menu, one-key shortcuts, times that tick between the
// server's redraws, the drawer's Escape, links a socket asks the page to follow, the calls' fade,
// the service worker and the log-out that forgets this browser's notices.
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

// The turn timer counts down between server renders; the server alone decides when time is up.
(function () {
  "use strict";
  function tick() {
    document.querySelectorAll(".turn-timer[data-deadline]").forEach(function (el) {
      const left = Math.max(0, Math.round((Date.parse(el.dataset.deadline) - Date.now()) / 1000));
      const out = el.querySelector(".turn-timer__time");
      if (out) out.textContent = left + "s";
      el.classList.toggle("turn-timer--low", left <= 10);
    });
  }
  setInterval(tick, 1000);

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
  // Looked for in what was swapped in only: a board's every push swaps parts in out of band.
  document.addEventListener("htmx:oobAfterSwap", function (e) {
    const swapped = e.target;
    const link = swapped.matches("a[data-follow]") ? swapped : swapped.querySelector("a[data-follow]");
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
