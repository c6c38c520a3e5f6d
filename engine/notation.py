"""Move notation (RULES §8): turning text into a structured move and back.

Parsing here is purely syntactic; whether a move is legal is decided by the
state. The parser is lenient: case and white space do not matter.

>>> parse("G9-E7 (*)")
Parsed(kind='move', frm=78, to=58, capture=False, tokens=('*',), twist=None, turn=0)
>>> parse("e5<<(a1, b2,c3,d4)").turn
-2
>>> parse("pass").kind
'pass'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .board import CELL_INDEX, CELL_NAMES
from .errors import IllegalMove

_MOVE = re.compile(r"^([a-i][1-9])([-x])([a-i][1-9])(?:\(([^()]*)\))?([\^<>])?$")
_REORIENT = re.compile(r"^([a-i][1-9])(<<|>>|<|>)(?:\(([^()]*)\))?$")
_TURNS = {"<": -1, "<<": -2, ">": 1, ">>": 2}
TURN_SYMBOLS = {-1: "<", -2: "<<", 1: ">", 2: ">>"}
#: Twist suffixes for Shacru and Azacru: keep, 45° counter-clockwise, clockwise.
TWIST_SYMBOLS = {0: "^", -1: "<", 1: ">"}
_TWISTS = {"^": 0, "<": -1, ">": 1}

HELP = (
    "write F-T (e.g. e1-e2), FxT for a pincer, effects in parentheses "
    "(e.g. g9-e7(*) or e1-e2(e2)), F< F> F<< F>> with the removed markers to "
    "reorient (e.g. e5<(a1,b2)), a twist ^ < > after a border crossing in "
    "Shacru and Azacru, or pass"
)


@dataclass(frozen=True)
class Parsed:
    """A syntactically valid move: a chevron move, a reorientation or a pass."""

    kind: str  # "move", "reorient" or "pass"
    frm: int = -1
    to: int = -1
    capture: bool = False
    tokens: tuple[str, ...] = ()
    twist: int | None = None
    turn: int = 0


def parse(text: str) -> Parsed:
    """Parse move text; raise :class:`IllegalMove` if it is not notation at all."""
    if not isinstance(text, str):
        raise IllegalMove(
            f"a move must be text, not {type(text).__name__}", "not_text", {"type": type(text).__name__}
        )
    compact = "".join(text.split()).lower()
    if compact == "pass":
        return Parsed("pass")
    m = _MOVE.match(compact)
    if m:
        frm, sep, to, inner, twist = m.groups()
        return Parsed(
            "move",
            CELL_INDEX[frm],
            CELL_INDEX[to],
            sep == "x",
            _tokens(text, inner),
            None if twist is None else _TWISTS[twist],
        )
    m = _REORIENT.match(compact)
    if m:
        cell, turn, inner = m.groups()
        return Parsed("reorient", CELL_INDEX[cell], tokens=_tokens(text, inner), turn=_TURNS[turn])
    shown = text if len(text) <= 40 else text[:40] + "…"
    raise IllegalMove(f"{shown!r} is not a move: {HELP}", "not_a_move", {"move": shown})


def _tokens(text: str, inner: str | None) -> tuple[str, ...]:
    if inner is None:
        return ()
    tokens = tuple(inner.split(","))
    for token in tokens:
        if token != "*" and token not in CELL_INDEX:
            raise IllegalMove(
                f"{text!r}: {token!r} in the parentheses is neither a field (a1…i9) nor *",
                "bad_token",
                {"move": text, "token": token},
            )
    return tokens


def move_text(frm: int, to: int, capture: bool) -> str:
    """Canonical base move: ``e1-e2`` or ``d9xd6``."""
    return CELL_NAMES[frm] + ("x" if capture else "-") + CELL_NAMES[to]


def with_effects(base: str, tokens: list[str] | tuple[str, ...]) -> str:
    """Append canonical effect parentheses (none when there are no tokens)."""
    return f"{base}({','.join(tokens)})" if tokens else base
