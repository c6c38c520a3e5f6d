// The game page: an SVG board, move input by clicking (every choice a move needs), keyboard
// entry, clocks, the move list with stepping, and live updates pushed by the server (server-sent
// events), or, when the stream cannot be opened, by polling the table with ETags.
//
// Everything the page knows comes from GET /api/v1/tables/<id>/ (position, seats, clocks, the
// legal base moves and the choices each needs); moves go to POST .../moves/ with the ply they
// answer, exactly like any API client. The server adjudicates; this page only offers what the
// server listed as legal, so an illegal attempt cannot be made by clicking.
(function () {
  "use strict";

  // Translations: Django's JavaScript catalogue (/jsi18n/, loaded before this script) defines
  // these globals; without it the page still works, in English.
  const gettext = window.gettext || ((s) => s);
  const ngettext = window.ngettext || ((s, p, n) => (n === 1 ? s : p));
  const pgettext = window.pgettext || ((c, s) => s);
  const interpolate = window.interpolate || ((fmt, obj, named) => (named
    ? fmt.replace(/%\(\w+\)s/g, (m) => String(obj[m.slice(2, -2)]))
    : fmt.replace(/%s/g, () => String(obj.shift()))));
  // A translated message with named values: fill("%(who)s wins", {who: "Ann"}).
  const fill = (fmt, values) => interpolate(fmt, values, true);
  // The same, as DOM pieces: the values may be elements (a live clock inside a sentence).
  function pieces(fmt, values) {
    return fmt.split(/(%\(\w+\)s)/).filter((x) => x !== "").map((x) => {
      const m = /^%\((\w+)\)s$/.exec(x);
      return m && m[1] in values ? values[m[1]] : x;
    });
  }

  const boot = JSON.parse(document.getElementById("boot").textContent);
  const API = boot.api;
  const ME = boot.mySeat;
  const FILES = "abcdefghi";
  const DIRS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];
  const SEAT = {
    1: { colour: "#D55E00", ink: "#fff", shape: "circle" },
    2: { colour: "#1f1f1f", ink: "#fff", shape: "square" },
    3: { colour: "#F0E442", ink: "#222", shape: "triangle" },
    4: { colour: "#009E73", ink: "#fff", shape: "diamond" },
  };
  // What players read: the seat colours, a seat's marker and chevron (the colour agrees with the
  // noun in many languages, so each is a message of its own), and the facings.
  const COLOUR = {
    1: pgettext("seat colour", "red"),
    2: pgettext("seat colour", "black"),
    3: pgettext("seat colour", "yellow"),
    4: pgettext("seat colour", "green"),
  };
  const { MARKER_OF, CHEVRON_OF, FACING } = window.BoardWords; // board_words.js
  const facingWord = (f) => FACING[f] || f;
  const seatLabel = (n) => fill(gettext("seat %(n)s"), { n: n });
  const S = 56, X0 = 36, Y0 = 6; // cell size and board origin inside the 546×536 viewBox
  const POLL = 800, POLL_HIDDEN = 4000, MAX_BACKOFF = 8000;
  const NS = "http://www.w3.org/2000/svg";

  const $ = (id) => document.getElementById(id);
  const svg = $("board");
  svg.setAttribute("viewBox", "0 0 546 536");

  let T = null; // the table as last received
  let etag = null;
  let offset = 0; // server clock minus local clock, ms
  let failures = 0;
  let history = null; // {start, actions: [...]}, loaded when the user steps back
  let view = null; // null: live; -1: the start; k: after action k
  let sel = idle(); // the move being built
  let busy = false; // a submission is in flight
  let focusCell = "e5";
  let hoverCell = null; // the chevron whose destinations are shown while pointed at or focused
  let flipped = false; // the viewer turned the board round (the Flip button)
  let soundOn = readSetting("pacru.sound") === "on";
  let audio = null;
  let warnedLow = null; // the ply at which the low-time sound last played
  const wasOpen = $("game").hasAttribute("hidden"); // rendered before the table started
  const TITLE = document.title; // the page's own title, which a "your turn" mark may precede
  const PLAYERS = boot.players || 2;
  // Each seat's home edge (RULES §2 start positions), and how far the picture turns (clockwise)
  // to put that edge at the bottom.
  const HOME = PLAYERS === 2 ? { 1: "S", 2: "N" } : { 1: "E", 2: "W", 3: "N", 4: "S" };
  const TURN = { S: 0, E: 90, N: 180, W: 270 };

  function idle() {
    return { stage: "idle", from: null, base: null, effect: null, meeting: null, turn: null, paid: [] };
  }

  // ------------------------------------------------------------------ geometry
  function rotation() {
    const base = ME && HOME[ME] ? TURN[HOME[ME]] : 0;
    return (base + (flipped ? 180 : 0)) % 360;
  }
  // Where a field is drawn: column and row (0…8, from the top left) of the turned board.
  function disp(cell) {
    const c = FILES.indexOf(cell[0]);
    const r = Number(cell[1]);
    switch (rotation()) {
      case 90: return [r - 1, c];
      case 180: return [8 - c, r - 1];
      case 270: return [9 - r, 8 - c];
      default: return [c, 9 - r];
    }
  }
  function cellAt(dx, dy) {
    switch (rotation()) {
      case 90: return FILES[dy] + (dx + 1);
      case 180: return FILES[8 - dx] + (dy + 1);
      case 270: return FILES[8 - dy] + (9 - dx);
      default: return FILES[dx] + (9 - dy);
    }
  }
  function cellXY(cell) {
    const [dx, dy] = disp(cell);
    return [X0 + dx * S, Y0 + dy * S];
  }
  // A chevron's power (RULES: how far it may move), as the engine counted it: the table's
  // "powers" for the live position, the positions' "powers" when stepping back (cell -> power).
  // The page never counts it itself; the rule differs from game to game.
  function power(powers, cell) {
    return powers && powers[cell] ? powers[cell] : 1;
  }
  // The fields strictly between two fields on a line (what a connection change colours).
  function between(a, b) {
    const c1 = FILES.indexOf(a[0]), r1 = Number(a[1]), c2 = FILES.indexOf(b[0]), r2 = Number(b[1]);
    const dc = Math.sign(c2 - c1), dr = Math.sign(r2 - r1);
    const out = [];
    for (let c = c1 + dc, r = r1 + dr; c !== c2 || r !== r2; c += dc, r += dr) {
      out.push(FILES[c] + r);
      if (out.length > 9) break;
    }
    return out;
  }
  function directionOf(a, b) {
    const dc = Math.sign(FILES.indexOf(b[0]) - FILES.indexOf(a[0])), dr = Math.sign(Number(b[1]) - Number(a[1]));
    const names = { "0,1": "N", "1,1": "NE", "1,0": "E", "1,-1": "SE", "0,-1": "S", "-1,-1": "SW", "-1,0": "W", "-1,1": "NW" };
    return names[`${dc},${dr}`];
  }
  // The field next to a field in a direction, or null off the board.
  function neighbour(cell, dir) {
    const d = { N: [0, 1], NE: [1, 1], E: [1, 0], SE: [1, -1], S: [0, -1], SW: [-1, -1], W: [-1, 0], NW: [-1, 1] }[dir];
    const c = FILES.indexOf(cell[0]) + d[0], r = Number(cell[1]) + d[1];
    return c >= 0 && c < 9 && r >= 1 && r <= 9 ? FILES[c] + r : null;
  }
  function destinationsOf(cell) {
    if (!T || T.status !== "active" || view !== null || !T.base_moves) return [];
    const out = [];
    for (const m of T.base_moves) if (m !== "pass" && fromOf(m) === cell && !out.includes(toOf(m))) out.push(toOf(m));
    return out;
  }
  function allCells() {
    const out = [];
    for (let r = 9; r >= 1; r--) for (let c = 0; c < 9; c++) out.push(FILES[c] + r);
    return out;
  }
  const CELLS = allCells();

  function decode(position) {
    const tiles = {};
    const chev = {};
    if (!position) return { tiles, chev };
    for (let i = 0; i < 81; i++) {
      const ch = position.tiles[i];
      if (ch !== "-") tiles[CELLS[i]] = Number(ch);
    }
    for (const c of position.chevrons) {
      const [cell, seat, facing] = c.split(":");
      chev[cell] = { seat: Number(seat), facing };
    }
    return { tiles, chev };
  }

  // ------------------------------------------------------------------ drawing
  function el(name, attrs, parent) {
    const e = document.createElementNS(NS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }

  function seatShape(seat, cx, cy, r, parent, extra) {
    const s = SEAT[seat];
    const common = Object.assign({ fill: s.colour, stroke: "#333", "stroke-width": 1 }, extra || {});
    if (s.shape === "circle") return el("circle", Object.assign({ cx, cy, r }, common), parent);
    if (s.shape === "square")
      return el("rect", Object.assign({ x: cx - r, y: cy - r, width: 2 * r, height: 2 * r }, common), parent);
    if (s.shape === "triangle")
      return el("polygon", Object.assign({ points: `${cx},${cy - r} ${cx + r},${cy + r} ${cx - r},${cy + r}` }, common), parent);
    return el("polygon", Object.assign({ points: `${cx},${cy - r} ${cx + r},${cy} ${cx},${cy + r} ${cx - r},${cy}` }, common), parent);
  }

  function lastMoveCells(action) {
    if (!action) return [];
    const m = /^([a-i][1-9])(?:[-x]([a-i][1-9]))?/.exec(action);
    return m ? [m[1], m[2]].filter(Boolean) : [];
  }

  function render() {
    const live = view === null;
    const position = live ? T.position : view < 0 ? history.start : history.actions[view].position;
    const powers = live ? T.powers : view < 0 ? history.start_powers : history.actions[view].powers;
    const lastAction = live ? lastOf(T.moves) : view < 0 ? null : history.actions[view].action;
    const { tiles, chev } = decode(position);
    const hl = live ? highlights() : { sel: new Set(), targets: new Set(), choice: new Set(), picked: new Set(), preview: new Set(), paid: new Set(), turns: new Map(), from: null };
    const rot = rotation();
    svg.dataset.rotation = rot;
    const last = new Set(lastMoveCells(lastAction));
    const hadFocus = svg.contains(document.activeElement);
    svg.textContent = "";
    el("rect", { x: 0, y: 0, width: 546, height: 536, fill: "#f4efe4" }, svg);
    for (const cell of CELLS) {
      const [x, y] = cellXY(cell);
      const g = el("g", { class: "cell", "data-cell": cell, role: "button", tabindex: cell === focusCell ? 0 : -1 }, svg);
      const owner = tiles[cell];
      el("rect", { x, y, width: S, height: S, fill: owner ? SEAT[owner].colour : "#fbf8f1", "fill-opacity": owner ? 0.38 : 1, stroke: "#b9b09c", "stroke-width": 1 }, g);
      if (last.has(cell)) el("rect", { x: x + 1, y: y + 1, width: S - 2, height: S - 2, fill: "#22d3ee", "fill-opacity": 0.28, stroke: "#0891b2", "stroke-width": 3, class: "last" }, g);
      if (owner) seatShape(owner, x + 9, y + 9, 5, g, { class: "marker" });
      if (hl.preview.has(cell)) el("rect", { x: x + 6, y: y + 6, width: S - 12, height: S - 12, rx: 4, fill: SEAT[T.to_move] ? SEAT[T.to_move].colour : "#888", "fill-opacity": 0.45, stroke: "#7e22ce", "stroke-width": 2, "stroke-dasharray": "4 3", class: "preview" }, g);
      const c = chev[cell];
      if (c) {
        const s = SEAT[c.seat];
        // A chevron being turned (its turn picked) is drawn facing the new way, outlined dashed.
        const turning = live && sel.turn && sel.from === cell;
        const angle = DIRS.indexOf(turning ? turnFacing(c.facing, sel.turn) : c.facing) * 45 + rot;
        const cx = x + S / 2, cy = y + S / 2 + 2;
        el("polygon", { points: "0,-19 12,15 0,7 -12,15", transform: `translate(${cx},${cy}) rotate(${angle})`, fill: s.colour, stroke: c.seat === 2 ? "#fff" : "#222", "stroke-width": 2, "stroke-dasharray": turning ? "4 2" : "none", class: turning ? "chevron turning" : "chevron" }, g);
        // Its owner's shape (colour and form), the seat number small beside it, and its power.
        seatShape(c.seat, x + S - 9, y + S - 9, 5, g, { class: "owner", stroke: c.seat === 2 ? "#fff" : "#333" });
        const t = el("text", { x: x + 8, y: y + S - 4, "font-size": 9, "text-anchor": "middle", fill: "#555", class: "seat-no" }, g);
        t.textContent = c.seat;
        const p = power(powers, cell);
        el("circle", { cx: x + S - 9, cy: y + 9, r: 7.5, fill: "#fff", stroke: "#334155", "stroke-width": 1.2, class: "power-dot" }, g);
        const pt = el("text", { x: x + S - 9, y: y + 12.5, "font-size": 10, "font-weight": 700, "text-anchor": "middle", fill: "#0f172a", class: "power", "data-power": p }, g);
        pt.textContent = p;
      }
      if (hl.sel.has(cell)) el("rect", { x: x + 3, y: y + 3, width: S - 6, height: S - 6, fill: "none", stroke: "#2563eb", "stroke-width": 2, "stroke-dasharray": "5 3" }, g);
      if (hl.from === cell) el("rect", { x: x + 1, y: y + 1, width: S - 2, height: S - 2, fill: "none", stroke: "#1d4ed8", "stroke-width": 4, class: "selected" }, g);
      if (hl.targets.has(cell)) el("circle", { cx: x + S / 2, cy: y + S / 2, r: 9, fill: "#15803d", "fill-opacity": 0.8, stroke: "#fff", "stroke-width": 2, class: "target" }, g);
      if (hl.choice.has(cell)) el("rect", { x: x + 4, y: y + 4, width: S - 8, height: S - 8, rx: 6, fill: "#a855f7", "fill-opacity": 0.25, stroke: "#7e22ce", "stroke-width": 3, class: "choice" }, g);
      if (hl.picked.has(cell)) el("rect", { x: x + 4, y: y + 4, width: S - 8, height: S - 8, rx: 6, fill: "#7e22ce", "fill-opacity": 0.55, stroke: "#3b0764", "stroke-width": 3, class: "picked" }, g);
      // A marker a reorientation pays with: crossed out in red (it leaves the board).
      if (hl.paid.has(cell)) {
        const paid = el("g", { class: "paid" }, g);
        el("rect", { x: x + 3, y: y + 3, width: S - 6, height: S - 6, rx: 4, fill: "#dc2626", "fill-opacity": 0.22, stroke: "#b91c1c", "stroke-width": 3 }, paid);
        el("path", { d: `M${x + 12},${y + 12} L${x + S - 12},${y + S - 12} M${x + S - 12},${y + 12} L${x + 12},${y + S - 12}`, stroke: "#b91c1c", "stroke-width": 4, "stroke-linecap": "round" }, paid);
      }
      // A field beside the selected chevron that turns it to face that way (↻ clockwise, ↺ not).
      if (hl.turns.has(cell)) {
        const turn = el("g", { class: "turn-target", "data-turn-to": hl.turns.get(cell) }, g);
        el("circle", { cx: x + S / 2, cy: y + S / 2, r: 14, fill: "#fef3c7", stroke: "#b45309", "stroke-width": 2.5, "stroke-dasharray": "5 3" }, turn);
        const sign = el("text", { x: x + S / 2, y: y + S / 2 + 7, "font-size": 20, "font-weight": 700, "text-anchor": "middle", fill: "#92400e" }, turn);
        sign.textContent = hl.turns.get(cell)[0] === ">" ? "↻" : "↺";
      }
      g.setAttribute("aria-label", describeCell(cell, owner, c, hl, c ? power(powers, cell) : 0));
      g.classList.toggle("clickable", hl.sel.has(cell) || hl.targets.has(cell) || hl.choice.has(cell) || hl.turns.has(cell) || hl.from === cell);
    }
    // Borderland borders: thick lines every three fields.
    for (let i = 0; i <= 9; i += 3) {
      el("line", { x1: X0 + i * S, y1: Y0, x2: X0 + i * S, y2: Y0 + 9 * S, stroke: "#4b3f2a", "stroke-width": 3 }, svg);
      el("line", { x1: X0, y1: Y0 + i * S, x2: X0 + 9 * S, y2: Y0 + i * S, stroke: "#4b3f2a", "stroke-width": 3 }, svg);
    }
    // Coordinates along the bottom and the left of the board as it is drawn.
    for (let i = 0; i < 9; i++) {
      const bottom = cellAt(i, 8), left = cellAt(0, i);
      const f = el("text", { x: X0 + i * S + S / 2, y: Y0 + 9 * S + 17, "text-anchor": "middle", "font-size": 14, fill: "#444" }, svg);
      f.textContent = rot % 180 === 0 ? bottom[0] : bottom[1];
      const r = el("text", { x: X0 - 14, y: Y0 + i * S + S / 2 + 5, "text-anchor": "middle", "font-size": 14, fill: "#444" }, svg);
      r.textContent = rot % 180 === 0 ? left[1] : left[0];
    }
    el("g", { id: "hints", "pointer-events": "none" }, svg);
    drawHints();
    // A layer for other scripts (analysis arrows, hints, the explorer): redrawn with the board,
    // told by the "pacru:board" event which position it shows (see window.PacruGame below).
    el("g", { id: "overlay", "pointer-events": "none" }, svg);
    document.dispatchEvent(new CustomEvent("pacru:board", { detail: { live, view, action: current(), position } }));
    if (hadFocus) focusOn(focusCell);
    $("board-wrap").classList.toggle("history", !live);
    const viewing = $("viewing");
    if (viewing) {
      viewing.hidden = live;
      viewing.textContent = live ? "" : view < 0
        ? gettext("Start position: press » to return to the game.")
        : fill(gettext("After move %(n)s (%(move)s): press » to return to the game."), { n: view + 1, move: history.actions[view].action });
    }
  }

  // Hovering or focusing a chevron of the seat on turn rings the fields it can reach (drawn on a
  // layer of its own, so the fields under the pointer are not replaced while it moves).
  function drawHints() {
    const layer = svg.querySelector("#hints");
    if (!layer) return;
    layer.textContent = "";
    if (!hoverCell || sel.stage !== "idle") return;
    for (const to of destinationsOf(hoverCell)) {
      const [x, y] = cellXY(to);
      el("circle", { cx: x + S / 2, cy: y + S / 2, r: 13, fill: "none", stroke: "#15803d", "stroke-width": 3, "stroke-dasharray": "4 3", class: "hint" }, layer);
    }
  }
  function setHover(cell) {
    if (cell === hoverCell) return;
    hoverCell = cell;
    drawHints();
  }

  function describeCell(cell, owner, c, hl, p) {
    const parts = [cell];
    // Translators: a field of the board without a marker (read out by screen readers).
    parts.push(owner ? MARKER_OF[owner] : gettext("neutral"));
    if (c) {
      parts.push(fill(CHEVRON_OF[c.seat], { facing: facingWord(c.facing), power: p }));
      const dests = c.seat === (T && T.to_move) ? destinationsOf(cell) : [];
      if (dests.length) parts.push(fill(gettext("can move to %(cells)s"), { cells: dests.join(" ") }));
    }
    if (hl.from === cell) parts.push(pgettext("field", "selected"));
    else if (hl.sel.has(cell)) parts.push(gettext("your chevron, can move"));
    if (hl.targets.has(cell)) parts.push(pgettext("field", "destination"));
    if (hl.choice.has(cell)) parts.push(pgettext("field", "can be chosen"));
    if (hl.picked.has(cell)) parts.push(pgettext("field", "chosen"));
    if (hl.paid.has(cell)) parts.push(gettext("paid: this marker is removed by the reorientation"));
    if (hl.turns.has(cell)) {
      const t = hl.turns.get(cell);
      parts.push(fill(ngettext("turns the chevron to face %(facing)s (%(n)s marker)", "turns the chevron to face %(facing)s (%(n)s markers)", t.length * 2),
        { facing: facingWord(directionOf(sel.from, cell)), n: t.length * 2 }));
    }
    return parts.join(", ");
  }

  function lastOf(list) {
    return list && list.length ? list[list.length - 1] : null;
  }

  // ------------------------------------------------------------- move input
  function myTurn() {
    return T && T.status === "active" && ME && T.to_move === ME && view === null;
  }
  function baseOf(move) {
    return move.replace(/[\^<>]$/, "");
  }
  function fromOf(move) {
    return move.slice(0, 2);
  }
  function toOf(move) {
    return move.slice(3, 5);
  }
  function basesFrom(cell) {
    return T.base_moves.filter((m) => m !== "pass" && fromOf(m) === cell);
  }
  function movable() {
    const out = new Set(T.base_moves.filter((m) => m !== "pass").map(fromOf));
    if (T.reorient) T.reorient.cells.forEach((c) => out.add(c));
    return out;
  }
  function meetingsFor(base, effect) {
    const ch = T.choices[base];
    if (!ch || !ch.meetings) return [];
    return ch.meetings[effect === null ? "None" : effect] || [];
  }

  function highlights() {
    const h = { sel: new Set(), targets: new Set(), choice: new Set(), picked: new Set(), preview: new Set(), paid: new Set(), turns: turnTargets(), from: sel.from };
    if (!myTurn()) return h;
    if (sel.stage === "idle") h.sel = movable();
    if (sel.stage === "dest") {
      h.sel = movable();
      basesFrom(sel.from).forEach((m) => h.targets.add(toOf(m)));
    }
    if (sel.base) {
      h.targets.add(toOf(sel.base));
      if (sel.stage === "effect") T.choices[sel.base].effects.filter((e) => e !== "*").forEach((c) => h.choice.add(c));
      if (sel.stage === "meeting") meetingsFor(sel.base, sel.effect).forEach((c) => h.choice.add(c));
      if (sel.effect && sel.effect !== "*") h.picked.add(sel.effect);
      // The connection change colours every field between; shown while it is on offer or chosen.
      const offered = sel.stage === "effect" && T.choices[sel.base].effects.includes("*");
      if (sel.effect === "*" || offered) between(fromOf(sel.base), toOf(sel.base)).forEach((c) => h.preview.add(c));
      if (sel.meeting) h.picked.add(sel.meeting);
    }
    if (sel.turn) {
      // Paying for a reorientation: every marker that may pay stays clickable, even at Confirm.
      T.reorient.removable.forEach((c) => h.choice.add(c));
      sel.paid.forEach((c) => h.paid.add(c));
    }
    return h;
  }

  // The fields beside the selected chevron that turn it (a click there picks that turn): while
  // turning, all the affordable turns; while choosing a destination, those whose field is neither
  // a destination nor another chevron to pick (so the 90° turns, to either side).
  function turnTargets() {
    const out = new Map();
    const stage = sel.stage;
    if (!myTurn() || !sel.from || (stage !== "dest" && stage !== "reorient-turn")) return out;
    if (!T.reorient || !T.reorient.cells.includes(sel.from)) return out;
    const c = decode(T.position).chev[sel.from];
    if (!c) return out;
    const dests = destinationsOf(sel.from), mine = movable();
    for (const t of T.reorient.turns) {
      const cell = neighbour(sel.from, turnFacing(c.facing, t));
      if (cell && (stage === "reorient-turn" || (!dests.includes(cell) && !mine.has(cell)))) out.set(cell, t);
    }
    return out;
  }

  // The markers a reorientation is suggested to pay with (RULES 6.4: the player chooses; a click
  // on a marker starts their own choice): the engine's choice for this turn (reorient.payments),
  // the markers whose loss costs the player's chevrons the least power.
  function suggestPayment(t) {
    const payments = (T.reorient && T.reorient.payments) || {};
    return (payments[t] || []).slice();
  }

  // A turn is picked (a field beside the chevron, or a button): the payment comes suggested, so
  // the move can be confirmed at once.
  function startTurn(t) {
    sel.turn = t;
    sel.paid = suggestPayment(t);
    sel.suggested = sel.paid.length === t.length * 2;
    sel.stage = sel.suggested ? "confirm" : "reorient-pay";
    update();
  }

  function clickCell(cell) {
    focusCell = cell;
    if (view !== null) return say(gettext("You are looking at an earlier position: press » to return to the game."));
    if (!myTurn() || busy) return;
    $("error").textContent = "";
    const mine = movable();
    if (sel.stage === "idle" || (sel.stage === "dest" && mine.has(cell) && cell !== sel.from)) {
      if (!mine.has(cell)) return;
      sel = idle();
      sel.stage = "dest";
      sel.from = cell;
      return update();
    }
    if (sel.stage === "dest") {
      if (cell === sel.from) {
        if (T.reorient && T.reorient.cells.includes(cell)) {
          sel.stage = "reorient-turn";
          return update();
        }
        sel = idle();
        return update();
      }
      const turn = turnTargets().get(cell);
      if (turn) return startTurn(turn);
      const bases = basesFrom(sel.from).filter((m) => toOf(m) === cell);
      if (!bases.length) {
        sel = idle();
        return update();
      }
      return chooseBase(bases);
    }
    if (sel.stage === "effect") {
      if (T.choices[sel.base].effects.includes(cell)) {
        sel.effect = cell;
        return afterEffect();
      }
      return;
    }
    if (sel.stage === "meeting") {
      if (meetingsFor(sel.base, sel.effect).includes(cell)) {
        sel.meeting = cell;
        sel.stage = "confirm";
        return update();
      }
      return;
    }
    if (sel.turn && (sel.stage === "reorient-pay" || sel.stage === "confirm")) {
      if (!T.reorient.removable.includes(cell)) return;
      // The first click on a marker replaces the suggested payment with the player's own choice.
      if (sel.suggested) sel.paid = [];
      sel.suggested = false;
      sel.stage = "reorient-pay";
      const i = sel.paid.indexOf(cell);
      if (i >= 0) sel.paid.splice(i, 1);
      else if (sel.paid.length < sel.turn.length * 2) sel.paid.push(cell);
      if (sel.paid.length === sel.turn.length * 2) sel.stage = "confirm";
      return update();
    }
    if (sel.stage === "reorient-turn" && cell === sel.from) {
      sel = idle();
      return update();
    }
    if (sel.stage === "reorient-turn" && turnTargets().has(cell)) return startTurn(turnTargets().get(cell));
  }

  function chooseBase(bases) {
    // A game with twists (the table's rules): the listed moves are complete; several of them
    // differ only by the twist.
    if (T.rules && T.rules.twist) {
      sel.base = baseOf(bases[0]);
      sel.variants = bases;
      sel.stage = bases.length === 1 ? "confirm" : "twist";
      if (bases.length === 1) sel.complete = bases[0];
      if (bases.length === 1 && oneClick) return submit(bases[0]);
      return update();
    }
    sel.base = bases[0];
    const effects = T.choices[sel.base].effects;
    if (!effects.length) {
      sel.effect = null;
      // One-click mode: a move with no marker, no change and no meeting to choose goes at once.
      if (oneClick && !meetingsFor(sel.base, null).length) return submit(sel.base);
      return afterEffect();
    }
    if (effects.length === 1) {
      // A single option (a forced connection change, or one eligible field) needs no question.
      sel.effect = effects[0];
      return afterEffect();
    }
    sel.stage = "effect";
    return update();
  }

  function afterEffect() {
    sel.stage = meetingsFor(sel.base, sel.effect).length ? "meeting" : "confirm";
    return update();
  }

  function pending() {
    if (sel.complete) return sel.complete;
    if (sel.turn) return `${sel.from}${sel.turn}(${sel.paid.slice().sort().join(",")})`;
    const tokens = [sel.effect, sel.meeting].filter((x) => x !== null && x !== undefined);
    return tokens.length ? `${sel.base}(${tokens.join(",")})` : sel.base;
  }

  function button(label, onClick, cls, attrs) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    if (cls) b.className = cls;
    for (const k in attrs || {}) b.setAttribute(k, attrs[k]);
    b.addEventListener("click", onClick);
    $("options").appendChild(b);
    return b;
  }

  // The prompt; its data-stage (and data-from) say which step of a move it asks for, so the
  // coach (coach.js) can follow the game in any language without reading the words.
  function say(text, stage) {
    const prompt = $("prompt");
    prompt.dataset.stage = stage || "";
    prompt.dataset.from = (stage && sel.from) || "";
    prompt.textContent = text;
  }

  function turnFacing(facing, turn) {
    const step = (turn[0] === ">" ? 1 : -1) * turn.length;
    return DIRS[(DIRS.indexOf(facing) + step + 8) % 8];
  }

  function updateInput() {
    $("options").textContent = "";
    if (view !== null) return say(gettext("Viewing an earlier position."));
    if (!T || T.status !== "active") return say("");
    if (!myTurn()) {
      const seat = T.seats.find((s) => s.number === T.to_move);
      return say(ME ? fill(gettext("Waiting for %(name)s…"), { name: seat ? seat.player.display_name : seatLabel(T.to_move) }) : "");
    }
    const kind = T.choices && sel.base && T.choices[sel.base] ? T.choices[sel.base].effect_kind : null;
    const cancelButton = () => button(pgettext("move input", "Cancel"), cancel);
    switch (sel.stage) {
      case "idle":
        if (T.base_moves.length === 1 && T.base_moves[0] === "pass") {
          say(gettext("None of your chevrons can move: you pass."), "pass");
          sel.complete = "pass";
          sel.stage = "confirm";
          return updateInput();
        }
        return say(gettext("Your turn: choose one of your chevrons."), "idle");
      case "dest":
        say(T.reorient && T.reorient.cells.includes(sel.from)
          ? fill(turnTargets().size
            ? gettext("%(cell)s: choose a highlighted destination, or click a ↻ field beside it (or the chevron again) to turn it.")
            : gettext("%(cell)s: choose a highlighted destination, or click the chevron again to turn it."), { cell: sel.from })
          : fill(gettext("%(cell)s: choose a highlighted destination."), { cell: sel.from }), "dest");
        return cancelButton();
      case "effect": {
        const effects = T.choices[sel.base].effects;
        if (effects.includes("*")) {
          say(fill(gettext("%(move)s is a connection that also crosses a border: take the connection change, or choose a highlighted border field for your marker."), { move: sel.base }), "effect");
          button(gettext("Connection change (*)"), () => { sel.effect = "*"; afterEffect(); }, "primary", { id: "opt-star" });
        } else if (kind === "transformation") {
          say(fill(gettext("%(move)s crosses a border: choose an opponent's highlighted field to change to your colour."), { move: sel.base }), "effect");
        } else {
          say(fill(gettext("%(move)s crosses a border: choose a highlighted field for your marker."), { move: sel.base }), "effect");
        }
        return cancelButton();
      }
      case "meeting":
        say(gettext("Your chevrons meet: choose one more highlighted field to change to your colour."), "meeting");
        return cancelButton();
      case "twist": {
        say(fill(gettext("%(move)s crosses a border: choose the new facing."), { move: sel.base }), "twist");
        // The facing after the move: the direction of travel, then the twist (RULES, Twist).
        const travel = directionOf(fromOf(sel.base), toOf(sel.base));
        const labels = {
          "^": gettext("straight on (^) → %(facing)s"),
          "<": gettext("turn left 45° (<) → %(facing)s"),
          ">": gettext("turn right 45° (>) → %(facing)s"),
        };
        for (const v of sel.variants) {
          const t = v.slice(-1);
          const facing = t === "^" ? travel : turnFacing(travel, t);
          button(labels[t] ? fill(labels[t], { facing: facingWord(facing) }) : v, () => { sel.complete = v; sel.stage = "confirm"; update(); }, "", { "data-twist": t });
        }
        return cancelButton();
      }
      case "reorient-turn": {
        const facing = decode(T.position).chev[sel.from].facing;
        say(fill(gettext("Turn the chevron on %(cell)s (facing %(facing)s): click a ↻ field beside it, or a button. 45° costs 2 of your markers, 90° costs 4."), { cell: sel.from, facing: facingWord(facing) }), "reorient-turn");
        const names = {
          "<": pgettext("reorientation", "45° left"),
          ">": pgettext("reorientation", "45° right"),
          "<<": pgettext("reorientation", "90° left"),
          ">>": pgettext("reorientation", "90° right"),
        };
        for (const t of T.reorient.turns) {
          const cost = t.length * 2;
          // Translators: a button: the turn ("45° left"), the facing after it, and its price.
          const label = ngettext("%(turn)s → %(facing)s (%(n)s marker)", "%(turn)s → %(facing)s (%(n)s markers)", cost);
          button(fill(label, { turn: names[t] || t, facing: facingWord(turnFacing(facing, t)), n: cost }), () => startTurn(t), "", { "data-turn": t });
        }
        return cancelButton();
      }
      case "reorient-pay": {
        const need = sel.turn.length * 2;
        say(fill(ngettext(
          "Choose %(need)s of your markers to remove (%(done)s of %(need)s chosen).",
          "Choose %(need)s of your markers to remove (%(done)s of %(need)s chosen).",
          need), { need: need, done: sel.paid.length }), "reorient-pay");
        paidLegend();
        return cancelButton();
      }
      case "confirm": {
        const move = pending();
        say(fill(gettext("Play %(move)s?"), { move: move }), "confirm");
        button(fill(gettext("Confirm %(move)s"), { move: move }), () => submit(move), "primary", { id: "confirm" });
        if (move !== "pass") cancelButton();
        if (sel.turn) paidLegend();
        return;
      }
    }
  }

  // Under the buttons while a reorientation is paid for: which markers go, and how to change them.
  function paidLegend() {
    const p = document.createElement("p");
    p.id = "paid-legend";
    p.className = "paid-legend";
    const key = document.createElement("span");
    key.className = "paid-key";
    key.setAttribute("aria-hidden", "true");
    key.textContent = "✕";
    const cells = sel.paid.slice().sort().join(", ");
    const words = !sel.paid.length ? gettext("Markers you pay with are crossed out in red on the board.")
      : sel.suggested
        ? fill(gettext("Paid with %(cells)s (crossed out in red): the markers your chevrons miss least. Click other markers to pay with those instead."), { cells: cells })
        : fill(gettext("Paid with %(cells)s (crossed out in red): they leave the board."), { cells: cells });
    p.append(key, " ", words);
    $("options").appendChild(p);
  }

  function cancel() {
    sel = idle();
    update();
  }

  function update() {
    render();
    updateInput();
    renderSide();
  }

  // ------------------------------------------------------------ talking to the API
  function csrf() {
    const input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  async function post(path, body) {
    const r = await fetch(API + path, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
      body: JSON.stringify(body || {}),
    });
    let data = {};
    try { data = await r.json(); } catch (e) { /* empty body */ }
    return { ok: r.ok, status: r.status, data };
  }

  async function submit(move) {
    if (busy) return;
    busy = true;
    say(fill(gettext("Sending %(move)s…"), { move: move }));
    $("options").textContent = "";
    try {
      const r = await post("moves/", { ply: T.ply, move });
      if (!r.ok) {
        // The server's explanation usually names the move already ("e9-e5: there is no …").
        const detail = String(r.data.detail || fill(gettext("refused (HTTP %(status)s)"), { status: r.status }));
        // Translators: a refused move: its notation, then the server's reason.
        $("error").textContent = detail.toLowerCase().startsWith(move.toLowerCase()) ? detail : fill(gettext("%(move)s: %(detail)s"), { move: move, detail: detail });
      }
      sel = idle();
    } catch (e) {
      $("error").textContent = gettext("The move could not be sent (connection lost?): try again.");
    } finally {
      busy = false;
      await poll(true);
    }
  }

  async function resign() {
    const box = $("options");
    box.textContent = "";
    say(gettext("Resign this game? Your chevrons leave the board; your markers stay."));
    button(gettext("Yes, resign"), async () => {
      const r = await post("resign/", {});
      if (!r.ok) $("error").textContent = r.data.detail || gettext("could not resign");
      sel = idle();
      await poll(true);
    }, "danger", { id: "resign-yes" });
    button(pgettext("resign", "No"), cancel);
  }

  // Push: the server sends the table's state on every change (server-sent events). While the
  // stream is open nothing is polled; when it drops, polling takes over until it is back (the
  // browser reconnects by itself, with the last state's id, and gets what it missed).
  let pushing = false;
  function push() {
    if (!boot.push || !window.EventSource) return;
    const es = new EventSource(boot.push);
    es.addEventListener("open", () => {
      pushing = true;
      failures = 0;
      if (timer) clearTimeout(timer);
      $("status").removeAttribute("data-offline");
    });
    es.addEventListener("state", (e) => {
      pushing = true;
      etag = `"${e.lastEventId}"`;
      receive(JSON.parse(e.data));
    });
    es.addEventListener("error", () => {
      if (pushing) {
        pushing = false;
        poll(true);
      }
    });
  }

  let timer = null;
  async function poll(now) {
    if (timer) clearTimeout(timer);
    if (pushing && now !== true) return; // the stream keeps the page current
    let delay = document.hidden ? POLL_HIDDEN : POLL;
    try {
      const headers = etag ? { "If-None-Match": etag } : {};
      const r = await fetch(API, { headers, credentials: "same-origin", cache: "no-store" });
      if (r.status === 200) {
        etag = r.headers.get("ETag");
        receive(await r.json());
      } else if (r.status !== 304) {
        throw new Error("HTTP " + r.status);
      }
      failures = 0;
      $("status").removeAttribute("data-offline");
    } catch (e) {
      failures += 1;
      $("status").setAttribute("data-offline", gettext("Connection lost: reconnecting…"));
      delay = Math.min(MAX_BACKOFF, POLL * 2 ** failures);
    }
    if (T && (T.status === "finished" || T.status === "aborted")) delay = Math.max(delay, 15000);
    timer = setTimeout(poll, delay);
  }

  function receive(data) {
    const previous = T;
    T = data;
    offset = Date.parse(T.server_time) - Date.now();
    if (!previous) showNotationExamples();
    if (wasOpen && T.status !== "open") {
      location.reload();
      return;
    }
    if (!previous || previous.ply !== T.ply || previous.status !== T.status || previous.to_move !== T.to_move) {
      if (!busy) sel = idle();
      if (history && T.moves.length > history.actions.length && view !== null) loadHistory();
    }
    document.title = myTurn() ? fill(gettext("● Your turn · %(title)s"), { title: TITLE }) : TITLE;
    if (previous && T.moves && previous.moves && T.moves.length > previous.moves.length) {
      const wasMine = previous.status === "active" && previous.to_move === ME;
      if (myTurn() && !wasMine) tone([660, 880], 0.12);
      else tone([440], 0.08);
    }
    update();
  }

  async function loadHistory() {
    const have = history ? history.actions.length : 0;
    const r = await fetch(`${API}positions/?from=${have}`, { credentials: "same-origin" });
    if (!r.ok) return;
    const data = await r.json();
    if (!history) history = data;
    else history.actions.push(...data.actions.filter((a) => a.seq >= have));
  }

  async function step(to) {
    if (!T || !T.moves) return;
    const n = T.moves.length;
    if (to === "live" || to >= n - 1) {
      view = null;
      return update();
    }
    if (!history || history.actions.length < n) await loadHistory();
    if (!history) return;
    view = Math.max(-1, to);
    sel = idle();
    update();
  }
  function current() {
    return view === null ? T.moves.length - 1 : view;
  }

  // -------------------------------------------------------------- side panel
  function fmt(seconds) {
    if (seconds === null || seconds === undefined || !isFinite(seconds)) return "";
    const s = Math.max(0, seconds);
    // Translators: a clock with more than a day left, in days and hours ("2d 5h").
    if (s >= 86400) return fill(pgettext("clock", "%(days)sd %(hours)sh"), { days: Math.floor(s / 86400), hours: Math.floor((s % 86400) / 3600) });
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
    const ss = s < 10 ? sec.toFixed(1).padStart(4, "0") : String(Math.floor(sec)).padStart(2, "0");
    return (h ? `${h}:${String(m).padStart(2, "0")}` : `${m}`) + ":" + ss;
  }

  function clockOf(seat) {
    if (!T.clocks || !T.clocks[seat]) return null;
    if (T.status === "active" && T.to_move === seat && T.deadline && T.ply > 0) {
      const left = (Date.parse(T.deadline) - (Date.now() + offset)) / 1000;
      // A turn that starts later (its player is on vacation, games.vacation) stands still until then.
      return T.turn_started_at ? Math.min(left, (Date.parse(T.deadline) - Date.parse(T.turn_started_at)) / 1000) : left;
    }
    return T.clocks[seat].remaining;
  }

  function renderSide() {
    if (!T) return;
    const list = $("seats");
    list.textContent = "";
    const position = view === null ? T.position : view < 0 ? history.start : history.actions[view].position;
    const scores = {};
    if (position) for (const ch of position.tiles) if (ch !== "-") scores[ch] = (scores[ch] || 0) + 1;
    for (const s of T.seats) {
      let label = s.player.display_name;
      if (s.player.is_bot) label = fill(gettext("%(name)s (bot)"), { name: label });
      if (s.number === ME) label = fill(gettext("%(name)s (you)"), { name: label });
      const li = seatHead(document.createElement("li"), s, label);
      const meta = document.createElement("span");
      meta.className = "meta";
      const rating = boot.ratings[s.number];
      const score = scores[s.number] || 0;
      const parts = [
        COLOUR[s.number],
        rating
          ? fill(gettext("rating %(rating)s"), { rating: rating })
          // Translators: shown instead of a rating for a player who has none yet.
          : gettext("rating new"),
        T.target
          ? fill(ngettext("%(n)s / %(target)s marker", "%(n)s / %(target)s markers", T.target), { n: score, target: T.target })
          : fill(ngettext("%(n)s marker", "%(n)s markers", score), { n: score }),
      ];
      if (s.state === "out") {
        const how = noShow(s.number) ? gettext("no-show: never moved")
          : s.elimination_reason === "timeout" ? gettext("lost on time") : reasonWord(s.elimination_reason);
        // Translators: a seat that left the game, and how.
        parts.push(fill(pgettext("seat", "out (%(how)s)"), { how: how }));
      }
      if (s.rank) parts.push(placeWord(s.rank));
      // "on vacation until …", worded by the page (games.vacation.seat_notes).
      if (boot.vacation && boot.vacation[s.number] && T.status !== "finished" && T.status !== "aborted") {
        parts.push(boot.vacation[s.number]);
      }
      meta.textContent = parts.join(" · ");
      li.appendChild(meta);
      if (T.status === "active" && T.to_move === s.number) {
        const turn = document.createElement("span");
        turn.className = "turn-flag";
        // Translators: a flag beside the seat whose turn it is.
        turn.textContent = pgettext("seat", "to move");
        li.appendChild(turn);
      }
      list.appendChild(li);
    }
    renderStrips(scores);
    tickClocks();
    renderStatus();
    renderEnd();
    renderMoves();
  }

  // Player strips with the clocks, as on a chess site: you (or, for a spectator, the seat whose
  // home edge is drawn at the bottom) under the board, the others above it.
  function bottomSeat() {
    if (ME) return ME;
    const edge = Object.keys(TURN).find((k) => TURN[k] === rotation());
    const seat = Object.keys(HOME).find((n) => HOME[n] === edge);
    return seat ? Number(seat) : null;
  }
  function renderStrips(scores) {
    const top = $("strip-top"), bottom = $("strip-bottom");
    top.textContent = "";
    bottom.textContent = "";
    const low = bottomSeat();
    for (const s of T.seats) {
      const div = seatHead(document.createElement("div"), s,
        s.number === ME ? fill(gettext("%(name)s (you)"), { name: s.player.display_name }) : s.player.display_name);
      div.classList.add("strip");
      const marks = document.createElement("span");
      marks.className = "marks";
      marks.title = gettext("markers on the board");
      marks.textContent = `${scores[s.number] || 0}${T.target ? "/" + T.target : ""}`;
      div.appendChild(marks);
      const clock = document.createElement("span");
      clock.className = "clock";
      clock.dataset.seat = s.number;
      div.appendChild(clock);
      (s.number === low ? bottom : top).appendChild(div);
    }
  }

  // How a seat left the game, in words.
  function fateOf(s) {
    if (noShow(s.number)) return gettext("no-show (never moved)");
    return {
      blocked: gettext("blocked (no chevron could move)"),
      captured: gettext("lost the last chevron to a pincer"),
      resigned: pgettext("fate", "resigned"),
      timeout: gettext("lost on time"),
    }[s.elimination_reason] || reasonWord(s.elimination_reason) || pgettext("seat", "out");
  }
  // The server's elimination reason (a stable value) as a word, for the seat list.
  function reasonWord(reason) {
    return {
      blocked: pgettext("elimination", "blocked"),
      captured: pgettext("elimination", "captured"),
      resigned: pgettext("fate", "resigned"),
      timeout: gettext("lost on time"),
    }[reason] || reason;
  }

  // The result banner: who won, the places in words, and the ways on (rematch, the event, the lobby).
  function renderEnd() {
    const box = $("end");
    if (!box) return;
    const over = T.status === "finished" || T.status === "aborted";
    box.hidden = !over;
    $("actions").classList.toggle("ended", over);
    if (!over) return;
    // The banner says it all: the server-written summary (for pages without script) steps aside.
    document.querySelectorAll(".result-words").forEach((p) => { p.hidden = true; });
    const head = $("result");
    const places = $("places");
    places.textContent = "";
    if (T.status === "aborted") {
      // Why, in the server's words when the page was rendered ("aborted: abandoned, …").
      head.textContent = boot.abortedSentence || gettext("This table was aborted.");
      if ($("rematch-form")) $("rematch-form").hidden = true;
      return;
    }
    const name = (n) => { const x = T.seats.find((y) => y.number === n); return x ? x.player.display_name : seatLabel(n); };
    const outs = T.seats.filter((x) => x.state === "out");
    let why = {
      target: gettext("whole supply of markers on the board"),
      "last-standing": gettext("the last player in the game"),
      "ply-limit": gettext("the ply limit was reached; most markers"),
      "end-trigger": gettext("the final round after the end was triggered; most markers"),
      "no-progress": gettext("no marker gained for too long; most markers"),
      "no-moves": gettext("nobody can move; most markers"),
      "no-gain": gettext("nobody can gain a marker; most markers"),
      adjudicated: gettext("result set by the organisers"),
    }[T.end_reason] || T.end_reason;
    if (T.end_reason === "last-standing" && outs.length) {
      // Translators: a player and how they left the game ("Bob lost on time").
      const fates = outs.map((x) => fill(gettext("%(name)s %(fate)s"), { name: name(x.number), fate: fateOf(x) }));
      why = fill(gettext("last player standing: %(fates)s"), { fates: fates.join(", ") });
    }
    head.textContent = T.winner_seat
      ? fill(gettext("Game over: %(name)s wins (%(why)s)."), { name: name(T.winner_seat), why: why })
      : fill(gettext("Game over: No single winner (%(why)s)."), { why: why });
    for (const x of T.seats.slice().sort((a, b) => (a.rank || 9) - (b.rank || 9))) {
      const li = document.createElement("li");
      const values = { place: x.rank ? placeName(x.rank) : gettext("unplaced"), name: x.player.display_name, n: x.markers };
      if (x.state === "out") {
        values.fate = fateOf(x);
        li.textContent = fill(ngettext("%(place)s: %(name)s, %(n)s marker (%(fate)s)", "%(place)s: %(name)s, %(n)s markers (%(fate)s)", x.markers), values);
      } else {
        li.textContent = fill(ngettext("%(place)s: %(name)s, %(n)s marker", "%(place)s: %(name)s, %(n)s markers", x.markers), values);
      }
      places.appendChild(li);
    }
  }

  // A seat's line (seat list and player strips): turn and out marks, the seat's shape, the name.
  function seatHead(el, s, label) {
    el.dataset.seat = s.number;
    if (T.status === "active" && T.to_move === s.number) el.classList.add("on-turn");
    if (s.state === "out") el.classList.add("out");
    const sw = document.createElementNS(NS, "svg");
    sw.setAttribute("viewBox", "0 0 20 20");
    sw.setAttribute("class", "swatch");
    sw.setAttribute("aria-hidden", "true");
    seatShape(s.number, 10, 10, 7, sw);
    el.appendChild(sw);
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = label;
    el.appendChild(name);
    return el;
  }

  function noShow(seat) {
    return (boot.noShowSeats || []).map(Number).includes(seat);
  }

  // A final rank as an ordinal ("1st"), and as a place ("1st place").
  function placeWord(rank) {
    if (rank === 1) return pgettext("rank", "1st");
    if (rank === 2) return pgettext("rank", "2nd");
    if (rank === 3) return pgettext("rank", "3rd");
    if (rank === 4) return pgettext("rank", "4th");
    // Translators: an ordinal number above 4 (5th, 6th, ...).
    return fill(pgettext("rank", "%(n)sth"), { n: rank });
  }
  function placeName(rank) {
    if (rank === 1) return gettext("1st place");
    if (rank === 2) return gettext("2nd place");
    if (rank === 3) return gettext("3rd place");
    if (rank === 4) return gettext("4th place");
    // Translators: a place in the final order above 4th (5th place, 6th place, ...).
    return fill(gettext("%(n)sth place"), { n: rank });
  }

  // "timeout 2" in the record reads "Bob: no-show" or "Bob lost on time"; moves stay as notation.
  function actionWords(action) {
    const m = /^(timeout|resign) (\d)$/.exec(action);
    if (!m) return action;
    const seat = Number(m[2]);
    const s = T.seats.find((x) => x.number === seat);
    const who = s ? s.player.display_name : seatLabel(seat);
    if (m[1] === "resign") return fill(gettext("%(name)s resigned"), { name: who });
    return fill(noShow(seat) ? gettext("%(name)s: no-show") : gettext("%(name)s lost on time"), { name: who });
  }

  function tickClocks() {
    if (!T) return;
    document.querySelectorAll(".clock").forEach((c) => {
      const seat = Number(c.dataset.seat);
      const left = clockOf(seat);
      // A no-show's clock never ran: no "0:00" for it.
      c.textContent = left === null || noShow(seat) ? "" : fmt(left);
      const low = left !== null && left < 20 && T.to_move === seat && T.status === "active";
      c.classList.toggle("low", low);
      if (low && seat === ME && T.deadline && T.ply > 0 && warnedLow !== T.ply) {
        warnedLow = T.ply;
        tone([880, 880, 880], 0.07);
      }
      c.classList.toggle("running", T.status === "active" && T.to_move === seat && !!T.deadline && T.ply > 0);
    });
    // Before the first move the clocks stand still and a window for the first move runs instead.
    const first = $("first-move");
    if (first && T.deadline) first.textContent = fmt((Date.parse(T.deadline) - (Date.now() + offset)) / 1000);
  }

  function renderStatus() {
    const st = $("status");
    // Typing a move and resigning are for a seat still in a running game.
    const mine = T.seats.find((x) => x.number === ME);
    const playing = T.status === "active" && mine && mine.state === "playing";
    const typed = $("notation-form");
    if (typed) typed.hidden = !playing;
    if ($("resign")) $("resign").hidden = !playing;
    const name = (n) => { const s = T.seats.find((x) => x.number === n); return s ? s.player.display_name : seatLabel(n); };
    if (T.status === "finished" && T.result) {
      // The banner (#end) says how it ended and the places; the status line just names the winner.
      st.textContent = T.winner_seat ? fill(gettext("Game over: %(name)s wins."), { name: name(T.winner_seat) }) : gettext("Game over: no single winner.");
    } else if (T.status === "aborted") {
      st.textContent = gettext("This table was aborted.");
    } else if (T.status === "active") {
      st.textContent = myTurn() ? gettext("Your turn.") : fill(gettext("%(name)s to move (ply %(ply)s)."), { name: name(T.to_move), ply: T.ply + 1 });
      if (T.ply === 0 && T.deadline) {
        const note = document.createElement("span");
        note.className = "first-note";
        const left = document.createElement("span");
        left.id = "first-move";
        // The time left (#first-move, kept current by tickClocks) stands inside the sentence.
        let words;
        if (boot.noShow !== "timeout") words = gettext("First move within %(time)s or the table is aborted.");
        else if (myTurn()) words = gettext("First move within %(time)s or you lose this game (no-show).");
        else words = fill(gettext("First move within %(time)s or %(name)s loses this game (no-show)."), { name: name(T.to_move), time: "%(time)s" });
        note.append(" ", ...pieces(words, { time: left }));
        st.appendChild(note);
      }
    } else {
      st.textContent = gettext("Waiting for players.");
    }
  }

  function renderMoves() {
    const ol = $("movelist");
    ol.textContent = "";
    const cur = current();
    T.moves.forEach((action, i) => {
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = actionWords(action);
      b.className = "mv" + (i === cur ? " current" : "");
      b.dataset.seq = i;
      b.setAttribute("aria-label", fill(gettext("Action %(n)s: %(action)s"), { n: i + 1, action: action }));
      b.addEventListener("click", () => step(i));
      li.appendChild(b);
      ol.appendChild(li);
    });
    const active = ol.querySelector(".current");
    if (active && view === null) ol.scrollTop = ol.scrollHeight;
    else if (active) active.scrollIntoView({ block: "nearest" });
    renderExplain();
  }

  // -------------------------------------------------------------- review: each move in words
  // Read from /review/ (the engine's account of each action) when stepping back or once the game
  // has ended; asked again only when actions were added since.
  let review = null;
  let reviewAsked = -1;
  async function loadReview() {
    reviewAsked = T.moves.length;
    const r = await fetch(`${API}review/`, { credentials: "same-origin" });
    if (!r.ok) return;
    review = (await r.json()).moves;
    renderExplain();
  }
  function renderExplain() {
    const box = $("explain");
    if (!box || !T || !T.moves) return;
    const cur = current();
    if ((view === null && T.status !== "finished") || cur < 0) {
      box.hidden = true;
      return;
    }
    if ((!review || review.length <= cur) && reviewAsked < T.moves.length) {
      loadReview();
      return;
    }
    const entry = review && review[cur];
    box.hidden = !entry;
    if (!entry) return;
    box.textContent = "";
    const h = document.createElement("strong");
    // Translators: the number of an action in the game record, then the action ("3. e1-e2").
    h.textContent = fill(pgettext("move list", "%(n)s. %(action)s"), { n: cur + 1, action: actionWords(T.moves[cur]) });
    box.appendChild(h);
    const ul = document.createElement("ul");
    for (const line of entry.effects) {
      const li = document.createElement("li");
      li.textContent = line;
      ul.appendChild(li);
    }
    box.appendChild(ul);
  }

  // ------------------------------------------------------------ keyboard and events
  function focusOn(cell) {
    const g = svg.querySelector(`[data-cell="${cell}"]`);
    if (!g) return;
    svg.querySelectorAll("[tabindex='0']").forEach((x) => x.setAttribute("tabindex", -1));
    g.setAttribute("tabindex", 0);
    g.focus();
  }

  svg.addEventListener("click", (e) => {
    const g = e.target.closest("[data-cell]");
    if (g) clickCell(g.dataset.cell);
  });
  svg.addEventListener("keydown", (e) => {
    const g = e.target.closest("[data-cell]");
    if (!g) return;
    if (["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Enter", " "].includes(e.key)) {
      // Handled here; the board is redrawn meanwhile, so the page-level keys must not see it too.
      e.stopPropagation();
    }
    const cell = g.dataset.cell;
    // Arrows move across the board as drawn (it may be turned).
    let [c, r] = disp(cell);
    if (e.key === "ArrowLeft") c = Math.max(0, c - 1);
    else if (e.key === "ArrowRight") c = Math.min(8, c + 1);
    else if (e.key === "ArrowUp") r = Math.max(0, r - 1);
    else if (e.key === "ArrowDown") r = Math.min(8, r + 1);
    else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      if (sel.stage === "confirm" && e.key === "Enter") return submit(pending());
      clickCell(cell);
      focusOn(cell);
      return;
    } else return;
    e.preventDefault();
    focusCell = cellAt(c, r);
    focusOn(focusCell);
  });
  document.addEventListener("keydown", (e) => {
    const typing = e.target.tagName === "INPUT" || e.target.tagName === "SELECT" || e.target.tagName === "TEXTAREA";
    if (e.key === "Escape") return cancel();
    if (typing || svg.contains(e.target)) return;
    if (e.key === "Enter" && sel.stage === "confirm" && e.target.tagName !== "BUTTON") return submit(pending());
    if (e.key === "ArrowLeft") step(current() - 1);
    else if (e.key === "ArrowRight") step(current() + 1);
    else if (e.key === "Home") step(-1);
    else if (e.key === "End") step("live");
  });
  $("nav-first").addEventListener("click", () => step(-1));
  $("nav-prev").addEventListener("click", () => step(current() - 1));
  $("nav-next").addEventListener("click", () => step(current() + 1));
  $("nav-last").addEventListener("click", () => step("live"));
  const form = $("notation-form");
  if (form) {
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const move = $("notation").value.trim();
      if (!move) return;
      if (!myTurn()) {
        $("error").textContent = gettext("It is not your turn.");
        return;
      }
      $("notation").value = "";
      submit(move);
    });
  }
  const resignButton = $("resign");
  if (resignButton) resignButton.addEventListener("click", resign);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) poll(true); });

  // ------------------------------------------------------------ settings, sound, layout
  function readSetting(key) {
    try { return window.localStorage.getItem(key); } catch (e) { return null; }
  }
  function writeSetting(key, value) {
    try { window.localStorage.setItem(key, value); } catch (e) { /* private mode: not kept */ }
  }
  // Short tones made with the Web Audio API (no sound files); silent unless switched on.
  function tone(freqs, seconds) {
    if (!soundOn) return;
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      let at = audio.currentTime;
      for (const f of freqs) {
        const osc = audio.createOscillator();
        const gain = audio.createGain();
        osc.frequency.value = f;
        osc.type = "sine";
        gain.gain.setValueAtTime(0.0001, at);
        gain.gain.exponentialRampToValueAtTime(0.2, at + 0.01);
        gain.gain.exponentialRampToValueAtTime(0.0001, at + seconds);
        osc.connect(gain).connect(audio.destination);
        osc.start(at);
        osc.stop(at + seconds + 0.02);
        at += seconds;
      }
    } catch (e) { /* no audio here */ }
  }
  // One-click mode (off by default, kept in this browser): a move that needs no choice is played
  // on the click on its destination, without the Confirm step.
  let oneClick = readSetting("pacru.oneclick") === "on";
  const oneClickButton = $("one-click");
  function showOneClick() {
    oneClickButton.setAttribute("aria-pressed", oneClick ? "true" : "false");
    oneClickButton.textContent = oneClick ? gettext("One-click: on") : gettext("One-click: off");
  }
  if (oneClickButton) {
    showOneClick();
    oneClickButton.addEventListener("click", () => {
      oneClick = !oneClick;
      writeSetting("pacru.oneclick", oneClick ? "on" : "off");
      showOneClick();
    });
  }
  const soundButton = $("sound");
  function showSound() {
    if (!soundButton) return;
    soundButton.setAttribute("aria-pressed", soundOn ? "true" : "false");
    soundButton.textContent = soundOn ? gettext("Sound: on") : gettext("Sound: off");
  }
  if (soundButton) {
    showSound();
    soundButton.addEventListener("click", () => {
      soundOn = !soundOn;
      writeSetting("pacru.sound", soundOn ? "on" : "off");
      showSound();
      tone([520], 0.08);
    });
  }
  const flipButton = $("flip");
  if (flipButton) flipButton.addEventListener("click", () => {
    flipped = !flipped;
    flipButton.setAttribute("aria-pressed", flipped ? "true" : "false");
    if (T) update();
  });
  const notationInput = $("notation");
  // The typed-move hint: moves as this game writes them (the table's rules, from the engine).
  function showNotationExamples() {
    const examples = (T && T.rules && T.rules.notation_examples) || [];
    if (!notationInput || !examples.length) return;
    notationInput.placeholder = examples.length > 1
      ? fill(gettext("e.g. %(example)s or %(other)s"), { example: examples[0], other: examples[1] })
      : fill(gettext("e.g. %(example)s"), { example: examples[0] });
  }
  // On a narrow screen the prompt and its buttons go right under the board (and its lower
  // player strip); on a wide one they head the side column, beside the board.
  const narrow = window.matchMedia("(max-width: 52rem)");
  function placeActions() {
    const actions = $("actions");
    if (narrow.matches) $("strip-bottom").after(actions);
    else $("side").prepend(actions);
  }
  placeActions();
  if (narrow.addEventListener) narrow.addEventListener("change", placeActions);
  svg.addEventListener("mouseover", (e) => {
    const g = e.target.closest("[data-cell]");
    setHover(g ? g.dataset.cell : null);
  });
  svg.addEventListener("mouseleave", () => setHover(null));
  svg.addEventListener("focusin", (e) => {
    const g = e.target.closest("[data-cell]");
    if (g) setHover(g.dataset.cell);
  });

  // What other scripts of the page may use: the table as last read, the board's geometry (the
  // centre of a field in the board's SVG units, whatever its rotation), its overlay layer, the
  // action shown (-1: the start; null: live) and stepping to an action.
  window.PacruGame = {
    table: () => T,
    view: () => view,
    current: () => current(),
    step: (to) => step(to),
    overlay: () => svg.querySelector("#overlay"),
    cellCenter: (cell) => { const [x, y] = cellXY(cell); return [x + S / 2, y + S / 2]; },
    size: S,
  };

  setInterval(tickClocks, 200);
  poll(true);
  push();
})();
