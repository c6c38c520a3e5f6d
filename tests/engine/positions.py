"""Build and read RULES.md §9 positions readably in the rule tests.

Cells are named as in RULES.md: files a…i west→east, ranks 1…9 south→north.
The ``tiles`` string lists rank 9 first (a9…i9), then rank 8, …, rank 1.

>>> position("pacru", 2, markers=paint(1, "e5 d4"), chevrons=["e5:1:N"])["tiles"][index("e5")]
'1'
>>> land("e5")
['d4', 'e4', 'f4', 'd5', 'e5', 'f5', 'd6', 'e6', 'f6']
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import engine

FILES = "abcdefghi"
#: Every field in board order: a1, b1, …, i1, a2, …, i9.
CELLS: tuple[str, ...] = tuple(f + str(r) for r in range(1, 10) for f in FILES)


def index(cell: str) -> int:
    """Position of ``cell`` in the ``tiles`` string (rank 9 first)."""
    return (9 - int(cell[1])) * 9 + FILES.index(cell[0])


def rect(corner: str, other: str) -> list[str]:
    """All fields of the rectangle spanned by two corners, in board order."""
    f0, f1 = sorted((FILES.index(corner[0]), FILES.index(other[0])))
    r0, r1 = sorted((int(corner[1]), int(other[1])))
    return [FILES[f] + str(r) for r in range(r0, r1 + 1) for f in range(f0, f1 + 1)]


def rank(number: int) -> list[str]:
    """The nine fields of one rank, a…i."""
    return rect(f"a{number}", f"i{number}")


def land(centre: str) -> list[str]:
    """The nine fields of the borderland named by its centre field (e.g. ``e5``)."""
    f, r = FILES.index(centre[0]), int(centre[1])
    return rect(FILES[f - 1] + str(r - 1), FILES[f + 1] + str(r + 1))


def cells(*groups: str | Iterable[str]) -> list[str]:
    """Flatten groups: a string is split on spaces (``"a1 b2"``), lists are taken as is."""
    out: list[str] = []
    for group in groups:
        out.extend(group.split() if isinstance(group, str) else group)
    return out


def paint(seat: int | str, *groups: str | Iterable[str]) -> dict[str, str]:
    """``{cell: seat}`` for all given fields; combine several with ``|``."""
    return {cell: str(seat) for cell in cells(*groups)}


def tiles(markers: dict[str, Any] | None = None) -> str:
    out = ["-"] * 81
    for cell, seat in (markers or {}).items():
        out[index(cell)] = str(seat)
    return "".join(out)


def position(
    game: str,
    players: int,
    markers: dict[str, Any] | None = None,
    chevrons: Iterable[str] = (),
    to_move: int = 1,
    **extra: Any,
) -> dict[str, Any]:
    """A §9 document. ``extra`` adds or overrides keys (ply, eliminated, edition…)."""
    doc: dict[str, Any] = {
        "game": game,
        "players": players,
        "to_move": to_move,
        "tiles": tiles(markers),
        "chevrons": list(chevrons),
        "eliminated": [],
        "ply": 0,
    }
    if game == "pacru":
        doc["edition"] = "302"
    doc.update(extra)
    return doc


def load(game: str, players: int, **kwargs: Any) -> Any:
    """``engine.load(position(...))``."""
    return engine.load(position(game, players, **kwargs))


def tile(state: Any, cell: str) -> str:
    """``'-'`` or the seat digit of the marker on ``cell``."""
    return state.to_dict()["tiles"][index(cell)]


def diff(before: Any, after: Any) -> dict[str, tuple[str, str]]:
    """Fields whose marker changed: ``{cell: (old, new)}``."""
    a, b = before.to_dict()["tiles"], after.to_dict()["tiles"]
    return {c: (a[index(c)], b[index(c)]) for c in CELLS if a[index(c)] != b[index(c)]}


def chevrons(state: Any) -> set[str]:
    """The chevrons of a state as a set of ``cell:seat:facing`` strings."""
    return set(state.to_dict()["chevrons"])


def all_cells_except(*groups: str | Iterable[str]) -> tuple[str, ...]:
    """Every field not listed, sorted by name (the order of eligible-cell tuples)."""
    excluded = set(cells(*groups))
    return tuple(sorted(c for c in CELLS if c not in excluded))
