// Live fragments: every element with data-live="<url>" shows that URL's HTML and keeps it
// current. When the page has a push stream (body data-push, the server's topics stream), each
// element is fetched again only when its topics (data-topics) change; otherwise, or while the
// stream is down, it is polled about once a second. The server answers 304 (If-None-Match)
// while nothing changed, and a failed request backs off and retries, so the page survives
// restarts and lost connections without a reload.
(function () {
  "use strict";
  // Django's JavaScript catalogue (/jsi18n/, loaded before this script); English without it.
  const gettext = window.gettext || ((s) => s);
  const FAST = 900, HIDDEN = 5000, MAX_BACKOFF = 8000;
  let pushing = false;

  // An element with data-go="<url>" that a refresh brings takes the page there (a ladder's queue
  // formed the player's table); one the page was loaded with does not (they came back to look).
  // The element's own link stays for when navigation is blocked.
  const present = (el) => new Set(Array.from(el.querySelectorAll("[data-go]"), (g) => g.dataset.go));
  function goIfNew(el, known) {
    const now = present(el);
    const fresh = Array.from(now).find((url) => !known.has(url));
    if (fresh) window.location.assign(fresh);
    return now;
  }

  function follow(el) {
    let known = present(el);
    let etag = null, failures = 0, timer = null;
    async function tick(forced) {
      if (timer) clearTimeout(timer);
      if (pushing && forced !== true) return;
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
            known = goIfNew(el, known);
          }
        } else if (r.status !== 304) {
          throw new Error("HTTP " + r.status);
        }
        failures = 0;
        el.removeAttribute("data-offline");
      } catch (e) {
        failures += 1;
        // Translators: shown above a live part of the page while its connection is being restored.
        el.setAttribute("data-offline", gettext("reconnecting"));
        delay = Math.min(MAX_BACKOFF, FAST * 2 ** failures);
      }
      if (!pushing) timer = setTimeout(tick, delay);
    }
    timer = setTimeout(tick, FAST);
    return { el, topics: (el.dataset.topics || "").split(" ").filter(Boolean), refresh: () => tick(true) };
  }

  const followed = Array.from(document.querySelectorAll("[data-live]")).map(follow);
  const topics = Array.from(new Set(followed.flatMap((f) => f.topics)));
  const push = document.body.dataset.push;
  if (push && topics.length && window.EventSource) {
    const es = new EventSource(push + "?" + topics.map((t) => "t=" + encodeURIComponent(t)).join("&"));
    es.addEventListener("open", () => { pushing = true; });
    es.addEventListener("changed", (e) => {
      const changed = JSON.parse(e.data);
      followed.filter((f) => f.topics.some((t) => changed.includes(t))).forEach((f) => f.refresh());
    });
    es.addEventListener("error", () => {
      if (pushing) {
        pushing = false;
        followed.forEach((f) => f.refresh()); // catch up, and poll until the stream is back
      }
    });
  }
})();
