// A table wider than the screen scrolls sideways inside its ".scroll" box; on a phone nothing
// showed that more columns were there. Each such box that overflows gets a hint above it
// ("Scroll sideways →") and its hidden edge fades (classes "more-left" / "more-right", see
// site.css); both go once everything fits. Without scripts the tables still scroll.
(function () {
  "use strict";
  // Spelled out in a gettext call, so that makemessages finds the words.
  const hintText = typeof gettext === "function" ? gettext("Scroll sideways →") : "Scroll sideways →";

  function hintFor(box) {
    const before = box.previousElementSibling;
    if (before && before.classList.contains("scroll-hint")) return before;
    const hint = document.createElement("p");
    hint.className = "scroll-hint";
    hint.setAttribute("aria-hidden", "true");
    hint.textContent = hintText;
    box.before(hint);
    return hint;
  }

  function update(box) {
    const hidden = box.scrollWidth - box.clientWidth;
    const overflows = hidden > 2;
    box.classList.toggle("more-right", overflows && box.scrollLeft < hidden - 2);
    box.classList.toggle("more-left", overflows && box.scrollLeft > 2);
    if (overflows) hintFor(box).hidden = false;
    else if (box.previousElementSibling && box.previousElementSibling.classList.contains("scroll-hint")) {
      box.previousElementSibling.hidden = true;
    }
  }

  const resized = typeof ResizeObserver === "function" ? new ResizeObserver((seen) => seen.forEach((e) => update(e.target))) : null;
  const watched = new WeakSet();

  function scan() {
    document.querySelectorAll(".scroll").forEach((box) => {
      if (!watched.has(box)) {
        watched.add(box);
        box.addEventListener("scroll", () => update(box), { passive: true });
        if (resized) resized.observe(box);
      }
      update(box);
    });
  }

  scan();
  window.addEventListener("resize", scan);
  // Live pages replace parts of themselves: new tables get their cue too.
  new MutationObserver(scan).observe(document.body, { childList: true, subtree: true });
})();
