// The first-game coach: a panel that walks a newcomer through their first Pacru moves on a
// walkthrough table (/tables/<id>/?coach=1, opened by /learn/). It never drives the game: it
// watches what game.js shows (#prompt with its data-stage and data-from, #movelist, the board)
// and steps on the player's own actions, whatever the page's language: a step that asks for
// something (pick a chevron, its destination, a field, Confirm) has no Next and moves on when the
// player does it (and back, when they cancel); only the steps that just explain have Next. It
// marks cells on the board with a class of its own.
//
// It stays in view: beside the board under the prompt on a wide screen; on a narrow one docked
// at the bottom of the window, the page scrolled at each step so that what the step asks the
// player to tap is above it.
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
  const cellOf = (cell) => cell && $("board") && $("board").querySelector(`[data-cell="${cell}"]`);
  const all = (selector) => Array.from(document.querySelectorAll(selector));
  const prompt = () => $("prompt").dataset;

  // The steps, in order. `explain`: a step that only explains (it has Next); the others wait for
  // the player. `focus`: what must be in view while the step is shown.
  const STEPS = [
    {
      id: "board",
      explain: true,
      title: () => gettext("The board"),
      body: () => para(gettext("The 9 × 9 board is cut by the thick lines into nine <strong>borderlands</strong> of 3 × 3 fields. Your chevrons are the <strong>red</strong> arrows with a round dot; the bot's are black with a square. Your home edge is at the bottom."))
        + para(gettext("Each chevron points one way, its <strong>facing</strong>: it moves straight ahead or one step to either side of that, never backwards.")),
      focus: () => [$("board")],
    },
    {
      id: "pick",
      title: () => gettext("Pick a chevron"),
      body: () => para(suggestion
        ? fill(gettext("Click one of your chevrons. Try the one on <strong>%(from)s</strong>, ringed in orange."), { from: suggestion.from })
        : gettext("Click one of your chevrons.")),
      focus: () => [suggestion ? cellOf(suggestion.from) : $("board")],
    },
    {
      id: "dest",
      title: () => gettext("Choose where it goes"),
      body: () => para(suggestion && prompt().from === suggestion.from
        ? fill(gettext("The <strong>green dots</strong> are where it can go. Click the one on <strong>%(to)s</strong>, ringed in orange."), { to: suggestion.to })
        : gettext("The <strong>green dots</strong> are where it can go: click one. (Click another chevron of yours to change your mind.)")),
      focus: () => {
        const ringed = suggestion && prompt().from === suggestion.from && cellOf(suggestion.to);
        return ringed ? [cellOf(prompt().from), ringed] : [$("board")];
      },
    },
    {
      id: "border",
      title: () => gettext("Crossing into a borderland"),
      body: () => para(gettext("This move takes your chevron into another <strong>borderland</strong>. Crossing a border earns you a <strong>marker</strong> on a free field of the borderland you entered."))
        + para(gettext("The <strong>purple squares</strong> are the fields you may choose: click one.")),
      focus: () => {
        const choices = all("#board .choice").map((c) => c.closest("[data-cell]"));
        return choices.length ? choices.concat([$("prompt")]) : [$("board")];
      },
    },
    {
      id: "confirm",
      title: () => gettext("Confirm the move"),
      body: () => para(gettext("The move is ready: the prompt shows it in notation. Press <strong>Confirm</strong> to play it (or Cancel to think again).")),
      focus: () => [$("prompt"), $("confirm")],
    },
    {
      id: "answer",
      title: () => gettext("The bot's turn"),
      body: () => para(gettext("Your move is played: it is in the list of moves. Now the bot answers; its move is marked on the board.")),
      focus: () => [$("board")],
    },
    {
      id: "power",
      explain: true,
      title: () => gettext("Power and markers"),
      body: () => para(gettext("The bot has answered: its move is in the list of moves and marked on the board."))
        + para(gettext("The number in a chevron's corner is its <strong>power</strong>: how many fields it may go. It is the number of its owner's markers in the borderland it stands in, and at least 1. So every marker you place makes your chevrons in that block stronger.")),
      focus: () => [$("board")],
    },
    {
      id: "more",
      explain: true,
      title: () => gettext("More to discover"),
      body: () => "<ul><li>"
        + gettext("<strong>Pincers</strong>: when two of your chevrons both attack an enemy chevron, either may capture it.")
        + "</li><li>"
        + gettext("<strong>Connection changes</strong>: a move from your colour to your colour colours every field in between.")
        + "</li><li>"
        + gettext("<strong>Reorientation</strong>: instead of moving, turn a chevron in place by paying markers (click it, then a ↻ field beside it).")
        + "</li></ul>"
        + para(fill(gettext("Each is explained with examples in the <a href=\"%(url)s\">Pacru rules</a>."), { url: RULES })),
    },
    {
      id: "win",
      explain: true,
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
  // The prompt's stage (game.js) while a move is built, and the step that asks for it.
  const STAGE_STEP = { idle: "pick", dest: "dest", effect: "border", meeting: "border", twist: "border", confirm: "confirm" };

  let step = 0;
  let suggestion = null; // {from, to}: a first move worth trying, from the table's legal moves
  let moves = null; // entries in #movelist when game.js first showed the table
  const narrow = window.matchMedia("(max-width: 52rem)");

  // Wide: under the prompt and its buttons, beside the board. Narrow: docked at the bottom of the
  // window, with room kept under the page so that everything can be scrolled above it.
  function place() {
    const docked = narrow.matches;
    panel.classList.toggle("coach-docked", docked);
    if (!docked && $("actions") && $("actions").parentElement === $("side")) $("actions").after(panel);
    pad();
  }
  function dockHeight() {
    return !panel.hidden && panel.classList.contains("coach-docked") ? panel.offsetHeight : 0;
  }
  function pad() {
    document.body.style.paddingBottom = dockHeight() ? `${dockHeight() + 8}px` : "";
  }

  // Scroll so that the step's fields and buttons are in the window, above a docked panel; on a
  // wide screen, the panel too.
  function reveal() {
    const focus = (STEPS[step].focus ? STEPS[step].focus() : []).filter(Boolean);
    const boxes = focus.map((e) => e.getBoundingClientRect()).filter((r) => r.height > 0);
    if (!dockHeight()) boxes.push(panel.getBoundingClientRect());
    if (!boxes.length) return;
    const top = Math.min(...boxes.map((r) => r.top)), bottom = Math.max(...boxes.map((r) => r.bottom));
    const limit = window.innerHeight - dockHeight(), margin = 6;
    let dy = 0;
    if (bottom + margin > limit) dy = bottom + margin - limit;
    if (top - dy - margin < 0) dy = top - margin; // too tall for the window: its top first
    if (Math.abs(dy) >= 1) window.scrollBy({ top: dy, left: 0, behavior: "instant" });
  }

  function show() {
    const s = STEPS[step];
    $("coach-count").textContent = fill(gettext("Coach · step %(n)s of %(total)s"), { n: step + 1, total: STEPS.length });
    $("coach-h").textContent = s.title();
    $("coach-body").innerHTML = s.body();
    panel.dataset.step = s.id;
    $("coach-next").hidden = !s.explain;
    $("coach-wait").hidden = !!(s.explain || s.last);
    $("coach-skip").hidden = !!s.last;
    $("coach-close").hidden = !s.last;
    mark();
    pad();
    reveal();
  }

  function go(id) {
    const i = typeof id === "number" ? id : index(id);
    if (i < 0 || i >= STEPS.length || i === step) return;
    step = i;
    show();
  }

  // Ring the suggested chevron (and, once it is picked, its suggested destination). game.js redraws
  // the board from scratch, so this runs again after every redraw.
  function mark() {
    const board = $("board");
    if (!board) return;
    board.querySelectorAll(".coach-suggest").forEach((g) => g.classList.remove("coach-suggest"));
    if (!suggestion || panel.hidden) return;
    const id = STEPS[step].id, stage = prompt().stage;
    let cell = null;
    if ((id === "board" || id === "pick") && stage === "idle") cell = suggestion.from;
    else if (id === "dest" && stage === "dest" && prompt().from === suggestion.from) cell = suggestion.to;
    const g = cellOf(cell);
    if (g) g.classList.add("coach-suggest");
  }

  // The step the game asks for now: after our move, the bot's answer; after that, power and
  // markers; while our move is built, the step of the prompt's stage.
  function wanted() {
    const count = $("movelist").querySelectorAll("li").length;
    if (moves === null) {
      if (!prompt().stage && !count) return -1; // the table is not shown yet
      moves = count;
    }
    if (count >= moves + 2) return index("power");
    if (count >= moves + 1) return index("answer");
    const id = STAGE_STEP[prompt().stage];
    return id ? index(id) : -1;
  }

  // Follow the real game: on when the player did what the step asks (even ahead of it), back when
  // they cancelled part of the move; the board step waits for Next until a chevron is picked.
  function follow() {
    const want = wanted();
    const building = step >= index("pick") && step <= index("confirm");
    if (want > step && !(step === index("board") && want === index("pick"))) go(want);
    else if (building && want >= index("pick") && want < step) go(want);
    else mark();
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
      if (step <= index("dest")) show();
    } catch (e) {
      /* no suggestion: the step's words still work without one */
    }
  }

  $("coach-next").addEventListener("click", () => {
    go(step + 1);
    follow(); // the player may already have done what the next step asks
  });
  $("coach-skip").addEventListener("click", () => go(STEPS.length - 1));
  $("coach-close").addEventListener("click", () => {
    panel.hidden = true;
    pad();
    mark();
  });

  const watch = new MutationObserver(follow);
  watch.observe($("movelist"), { childList: true });
  watch.observe($("prompt"), { attributes: true, attributeFilter: ["data-stage", "data-from"] });
  const board = $("board");
  if (board) new MutationObserver(mark).observe(board, { childList: true });
  if (narrow.addEventListener) narrow.addEventListener("change", () => requestAnimationFrame(place));
  if (window.ResizeObserver) new ResizeObserver(pad).observe(panel);

  panel.hidden = false;
  place();
  show();
  suggest();
  follow();
})();
