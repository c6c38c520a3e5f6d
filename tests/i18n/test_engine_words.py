"""Every refusal and every effect of the engine carries a code its reader's language has a
message for: every refusal (``engine.IllegalMove``) and every effect the engine actually
produces, provoked by playing seeded random games of each game for 2, 3 and 4 players and trying
wrong moves, choices, reorientations and eliminations all along, has a code; every code has a
message (games.engine_words, games.engine_effects); in English each is said from its code and
params character for character as the engine says it; in every other language no English is
left; and every code the engine can raise was provoked.
"""

from __future__ import annotations

import ast
import random
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

import engine
from engine.board import CELL_INDEX, CELL_NAMES, RAYS
from engine.errors import REFUSAL_CODES
from engine.explain import EFFECT_CODES, Effect, described, without_move_echo
from engine.pacru import PacruState
from engine.playout import random_step
from engine.state import State
from games.engine_effects import EFFECTS, translate_effect
from games.engine_words import REFUSALS, translate_illegal

ENGINE = Path(engine.__file__).resolve().parent
CELLS = [f + str(r) for r in range(1, 10) for f in "abcdefghi"]
NAMES = {1: "Alice", 2: "Bob", 3: "Carol", 4: "Dave"}
SEEDS = range(3)
#: Random positions played from, per game, player count and seed.
POSITIONS = 15
DIRECTIONS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
LANGUAGES = ["es", "fr", "de", "ru"]
#: A refusal and the move it answered ("" when it answered no move).
Refusal = tuple[engine.IllegalMove, str]


# --------------------------------------------------------------------- provoking the engine
def _try(out: list[Refusal], action: Any, move: str = "") -> Any:
    """Run ``action``; keep the IllegalMove (with the move it answered) if it raises."""
    try:
        return action()
    except engine.IllegalMove as exc:
        out.append((exc, move))
    except ValueError:
        pass  # not a refusal of a move (a bad field name given to reorientations, …)
    return None


def _wrong_moves(state: State, rng: random.Random) -> Iterator[str]:
    """Texts to play in ``state``: mostly nearly right, some wrong in every way notation can be."""
    me = state.to_move
    mine = [CELL_NAMES[c] for c, _, _ in state.chevrons(me)] if not state.is_over else []
    sources = mine + [rng.choice(CELLS) for _ in range(3)]
    for _ in range(6):
        frm, to = rng.choice(sources), rng.choice(CELLS)
        tail = rng.choice(
            ["", "", "(*)", f"({rng.choice(CELLS)})", f"({rng.choice(CELLS)},*)", "^", "<", ">"]
        )
        yield f"{frm}{rng.choice('-x')}{to}{tail}"
    for frm in mine:
        # Along each of its rays: too far, onto colours, onto the first chevron and the second.
        for ray in rng.sample(RAYS[CELL_INDEX[frm]], 3):
            if ray:
                yield f"{frm}{rng.choice('-x')}{CELL_NAMES[rng.choice(ray)]}"
            standing = [c for c in ray if state.occ[c] >= 0][:2]
            yield from (f"{frm}x{CELL_NAMES[c]}" for c in standing)
    if mine:
        frm = rng.choice(mine)
        yield f"{frm}-{frm}"
        for turn in ("<", ">", "<<", ">>"):
            picked = rng.sample(CELLS, rng.choice([0, 1, 2, 4]))
            if rng.random() < 0.3 and picked:
                picked[0] = "*"
            if rng.random() < 0.3 and len(picked) > 1:
                picked[1] = picked[0]
            owned = [CELL_NAMES[c] for c, t in enumerate(state.tiles) if t == me]
            if owned and rng.random() < 0.5:
                picked = rng.sample(owned, min(len(owned), 2 * len(turn)))
            yield f"{frm}{turn}" + (f"({','.join(picked)})" if picked else "")
    yield f"{rng.choice(CELLS)}{rng.choice(['<', '>>'])}"
    for base in rng.sample(state.base_moves(), min(4, len(state.base_moves()))):
        yield base
        plain = base.rstrip("^<>")
        yield plain
        yield plain + rng.choice(["^", "<", ">", "(*)", f"({rng.choice(CELLS)})", "x"])
        yield plain + f"({rng.choice(CELLS)},{rng.choice(CELLS)})"
        yield plain.replace("-", "x")
    yield "pass"
    yield rng.choice(["", "   ", "e1-e2(zz)", "e1-e2(a:b)", "e1 - e2 (e2, z)", "hello", "x" * 60, "e0-e1"])


def _pacru_choices(state: PacruState, out: list[Refusal]) -> None:
    """Every open decision of every base move answered wrongly or not at all."""
    for base, entry in state.turn_options()["choices"].items():
        options = entry["effects"] or [None]
        for option in options:
            head = [] if option is None else [option]
            meetings = entry.get("meetings", {}).get(str(option), [])
            for tokens in ([], head, [*head, "a1"], ["a1"], [*head, *meetings[:1], "b2"]):
                move = base + (f"({','.join(tokens)})" if tokens else "")
                _try(out, lambda move=move: state.play(move), move)
            if len(meetings) > 1:
                move = base + f"({','.join(head)})" if head else base
                _try(out, lambda move=move: state.play(move), move)


def _probe(state: State, rng: random.Random, refusals: list[Refusal]) -> None:
    for move in _wrong_moves(state, rng):
        _try(refusals, lambda move=move: state.play(move), move)
        _try(refusals, lambda move=move: state.choices(move), move)
    _try(refusals, lambda: state.play(5))  # type: ignore[arg-type]
    _try(refusals, lambda: state.reorientations(rng.choice(CELLS)))
    for seat in range(0, state.players + 2):
        _try(refusals, lambda seat=seat: state.eliminate(seat, rng.choice(["resign", "timeout"])))
    if isinstance(state, PacruState) and not state.is_over:
        _pacru_choices(state, refusals)


def _tiles(painted: dict[str, str]) -> str:
    """The RULES §9 ``tiles`` string (rank 9 first) of ``{cell: seat}``."""
    return "".join(painted.get(f + str(r), "-") for r in range(9, 0, -1) for f in "abcdefghi")


def land(centre: str) -> list[str]:
    """The nine fields of the borderland named by its centre field."""
    f, r = "abcdefghi".index(centre[0]), int(centre[1])
    return [("abcdefghi"[x]) + str(y) for y in range(r - 1, r + 2) for x in range(f - 1, f + 2)]


def random_position(game: str, players: int, rng: random.Random) -> State | None:
    """A random position: fields painted at random (sparse to nearly full; sometimes the player
    on turn a few markers short of the Pacru target), a random few chevrons per seat anywhere,
    facing anywhere, now and then two of one seat facing each other over a field (a meeting);
    None when the engine will not load it. Random play from the start alone rarely reaches a
    full borderland, a meeting, a pincer on a last chevron or the marker target; these do."""
    density = rng.choice([0.1, 0.4, 0.7, 0.95])
    seats = "1234"[:players]
    to_move = rng.choice(seats)
    painted = {cell: rng.choice(seats) for cell in CELLS if rng.random() < density}
    target = engine.variant(game).target(players)
    if target is not None and rng.random() < 0.3:
        want = target - rng.randint(1, 3)
        others = [c for c in rng.sample(CELLS, len(CELLS)) if painted.get(c) != to_move]
        mine = [c for c in CELLS if painted.get(c) == to_move]
        for cell in mine[want:]:
            del painted[cell]
        for cell in others[: max(0, want - len(mine))]:
            painted[cell] = to_move
    free = rng.sample(CELLS, len(CELLS))
    chevrons = []
    for seat in seats:
        for _ in range(rng.choice([1, 1, 2, 3])):
            chevrons.append(f"{free.pop()}:{seat}:{rng.choice(DIRECTIONS)}")
    if rng.random() < 0.3:
        # A meeting: a chevron of the player on turn steps onto a field of its colour, facing
        # another of its chevrons that faces it, on its colour too.
        d = rng.randrange(8)
        for start in rng.sample(CELLS, len(CELLS)):
            ray = RAYS[CELL_INDEX[start]][d]
            if len(ray) >= 2 and all(CELL_NAMES[c] in free for c in (CELL_INDEX[start], *ray[:2])):
                middle, partner = CELL_NAMES[ray[0]], CELL_NAMES[ray[1]]
                chevrons.append(f"{start}:{to_move}:{DIRECTIONS[d]}")
                chevrons.append(f"{partner}:{to_move}:{DIRECTIONS[(d + 4) % 8]}")
                painted.update({start: to_move, middle: to_move, partner: to_move})
                break
    doc: dict[str, Any] = {
        "game": game,
        "players": players,
        "to_move": int(to_move),
        "tiles": _tiles(painted),
        "chevrons": chevrons,
        "ply": rng.choice([0, 30, 900]),
        "ply_limit": 1000,
    }
    try:
        return engine.load(doc)
    except engine.InvalidPosition:
        return None


#: Positions random play hardly reaches.
SETUPS = [
    # An Azacru connection over three other colours: the chevron leaves the board.
    {
        "game": "azacru",
        "players": 4,
        "to_move": 1,
        "tiles": _tiles(
            {
                **dict.fromkeys(["a1", "a2", "b2", "c2", "a3", "b3", "c3", "e1"], "1"),
                "b1": "2",
                "c1": "3",
                "d1": "4",
            }
        ),
        "chevrons": ["a1:1:E", "i9:2:S", "a9:3:E", "i5:4:W"],
    },
    # A Pacru crossing into a borderland all of the mover's colour: nothing to change.
    {
        "game": "pacru",
        "players": 2,
        "to_move": 1,
        "tiles": _tiles(dict.fromkeys(land("e5"), "1")),
        "chevrons": ["c3:1:NE", "a9:2:E"],
    },
    # A Pacru pincer that takes the last marker of the supply: the border marker after it is short.
    {
        "game": "pacru",
        "players": 2,
        "to_move": 1,
        "tiles": _tiles(dict.fromkeys([c for c in CELLS if c not in land("e5")][:41], "1")),
        "chevrons": ["c5:1:E", "d4:1:N", "d5:2:S", "a9:2:E"],
    },
    # A Pacru pincer on a player's last chevron.
    {
        "game": "pacru",
        "players": 2,
        "to_move": 1,
        "tiles": "-" * 81,
        "chevrons": ["e4:1:N", "d5:1:E", "e5:2:S"],
    },
]


#: The refusals met, and the effects with the names they were said with.
Found = tuple[list[Refusal], list[tuple[Effect, dict[int, str]]]]


def _said(before: State, after: State, rng: random.Random, out: Found) -> None:
    names = NAMES if rng.random() < 0.7 else {}
    out[1].extend((effect, names) for effect in described(before, after, names))


def _play(state: State, rng: random.Random, plies: int, out: Found) -> None:
    """Random play from ``state`` (a resignation or timeout now and then), probing on the way."""
    refusals = out[0]
    for _ in range(plies):
        if state.is_over:
            break
        if rng.random() < 0.1:
            _probe(state, rng, refusals)
        before = state
        if rng.random() < 0.01:
            state = state.eliminate(rng.choice(state.active_seats), rng.choice(["resign", "timeout"]))
        else:
            state, _ = random_step(state, rng, reorient_rate=0.05)
        _said(before, state, rng, out)
    _probe(state, rng, refusals)


def _every_move(state: State, rng: random.Random, out: Found) -> None:
    """The effects of every legal move (a sample of them when there are many), and probes."""
    _probe(state, rng, out[0])
    moves = state.legal_moves() if not state.is_over else []
    for move in rng.sample(moves, min(len(moves), 150)):
        out[1].extend((effect, NAMES) for effect in described(state, state.play(move), NAMES))


@cache
def provoked() -> Found:
    """Every refusal (with its move) and every effect met in the seeded random games."""
    out: Found = ([], [])
    for seed in SEEDS:
        rng = random.Random(seed)
        for game in engine.GAMES:
            for players in (2, 3, 4):
                state = engine.new_game(game, players, ply_limit=rng.choice([40, 120, 1000]))
                _play(state, rng, 2000, out)
                for _ in range(POSITIONS):
                    position = random_position(game, players, rng)
                    if position is not None:
                        _every_move(position, rng, out)
                        _play(position, rng, 30, out)
        for doc in SETUPS:
            _every_move(engine.load(doc), rng, out)
    return out


def _shape(text: str) -> str:
    """The same sentence but for its fields and numbers."""
    return re.sub(r"\d+", "0", re.sub(r"[a-i][1-9]", "#", text))


@cache
def refusals() -> list[Refusal]:
    """A few refusals of each code and shape: checking a hundred thousand would only be slow."""
    kept: dict[tuple[str, str], list[Refusal]] = {}
    for exc, move in provoked()[0]:
        group = kept.setdefault((exc.code, _shape(str(exc))), [])
        if len(group) < 3 and all(str(exc) != str(e) for e, _ in group):
            group.append((exc, move))
    return [r for group in kept.values() for r in group]


@cache
def effects() -> list[tuple[Effect, dict[int, str]]]:
    kept: dict[tuple[str, str], list[tuple[Effect, dict[int, str]]]] = {}
    for effect, names in provoked()[1]:
        group = kept.setdefault((effect.code, _shape(effect.text)), [])
        if len(group) < 3 and all(effect.text != e.text for e, _ in group):
            group.append((effect, names))
    return [e for group in kept.values() for e in group]


def english_runs(text: str) -> set[str]:
    """The runs of three English words in a row in ``text`` (no field, number or notation between
    them), which a translation should not keep."""
    runs = set()
    for stretch in re.findall(r"[A-Za-z']+(?: [A-Za-z']+)+", text):
        words = [w for w in stretch.split() if not re.fullmatch(r"[a-i][1-9]?|[NESW]{1,2}", w)]
        runs |= {" ".join(words[i : i + 3]) for i in range(len(words) - 2)}
    return runs


def english_left(english: str, translated: str, names: dict[int, str]) -> set[str]:
    """The English of ``english`` still in ``translated`` (players' names aside)."""
    for name in names.values():
        english = english.replace(name, "")
        translated = translated.replace(name, "")
    return {run for run in english_runs(english) if run in translated}


# ------------------------------------------------------------------------------- the tests
def test_every_code_the_engine_can_raise_has_a_message() -> None:
    assert set(REFUSALS) == REFUSAL_CODES
    assert set(EFFECTS) == EFFECT_CODES


def test_every_provoked_refusal_and_effect_has_a_known_code() -> None:
    assert len(refusals()) > 300 and len(effects()) > 200
    assert {exc.code for exc, _ in refusals()} <= REFUSAL_CODES
    assert {effect.code for effect, _ in effects()} <= EFFECT_CODES
    for exc, _ in refusals():
        assert all(isinstance(v, str | int | bool | list | type(None)) for v in exc.params.values()), (
            exc.params
        )


def test_in_english_every_refusal_is_said_from_its_code_as_the_engine_says_it() -> None:
    with translation.override("en"):
        wrong = [
            (str(exc), translate_illegal(exc)) for exc, _ in refusals() if translate_illegal(exc) != str(exc)
        ]
        short = []
        for exc, move in refusals():
            echo_cut = without_move_echo(str(exc), move) if move else str(exc)
            if echo_cut != str(exc) and translate_illegal(exc, echo=False) != echo_cut:
                short.append((echo_cut, translate_illegal(exc, echo=False)))
    assert wrong == [], f"{len(wrong)} refusals said otherwise, e.g. {wrong[:3]}"
    assert short == [], f"{len(short)} reasons said otherwise, e.g. {short[:3]}"


def test_in_english_every_effect_is_said_from_its_code_as_the_engine_says_it() -> None:
    with translation.override("en"):
        wrong = [
            (e.text, translate_effect(e, names))
            for e, names in effects()
            if translate_effect(e, names) != e.text
        ]
    assert wrong == [], f"{len(wrong)} effects said otherwise, e.g. {wrong[:3]}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_refusal_is_translated_with_no_english_left(lang: str) -> None:
    left = []
    for exc, _ in refusals():
        for echo in (True, False):
            with translation.override("en"):
                english = translate_illegal(exc, echo=echo)
            with translation.override(lang):
                said = translate_illegal(exc, echo=echo)
            if said == english or english_left(english, said, {}):
                left.append((exc.code, said, english_left(english, said, {})))
    assert left == [], f"{len(left)} refusals keep English in {lang}, e.g. {left[:3]}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_effect_is_translated_with_no_english_left(lang: str) -> None:
    left = []
    for effect, names in effects():
        with translation.override(lang):
            said = translate_effect(effect, names)
        if said == effect.text or english_left(effect.text, said, names):
            left.append((effect.code, said, english_left(effect.text, said, names)))
    assert left == [], f"{len(left)} effects keep English in {lang}, e.g. {left[:3]}"


def test_a_seat_without_a_name_is_said_in_the_language() -> None:
    state = engine.new_game("pacru", 3)
    after = state.eliminate(2, "resign")
    (effect,) = described(state, after)
    assert (effect.code, effect.params) == ("out_resigned", {"seat": 2})
    with translation.override("fr"):
        assert translate_effect(effect, {}) == translate_effect(effect, {1: "Alice"})
        assert "Bob" in translate_effect(effect, {2: "Bob"}) and "2" in translate_effect(effect, {})
    assert translate_effect(effect, {2: "Bob"}) == "Bob resigns and is out; the markers stay on the board"


def test_a_refusal_carries_its_params_as_plain_values() -> None:
    with pytest.raises(engine.IllegalMove) as err:
        engine.new_game("pacru", 2).play("e1-e5")
    assert err.value.code == "power_too_low"
    assert err.value.params == {"move": "e1-e5", "field": "e1", "power": 1, "distance": 4}
    with translation.override("fr"):
        said = translate_illegal(err.value, echo=False)
    assert said.startswith("la ") or "e1" in said
    assert "e1-e5" not in said and "power" not in said


# ------------------------------------------------------- every raise site in engine/ provoked
#: Codes the engine cannot reach (guards behind complete move generation; and no game ends with
#: nobody left in, since the last player in wins; every way out has its own code).
UNREACHABLE = {"unlisted_twist", "not_legal", "nobody_left", "out"}


def _code_literals(code: ast.expr, where: str) -> set[str]:
    """The code a call passes: a literal, either literal of a conditional, or a variable (whose
    value is a literal elsewhere: none then)."""
    options = [code.body, code.orelse] if isinstance(code, ast.IfExp) else [code]
    found = set()
    for option in options:
        if isinstance(option, ast.Constant) and isinstance(option.value, str):
            found.add(option.value)
        else:
            assert isinstance(option, ast.Name), f"{where}: {ast.unparse(code)}"
    return found


def _literal_codes(constructors: dict[str, int], tables: frozenset[str] = frozenset()) -> set[str]:
    """The codes engine/ passes to one of ``constructors`` (``IllegalMove`` and explain_unlisted's
    ``no``, or ``Effect``; by the index of the code among their arguments), and those of
    ``tables`` it keeps as the first of a pair (code, words)."""
    codes: set[str] = set()
    for path in sorted(ENGINE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            where = f"{path.name}:{getattr(node, 'lineno', 0)}"
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in constructors
            ):
                index = constructors[node.func.id]
                assert len(node.args) > index, f"{where}: {node.func.id} without a code"
                codes |= _code_literals(node.args[index], where)
            if isinstance(node, ast.Tuple) and len(node.elts) == 2:
                first = node.elts[0]
                if isinstance(first, ast.Constant) and first.value in tables:
                    codes.add(first.value)
    return codes


def test_every_code_in_the_source_is_listed_and_every_listed_code_is_raised() -> None:
    assert _literal_codes({"IllegalMove": 1, "no": 1}) == REFUSAL_CODES
    assert _literal_codes({"Effect": 0}, EFFECT_CODES) == EFFECT_CODES


def test_every_code_was_provoked() -> None:
    met = {exc.code for exc, _ in refusals()} | {effect.code for effect, _ in effects()}
    assert (REFUSAL_CODES | EFFECT_CODES) - met == UNREACHABLE


def test_the_codes_are_documented() -> None:
    doc = (ENGINE.parent / "docs" / "engine-refusals.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `([a-z_]+)` \|", doc, re.MULTILINE))
    assert listed == REFUSAL_CODES | EFFECT_CODES
