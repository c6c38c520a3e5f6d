// The chat panel (templates/community/_chat.html, community/pages.py): each pane is one room of
// the chat API. Its messages are read from the API and always set as text (textContent, text
// nodes): a message's text never becomes HTML. Links are made only where the room's club allows
// them (http and https only, rel="nofollow noopener ugc"). A room is read from the API once; then,
// when the server streams (body data-push), its stream /live/chat/<room id>/ brings the room's
// newest messages on every change (without those of players the viewer blocked, as the API), merged
// by id: new ones added, changed ones (removed by a moderator, scrubbed) replaced in place. Without
// push, or while a room's stream is down, the panel polls the API every few seconds. Every word
// comes from the page (the JSON block chat-config), in the reader's language.
(function () {
  "use strict";
  const root = document.getElementById("chat");
  const cfgEl = document.getElementById("chat-config");
  if (!root || !cfgEl) return;
  const cfg = JSON.parse(cfgEl.textContent);
  const S = cfg.strings;
  const ME = cfg.me;
  const POLL = 3000, POLL_HIDDEN = 15000, MAX_BACKOFF = 30000, RECONCILE = 9000, NEAR_BOTTOM = 40;
  const STREAM_RETRY = 30000;
  const PUSH = !!(document.body.dataset.push && window.EventSource && cfg.stream);
  const lang = document.documentElement.lang || undefined;
  const fill = (s, vars) => s.replace(/%\((\w+)\)s/g, (m, k) => (k in vars ? String(vars[k]) : m));
  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const mentionRe = ME ? new RegExp("(^|[^\\p{L}\\p{N}_@])(@" + escapeRe(ME.name) + ")(?![\\p{L}\\p{N}_])", "giu") : null;
  const URL_RE = /https?:\/\/[^\s<>"'`]+/gi;
  const timeShort = new Intl.DateTimeFormat(lang, { hour: "2-digit", minute: "2-digit" });
  const timeLong = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" });
  const dayShort = new Intl.DateTimeFormat(lang, { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });

  function csrf() {
    const input = root.querySelector("input[name=csrfmiddlewaretoken]") || document.querySelector("input[name=csrfmiddlewaretoken]");
    if (input) return input.value;
    const m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return m ? decodeURIComponent(m[1]) : "";
  }

  async function call(method, url, body) {
    const init = { method, credentials: "same-origin", cache: "no-store", headers: { Accept: "application/json" } };
    if (method !== "GET") {
      init.headers["X-CSRFToken"] = csrf();
      if (body !== undefined) {
        init.headers["Content-Type"] = "application/json";
        init.body = JSON.stringify(body);
      }
    }
    const r = await fetch(url, init);
    let data = {};
    try { data = await r.json(); } catch (e) { /* no body (204) */ }
    return { ok: r.ok, status: r.status, data, retry: r.headers.get("Retry-After") };
  }

  // The server's refusal in words: its own sentence (already in the reader's language), or ours.
  function refusal(r) {
    if (r.status === 429) {
      const seconds = parseInt(r.retry || (r.data && r.data.retry_after) || "", 10);
      return seconds > 0 ? fill(S.throttled, { seconds }) : S.throttled_now;
    }
    if (r.status === 401) return S.sign_in;
    let detail = r.data && r.data.detail;
    if (!detail && r.data && typeof r.data === "object") {
      const first = Object.values(r.data)[0];
      detail = Array.isArray(first) ? first[0] : first;
    }
    return detail ? String(detail) : fill(S.refused, { detail: "HTTP " + r.status });
  }

  // ------------------------------------------------------------------ a message as DOM nodes
  function textWithMentions(parent, text) {
    if (!mentionRe) { parent.appendChild(document.createTextNode(text)); return false; }
    let last = 0, found = false;
    mentionRe.lastIndex = 0;
    for (let m; (m = mentionRe.exec(text)); ) {
      const start = m.index + m[1].length;
      parent.appendChild(document.createTextNode(text.slice(last, start)));
      parent.appendChild(el("mark", "chat-mention", m[2]));
      last = start + m[2].length;
      found = true;
    }
    parent.appendChild(document.createTextNode(text.slice(last)));
    return found;
  }

  function safeLink(raw) {
    // Punctuation closing a sentence is no part of the address.
    const url = raw.replace(/[.,;:!?)\]]+$/, "");
    try {
      const u = new URL(url);
      if (u.protocol !== "http:" && u.protocol !== "https:") return null;
      return url;
    } catch (e) { return null; }
  }

  function messageText(parent, text, links) {
    let mentioned = false;
    if (!links) return textWithMentions(parent, text);
    let last = 0;
    URL_RE.lastIndex = 0;
    for (let m; (m = URL_RE.exec(text)); ) {
      const url = safeLink(m[0]);
      if (!url) continue;
      mentioned = textWithMentions(parent, text.slice(last, m.index)) || mentioned;
      const a = el("a", "chat-link", url);
      a.href = url;
      a.rel = "nofollow noopener ugc";
      a.target = "_blank";
      parent.appendChild(a);
      last = m.index + url.length;
      URL_RE.lastIndex = last;
    }
    return textWithMentions(parent, text.slice(last)) || mentioned;
  }

  function when(iso) {
    const d = new Date(iso);
    if (isNaN(d)) return "";
    const today = new Date();
    return d.toDateString() === today.toDateString() ? timeShort.format(d) : dayShort.format(d);
  }

  function renderMessage(pane, m) {
    const li = el("li", "chat-msg");
    li.dataset.id = m.id;
    const meta = el("span", "chat-meta");
    const name = m.author ? m.author.name : "";
    if (m.author) {
      const who = el("span", "chat-author", name);
      if (ME && m.author.id === ME.id) li.classList.add("mine");
      meta.appendChild(who);
    }
    const t = el("time", "chat-time", when(m.created));
    t.dateTime = m.created;
    if (!isNaN(new Date(m.created))) t.title = timeLong.format(new Date(m.created));
    meta.appendChild(t);
    li.appendChild(meta);
    const body = el("span", "chat-text");
    if (m.removed) {
      li.classList.add("removed");
      body.textContent = S.removed;
    } else if (m.deleted) {
      li.classList.add("deleted");
      body.textContent = S.deleted;
    } else if (messageText(body, m.text, pane.links)) {
      li.classList.add("mention");
      li.setAttribute("aria-description", S.mention);
    }
    li.appendChild(body);
    if (ME && !m.removed && !m.deleted && m.author && (m.author.id !== ME.id || pane.mayModerate)) {
      const btn = el("button", "chat-menu-btn", "⋯");
      btn.type = "button";
      btn.title = S.menu_short;
      btn.setAttribute("aria-label", fill(S.menu, { name }));
      btn.setAttribute("aria-expanded", "false");
      btn.addEventListener("click", () => toggleMenu(pane, li, m, btn));
      li.appendChild(btn);
    }
    return li;
  }

  // ------------------------------------------------------------------ the small menu of a message
  function closeMenus(except) {
    root.querySelectorAll(".chat-menu").forEach((menu) => {
      if (menu === except) return;
      const btn = menu.parentElement && menu.parentElement.querySelector(".chat-menu-btn");
      if (btn) btn.setAttribute("aria-expanded", "false");
      menu.remove();
    });
  }

  function select(options, label) {
    const wrap = el("label", "chat-field");
    wrap.appendChild(el("span", null, label));
    const s = el("select");
    options.forEach((o) => {
      const opt = el("option", null, o.label);
      opt.value = o.value;
      s.appendChild(opt);
    });
    wrap.appendChild(s);
    return [wrap, s];
  }

  function input(label, required) {
    const wrap = el("label", "chat-field");
    wrap.appendChild(el("span", null, label));
    const i = el("input");
    i.type = "text";
    i.maxLength = 500;
    if (required) i.required = true;
    wrap.appendChild(i);
    return [wrap, i];
  }

  function form(menu, title, fields, onConfirm) {
    menu.textContent = "";
    const f = el("form", "chat-menu-form");
    f.appendChild(el("strong", null, title));
    fields.forEach((x) => f.appendChild(x));
    const row = el("div", "chat-menu-row");
    const ok = el("button", "primary", S.confirm);
    ok.type = "submit";
    const cancel = el("button", null, S.cancel);
    cancel.type = "button";
    cancel.addEventListener("click", () => closeMenus());
    row.append(ok, cancel);
    f.appendChild(row);
    const said = el("p", "chat-menu-said");
    said.setAttribute("role", "status");
    f.appendChild(said);
    f.addEventListener("submit", async (e) => {
      e.preventDefault();
      ok.disabled = true;
      try {
        const answer = await onConfirm();
        if (answer) said.textContent = answer;
      } catch (err) {
        said.textContent = S.failed;
      }
      ok.disabled = false;
    });
    menu.appendChild(f);
    const first = f.querySelector("select, input");
    if (first) first.focus();
  }

  function toggleMenu(pane, li, m, btn) {
    const open = li.querySelector(".chat-menu");
    closeMenus();
    if (open) return;
    const menu = el("div", "chat-menu");
    const actions = el("div", "chat-menu-row");
    const name = m.author.name;
    if (m.author.id !== ME.id) {
      const report = el("button", null, S.report);
      report.type = "button";
      report.addEventListener("click", () => {
        const [reasonField, reason] = select(cfg.reasons, S.reason);
        const [detailsField, details] = input(S.details, false);
        form(menu, S.report_title, [reasonField, detailsField], async () => {
          const r = await call("POST", cfg.reports, {
            subject: "message", message: m.id, reason: reason.value, details: details.value.trim(),
          });
          if (!r.ok) return refusal(r);
          closeMenus();
          say(pane, S.reported, true);
          return "";
        });
      });
      actions.appendChild(report);
    }
    if (pane.mayModerate) {
      const remove = el("button", "danger", S.remove);
      remove.type = "button";
      remove.addEventListener("click", () => {
        const [whyField, why] = input(S.why, true);
        form(menu, S.remove_title, [whyField], async () => {
          if (!why.value.trim()) return S.why_needed;
          const r = await call("DELETE", cfg.messages + m.id + "/", { reason: why.value.trim() });
          if (!r.ok) return refusal(r);
          closeMenus();
          const gone = { ...m, removed: true, text: "" };
          const fresh = renderMessage(pane, gone);
          (pane.byId.get(m.id) || li).replaceWith(fresh);
          pane.byId.set(m.id, fresh);
          pane.sig.set(m.id, signature(gone));
          say(pane, S.removed_done, true);
          return "";
        });
      });
      actions.appendChild(remove);
      if (m.author.id !== ME.id) {
        const mute = el("button", null, S.mute);
        mute.type = "button";
        mute.addEventListener("click", () => {
          const scopes = cfg.scopes.filter((s) => s.value !== "league" || pane.league);
          const [scopeField, scope] = select(scopes, S.mute_where);
          const [forField, minutes] = select(cfg.minutes, S.mute_for);
          const [whyField, why] = input(S.why, true);
          form(menu, fill(S.mute_title, { name }), [scopeField, forField, whyField], async () => {
            if (!why.value.trim()) return S.why_needed;
            const body = { player: m.author.id, scope: scope.value, minutes: parseInt(minutes.value, 10), reason: why.value.trim() };
            if (scope.value === "room") body.room = pane.roomId;
            if (scope.value === "league") body.league = pane.league;
            const r = await call("POST", cfg.mutes, body);
            if (!r.ok) return refusal(r);
            closeMenus();
            const until = r.data && r.data.until ? timeLong.format(new Date(r.data.until)) : "";
            say(pane, fill(S.muted_done, { name, until }), true);
            return "";
          });
        });
        actions.appendChild(mute);
      }
    }
    menu.appendChild(actions);
    li.appendChild(menu);
    btn.setAttribute("aria-expanded", "true");
  }

  document.addEventListener("keydown", (e) => { if (e.key === "Escape") closeMenus(); });

  // ------------------------------------------------------------------ a pane: one room
  // A line under the messages: what went wrong (a refusal), or with ok what was done.
  function say(pane, text, ok) {
    pane.status.textContent = text || "";
    pane.status.classList.toggle("ok", !!ok);
  }

  function nearBottom(pane) {
    const s = pane.scroller;
    return s.scrollHeight - s.scrollTop - s.clientHeight < NEAR_BOTTOM;
  }

  function toBottom(pane) {
    pane.scroller.scrollTop = pane.scroller.scrollHeight;
    pane.jump.hidden = true;
  }

  function applyRoom(pane, room) {
    const before = pane.topic;
    pane.roomId = room.id;
    pane.el.dataset.room = room.id;
    pane.topic = room.topic;
    pane.links = !!room.links;
    pane.mayModerate = !!room.may_moderate;
    pane.chatOff = !!room.chat_off;
    if (room.max_length) pane.max = room.max_length;
    pane.offNote.hidden = !pane.chatOff;
    pane.scroller.hidden = pane.chatOff;
    if (pane.toggle) {
      pane.toggle.textContent = pane.chatOff ? S.switch_on : S.switch_off;
      pane.toggle.setAttribute("aria-pressed", pane.chatOff ? "true" : "false");
    }
    if (pane.form) {
      pane.form.hidden = pane.chatOff || !room.may_write;
      pane.refusalNote.hidden = pane.chatOff || !room.refusal;
      pane.refusalNote.textContent = room.refusal || "";
      pane.text.maxLength = pane.max;
      count(pane);
    }
  }

  // What of a message its line shows: a message read again unchanged keeps its line (and an open menu).
  const signature = (m) => [m.removed, m.deleted, m.text, m.author ? m.author.id : 0].join("\u0000");

  function place(pane, messages, older) {
    const stick = nearBottom(pane);
    const height = pane.scroller.scrollHeight;
    let fresh = 0;
    for (const m of messages) {
      const old = pane.byId.get(m.id);
      const sig = signature(m);
      if (old && pane.sig.get(m.id) === sig) continue;
      const li = renderMessage(pane, m);
      pane.byId.set(m.id, li);
      pane.sig.set(m.id, sig);
      if (old) { old.replaceWith(li); continue; }
      // In the order of their ids (the order they were written), wherever they come from.
      const next = Array.from(pane.log.children).find((x) => Number(x.dataset.id) > m.id);
      pane.log.insertBefore(li, next || null);
      if (!older && pane.loaded) {
        fresh += 1;
        if (!(ME && m.author && m.author.id === ME.id)) pane.unseen += 1;
      }
    }
    if (older) {
      pane.scroller.scrollTop += pane.scroller.scrollHeight - height; // keep the reader's place
    } else if (stick || !pane.loaded) {
      toBottom(pane);
    } else if (fresh) {
      pane.jump.hidden = false;
    }
    for (const m of messages) {
      if (pane.first === null || m.id < pane.first) pane.first = m.id;
      if (pane.last === null || m.id > pane.last) pane.last = m.id;
    }
    pane.empty.hidden = pane.byId.size > 0;
    badge(pane);
  }

  function badge(pane) {
    if (!pane.tab) return;
    const b = pane.tab.querySelector(".chat-unread");
    if (pane.el.hidden && pane.unseen > 0) {
      b.hidden = false;
      b.textContent = pane.unseen > 99 ? "99+" : String(pane.unseen);
    } else {
      pane.unseen = 0;
      b.hidden = true;
    }
  }

  const address = (pane, params) => pane.api + "?" + [pane.query, params].filter(Boolean).join("&");

  // Fetch the room: all of it the first time (the newest page), what is newer than the last
  // message afterwards, and now and then the newest page again, to see messages removed since.
  async function load(pane, how) {
    if (pane.busy) { pane.again = true; return; }
    pane.busy = true;
    try {
      let params = "";
      if (how === "older" && pane.first !== null) params = "before=" + pane.first;
      else if (how !== "reconcile" && pane.loaded && pane.last !== null) params = "after=" + pane.last + "&limit=100";
      const r = await call("GET", address(pane, params));
      if (!r.ok) {
        // A room not readable (yet): a table's spectators' room before the game ends.
        if (pane.later) return;
        say(pane, refusal(r));
        if (r.status >= 500) throw new Error("HTTP " + r.status);
        return;
      }
      if (pane.failures) say(pane, "");
      pane.failures = 0;
      root.removeAttribute("data-offline");
      if (pane.later && pane.tab && pane.tab.hidden) pane.tab.hidden = false;
      applyRoom(pane, r.data.room);
      if (pane.chatOff) {
        pane.log.textContent = "";
        pane.byId.clear();
        pane.sig.clear();
        pane.first = pane.last = null;
        pane.loaded = false;
        pane.empty.hidden = true;
        pane.older.hidden = true;
        listen();
        return;
      }
      const messages = r.data.messages || [];
      place(pane, messages, how === "older");
      if (how === "older" || !pane.loaded) pane.older.hidden = !r.data.more;
      if (how === "reconcile") pane.reconciled = Date.now();
      if (!pane.loaded) pane.reconciled = Date.now();
      pane.loaded = true;
      listen(); // the room's stream, once the room is known and read
      // A change with no new message is a message removed: read the newest page again.
      if (how === "changed" && !messages.length) { pane.busy = false; await load(pane, "reconcile"); }
    } catch (e) {
      pane.failures += 1;
      root.setAttribute("data-offline", S.reconnecting);
    } finally {
      pane.busy = false;
      if (pane.again) { pane.again = false; load(pane, "changed"); }
    }
  }

  function count(pane) {
    const n = Array.from(pane.text.value).length;
    pane.counter.textContent = fill(S.counter, { count: n, max: pane.max });
    pane.counter.classList.toggle("over", n > pane.max);
    pane.counter.classList.toggle("near", n > pane.max * 0.9);
  }

  async function send(pane) {
    const text = pane.text.value.trim();
    if (!text || pane.sending) return;
    if (Array.from(text).length > pane.max) return say(pane, fill(S.too_long, { max: pane.max }));
    pane.sending = true;
    pane.submit.disabled = true;
    say(pane, S.sending);
    try {
      const r = await call("POST", address(pane, ""), { text });
      if (r.ok) {
        pane.text.value = "";
        count(pane);
        say(pane, "");
        if (!pane.byId.has(r.data.id) && (pane.last === null || r.data.id > pane.last)) {
          // Without a stream, what came before it (someone else's) first, so nothing is skipped;
          // a stream brings those (the log is kept in the order of the ids).
          if (!pane.pushing) await load(pane, "changed");
          if (!pane.byId.has(r.data.id)) place(pane, [r.data], false);
        }
        toBottom(pane);
      } else {
        say(pane, refusal(r));
      }
    } catch (e) {
      say(pane, S.failed);
    } finally {
      pane.sending = false;
      pane.submit.disabled = false;
    }
  }

  async function toggleOff(pane) {
    const r = await call(pane.chatOff ? "DELETE" : "POST", pane.api + "off/" + (pane.query ? "?" + pane.query : ""));
    if (!r.ok) return say(pane, refusal(r));
    say(pane, "");
    pane.loaded = false;
    await load(pane, "first");
  }

  function setup(paneEl) {
    const kind = paneEl.dataset.kind;
    // The buttons to read older messages and to jump to new ones (made here: they only work here).
    const scroller = paneEl.querySelector(".chat-scroll");
    const older = el("button", "chat-older link", S.older);
    older.type = "button";
    older.hidden = true;
    scroller.prepend(older);
    const jump = el("button", "chat-jump", S.new_below);
    jump.type = "button";
    jump.hidden = true;
    scroller.after(jump);
    const pane = {
      el: paneEl,
      kind,
      api: paneEl.dataset.api,
      query: paneEl.dataset.query,
      later: paneEl.hasAttribute("data-later"),
      tab: root.querySelector('.chat-tab[data-kind="' + kind + '"]'),
      log: paneEl.querySelector(".chat-log"),
      scroller,
      older,
      empty: paneEl.querySelector(".chat-empty"),
      jump,
      status: paneEl.querySelector(".chat-status"),
      offNote: paneEl.querySelector(".chat-off"),
      toggle: paneEl.querySelector(".chat-toggle"),
      form: paneEl.querySelector(".chat-send"),
      refusalNote: paneEl.querySelector(".chat-refusal"),
      text: paneEl.querySelector("textarea"),
      counter: paneEl.querySelector(".chat-count"),
      submit: paneEl.querySelector(".chat-send button[type=submit]"),
      roomId: null, topic: null, links: false, mayModerate: false, chatOff: false,
      max: cfg.maxLength, byId: new Map(), sig: new Map(), first: null, last: null, loaded: false,
      busy: false, again: false, failures: 0, unseen: 0, reconciled: 0, sending: false,
      stream: null, streamUrl: "", pushing: false, retry: null,
    };
    const known = cfg.rooms.find((r) => r.kind === kind);
    if (known) {
      pane.roomId = known.id;
      pane.topic = known.topic;
      pane.links = known.links;
      pane.mayModerate = known.may_moderate;
      pane.league = known.league;
    }
    pane.older.addEventListener("click", () => load(pane, "older"));
    pane.jump.addEventListener("click", () => toBottom(pane));
    pane.scroller.addEventListener("scroll", () => { if (nearBottom(pane)) pane.jump.hidden = true; });
    if (pane.toggle) pane.toggle.addEventListener("click", () => toggleOff(pane));
    if (pane.form) {
      pane.text.addEventListener("input", () => count(pane));
      pane.text.addEventListener("keydown", (e) => {
        if (e.key === "Enter" && !e.shiftKey && !e.isComposing) { e.preventDefault(); send(pane); }
      });
      pane.form.addEventListener("submit", (e) => { e.preventDefault(); send(pane); });
      count(pane);
    }
    if (pane.tab) pane.tab.addEventListener("click", () => show(pane));
    return pane;
  }

  const panes = Array.from(root.querySelectorAll(".chat-pane")).map(setup);

  function show(pane) {
    panes.forEach((p) => {
      const on = p === pane;
      p.el.hidden = !on;
      if (p.tab) p.tab.setAttribute("aria-selected", on ? "true" : "false");
    });
    badge(pane);
    toBottom(pane);
  }

  // ------------------------------------------------------------------ live: push, or polling
  let timer = null;
  const hiddenLater = (p) => p.later && p.tab && p.tab.hidden;
  const reading = () => panes.filter((p) => !hiddenLater(p));

  // Each room read has its stream, opened once the room is read (an event's, a ladder's or a
  // club's page learns its room's id from that read), closed while its chat is switched off.
  function listen() {
    panes.forEach((pane) => {
      const on = PUSH && pane.loaded && pane.roomId && !pane.chatOff && !hiddenLater(pane);
      const url = on ? cfg.stream + pane.roomId + "/" : "";
      if (url === pane.streamUrl) return;
      closeStream(pane);
      if (url) openStream(pane, url);
    });
  }

  function closeStream(pane) {
    clearTimeout(pane.retry);
    if (pane.stream) pane.stream.close();
    pane.stream = null;
    pane.streamUrl = "";
    pane.pushing = false;
  }

  function openStream(pane, url) {
    const es = new EventSource(url);
    pane.stream = es;
    pane.streamUrl = url;
    es.addEventListener("open", () => { if (pane.stream === es) pane.pushing = true; });
    es.addEventListener("messages", (e) => { if (pane.stream === es) merge(pane, JSON.parse(e.data)); });
    es.addEventListener("error", () => {
      if (pane.stream !== es) return;
      pane.pushing = false; // polled until the stream is back (the browser reconnects by itself)
      if (es.readyState !== EventSource.CLOSED) return;
      // Refused (too many streams, the room no longer readable): polled, and the stream tried
      // again now and then.
      pane.stream = null;
      pane.retry = setTimeout(() => {
        if (pane.streamUrl === url && !pane.stream) { pane.streamUrl = ""; listen(); }
      }, STREAM_RETRY);
    });
  }

  // A stream's event: the room's newest messages, oldest first.
  function merge(pane, data) {
    if (pane.chatOff || !pane.loaded || data.room !== pane.roomId) return;
    const all = data.messages || [];
    // Older ones exist, and the first given is newer than the newest held: some came between
    // (the stream was down a long while). Read them from the API.
    if (data.more && all.length && pane.last !== null && all[0].id > pane.last) gap(pane, pane.last, all[0].id);
    place(pane, all, false);
  }

  async function gap(pane, after, before) {
    try {
      const r = await call("GET", address(pane, "before=" + before + "&limit=100"));
      if (r.ok && !r.data.room.chat_off) place(pane, (r.data.messages || []).filter((m) => m.id > after), false);
    } catch (e) { /* the next poll or event */ }
  }

  function tick() {
    clearTimeout(timer);
    const failures = Math.max(0, ...panes.map((p) => p.failures));
    let delay = document.hidden ? POLL_HIDDEN : POLL;
    if (failures) delay = Math.min(MAX_BACKOFF, POLL * 2 ** failures);
    timer = setTimeout(async () => {
      // Only the rooms without a stream (with push, a room switched off waits for its switch).
      const polled = reading().filter((p) => !p.pushing && !(PUSH && p.chatOff));
      await Promise.all(polled.map((p) => {
        const stale = Date.now() - p.reconciled > RECONCILE;
        return load(p, p.loaded && stale ? "reconcile" : "poll");
      }));
      tick();
    }, delay);
  }

  // A table's players get its spectators' room once the game is over: game.js shows the end
  // banner (#end) then, and the room answers from that moment.
  const end = document.getElementById("end");
  const later = panes.find((p) => p.later);
  if (end && later) {
    const check = () => { if (!end.hidden) load(later, "first"); };
    new MutationObserver(check).observe(end, { attributes: true, attributeFilter: ["hidden"] });
  }

  Promise.all(reading().map((p) => load(p, "first"))).then(() => { listen(); tick(); });
})();
