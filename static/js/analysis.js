// The game page's analysis (templates/analysis/_analysis.html): on a finished table, ask for the
// engine's analysis (POST /api/v1/tables/<id>/analysis/), wait for it (202: read again every two
// seconds), then show it: a graph of every seat's expected score after each action (click it to
// step the board there), marks on the move list (?! ? ??), and for a marked action shown on the
// board the engine's preferred move as an arrow, in words, with the line it expects.
// It draws on game.js's overlay layer on each "pacru:board" event and steps through
// window.PacruGame; game.js itself is not changed.
(function () {
  "use strict";
  const box = document.getElementById("analysis");
  if (!box || !window.PacruGame) return;

  const gettext = window.gettext || ((s) => s);
  const pgettext = window.pgettext || ((c, s) => s);
  const interpolate = window.interpolate || ((fmt, obj) => fmt.replace(/%\(\w+\)s/g, (m) => String(obj[m.slice(2, -2)])));
  const fill = (fmt, values) => interpolate(fmt, values, true);
  const NS = "http://www.w3.org/2000/svg";
  const API = box.dataset.api;
  const POLL = 2000;
  // The seat colours of the board (game.js); the yellow line gets a dark edge to be seen on white.
  const COLOUR = { 1: "#D55E00", 2: "#1f1f1f", 3: "#F0E442", 4: "#009E73" };
  const MARK_COLOUR = { inaccuracy: "#ca8a04", mistake: "#ea580c", blunder: "#dc2626" };
  const MARK_WORD = {
    inaccuracy: pgettext("analysis mark", "Inaccuracy"),
    mistake: pgettext("analysis mark", "Mistake"),
    blunder: pgettext("analysis mark", "Blunder"),
  };
  const W = 320, H = 120, PAD = 6;

  const $ = (id) => document.getElementById(id);
  const status = $("analysis-status");
  const result = $("analysis-result");
  const depthSelect = $("analysis-depth");
  const requestButton = $("analysis-request");
  let data = null; // the analysis shown (200)
  let asked = false; // the first read was made
  let timer = null;
  let shown = null; // the action the board shows

  function el(name, attrs, parent) {
    const e = document.createElementNS(NS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function csrf() {
    const input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }
  const pct = (v) => `${Math.round(v * 100)} %`;
  function seatName(seat) {
    const T = window.PacruGame.table();
    const s = T && T.seats.find((x) => x.number === seat);
    return s ? s.player.display_name : fill(gettext("seat %(n)s"), { n: seat });
  }

  // ---------------------------------------------------------------- talking to the API
  async function read(depth) {
    clearTimeout(timer);
    const r = await fetch(API + (depth ? `?depth=${depth}` : ""), { credentials: "same-origin" });
    const body = await r.json().catch(() => ({}));
    answer(r.status, body, depth);
  }

  async function request() {
    const depth = Number(depthSelect.value);
    requestButton.disabled = true;
    status.textContent = gettext("Asking for the analysis…");
    try {
      const r = await fetch(API, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
        body: JSON.stringify({ depth }),
      });
      const body = await r.json().catch(() => ({}));
      answer(r.status, body, depth);
    } finally {
      requestButton.disabled = false;
    }
  }

  function answer(code, body, depth) {
    if (code === 200 && body.status === "done") return show(body);
    if (code === 200) {
      status.textContent = body.detail || gettext("The analysis failed; ask for it again.");
      return;
    }
    if (code === 202) {
      const p = body.progress;
      status.textContent = body.status === "running"
        ? (p ? fill(gettext("Analysing: %(done)s of %(total)s positions searched…"), p) : gettext("Analysing…"))
        : gettext("The analysis is queued: it starts when the engine is free.");
      timer = setTimeout(() => read(body.depth || depth), POLL);
      return;
    }
    if (code === 404 && !data) {
      status.textContent = requestButton
        ? gettext("No analysis of this game yet.")
        : "";
      return;
    }
    status.textContent = body.detail || gettext("The analysis could not be read.");
  }

  // ---------------------------------------------------------------- showing it
  function show(body) {
    data = body;
    result.hidden = false;
    if (depthSelect) depthSelect.value = String(body.depth);
    status.textContent = fill(gettext("Analysed at depth %(depth)s."), { depth: body.depth });
    drawGraph();
    renderSummary();
    decorateMoves();
    refresh(shown);
  }

  function points(seat) {
    const n = data.plies.length;
    const x = (i) => PAD + ((i + 1) * (W - 2 * PAD)) / Math.max(1, n);
    const y = (v) => PAD + (1 - v) * (H - 2 * PAD);
    const out = [[x(-1), y(data.start[seat - 1])]];
    data.plies.forEach((p, i) => out.push([x(i), y(p.values[seat - 1])]));
    return { out, x, y };
  }

  function drawGraph() {
    const holder = $("analysis-graph");
    holder.textContent = "";
    const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, class: "analysis-svg", role: "img" });
    const two = data.players === 2;
    svg.setAttribute("aria-label", two
      ? fill(gettext("Graph: %(name)s's winning chance after each action"), { name: seatName(1) })
      : gettext("Graph: each player's expected score after each action"));
    el("rect", { x: 0, y: 0, width: W, height: H, fill: "#fff" }, svg);
    const { x, y } = points(1);
    el("line", { x1: PAD, x2: W - PAD, y1: y(0.5), y2: y(0.5), stroke: "#cbd5e1", "stroke-dasharray": "3 3" }, svg);
    const seats = two ? [1] : Array.from({ length: data.players }, (_, i) => i + 1);
    for (const seat of seats) {
      const pts = points(seat).out;
      if (two) {
        const area = [[pts[0][0], y(0.5)], ...pts, [pts[pts.length - 1][0], y(0.5)]];
        el("polygon", { points: area.map((p) => p.join(",")).join(" "), fill: COLOUR[1], "fill-opacity": 0.18 }, svg);
      }
      const attrs = { points: pts.map((p) => p.join(",")).join(" "), fill: "none", stroke: COLOUR[seat], "stroke-width": 2, "stroke-linejoin": "round", class: `seat-line seat-${seat}` };
      if (seat === 3) el("polyline", Object.assign({}, attrs, { stroke: "#6b5e00", "stroke-width": 3.5, class: "" }), svg);
      el("polyline", attrs, svg);
    }
    data.plies.forEach((p, i) => {
      if (!p.mark) return;
      // On the line drawn: the mover's own (with two players, the one line, seat 1's).
      const c = el("circle", { cx: x(i), cy: y(p.values[two ? 0 : p.seat - 1]), r: p.mark === "blunder" ? 3.6 : 2.8, fill: MARK_COLOUR[p.mark], stroke: "#fff", "stroke-width": 1, class: `mark mark-${p.mark}`, "data-seq": i }, svg);
      const t = el("title", {}, c);
      t.textContent = `${i + 1}. ${p.action}${p.symbol} (${seatName(p.seat)})`;
    });
    el("line", { id: "analysis-cursor", x1: 0, x2: 0, y1: 0, y2: H, stroke: "#2563eb", "stroke-width": 1.5, visibility: "hidden" }, svg);
    svg.addEventListener("click", (e) => {
      const box = svg.getBoundingClientRect();
      const vx = ((e.clientX - box.left) / box.width) * W;
      const n = data.plies.length;
      const i = Math.round(((vx - PAD) * Math.max(1, n)) / (W - 2 * PAD)) - 1;
      window.PacruGame.step(Math.max(-1, Math.min(n - 1, i)));
    });
    holder.appendChild(svg);
    const legend = $("analysis-legend");
    legend.textContent = "";
    if (two) {
      legend.textContent = fill(gettext("%(name)s's winning chance (above the middle line: %(name)s ahead)."), { name: seatName(1) });
    } else {
      for (const seat of seats) {
        const key = document.createElement("span");
        key.className = "key";
        const sw = document.createElement("span");
        sw.className = `swatch seat-${seat}`;
        sw.style.background = COLOUR[seat];
        key.append(sw, seatName(seat));
        legend.appendChild(key);
      }
      legend.append(gettext("Expected score: 1 for first place, 0 for last."));
    }
  }

  function renderSummary() {
    const body = $("analysis-summary").querySelector("tbody");
    body.textContent = "";
    for (let seat = 1; seat <= data.players; seat++) {
      const s = data.summary[String(seat)];
      if (!s) continue;
      const tr = document.createElement("tr");
      const th = document.createElement("th");
      th.scope = "row";
      const sw = document.createElement("span");
      sw.className = "swatch";
      sw.style.background = COLOUR[seat];
      th.append(sw, seatName(seat));
      tr.appendChild(th);
      for (const v of [s.inaccuracies, s.mistakes, s.blunders, pct(s.average_loss)]) {
        const td = document.createElement("td");
        td.textContent = v;
        tr.appendChild(td);
      }
      body.appendChild(tr);
    }
  }

  // The move list is rebuilt by game.js after each render: mark its buttons again each time.
  function decorateMoves() {
    if (!data) return;
    document.querySelectorAll("#movelist button[data-seq]").forEach((b) => {
      const p = data.plies[Number(b.dataset.seq)];
      if (!p || !p.mark || b.querySelector(".an-mark")) return;
      const badge = document.createElement("span");
      badge.className = `an-mark mark-${p.mark}`;
      badge.textContent = p.symbol;
      badge.title = MARK_WORD[p.mark];
      b.appendChild(badge);
      b.classList.add(`marked-${p.mark}`);
      b.setAttribute("aria-label", `${b.getAttribute("aria-label") || b.textContent} (${MARK_WORD[p.mark]})`);
    });
  }
  const list = $("movelist");
  if (list) new MutationObserver(decorateMoves).observe(list, { childList: true });

  function cells(move) {
    const m = /^([a-i][1-9])(?:[-x]([a-i][1-9]))?/.exec(move || "");
    return m ? [m[1], m[2]].filter(Boolean) : [];
  }

  // The engine's preferred move as an arrow (a ring for a move that stays on its field).
  function drawArrow(move) {
    const layer = window.PacruGame.overlay();
    if (!layer) return;
    layer.querySelectorAll(".analysis-arrow").forEach((old) => old.remove());
    const [from, to] = cells(move);
    if (!from) return;
    const g = el("g", { class: "analysis-arrow", "data-move": move }, layer);
    const [x1, y1] = window.PacruGame.cellCenter(from);
    const colour = "#15803d";
    if (!to) {
      el("circle", { cx: x1, cy: y1, r: 20, fill: "none", stroke: colour, "stroke-width": 5, "stroke-opacity": 0.8 }, g);
      return;
    }
    const [x2, y2] = window.PacruGame.cellCenter(to);
    const len = Math.hypot(x2 - x1, y2 - y1) || 1;
    const ux = (x2 - x1) / len, uy = (y2 - y1) / len;
    const head = 16, tipX = x2 - ux * 8, tipY = y2 - uy * 8;
    const baseX = tipX - ux * head, baseY = tipY - uy * head;
    el("line", { x1: x1 + ux * 10, y1: y1 + uy * 10, x2: baseX, y2: baseY, stroke: colour, "stroke-width": 7, "stroke-linecap": "round", "stroke-opacity": 0.8 }, g);
    el("polygon", { points: `${tipX},${tipY} ${baseX - uy * 11},${baseY + ux * 11} ${baseX + uy * 11},${baseY - ux * 11}`, fill: colour, "fill-opacity": 0.85 }, g);
  }

  function showBest(action) {
    const out = $("analysis-best");
    const p = data && action !== null && action >= 0 ? data.plies[action] : null;
    if (!p || !p.mark) {
      out.hidden = true;
      out.textContent = "";
      return;
    }
    out.hidden = false;
    out.textContent = "";
    out.className = `analysis-best mark-${p.mark}`;
    const head = document.createElement("p");
    const strong = document.createElement("strong");
    strong.textContent = `${action + 1}. ${p.action}${p.symbol} — ${MARK_WORD[p.mark]}`;
    head.append(strong, " ", fill(gettext("%(name)s's expected score: %(before)s with the best move, %(after)s after this one."), { name: seatName(p.seat), before: pct(p.before), after: pct(p.after) }));
    out.appendChild(head);
    const better = document.createElement("p");
    better.textContent = fill(gettext("Better: %(move)s (the arrow on the board)"), { move: p.best }) + (p.best_words.length ? `: ${p.best_words.join("; ")}.` : ".");
    out.appendChild(better);
    if (p.line.length > 1) {
      const line = document.createElement("p");
      line.className = "line";
      line.textContent = fill(gettext("Expected line: %(line)s"), { line: p.line.map((m) => `${m.move} (${seatName(m.seat)})`).join(", ") });
      out.appendChild(line);
    }
  }

  function refresh(action) {
    if (!data) return;
    const cursor = document.getElementById("analysis-cursor");
    if (cursor) {
      const on = action !== null && action !== undefined;
      cursor.setAttribute("visibility", on ? "visible" : "hidden");
      if (on) {
        const x = points(1).x(action);
        cursor.setAttribute("x1", x);
        cursor.setAttribute("x2", x);
      }
    }
    const p = action !== null && action >= 0 ? data.plies[action] : null;
    if (p && p.mark && p.best) drawArrow(p.best);
    showBest(action);
  }

  document.addEventListener("pacru:board", (e) => {
    const T = window.PacruGame.table();
    if (!T || T.status !== "finished") return;
    box.hidden = false;
    shown = e.detail.action;
    if (!asked) {
      asked = true;
      read(null);
    }
    refresh(shown);
  });
  if (requestButton) requestButton.addEventListener("click", request);
})();
