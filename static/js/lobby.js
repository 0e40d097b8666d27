// Lobby forms: a field marked data-shown-if="<name>" data-shown-value="<v>" (games/play/forms.py) only
// matters while the field called <name> in its form holds <v>, so it is hidden otherwise: a
// table's invitee box while its seat is a computer, the fourth seat at a table of three.
(function () {
  "use strict";

  function applies(input) {
    const controller = input.form && input.form.elements[input.dataset.shownIf];
    if (!controller) return true;
    if (controller.dataset && controller.dataset.shownIf && !applies(controller)) return false;
    return controller.value === input.dataset.shownValue;
  }

  function refresh(form) {
    form.querySelectorAll("[data-shown-if]").forEach(function (input) {
      const field = input.closest(".field") || input;
      const hide = !applies(input) && !field.classList.contains("field--error");
      field.hidden = hide;
    });
  }

  function refreshAll() {
    document.querySelectorAll("form").forEach(function (form) {
      if (form.querySelector("[data-shown-if]")) refresh(form);
    });
  }

  document.addEventListener("change", function (e) {
    if (e.target.form && e.target.form.querySelector("[data-shown-if]")) refresh(e.target.form);
  });
  document.addEventListener("DOMContentLoaded", refreshAll);
  document.addEventListener("htmx:afterSettle", refreshAll);
})();
