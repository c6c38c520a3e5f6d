// The footer's language switcher: choosing a language submits the form at once (the button
// stays for browsers without scripts).
(function () {
  "use strict";
  const form = document.querySelector("footer form.language");
  if (!form) return;
  const select = form.querySelector("select");
  form.querySelector("button").hidden = true;
  select.addEventListener("change", () => form.submit());
})();
