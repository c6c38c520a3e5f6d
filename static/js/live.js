// Live fragments: every element with data-live="<url>" is refreshed from that URL about once a
// second. The server answers 304 (If-None-Match) while nothing changed, so an idle page costs one
// small request a second; a failed request backs off and retries, so the page survives restarts
// and lost connections without a reload.
(function () {
  "use strict";
  const FAST = 900, HIDDEN = 5000, MAX_BACKOFF = 8000;

  function follow(el) {
    let etag = null, failures = 0;
    async function tick() {
      let delay = document.hidden ? HIDDEN : FAST;
      try {
        const headers = etag ? { "If-None-Match": etag } : {};
        const r = await fetch(el.dataset.live, { headers, credentials: "same-origin", cache: "no-store" });
        if (r.status === 200) {
          etag = r.headers.get("ETag");
          const html = await r.text();
          // Keep the user's focus and scroll: replace only when the content really changed.
          if (html !== el.dataset.lastHtml) {
            el.innerHTML = html;
            el.dataset.lastHtml = html;
          }
        } else if (r.status !== 304) {
          throw new Error("HTTP " + r.status);
        }
        failures = 0;
        el.removeAttribute("data-offline");
      } catch (e) {
        failures += 1;
        el.setAttribute("data-offline", "reconnecting");
        delay = Math.min(MAX_BACKOFF, FAST * 2 ** failures);
      }
      setTimeout(tick, delay);
    }
    setTimeout(tick, FAST);
  }

  document.querySelectorAll("[data-live]").forEach(follow);
})();
