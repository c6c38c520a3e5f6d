"""The engine's English sentences are all known to games.engine_words, which says them in the
reader's language: every refusal (``engine.IllegalMove``) and every effect phrase the engine
actually produces, provoked by playing seeded random games of each game for 2, 3 and 4 players
and trying wrong moves, choices, reorientations and eliminations all along; in English each
comes back character for character; and every place in engine/ that raises ``IllegalMove`` (or
builds a sentence one raises) was provoked, so a new engine message without a pattern fails here.
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
from engine.explain import effects, without_move_echo
from engine.notation import HELP
from engine.pacru import PacruState
from engine.playout import random_step
from engine.state import State
from games import engine_words
from games.engine_words import recognises_effect, recognises_illegal, translate_effect, translate_illegal

ENGINE = Path(engine.__file__).resolve().parent
CELLS = [f + str(r) for r in range(1, 10) for f in "abcdefghi"]
NAMES = {1: "Alice", 2: "Bob", 3: "Carol", 4: "Dave"}
SEEDS = range(3)
#: Random positions played from, per game, player count and seed.
POSITIONS = 15
DIRECTIONS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]


# --------------------------------------------------------------------- provoking the engine
def _try(out: list[tuple[str, str]], action: Any, move: str = "") -> Any:
    """Run ``action``; keep the IllegalMove message (with the move it answered) if it raises."""
    try:
        return action()
    except engine.IllegalMove as exc:
        out.append((str(exc), move))
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


def _pacru_choices(state: PacruState, out: list[tuple[str, str]]) -> None:
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


def _probe(state: State, rng: random.Random, refusals: list[tuple[str, str]]) -> None:
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


Found = tuple[list[tuple[str, str]], list[str]]


def _play(state: State, rng: random.Random, plies: int, out: Found) -> None:
    """Random play from ``state`` (a resignation or timeout now and then), probing on the way."""
    refusals, phrases = out
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
        phrases.extend(effects(before, state, NAMES if rng.random() < 0.7 else {}))
    _probe(state, rng, refusals)


def _every_move(state: State, rng: random.Random, out: Found) -> None:
    """The effects of every legal move (a sample of them when there are many), and probes."""
    _probe(state, rng, out[0])
    moves = state.legal_moves() if not state.is_over else []
    for move in rng.sample(moves, min(len(moves), 150)):
        out[1].extend(effects(state, state.play(move), NAMES))


@cache
def provoked() -> Found:
    """Every refusal (message, move) and every effect phrase met in the seeded random games."""
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


def _by_shape(texts: Iterator[str] | list[str], per_shape: int = 3) -> list[str]:
    """A few texts of each shape (the same sentence but for its fields and numbers): the patterns
    read fields and numbers alike, and checking a hundred thousand texts would only be slow."""
    kept: dict[str, list[str]] = {}
    for text in sorted(set(texts)):
        shape = re.sub(r"\d+", "0", re.sub(r"[a-i][1-9]", "#", text))
        group = kept.setdefault(shape, [])
        if len(group) < per_shape:
            group.append(text)
    return sorted(t for group in kept.values() for t in group)


@cache
def refusal_texts() -> list[str]:
    """The messages, and what the service shows of each: the reason without the move."""
    out = []
    for message, move in provoked()[0]:
        out.append(message)
        if move:
            out.append(without_move_echo(message, move))
    return _by_shape(out)


@cache
def effect_phrases() -> list[str]:
    return _by_shape(provoked()[1])


# ------------------------------------------------------------------------------- the tests
def test_every_refusal_the_engine_makes_is_recognised() -> None:
    texts = refusal_texts()
    assert len(texts) > 500
    unknown = [t for t in texts if not recognises_illegal(t)]
    assert unknown == [], f"{len(unknown)} engine messages have no pattern, e.g. {unknown[:5]}"


def test_every_effect_phrase_the_engine_says_is_recognised() -> None:
    phrases = effect_phrases()
    assert len(phrases) > 200
    unknown = [p for p in phrases if not recognises_effect(p)]
    assert unknown == [], f"{len(unknown)} effect phrases have no pattern, e.g. {unknown[:5]}"


def test_in_english_every_sentence_comes_back_unchanged() -> None:
    with translation.override("en"):
        changed = [t for t in refusal_texts() if translate_illegal(t) != t]
        changed += [p for p in effect_phrases() if translate_effect(p) != p]
    assert changed == []


def test_an_unknown_sentence_is_left_in_english() -> None:
    with translation.override("fr"):
        assert translate_illegal("the moon is made of cheese") == "the moon is made of cheese"
        assert translate_effect("e1-e2: teleports") == "e1-e2: teleports"
        # An embedded sentence that is not known makes the whole one unknown.
        odd = "a3-b4: c5 is not a valid choice. choose wisely"
        assert not recognises_illegal(odd) and translate_illegal(odd) == odd


def test_the_words_inside_are_recognised_with_the_sentence() -> None:
    assert recognises_illegal("e1-e3: the chevron on e1 faces N and may move only NW, N, NE, not E")
    assert not recognises_illegal("e1-e3: the chevron on e1 faces UP and may move only NW, N, NE, not E")
    assert recognises_illegal("'zz' is not a move: " + HELP)
    assert not recognises_illegal("'zz' is not a move: write anything")
    assert recognises_effect("Bob's chevron is out") is True  # "<who> is out", the catch-all
    assert recognises_effect("seat 2 passes: no chevron can move")


# ------------------------------------------------------- every raise site in engine/ provoked
#: Sentences built in one place and raised from another: the functions that build them.
BUILDERS = {"explain_unlisted", "_effect_prompt"}
#: Raise sites whose message comes from a builder or a variable (checked through the builders).
INDIRECT = {"explain_unlisted(self, frm, to, text)", "explain_unlisted(self, parsed.frm, parsed.to, move)",
            "explain_unlisted(self, parsed.frm, parsed.to, text)", "prompt"}  # fmt: skip
#: Sentences the engine cannot reach (guards behind complete move generation).
UNREACHABLE = {
    "{text} is not a legal move",  # stepgames: a listed move with an unlisted twist
    "{head} {f}-{t} is not a legal move",  # explain_unlisted's last resort
}


Template = tuple[str, str, str]


def _template(node: ast.expr) -> Template | None:
    """The sentence an expression builds: its source, a regular expression for it (every
    interpolated value matches anything) and its longest fixed part; None for a variable or a
    call."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value, re.escape(node.value), node.value
    if isinstance(node, ast.JoinedStr):
        fixed = [str(v.value) for v in node.values if isinstance(v, ast.Constant)]
        pattern = "".join(
            re.escape(str(v.value)) if isinstance(v, ast.Constant) else ".*" for v in node.values
        )
        return ast.unparse(node)[2:-1], pattern, max(fixed, key=len, default="")
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left = _template(node.left)
        if left is not None:
            return left[0] + " + …", left[1] + ".*", left[2]
    return None


def engine_sentences() -> tuple[dict[str, Template], set[str]]:
    """The sentences engine/ raises as IllegalMove (by source), and the indirect sites."""
    sentences: dict[str, Template] = {}
    indirect: set[str] = set()
    for path in sorted(ENGINE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for func in ast.walk(tree):
            if not isinstance(func, ast.FunctionDef):
                continue
            for node in ast.walk(func):
                if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                    call = node.exc
                    if isinstance(call.func, ast.Name) and call.func.id == "IllegalMove":
                        built = _template(call.args[0])
                        if built is None:
                            indirect.add(ast.unparse(call.args[0]))
                        else:
                            sentences[built[0]] = built
                if func.name in BUILDERS and isinstance(node, ast.Return) and node.value is not None:
                    built = _template(node.value)
                    assert built is not None, ast.unparse(node)
                    sentences[built[0]] = built
                # The meeting's question, handed to PacruState._decide as its prompt.
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "_decide"
                    and len(node.args) == 4
                ):
                    built = _template(node.args[3])
                    if built is not None:
                        sentences[built[0]] = built
    return sentences, indirect


def test_every_place_the_engine_raises_is_known_and_was_provoked() -> None:
    sentences, indirect = engine_sentences()
    assert indirect == INDIRECT, "a new indirect IllegalMove: add its builder to BUILDERS"
    assert len(sentences) >= 40
    messages = refusal_texts()
    never = []
    for source, (_, pattern, fixed) in sentences.items():
        rx = re.compile(pattern, re.DOTALL)
        if not any(fixed in m and rx.fullmatch(m) for m in messages) and source not in UNREACHABLE:
            never.append(source)
    assert never == [], f"engine sentences never provoked (so not known to be recognised): {never}"


#: Patterns of sentences the engine has but cannot reach (see UNREACHABLE; and no game ends with
#: nobody left in, since the last player in wins).
NEVER_SAID = {
    "this is not a legal move",
    "(?P<move>[^:]+) is not a legal move",
    "(?P<frm>[a-i][1-9])-(?P<to>[a-i][1-9]) is not a legal move",
    "nobody is left: the game ends",
}


def test_every_pattern_is_used() -> None:
    """No dead pattern: each one recognises a sentence the engine says (or one said inside it)."""
    texts = refusal_texts()
    phrases = effect_phrases()
    unused = []
    for pattern, _ in (*engine_words._WHOLE, *engine_words._REASONS):
        if not any(pattern.search(t) for t in texts):
            unused.append(pattern.pattern)
    for pattern, _ in engine_words._EFFECTS:
        if not any(pattern.search(p) for p in phrases):
            unused.append(pattern.pattern)
    assert set(unused) == NEVER_SAID


@pytest.mark.parametrize("lang", ["en", "fr", "de", "es", "ru"])
def test_translating_never_fails_in_any_language(lang: str) -> None:
    with translation.override(lang):
        for text in refusal_texts()[:300]:
            assert translate_illegal(text)
        for phrase in effect_phrases()[:300]:
            assert translate_effect(phrase)
