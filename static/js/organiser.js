// The organiser's event form shows only the fields that apply to the chosen format.
// Progressive enhancement: without this script every field shows, and the server ignores the
// ones that do not apply (rounds outside a Swiss, players advancing outside a knockout).
(function () {
  "use strict";
  function setUp(form) {
    var format = form.querySelector("[name=format]");
    if (!format) return;
    var parts = form.querySelectorAll("[data-formats]");
    function update() {
      for (var i = 0; i < parts.length; i++) {
        var formats = parts[i].getAttribute("data-formats").split(" ");
        var applies = formats.indexOf(format.value) !== -1;
        parts[i].hidden = !applies;
        var inputs = parts[i].querySelectorAll("input, select, textarea");
        for (var j = 0; j < inputs.length; j++) inputs[j].disabled = !applies;
      }
    }
    format.addEventListener("change", update);
    update();
  }
  var forms = document.querySelectorAll("form.event-form");
  for (var i = 0; i < forms.length; i++) setUp(forms[i]);
})();
