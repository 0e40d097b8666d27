// An organiser's news on any page (games/play/news.py): each piece shows once. A piece dismissed,
// or whose board the player opened from it, is remembered in this browser and left out of every
// later push, before it is swapped in, so a screen reader never hears it again either.
(function () {
  "use strict";
  const KEY = "site-news-done";
  const KEPT = 50;
  function done() {
    try { return JSON.parse(localStorage.getItem(KEY) || "[]"); } catch (err) { return []; }
  }
  function remember(key) {
    const keys = done().filter(function (k) { return k !== key; });
    keys.push(key);
    try { localStorage.setItem(KEY, JSON.stringify(keys.slice(-KEPT))); } catch (err) { /* private mode: this page only */ }
  }
  document.addEventListener("htmx:oobBeforeSwap", function (e) {
    const fragment = e.detail.fragment;
    if (!e.detail.target || e.detail.target.id !== "site-news" || !fragment) return;
    const gone = done();
    fragment.querySelectorAll("[data-news]").forEach(function (item) {
      if (gone.indexOf(item.dataset.news) >= 0) item.remove();
    });
  });
  document.addEventListener("click", function (e) {
    const control = e.target.closest && e.target.closest("#site-news [data-news-done]");
    if (!control) return;
    const item = control.closest("[data-news]");
    remember(item.dataset.news);
    if (control.tagName === "BUTTON") item.remove();
  });
})();
