// The account page's "Browser notifications" switch: asks the browser's permission, subscribes
// through the service worker's push manager, and tells the server (which sends the notices). The
// line under the switch always says the real state: unsupported, blocked, on or off.
(function () {
  "use strict";
  const box = document.querySelector("[data-push]");
  if (!box) return;
  const input = box.querySelector("input[type=checkbox]");
  const status = box.querySelector("[data-push-status]");
  const WORDS = {
    unsupported: "This browser cannot show notifications from Cribbage Hall.",
    insecure: "Notifications need the site's secure (https) address.",
    blocked: "Notifications are blocked for this site. Allow them in the browser's site settings, then reload this page.",
    on: "On in this browser.",
    off: "Off in this browser.",
    busy: "Asking the browser…",
  };

  function show(state, extra) {
    box.dataset.state = state;
    // While the browser is asked, the box stays as the player just set it.
    if (state !== "busy") input.checked = state === "on";
    input.disabled = state === "unsupported" || state === "insecure" || state === "blocked" || state === "busy";
    status.textContent = WORDS[state] + (extra ? " " + extra : "");
  }

  function csrf() {
    try { return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"]; } catch (e) { return ""; }
  }

  function post(url, data) {
    return fetch(url, {
      method: "POST", credentials: "same-origin", body: JSON.stringify(data),
      headers: {"Content-Type": "application/json", "X-CSRFToken": csrf()},
    }).then(function (response) {
      if (response.ok) return response.json();
      return response.json().catch(function () { return {}; }).then(function (body) {
        throw new Error(body.error || "The site answered " + response.status + ".");
      });
    });
  }

  // base64url to bytes, for the site's public key.
  function keyBytes(text) {
    const b64 = (text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(b64), function (c) { return c.charCodeAt(0); });
  }

  function registration() {
    // register() again is harmless; it settles this page's worker even before site.js's load handler.
    return navigator.serviceWorker.register("/sw.js", {scope: "/"}).then(function () {
      return navigator.serviceWorker.ready;
    });
  }

  // A subscription made with another key (the site's pair was changed) gets nothing: push services
  // refuse messages signed by a key it was not made with.
  function madeWithOurKey(sub) {
    const made = sub.options && sub.options.applicationServerKey;
    if (!made) return true;
    const a = new Uint8Array(made), b = keyBytes(box.dataset.key);
    return a.length === b.length && a.every(function (byte, i) { return byte === b[i]; });
  }

  function turnOn() {
    show("busy");
    return Notification.requestPermission().then(function (permission) {
      if (permission === "denied") return show("blocked");
      if (permission !== "granted") return show("off", "The browser was not given permission.");
      return registration().then(function (reg) {
        return reg.pushManager.subscribe({userVisibleOnly: true, applicationServerKey: keyBytes(box.dataset.key)});
      }).then(function (sub) {
        return post(box.dataset.subscribe, sub.toJSON()).catch(function (error) {
          // The server could not keep it: a subscription it does not know would be a lie.
          return sub.unsubscribe().then(function () { throw error; });
        });
      }).then(function () { show("on"); });
    }).catch(function (error) {
      show("off", "Could not turn them on: " + error.message);
    });
  }

  function turnOff() {
    show("busy");
    return registration().then(function (reg) { return reg.pushManager.getSubscription(); })
      .then(function (sub) {
        if (!sub) return null;
        return post(box.dataset.unsubscribe, {endpoint: sub.endpoint}).then(function () { return sub.unsubscribe(); });
      })
      .then(function () { show("off"); })
      .catch(function (error) { show("on", "Could not turn them off: " + error.message); });
  }

  function start() {
    if (!window.isSecureContext) return show("insecure");
    if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
      return show("unsupported");
    }
    if (Notification.permission === "denied") return show("blocked");
    input.addEventListener("change", function () { if (input.checked) turnOn(); else turnOff(); });
    show("busy");
    return registration().then(function (reg) { return reg.pushManager.getSubscription(); })
      .then(function (sub) {
        if (!sub || Notification.permission !== "granted") return show("off");
        if (!madeWithOurKey(sub)) return sub.unsubscribe().then(turnOn);
        // The browser holds a subscription: make sure the site sends to it for this player.
        return post(box.dataset.subscribe, sub.toJSON()).then(function () { show("on"); });
      })
      .catch(function (error) { show("off", error.message); });
  }

  start();
})();
