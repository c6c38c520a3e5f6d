// Calendar blocks (templates/calendar): a "Copy" button copies the address in the field it names
// (data-copy = the field's id) and says so with its data-copied words; without scripts the field
// is there to select by hand. A countdown (data-countdown-at, ISO time) is refreshed each minute
// in the words the server wrote for hours and minutes (data-words-*) once it is less than a
// day away (further off, the page's own words stay).
(function () {
  "use strict";
  document.querySelectorAll("button[data-copy]").forEach((button) => {
    button.hidden = false;
    button.addEventListener("click", () => {
      const field = document.getElementById(button.dataset.copy);
      if (!field) return;
      field.select();
      const done = () => {
        const before = button.textContent;
        button.textContent = button.dataset.copied || before;
        setTimeout(() => { button.textContent = before; }, 2000);
      };
      if (navigator.clipboard) navigator.clipboard.writeText(field.value).then(done, () => {});
      else if (document.execCommand("copy")) done();
    });
  });
  // Counters are looked up at each tick: a live fragment (live.js) replaces its countdowns with
  // new elements, and may bring the first one to a page that had none.
  const counters = () => document.querySelectorAll("[data-countdown-at]");
  if (!counters().length && !document.querySelector("[data-live]")) return;
  // {% translate %} doubles a '%' in what it returns ("%%(hours)d"): both forms are filled.
  const fill = (words, values) => words.replace(/%{1,2}\((\w+)\)d/g, (_, k) => String(values[k]));
  const tick = () => {
    counters().forEach((el) => {
      const left = Math.max(0, Math.floor((Date.parse(el.dataset.countdownAt) - Date.now()) / 1000));
      const d = el.dataset;
      if (left >= 86400) return;  // days away: the words the page came with do
      if (left >= 3600) {
        el.textContent = fill(d.wordsHours, { hours: Math.floor(left / 3600), minutes: Math.floor(left % 3600 / 60) });
      } else {
        el.textContent = fill(d.wordsMinutes, { minutes: Math.floor(left / 60) });
      }
    });
  };
  setInterval(tick, 30000);
})();
