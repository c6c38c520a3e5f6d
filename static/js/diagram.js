// The rules pages' small boards. Each figure.diagram has a key into the JSON the server embedded
// (#rules-diagrams): the position before and after its example move, both computed by the
// engine, the chevrons' powers and the fields the move changed. This script only draws them and
// switches between the two when the reader plays the move (chevron, then green dot; or the button).
(function () {
  "use strict";

  // Translations: Django's JavaScript catalogue (/jsi18n/, loaded before this script) defines
  // these globals; without it the diagrams still work, in English.
  const gettext = window.gettext || ((s) => s);
  const pgettext = window.pgettext || ((c, s) => s);
  const interpolate = window.interpolate || ((fmt, obj, named) => (named
    ? fmt.replace(/%\(\w+\)s/g, (m) => String(obj[m.slice(2, -2)]))
    : fmt.replace(/%s/g, () => String(obj.shift()))));
  const fill = (fmt, values) => interpolate(fmt, values, true);

  const DATA = JSON.parse(document.getElementById("rules-diagrams").textContent);
  const NS = "http://www.w3.org/2000/svg";
  const FILES = "abcdefghi";
  const DIRS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];
  const SEAT = {
    1: { colour: "#D55E00", shape: "circle" },
    2: { colour: "#1f1f1f", shape: "square" },
    3: { colour: "#F0E442", shape: "triangle" },
    4: { colour: "#009E73", shape: "diamond" },
  };
  // What a screen reader says of a field: a seat's marker and chevron (the colour agrees with
  // the noun in many languages, so each is a message of its own), and the facings.
  const { MARKER_OF, CHEVRON_OF, FACING } = window.BoardWords; // board_words.js
  const S = 50, X0 = 26, Y0 = 4; // field size and board origin in the 486×486 viewBox
  const CELLS = [];
  for (let r = 9; r >= 1; r--) for (let c = 0; c < 9; c++) CELLS.push(FILES[c] + r);

  function el(name, attrs, parent) {
    const e = document.createElementNS(NS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function xy(cell) {
    return [X0 + FILES.indexOf(cell[0]) * S, Y0 + (9 - Number(cell[1])) * S];
  }
  function decode(position) {
    const tiles = {}, chev = {};
    for (let i = 0; i < 81; i++) if (position.tiles[i] !== "-") tiles[CELLS[i]] = Number(position.tiles[i]);
    for (const c of position.chevrons) {
      const [cell, seat, facing] = c.split(":");
      chev[cell] = { seat: Number(seat), facing };
    }
    return { tiles, chev };
  }
  function marker(seat, cx, cy, r, parent, cls) {
    const s = SEAT[seat];
    const a = { fill: s.colour, stroke: seat === 2 ? "#fff" : "#333", "stroke-width": 1, class: cls };
    if (s.shape === "circle") return el("circle", Object.assign({ cx, cy, r }, a), parent);
    if (s.shape === "square") return el("rect", Object.assign({ x: cx - r, y: cy - r, width: 2 * r, height: 2 * r }, a), parent);
    if (s.shape === "triangle") return el("polygon", Object.assign({ points: `${cx},${cy - r} ${cx + r},${cy + r} ${cx - r},${cy + r}` }, a), parent);
    return el("polygon", Object.assign({ points: `${cx},${cy - r} ${cx + r},${cy} ${cx},${cy + r} ${cx - r},${cy}` }, a), parent);
  }

  function draw(fig) {
    const d = DATA[fig.dataset.key];
    const stage = fig.dataset.stage; // "before", "selected" or "after"
    const after = stage === "after";
    const { tiles, chev } = decode(after ? d.after : d.before);
    const powers = after ? d.powers_after : d.powers_before;
    const changed = new Set(after ? d.changed : []);
    const svg = fig.querySelector("svg");
    svg.textContent = "";
    el("rect", { x: 0, y: 0, width: 486, height: 486, fill: "#f4efe4" }, svg);
    for (const cell of CELLS) {
      const [x, y] = xy(cell);
      const g = el("g", { class: "cell", "data-cell": cell }, svg);
      const owner = tiles[cell];
      el("rect", { x, y, width: S, height: S, fill: owner ? SEAT[owner].colour : "#fbf8f1", "fill-opacity": owner ? 0.38 : 1, stroke: "#b9b09c", "stroke-width": 1 }, g);
      if (changed.has(cell)) el("rect", { x: x + 1.5, y: y + 1.5, width: S - 3, height: S - 3, fill: "none", stroke: "#0e7490", "stroke-width": 3.5, "stroke-dasharray": "7 3", class: "changed" }, g);
      if (owner) marker(owner, x + 8, y + 8, 4.5, g, "marker");
      const c = chev[cell];
      if (c) {
        const angle = DIRS.indexOf(c.facing) * 45;
        el("polygon", { points: "0,-17 11,13 0,6 -11,13", transform: `translate(${x + S / 2},${y + S / 2 + 2}) rotate(${angle})`, fill: SEAT[c.seat].colour, stroke: c.seat === 2 ? "#fff" : "#222", "stroke-width": 2, class: "chevron", "data-seat": c.seat, "data-facing": c.facing }, g);
        el("circle", { cx: x + S - 8, cy: y + 8, r: 7, fill: "#fff", stroke: "#334155", "stroke-width": 1.1 }, g);
        const t = el("text", { x: x + S - 8, y: y + 11.5, "font-size": 10, "font-weight": 700, "text-anchor": "middle", fill: "#0f172a", class: "power" }, g);
        t.textContent = powers[cell] || 1;
      }
      if (!after && cell === d.from) {
        el("rect", { x: x + 2.5, y: y + 2.5, width: S - 5, height: S - 5, fill: "none", stroke: "#1d4ed8", "stroke-width": stage === "selected" ? 4 : 2.5, "stroke-dasharray": stage === "selected" ? "none" : "6 3", class: "from" }, g);
        g.classList.add("clickable");
      }
      if (stage === "selected" && cell === d.to) {
        el("circle", { cx: x + S / 2, cy: y + S / 2, r: 9, fill: "#15803d", "fill-opacity": 0.85, stroke: "#fff", "stroke-width": 2, class: "target" }, g);
        g.classList.add("clickable");
      }
      // Translators: a field of the board without a marker (read out by screen readers).
      const parts = [cell, owner ? MARKER_OF[owner] : gettext("neutral")];
      if (c) parts.push(fill(CHEVRON_OF[c.seat], { facing: FACING[c.facing] || c.facing, power: powers[cell] || 1 }));
      g.setAttribute("aria-label", parts.join(", "));
    }
    for (let i = 0; i <= 9; i += 3) {
      el("line", { x1: X0 + i * S, y1: Y0, x2: X0 + i * S, y2: Y0 + 9 * S, stroke: "#4b3f2a", "stroke-width": 3 }, svg);
      el("line", { x1: X0, y1: Y0 + i * S, x2: X0 + 9 * S, y2: Y0 + i * S, stroke: "#4b3f2a", "stroke-width": 3 }, svg);
    }
    for (let i = 0; i < 9; i++) {
      el("text", { x: X0 + i * S + S / 2, y: Y0 + 9 * S + 20, "text-anchor": "middle", "font-size": 15, fill: "#444" }, svg).textContent = FILES[i];
      el("text", { x: X0 / 2, y: Y0 + i * S + S / 2 + 5, "text-anchor": "middle", "font-size": 15, fill: "#444" }, svg).textContent = 9 - i;
    }
    fig.querySelector(".before-text").hidden = after;
    fig.querySelector(".after-text").hidden = !after;
    const status = fig.querySelector(".status");
    status.hidden = !after;
    status.textContent = after ? d.status : "";
    const button = fig.querySelector("button.play");
    button.textContent = "";
    if (after) button.textContent = gettext("Back to the position before");
    else {
      const code = document.createElement("code");
      code.textContent = d.move;
      // The move, in notation, stands inside the words as code.
      const words = gettext("Play the example %(move)s");
      for (const part of words.split(/(%\(move\)s)/)) if (part) button.append(part === "%(move)s" ? code : part);
    }
    fig.classList.toggle("played", after);
  }

  function setStage(fig, stage) {
    fig.dataset.stage = stage;
    draw(fig);
  }

  function clicked(fig, cell) {
    const d = DATA[fig.dataset.key];
    const stage = fig.dataset.stage;
    if (stage === "before" && cell === d.from) setStage(fig, d.to ? "selected" : "after");
    else if (stage === "selected" && cell === d.to) setStage(fig, "after");
    else if (stage === "selected") setStage(fig, "before");
  }

  for (const fig of document.querySelectorAll("figure.diagram")) {
    if (!DATA[fig.dataset.key]) continue;
    fig.dataset.stage = "before";
    fig.querySelector("svg").addEventListener("click", (ev) => {
      const g = ev.target.closest("[data-cell]");
      if (g) clicked(fig, g.dataset.cell);
    });
    fig.querySelector("button.play").addEventListener("click", () => {
      setStage(fig, fig.dataset.stage === "after" ? "before" : "after");
    });
    draw(fig);
  }
})();
