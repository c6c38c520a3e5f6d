"""The rules a Swiss pairing keeps, apart from the search that keeps them.

Meetings so far (rematches), the two-seat preferences of FIDE's Dutch system (C.04.1, C.04.3),
the faults of a set of pairs, and which player of a pair takes seat 1. The rules themselves are
stated in :mod:`.swiss`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .types import Entrant

Pair = tuple[int, int]  # indices into the ranking, better-ranked first


def _times(order: Sequence[Entrant]) -> list[dict[int, int]]:
    """For each ranked player, the times met per ranked opponent (symmetric: the larger count wins)."""
    index = {e.id: i for i, e in enumerate(order)}
    times: list[dict[int, int]] = [{} for _ in order]
    for i, e in enumerate(order):
        for q, count in e.meetings.items():
            j = index.get(q)
            if j is not None and j != i and count > 0:
                c = max(count, times[i].get(j, 0))
                times[i][j] = times[j][i] = c
    return times


# ------------------------------------------------------------------ two seats

FIRST, SECOND = 1, 2  # seats: 1 moves first ("white" in FIDE's words), 2 second
NONE, MILD, STRONG, ABSOLUTE = 0, 1, 2, 3  # strength of a colour (seat) preference


@dataclass(frozen=True)
class Preference:
    """A player's seat preference before a round (FIDE C.04.1 / Dutch A.6)."""

    seat: int  # FIRST, SECOND, or 0 for no preference
    strength: int  # NONE, MILD, STRONG or ABSOLUTE
    diff: int  # games in seat 1 minus games in seat 2 so far
    played: tuple[int, ...]  # the seats taken (1 or 2), in order: byes are not in it


def preference(seat_history: Sequence[int]) -> Preference:
    """The seat a player wants next, and how strongly (see the module docstring)."""
    played = tuple(s for s in seat_history if s in (FIRST, SECOND))
    if not played:
        return Preference(0, NONE, 0, played)
    diff = played.count(FIRST) - played.count(SECOND)
    other = SECOND if played[-1] == FIRST else FIRST
    if diff > 1:
        return Preference(SECOND, ABSOLUTE, diff, played)
    if diff < -1:
        return Preference(FIRST, ABSOLUTE, diff, played)
    if len(played) >= 2 and played[-1] == played[-2]:
        return Preference(other, ABSOLUTE, diff, played)
    if diff:
        return Preference(SECOND if diff > 0 else FIRST, STRONG, diff, played)
    return Preference(other, MILD, diff, played)


def _clash(p: Preference, q: Preference) -> bool:
    """Both must have the same seat: such players are not paired together while it can be avoided."""
    return p.strength == q.strength == ABSOLUTE and p.seat == q.seat


def _conflict(p: Preference, q: Preference) -> bool:
    """Both want the same seat, so one of them will not get it."""
    return p.seat != 0 and p.seat == q.seat


def _faults(order: Sequence[Entrant], prefs: Sequence[Preference], pairs: list[Pair]) -> tuple[int, int]:
    """(rematches, clashes of absolute seat preferences) among ``pairs``."""
    times = _times(order)
    return (
        sum(1 for a, b in pairs if b in times[a]),
        sum(1 for a, b in pairs if _clash(prefs[a], prefs[b])),
    )


def _seat_order(hi: Entrant, lo: Entrant, p: Preference, q: Preference, board: int) -> tuple[int, int]:
    """Who takes seat 1: FIDE's colour allocation (C.04.3 E) for the higher-ranked ``hi`` and ``lo``.

    ``board`` counts tables from 0 at the top; it only matters when neither player has a preference.
    """

    def hi_takes(seat: int) -> tuple[int, int]:
        return (hi.id, lo.id) if seat == FIRST else (lo.id, hi.id)

    def other(seat: int) -> int:
        return SECOND if seat == FIRST else FIRST

    if not _conflict(p, q):  # E.1: both get what they want (or only one wants anything)
        if p.seat:
            return hi_takes(p.seat)
        if q.seat:
            return hi_takes(other(q.seat))
        return hi_takes(FIRST if board % 2 == 0 else SECOND)  # E.5: top board alternation, seat 1 first
    if p.strength != q.strength:  # E.2: the stronger preference
        return hi_takes(p.seat if p.strength > q.strength else other(q.seat))
    if p.strength == ABSOLUTE and abs(p.diff) != abs(q.diff):  # E.2: then the wider difference
        return hi_takes(p.seat if abs(p.diff) > abs(q.diff) else other(q.seat))
    for k in range(1, min(len(p.played), len(q.played)) + 1):  # E.3: alternate from the last difference
        if p.played[-k] != q.played[-k]:
            return hi_takes(other(p.played[-k]))
    return hi_takes(p.seat)  # E.4: the higher-ranked player's preference
