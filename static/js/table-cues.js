// Turn cues: if the player turned sound on, short sounds mark a card laid, a peg moved and their
// turn (the tab's title, which says "Your turn" in a hidden tab, is board.js's). Sounds are
// made with the Web Audio API (no files). The switches (sound, animations) are the player's
// account preferences: changing one acts at once here, and the form stores it (htmx, no answer).
// Each sound played is also told to the page as a "table:sound" event ({kind}).
(function () {
  "use strict";

  function live() { return document.querySelector(".board-live"); }

  // ---------- the switches ----------
  document.addEventListener("change", function (e) {
    const input = e.target;
    if (!input.closest || !input.closest(".table-prefs")) return;
    const root = live();
    if (!root) return;
    if (input.name === "sound") {
      root.dataset.sound = input.checked ? "on" : "off";
      if (input.checked) unlock();  // the tick itself lets the page make sound
    }
    if (input.name === "motion") {
      root.dataset.motion = input.checked ? "on" : "off";
      if (!input.checked) document.getAnimations().forEach(function (a) { a.finish(); });
    }
  });

  // ---------- sound ----------
  let audio = null;
  function soundOn() { const root = live(); return !!root && root.dataset.sound === "on"; }
  function unlock() {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    if (!audio) audio = new Context();
    if (audio.state === "suspended") audio.resume();
    return audio;
  }
  // A browser lets a page start sound only after the player did something on it.
  ["pointerdown", "keydown"].forEach(function (name) {
    document.addEventListener(name, function () { if (soundOn()) unlock(); }, { passive: true });
  });

  function tone(ctx, at, freq, length, type, peak) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = type;
    osc.frequency.setValueAtTime(freq, at);
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(peak, at + 0.005);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
    osc.connect(gain).connect(ctx.destination);
    osc.start(at);
    osc.stop(at + length + 0.02);
  }

  function snap(ctx, at) {  // a card laid on the cloth: a short burst of filtered noise
    const length = 0.07;
    const buffer = ctx.createBuffer(1, Math.ceil(ctx.sampleRate * length), ctx.sampleRate);
    const data = buffer.getChannelData(0);
    for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 2 - 1) * Math.pow(1 - i / data.length, 3);
    const source = ctx.createBufferSource();
    const filter = ctx.createBiquadFilter();
    const gain = ctx.createGain();
    source.buffer = buffer;
    filter.type = "bandpass";
    filter.frequency.value = 2200;
    gain.gain.value = 0.5;
    source.connect(filter).connect(gain).connect(ctx.destination);
    source.start(at);
  }

  const SOUNDS = {
    card: function (ctx, t) { snap(ctx, t); },
    peg: function (ctx, t) { tone(ctx, t, 1250, 0.06, "triangle", 0.25); tone(ctx, t + 0.07, 950, 0.06, "triangle", 0.2); },
    turn: function (ctx, t) { tone(ctx, t, 660, 0.16, "sine", 0.22); tone(ctx, t + 0.14, 880, 0.22, "sine", 0.22); },
  };

  function sound(kind, delay) {
    if (!soundOn()) return;
    const ctx = audio;  // made by a tap or a key: a page may not start one by itself
    if (ctx && ctx.state === "running") SOUNDS[kind](ctx, ctx.currentTime + (delay || 0));
    document.dispatchEvent(new CustomEvent("table:sound", { detail: { kind: kind } }));
  }

  // ---------- what changed from one board to the next ----------
  function read(board) {
    return {
      version: Number(board.dataset.version),
      mine: board.hasAttribute("data-my-turn"),
      cards: board.querySelectorAll(".pile .cards li, .crib .cards li").length,
      hand: board.querySelectorAll(".seat--me .card[data-card]").length,
      pegs: Array.from(board.querySelectorAll(".board-svg .peg--front")).map(function (p) { return p.dataset.hole; }).join(","),
    };
  }

  // Once per new board (board.js): what changed from the last one makes its sound.
  let last = null;
  document.addEventListener("board:updated", function (e) {
    const now = read(e.detail.board);
    const was = last;
    last = now;
    if (!was || now.version <= was.version) return;
    if (now.cards > was.cards || now.hand > was.hand) sound("card");
    if (now.pegs !== was.pegs) sound("peg", 0.12);
    const root = live();
    if (now.mine && !was.mine && root && root.hasAttribute("data-live")) sound("turn", 0.25);
  });
})();
