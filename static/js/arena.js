// An arena's countdown (templates/tournaments/_arena_body.html): every element with
// data-arena-end (ISO time) shows the time left as h:mm:ss, each second. The live fragment it
// sits in is replaced as the leaderboard changes, so the elements are looked up at each tick.
// Without this script the server's words ("12 min") stay.
(function () {
  "use strict";
  const two = (n) => String(n).padStart(2, "0");
  function tick() {
    document.querySelectorAll("[data-arena-end]").forEach((el) => {
      const left = Math.max(0, Math.floor((Date.parse(el.dataset.arenaEnd) - Date.now()) / 1000));
      const h = Math.floor(left / 3600), m = Math.floor(left % 3600 / 60), s = left % 60;
      el.textContent = h ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
    });
  }
  tick();
  setInterval(tick, 1000);
})();
