// Laying away by hand: a card of the hand dragged onto the crib is picked for it (mouse, pen or
// touch, through pointer events); a tap still picks it as before. The picked cards go when the
// player presses the button by the crib, so a card dropped there by mistake is one tap from back.
(function () {
  "use strict";
  const THRESHOLD = 8;  // px before a press becomes a drag: a shaky tap is still a tap
  let drag = null;
  let swallowClick = false;

  function crib() { return document.querySelector("#board .crib"); }

  function over(el, e) {
    if (!el) return false;
    const r = el.getBoundingClientRect();
    const pad = 12;  // a card dropped on the crib's edge still lands in it
    return e.clientX >= r.left - pad && e.clientX <= r.right + pad && e.clientY >= r.top - pad && e.clientY <= r.bottom + pad;
  }

  document.addEventListener("pointerdown", function (e) {
    if (e.button !== 0 || !e.isPrimary) return;
    const pick = e.target.closest && e.target.closest("#board .discard-form .card-pick");
    if (!pick) return;
    const box = pick.querySelector("input[name=cards]");
    drag = { pick: pick, value: box ? box.value : "", id: e.pointerId, x: e.clientX, y: e.clientY, moving: false };
  });

  document.addEventListener("pointermove", function (e) {
    if (!drag || e.pointerId !== drag.id) return;
    const dx = e.clientX - drag.x;
    const dy = e.clientY - drag.y;
    if (!drag.moving) {
      if (Math.hypot(dx, dy) < THRESHOLD) return;
      drag.moving = true;
      drag.pick.classList.add("card-pick--dragging");
      try { drag.pick.setPointerCapture(e.pointerId); } catch (err) { /* the pointer already left */ }
    }
    e.preventDefault();
    if (drag.pick.isConnected) drag.pick.style.translate = dx + "px " + dy + "px";
    const target = crib();
    if (target) target.classList.toggle("crib--drop", over(target, e));
  });

  function finish(e, dropped) {
    if (!drag || e.pointerId !== drag.id) return;
    const was = drag;
    drag = null;
    if (!was.moving) return;
    was.pick.style.translate = "";
    was.pick.classList.remove("card-pick--dragging");
    const target = crib();
    if (target) target.classList.remove("crib--drop");
    swallowClick = true;  // the click that ends a drag is not a tap
    setTimeout(function () { swallowClick = false; }, 400);
    if (!dropped || !over(target, e)) return;
    // The board may have been drawn again during the drag: the same card, on the board shown now.
    const box = Array.from(document.querySelectorAll("#board .discard-form input[name=cards]"))
      .find(function (b) { return b.value === was.value; });
    if (box && !box.checked && !box.disabled) {
      // Not box.click(): the click that ends a mouse drag is swallowed above, and would take it too.
      box.checked = true;
      box.dispatchEvent(new Event("change", { bubbles: true }));
      box.focus();
    }
  }
  document.addEventListener("pointerup", function (e) { finish(e, true); });
  document.addEventListener("pointercancel", function (e) { finish(e, false); });

  document.addEventListener("click", function (e) {
    if (!swallowClick || !(e.target.closest && e.target.closest("#board .discard-form .card-pick"))) return;
    swallowClick = false;
    e.preventDefault();
    e.stopPropagation();
  }, true);
})();
