// The explorer and hints on the game page (after game.js, which it reads through window.PacruGame
// and the "pacru:board" event fired after each drawing of the board).
//
// * "Played here": on review (a finished table, or stepping back through a game in play) a panel
//   lists the moves played from the position shown in all finished games of this game and seat
//   count (GET /api/v1/explorer/?table=&action=), with how many games, the mover's average result
//   and the share; answers are kept per position shown, so stepping back and forth reads each once.
//   Clicking a move draws its arrow on the board.
// * "Show me a good move": for the seated player on their turn, where the page's boot data says
//   hints are offered (casual games against the house bots), POST /api/v1/tables/<id>/hint/ and
//   show the move as an arrow and in words. The first-game coach's panel offers the same button.
(function () {
  "use strict";
  const G = window.PacruGame;
  const bootEl = document.getElementById("boot");
  if (!G || !bootEl) return;
  const boot = JSON.parse(bootEl.textContent);
  const gettext = window.gettext || ((s) => s);
  const ngettext = window.ngettext || ((s, p, n) => (n === 1 ? s : p));
  const interpolate = window.interpolate || ((fmt, obj, named) => (named
    ? fmt.replace(/%\(\w+\)s/g, (m) => String(obj[m.slice(2, -2)]))
    : fmt.replace(/%s/g, () => String(obj.shift()))));
  const fill = (fmt, values) => interpolate(fmt, values, true);
  const $ = (id) => document.getElementById(id);
  const NS = "http://www.w3.org/2000/svg";
  const API = "/api/v1/";

  function make(tag, attrs, parent, text) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }
  function svgEl(tag, attrs, parent) {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    parent.appendChild(e);
    return e;
  }
  function csrf() {
    const input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  // ---------------------------------------------------------------- arrows
  // A move drawn on the overlay: an arrow from its field to its destination, or a ring on a chevron
  // turned in place; the fields in parentheses (a marker, a meeting field) dotted.
  function drawMove(move, kind) {
    const layer = G.overlay();
    if (!layer || !move) return;
    const g = svgEl("g", { class: `move-arrow ${kind}`, "data-move": move }, layer);
    const m = /^([a-i][1-9])(?:[-x]([a-i][1-9]))?/.exec(move);
    if (!m) return;
    const [x1, y1] = G.cellCenter(m[1]);
    if (m[2]) {
      const [x2, y2] = G.cellCenter(m[2]);
      const len = Math.hypot(x2 - x1, y2 - y1) || 1;
      const ux = (x2 - x1) / len, uy = (y2 - y1) / len;
      const head = 16, back = 6;
      const tipX = x2 - ux * back, tipY = y2 - uy * back;
      const baseX = tipX - ux * head, baseY = tipY - uy * head;
      svgEl("line", { x1: x1 + ux * 8, y1: y1 + uy * 8, x2: baseX, y2: baseY, class: "shaft" }, g);
      svgEl("polygon", {
        points: `${tipX},${tipY} ${baseX - uy * 9},${baseY + ux * 9} ${baseX + uy * 9},${baseY - ux * 9}`,
        class: "head",
      }, g);
    } else {
      svgEl("circle", { cx: x1, cy: y1, r: G.size * 0.42, class: "ring" }, g);
    }
    const effects = /\(([^)]*)\)/.exec(move);
    for (const cell of effects ? effects[1].split(",") : []) {
      if (!/^[a-i][1-9]$/.test(cell.trim())) continue;
      const [cx, cy] = G.cellCenter(cell.trim());
      svgEl("circle", { cx, cy, r: 9, class: "effect" }, g);
    }
  }

  // ---------------------------------------------------------------- "Played here"
  const known = new Map(); // action shown -> the explorer's answer (or a promise of it)
  let shown = null; // the action whose moves the panel lists
  let picked = null; // {action, move}: the move whose arrow is drawn
  let panel = null;

  function buildPanel() {
    const box = document.querySelector(".moves-box");
    if (!box) return null;
    const section = make("section", { id: "explorer", class: "explorer-box", "aria-labelledby": "explorer-h", hidden: "" });
    make("h2", { id: "explorer-h" }, section, gettext("Played here"));
    make("p", { class: "explorer-note", id: "explorer-note", "aria-live": "polite" }, section);
    const table = make("table", { class: "explorer-moves", id: "explorer-moves", hidden: "" }, section);
    const head = make("tr", {}, make("thead", {}, table));
    make("th", { scope: "col" }, head, gettext("Move"));
    make("th", { scope: "col", class: "num" }, head, gettext("Games"));
    // Translators: a column of the explorer: the average result of the player who made the move (100% = always first).
    make("th", { scope: "col", class: "num" }, head, gettext("Score"));
    make("tbody", {}, table);
    box.after(section);
    return section;
  }

  function reviewing(detail) {
    const T = G.table();
    if (!T) return false;
    return !detail.live || T.status === "finished" || T.status === "aborted";
  }

  async function load(action) {
    if (known.has(action)) return known.get(action);
    const url = `${API}explorer/?table=${boot.id}&action=${action}`;
    const promise = fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then((r) => (r.ok ? r.json() : null))
      .catch(() => null);
    known.set(action, promise);
    const data = await promise;
    known.set(action, data);
    if (data === null) known.delete(action); // try again next time
    return data;
  }

  function pct(x) {
    return `${Math.round(x * 100)}%`;
  }

  function show(action, data) {
    if (!panel || shown !== action) return;
    const note = $("explorer-note"), table = $("explorer-moves");
    const body = table.querySelector("tbody");
    body.textContent = "";
    if (!data) {
      note.textContent = gettext("The explorer could not be read. Step again to retry.");
      table.hidden = true;
      return;
    }
    if (!data.moves.length) {
      note.textContent = gettext("No finished game went on from this position.");
      table.hidden = true;
      return;
    }
    note.textContent = fill(
      ngettext("From %(n)s finished game of this game and seat count:", "From %(n)s finished games of this game and seat count:", data.games),
      { n: data.games },
    );
    table.hidden = false;
    for (const m of data.moves) {
      const row = make("tr", {}, body);
      const cell = make("td", {}, row);
      const on = picked && picked.action === action && picked.move === m.move;
      const button = make("button", { type: "button", class: "explorer-move", "aria-pressed": on ? "true" : "false",
        title: gettext("Show this move on the board") }, cell, m.move);
      button.addEventListener("click", () => {
        const same = picked && picked.action === action && picked.move === m.move;
        picked = same ? null : { action, move: m.move };
        redraw();
      });
      const games = make("td", { class: "num" }, row);
      make("span", {}, games, `${m.games} `);
      const bar = make("span", { class: "share", title: fill(gettext("%(share)s of the games from here"), { share: pct(m.share) }) }, games);
      // Through the CSSOM: the pages' style policy refuses style attributes.
      make("span", {}, bar).style.width = `${Math.max(4, Math.round(m.share * 100))}%`;
      make("td", { class: "num" }, row, pct(m.score));
    }
  }

  async function onBoard(detail) {
    if (!panel) panel = buildPanel();
    if (!panel) return;
    if (!reviewing(detail)) {
      panel.hidden = true;
      shown = null;
      return;
    }
    const T = G.table();
    const action = detail.action;
    panel.hidden = false;
    const atEnd = (T.status === "finished" || T.status === "aborted") && action === T.moves.length - 1;
    if (atEnd) {
      shown = action;
      $("explorer-note").textContent = gettext("The game ended here. Step back to see what others played.");
      $("explorer-moves").hidden = true;
      return;
    }
    if (shown !== action) {
      shown = action;
      if (!known.has(action) || known.get(action) instanceof Promise) {
        $("explorer-note").textContent = gettext("Reading the explorer…");
        $("explorer-moves").hidden = true;
      }
    }
    const data = await load(action);
    show(action, data);
  }

  // ---------------------------------------------------------------- hints
  let hint = null; // {actions, move, words}: the hint for the position with that many actions
  let hintButtons = [];

  function myTurn() {
    const T = G.table();
    return !!(T && T.status === "active" && boot.mySeat && T.to_move === boot.mySeat && G.view() === null);
  }

  // The first-game coach (games/_coach.html) offers the hint in its own panel while it is open:
  // then the prompt's box keeps no second button, and the words go under the coach's buttons. On a
  // phone the coach is docked at the bottom of the window, so its button shows only where the
  // player is asked to pick a chevron, not beside the coach's Next.
  const coachPanel = () => { const c = $("coach"); return c && !c.hidden ? c : null; };

  function buildHint() {
    const actions = $("actions");
    if (!boot.hint || !actions) return;
    const box = make("div", { id: "hint-box", class: "hint-box", hidden: "" }, actions);
    const button = make("button", { type: "button", id: "hint", class: "hint-button" }, box, gettext("Show me a good move"));
    make("p", { id: "hint-words", class: "hint-words", role: "status", "aria-live": "polite", hidden: "" }, box);
    hintButtons.push(button);
    const coach = $("coach-hint");
    if (coach) hintButtons.push(coach);
    for (const b of hintButtons) b.addEventListener("click", askHint);
    // The coach's steps and the prompt's stage change without a new drawing of the board.
    const watch = new MutationObserver(onBoardHint);
    for (const id of ["coach", "coach-next", "prompt"]) {
      if ($(id)) watch.observe($(id), { attributes: true, attributeFilter: ["hidden", "data-stage"] });
    }
  }

  async function askHint() {
    const T = G.table();
    if (!myTurn()) return;
    const actions = T.moves.length;
    hintButtons.forEach((b) => { b.disabled = true; });
    const words = $("hint-words");
    words.hidden = false;
    words.textContent = gettext("Thinking…");
    try {
      const r = await fetch(`${API}tables/${boot.id}/hint/`, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrf() },
        body: "{}",
      });
      const data = await r.json().catch(() => ({}));
      if (!r.ok) {
        hint = null;
        words.textContent = String(data.detail || fill(gettext("refused (HTTP %(status)s)"), { status: r.status }));
      } else {
        hint = { actions, move: data.move, words: data.words };
        // Translators: a hint; the words say the move and what it does ("e1-e2: moves 1 field N").
        words.textContent = fill(gettext("A good move: %(words)s"), { words: data.words || data.move });
        redraw();
      }
    } catch (e) {
      words.textContent = gettext("Connection lost: try again.");
    } finally {
      hintButtons.forEach((b) => { b.disabled = false; });
    }
  }

  function onBoardHint() {
    const box = $("hint-box");
    if (!box) return;
    const T = G.table();
    const mine = myTurn();
    const coach = coachPanel();
    const words = $("hint-words");
    box.hidden = !mine || !!coach;
    const coachButton = $("coach-hint");
    if (coachButton) {
      const picking = ($("prompt").dataset.stage || "idle") === "idle";
      coachButton.hidden = !(mine && coach && picking && $("coach-next").hidden);
      const home = coach ? coach.querySelector(".coach-buttons") : null;
      if (home && words.previousElementSibling !== home) home.after(words);
      else if (!home && words.parentElement !== box) box.appendChild(words);
    }
    if (hint && (!T || T.moves.length !== hint.actions)) {
      hint = null;
      words.hidden = true;
      words.textContent = "";
    }
  }

  // ---------------------------------------------------------------- each drawing of the board
  let last = null;
  function redraw() {
    if (!last) return;
    const layer = G.overlay();
    if (layer) layer.querySelectorAll(".move-arrow").forEach((e) => e.remove());
    if (hint && myTurn()) drawMove(hint.move, "hint-arrow");
    if (picked && picked.action === last.action && reviewing(last)) drawMove(picked.move, "explorer-arrow");
    if (panel) panel.querySelectorAll(".explorer-move").forEach((b) => {
      const on = picked && picked.action === shown && picked.move === b.textContent;
      b.setAttribute("aria-pressed", on ? "true" : "false");
    });
  }

  document.addEventListener("pacru:board", (e) => {
    last = e.detail;
    onBoardHint();
    redraw();
    onBoard(e.detail);
  });
  buildHint();
})();
