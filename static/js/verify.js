// Re-derives deals in the browser from their revealed seeds (the algorithm of games/engine/deck.py):
// SHA-256 via Web Crypto, then the same Fisher-Yates shuffle, deal and starter as the server, for
// two, three or four players.
(function () {
  "use strict";

  const SUITS = "SHDC";
  const RANKS = "A23456789TJQK";
  const FULL_DECK = [];
  for (const s of SUITS) for (const r of RANKS) FULL_DECK.push(r + s);
  const TWO_32 = 2 ** 32;

  function hexToBytes(hex) {
    if (!/^([0-9a-fA-F]{2})*$/.test(hex)) throw new Error("not hex");
    const out = new Uint8Array(hex.length / 2);
    for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(i * 2, 2), 16);
    return out;
  }

  function bytesToHex(bytes) { return Array.from(bytes, function (b) { return b.toString(16).padStart(2, "0"); }).join(""); }
  function concat(a, b) {
    const out = new Uint8Array(a.length + b.length);
    out.set(a, 0);
    out.set(b, a.length);
    return out;
  }

  function u64(n) {  // 8-byte big-endian
    const b = new Uint8Array(8);
    new DataView(b.buffer).setBigUint64(0, BigInt(n));
    return b;
  }

  async function sha256(bytes) {
    return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  }

  // The 52 cards in the order fixed by the seed, top card first.
  async function shuffle(seed) {
    const deck = FULL_DECK.slice();
    let block = null;
    let offset = 32;
    let counter = 0;
    async function nextWord() {
      if (offset >= 32) {
        block = new DataView((await sha256(concat(seed, u64(counter)))).buffer);
        counter += 1;
        offset = 0;
      }
      const word = block.getUint32(offset);  // big-endian
      offset += 4;
      return word;
    }
    for (let i = 51; i >= 1; i--) {
      const n = i + 1;
      const limit = TWO_32 - (TWO_32 % n);
      let word = await nextWord();
      while (word >= limit) word = await nextWord();
      const j = word % n;
      const t = deck[i]; deck[i] = deck[j]; deck[j] = t;
    }
    return deck;
  }

  // One card at a time from the top, starting left of the dealer (the pone), six each with two
  // players, five with three or four; with three the next card goes straight to the crib. The
  // starter is the card after those: deck[12], deck[16] or deck[20] (games/engine/game.py).
  function deal(deck, dealer, players) {
    players = players || 2;
    const size = players === 2 ? 6 : 5;
    const dealt = players * size;
    const hands = [];
    for (let s = 0; s < players; s++) hands.push([]);
    for (let i = 0; i < dealt; i++) hands[(dealer + 1 + i) % players].push(deck[i]);
    const cribCard = players === 3 ? deck[dealt] : null;
    return { hands: hands, cribCard: cribCard, starter: deck[dealt + (players === 3 ? 1 : 0)] };
  }

  function sameCards(a, b) {
    return a.length === b.length && a.slice().sort().join() === b.slice().sort().join();
  }

  async function check(d) {
    const seed = hexToBytes(d.seed);
    const hashOk = bytesToHex(await sha256(seed)) === d.commitment;
    const dealt = deal(await shuffle(seed), d.dealer, d.players || d.hands.length);
    const handsOk = d.hands.length === dealt.hands.length &&
      d.hands.every(function (hand, seat) { return sameCards(hand, dealt.hands[seat]); }) &&
      (d.crib_card === undefined || d.crib_card === null || d.crib_card === dealt.cribCard);
    const starterOk = d.starter === null || d.starter === dealt.starter;
    return { hash: hashOk, hands: handsOk, starter: starterOk, ok: hashOk && handsOk && starterOk };
  }

  function cryptoMissing() { return !(window.crypto && crypto.subtle && typeof BigInt === "function"); }

  // The seeds come in a part fetched as the check scrolls into view (htmx:load); checked once.
  async function verifyRecord() {
    const data = document.getElementById("verify-data");
    const summary = document.getElementById("verify-summary");
    if (!data || !summary || data.dataset.checked) return;
    data.dataset.checked = "yes";
    const deals = JSON.parse(data.textContent);
    if (cryptoMissing()) {
      summary.dataset.state = "unavailable";
      summary.textContent = "Your browser offers no Web Crypto on this page (it needs HTTPS), so the deals cannot be checked here.";
      return;
    }
    let good = 0;
    for (const d of deals) {
      const status = document.querySelector("#" + d.id + " .verify-status");
      let result;
      try {
        result = await check(d);
      } catch (e) {
        result = { ok: false, hash: false, hands: false, starter: false };
      }
      if (result.ok) good += 1;
      if (status) {
        status.dataset.verifyStatus = result.ok ? "ok" : "bad";
        status.textContent = result.ok
          ? "\u2713 Verified: the seed matches the commitment and deals these cards"
          : "\u2717 Does not match: " + [
            result.hash ? "" : "the seed's hash is not the commitment",
            result.hands ? "" : "the seed deals other hands",
            result.starter ? "" : "the seed turns another starter",
          ].filter(Boolean).join("; ");
      }
    }
    summary.dataset.state = good === deals.length ? "ok" : "bad";
    summary.textContent = good === deals.length
      ? "\u2713 All " + deals.length + " deal" + (deals.length === 1 ? "" : "s") + " verified in your browser."
      : "\u2717 " + (deals.length - good) + " of " + deals.length + " deals do not match.";
  }

  function cardText(card) {
    const symbols = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
    return (card[0] === "T" ? "10" : card[0]) + symbols[card[1]];
  }

  function setUpForm() {
    const form = document.getElementById("verify-form");
    const output = document.getElementById("verify-output");
    if (!form || !output) return;
    form.addEventListener("submit", async function (e) {
      e.preventDefault();
      output.hidden = false;
      if (cryptoMissing()) {
        output.textContent = "Your browser offers no Web Crypto on this page (it needs HTTPS).";
        return;
      }
      let seed;
      try {
        seed = hexToBytes(form.elements.seed.value.trim());
      } catch (err) {
        output.textContent = "The seed must be hexadecimal digits, two per byte.";
        return;
      }
      const players = form.elements.players ? Number(form.elements.players.value) : 2;
      const dealer = Number(form.elements.dealer.value);
      if (dealer >= players) {
        output.textContent = "With " + players + " players the dealer is seat 1 to " + players + ".";
        return;
      }
      const deck = await shuffle(seed);
      const dealt = deal(deck, dealer, players);
      output.replaceChildren();
      const lines = [
        "Commitment (SHA-256 of the seed): " + bytesToHex(await sha256(seed)),
        "Deck, top first: " + deck.map(cardText).join(" "),
      ];
      if (players === 2) {
        lines.push("Dealer's hand: " + dealt.hands[dealer].map(cardText).join(" "));
        lines.push("Pone's hand: " + dealt.hands[1 - dealer].map(cardText).join(" "));
      } else {
        for (let k = 1; k <= players; k++) {  // from the dealer's left round to the dealer
          const seat = (dealer + k) % players;
          lines.push("Seat " + (seat + 1) + (seat === dealer ? " (dealer)" : "") + ": " +
            dealt.hands[seat].map(cardText).join(" "));
        }
      }
      if (dealt.cribCard) lines.push("Straight to the crib: " + cardText(dealt.cribCard));
      lines.push("Starter: " + cardText(dealt.starter));
      for (const text of lines) {
        const p = document.createElement("p");
        p.textContent = text;
        output.appendChild(p);
      }
    });
  }

  window.CribbageVerify = {
    shuffle: shuffle, deal: deal, check: check, sha256: sha256, hexToBytes: hexToBytes, bytesToHex: bytesToHex,
  };
  document.addEventListener("DOMContentLoaded", function () {
    verifyRecord();
    setUpForm();
  });
  document.addEventListener("htmx:load", verifyRecord);
})();
