// The board's morph (htmx's swap style "morph", extension "board-morph"): idiomorph applies each
// new board to the one shown, and keeps what is the player's own and not the server's to undo.
(function () {
  "use strict";

  // What the player did to a board stays through a morph: the server draws every box unticked and
  // every fold closed, and the player's own ticks and folds are not the server's to undo.
  // A count being typed keeps what was typed. Not idiomorph's ignoreActiveValue: it leaves the whole
  // focused element unmorphed, so a focused button would keep its old label ("Rematch" where the
  // board now says "Accept rematch").
  function playersOwn(name, el, how) {
    if (name === "value" && el === document.activeElement && el.matches("input, textarea")) return false;
    if (name === "checked" && el.matches(".discard-form input[name=cards]")) return false;
    if (name === "open" && how === "remove" && el.tagName === "DETAILS") return false;
    if (name === "data-unsent" && how === "remove") return false;  // a move still waiting (moves.js)
    return true;
  }
  Idiomorph.defaults.callbacks.beforeAttributeUpdated = playersOwn;

  // The board's own morph extension (hx-ext="board-morph", swap style "morph"): idiomorph morphs the
  // board in place, and htmx is handed only what the morph added, or whose hx- attributes it changed,
  // to bind and announce (htmx:load). Handing it the whole board made htmx walk every element of it
  // after every move, which cost a slow phone more than the morph itself.
  const HX_ATTRIBUTE = /^(data-)?hx-/;
  const ELEMENT = window.Node.ELEMENT_NODE;
  // What htmx binds: hx- attributes, forms and submit buttons outside their form. A card added to
  // the pile or a line to the log holds none, and is not handed over at all.
  function bindable(el) {
    if (el.tagName === "FORM" || (el.getAttribute("type") === "submit" && el.hasAttribute("form"))) return true;
    for (const attribute of el.attributes) if (HX_ATTRIBUTE.test(attribute.name)) return true;
    return false;
  }
  function bindsHtmx(node) {
    if (bindable(node)) return true;
    for (const el of node.getElementsByTagName("*")) if (bindable(el)) return true;
    return false;
  }
  htmx.defineExtension("board-morph", {
    isInlineSwap: function (style) { return style === "morph"; },
    handleSwap: function (style, target, fragment) {
      if (style !== "morph") return false;
      const fresh = [];
      Idiomorph.morph(target, fragment.children, {
        morphStyle: "outerHTML",
        callbacks: {
          // A part the server keyed (data-morph-key) and drew the same as before is left as it is,
          // as is any part drawn exactly as it stands (the browser compares it far quicker than
          // the morph would walk it).
          beforeNodeMorphed: function (old, incoming) {
            if (incoming.nodeType !== ELEMENT) return true;
            if (incoming.hasAttribute("data-morph-key") &&
              old.getAttribute("data-morph-key") === incoming.getAttribute("data-morph-key")) return false;
            return !(incoming.firstElementChild && old.isEqualNode(incoming));
          },
          afterNodeAdded: function (node) { if (node.nodeType === ELEMENT) fresh.push(node); },
          beforeAttributeUpdated: function (name, el, how) {
            const keep = playersOwn(name, el, how);
            if (keep && HX_ATTRIBUTE.test(name)) fresh.push(el);
            return keep;
          },
        },
      });
      return fresh.filter(function (node) {
        return node.isConnected && bindsHtmx(node) &&
          !fresh.some(function (other) { return other !== node && other.contains(node); });
      });
    },
  });
})();
