// The first-game coach: a panel that walks a newcomer through their first Pacru moves on a
// walkthrough table (/tables/<id>/?coach=1, opened by /learn/). It never drives the game: it
// watches what game.js shows (#prompt with its data-stage, #options, #movelist, #status, the
// board) and moves on when the real game does, whatever the page's language. It only marks cells
// on the board with a class of its own.
(function () {
  "use strict";
  if (new URLSearchParams(location.search).get("coach") !== "1") return;
  const panel = document.getElementById("coach");
  const bootEl = document.getElementById("boot");
  if (!panel || !bootEl) return;
  const boot = JSON.parse(bootEl.textContent);
  if (!boot.mySeat) return;

  // Translations: Django's JavaScript catalogue (/jsi18n/, loaded before this script) defines
  // these globals; without it the coach still works, in English. The steps' words are HTML.
  const gettext = window.gettext || ((s) => s);
  const interpolate = window.interpolate || ((fmt, obj, named) => (named
    ? fmt.replace(/%\(\w+\)s/g, (m) => String(obj[m.slice(2, -2)]))
    : fmt.replace(/%s/g, () => String(obj.shift()))));
  const fill = (fmt, values) => interpolate(fmt, values, true);
  const para = (html) => `<p>${html}</p>`;

  const $ = (id) => document.getElementById(id);
  const RULES = "/rules/pacru/";

  // The steps, in order. `hint` says which cell the board should mark while the step is shown.
  const STEPS = [
    {
      id: "board",
      title: () => gettext("The board"),
      body: () => para(gettext("The 9 × 9 board is cut by the thick lines into nine <strong>borderlands</strong> of 3 × 3 fields. Your chevrons are the <strong>red</strong> arrows with a round dot; the bot's are black with a square. The board is turned so that your home edge is at the bottom."))
        + para(gettext("Each chevron points one way, its <strong>facing</strong>: it moves straight ahead or one step to either side of that, never backwards.")),
      hint: "from",
    },
    {
      id: "pick",
      title: () => gettext("Pick a chevron"),
      body: () => para(suggestion
        ? fill(gettext("Click one of your chevrons: the <strong>green dots</strong> are where it can go. Try the one on <strong>%(from)s</strong> (ringed in orange), then the dot on <strong>%(to)s</strong>."), { from: suggestion.from, to: suggestion.to })
        : gettext("Click one of your chevrons: the <strong>green dots</strong> are where it can go. Then click a dot.")),
      hint: "auto",
    },
    {
      id: "border",
      title: () => gettext("Crossing into a borderland"),
      body: () => para(gettext("This move takes your chevron into another <strong>borderland</strong>. Crossing a border earns you a <strong>marker</strong>: you put one of your markers on a free neutral field of the borderland you entered."))
        + para(gettext("The purple squares are the fields you may choose: click one.")),
    },
    {
      id: "confirm",
      title: () => gettext("Confirm the move"),
      body: () => para(gettext("The move is ready: the prompt shows it in notation. Press <strong>Confirm</strong> to play it (or Cancel to think again). Then the bot answers.")),
    },
    {
      id: "power",
      title: () => gettext("Power and markers"),
      body: () => para(gettext("The bot has answered: its move is in the list of moves and marked on the board."))
        + para(gettext("The number in a chevron's corner is its <strong>power</strong>: how many fields it may go. It is the number of its owner's markers in the borderland it stands in, and at least 1. So every marker you place makes your chevrons in that block stronger.")),
    },
    {
      id: "more",
      title: () => gettext("More to discover"),
      body: () => "<ul><li>"
        + gettext("<strong>Pincers</strong>: when two of your chevrons both attack an enemy chevron, either may capture it.")
        + "</li><li>"
        + gettext("<strong>Connection changes</strong>: a move from your colour to your colour colours every field in between.")
        + "</li><li>"
        + gettext("<strong>Reorientation</strong>: instead of moving, turn a chevron in place by paying markers (click it twice).")
        + "</li></ul>"
        + para(fill(gettext("Each is explained with examples in the <a href=\"%(url)s\">Pacru rules</a>."), { url: RULES })),
    },
    {
      id: "win",
      title: () => gettext("How the game is won"),
      body: () => para(gettext("Two players each have a supply of <strong>42 markers</strong>. You win when your turn ends with all of yours on the board, or when the bot has no chevron left."))
        + para(gettext("Your marker count is shown by your name beside the board.")),
    },
    {
      id: "done",
      title: () => gettext("You're on your own now"),
      body: () => para(fill(gettext("That is all you need to play on. Have fun, and keep the <a href=\"%(url)s\">rules</a> at hand for the details."), { url: RULES })),
      last: true,
    },
  ];
  const index = (id) => STEPS.findIndex((s) => s.id === id);

  let step = 0;
  let suggestion = null; // {from, to}: a first move worth trying, from the table's legal moves
  let moves = 0; // entries in #movelist

  function place() {
    // Under the side column on wide screens; under the board's bottom strip on narrow ones, so it
    // never sits over the prompt or the Confirm button.
    const narrow = window.matchMedia("(max-width: 52rem)").matches;
    const target = narrow ? $("strip-bottom") : $("side");
    if (!target) return;
    if (narrow && panel.previousElementSibling !== target) target.after(panel);
    if (!narrow && panel.parentElement !== target) target.appendChild(panel);
  }

  function show() {
    const s = STEPS[step];
    $("coach-count").textContent = fill(gettext("Coach · step %(n)s of %(total)s"), { n: step + 1, total: STEPS.length });
    $("coach-h").textContent = s.title();
    $("coach-body").innerHTML = s.body();
    panel.dataset.step = s.id;
    $("coach-next").hidden = !!s.last;
    $("coach-skip").hidden = !!s.last;
    $("coach-close").hidden = !s.last;
    mark();
  }

  function go(id) {
    const i = typeof id === "number" ? id : index(id);
    if (i <= step || i >= STEPS.length) return;
    step = i;
    show();
  }

  // Ring the suggested chevron (and, once it is picked, its suggested destination). game.js redraws
  // the board from scratch, so this runs again after every redraw.
  function mark() {
    const board = $("board");
    if (!board) return;
    board.querySelectorAll(".coach-suggest").forEach((g) => g.classList.remove("coach-suggest"));
    if (!suggestion) return;
    const id = STEPS[step].id;
    let cell = null;
    if (id === "board" || id === "pick") {
      // game.js says on the prompt which step of a move it asks for (data-stage, data-from).
      const prompt = $("prompt").dataset;
      if (prompt.stage === "idle") cell = suggestion.from;
      else if (prompt.stage === "dest") cell = prompt.from === suggestion.from ? suggestion.to : suggestion.from;
    }
    const g = cell && board.querySelector(`[data-cell="${cell}"]`);
    if (g) g.classList.add("coach-suggest");
  }

  // Follow the real game.
  function follow() {
    const stage = $("prompt").dataset.stage;
    const count = $("movelist").querySelectorAll("li").length;
    const id = STEPS[step].id;
    // Our move and the bot's answer are both in the list: on to power and markers.
    if (count >= moves + 2) go("power");
    if (index(id) <= index("confirm")) {
      if ($("confirm")) go("confirm");
      else if (stage === "effect" || stage === "twist") go("border");
      else if (stage === "dest") go("pick");
    }
    mark();
  }

  async function suggest() {
    try {
      const r = await fetch(boot.api, { credentials: "same-origin", headers: { Accept: "application/json" } });
      if (!r.ok) return;
      const t = await r.json();
      const legal = (t.base_moves || []).filter((m) => m !== "pass" && m[2] === "-");
      // Prefer a move that crosses into another borderland: it shows the marker step.
      const crossing = legal.filter((m) => t.choices && t.choices[m] && (t.choices[m].effects || []).length);
      const m = crossing[0] || legal[0];
      if (m) suggestion = { from: m.slice(0, 2), to: m.slice(3, 5) };
      if (STEPS[step].id === "board" || STEPS[step].id === "pick") show();
    } catch (e) {
      /* no suggestion: the step's words still work without one */
    }
  }

  $("coach-next").addEventListener("click", () => go(step + 1));
  $("coach-skip").addEventListener("click", () => go(STEPS.length - 1));
  $("coach-close").addEventListener("click", () => {
    panel.hidden = true;
    suggestion = null;
    mark();
  });

  const watch = new MutationObserver(follow);
  for (const id of ["movelist", "prompt", "status", "options"]) {
    const node = $(id);
    if (node) watch.observe(node, { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ["data-stage", "data-from"] });
  }
  const board = $("board");
  if (board) new MutationObserver(mark).observe(board, { childList: true });
  window.addEventListener("resize", place);

  moves = $("movelist") ? $("movelist").querySelectorAll("li").length : 0;
  place();
  panel.hidden = false;
  show();
  suggest();
  follow();
})();
