"""An arena's scoring, as a pure function over plain data (``tournaments.arena.finished`` applies it).

Rules, as lichess's arenas have them, for tables of 2 to 4:

* **Places.** Each table pays points by place (:data:`ARENA_SCALES`, best place first; the event's
  own ``points_scale`` replaces it). Players who share a place share the places they cover, as in
  every event (``tournaments.standings.place_points``): a drawn two-seat table pays 1 and 1. Arena
  points are whole numbers: a shared place worth a fraction (½ at 3 seats, 1.5 at 4) is rounded
  half up (:func:`whole`).
* **Streaks.** A *win* is an outright first place (a shared first is not one). After two wins in a
  row a player is *on fire*: every table they play pays double, until a table that is not a win
  ends the streak (that table is still paid double: the streak was on when it began).
* **Berserk.** A player who halved their own clock at the start of a table (``services.berserk``)
  earns one point more if they then win it, not doubled, and only when they made at least
  :data:`MIN_BERSERK_MOVES` moves of their own there (a quick resignation by the others pays no
  bonus).
* **Performance.** Each table counts, against every other player at it, that player's displayed
  rating plus 400 when beaten, minus 400 when lost to, as it is on a shared place; a player's
  performance is the mean over every opponent met (:func:`performance`). It breaks ties in points.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

#: Points by place, best first, for each table size (the event's ``points_scale`` overrides).
ARENA_SCALES: dict[int, tuple[float, ...]] = {2: (2.0, 0.0), 3: (3.0, 1.0, 0.0), 4: (4.0, 2.0, 1.0, 0.0)}
#: The moves of their own a berserker makes at the table for the bonus to count (lichess: 7).
MIN_BERSERK_MOVES = 7
#: What beating (or losing to) an opponent adds to (takes from) their rating in the performance.
PERFORMANCE_MARGIN = 400.0
#: Wins in a row that make a player *on fire* (their next tables pay double).
ON_FIRE = 2


@dataclass(frozen=True)
class Outcome:
    """One player's table, as scoring sees it."""

    #: From the scale, shared places averaged (``tournaments.standings.place_points``).
    place_points: float
    #: Outright first place (a shared first is not a win).
    won: bool
    #: Went berserk at this table.
    berserk: bool = False
    #: The berserk bonus is allowed: the berserker made at least :data:`MIN_BERSERK_MOVES` moves.
    berserk_counts: bool = False


@dataclass(frozen=True)
class Score:
    """A player's arena score so far."""

    points: int = 0
    games: int = 0
    wins: int = 0
    streak: int = 0

    @property
    def on_fire(self) -> bool:
        return self.streak >= ON_FIRE


def whole(points: float) -> int:
    """Place points as arena points: a whole number, halves rounded up (1.5 → 2, 0.5 → 1)."""
    return math.floor(points + 0.5 + 1e-9)


def score(before: Score, outcome: Outcome) -> tuple[Score, int, str]:
    """The score after one more table, the points it earned, and its mark on the sheet: the points,
    then ``s`` when doubled on a streak and ``b`` when berserk paid its point ("4s", "3b", "5sb")."""
    base = whole(outcome.place_points)
    doubled = before.on_fire and base > 0
    earned = base * 2 if before.on_fire else base
    bonus = outcome.won and outcome.berserk and outcome.berserk_counts
    earned += 1 if bonus else 0
    after = Score(
        points=before.points + earned,
        games=before.games + 1,
        wins=before.wins + (1 if outcome.won else 0),
        streak=before.streak + 1 if outcome.won else 0,
    )
    mark = f"{earned}{'s' if doubled else ''}{'b' if bonus else ''}"
    return after, earned, mark


def performance(ranks: Mapping[int, int], ratings: Mapping[int, float]) -> dict[int, tuple[float, int]]:
    """Each player's share of one table in the performance: (sum, count) over their opponents of
    the opponent's rating ±:data:`PERFORMANCE_MARGIN` (beaten: +, lost to: −, shared place: 0).
    A player without a rating counts as 1500.

    >>> performance({1: 1, 2: 2}, {1: 1500.0, 2: 1600.0})
    {1: (2000.0, 1), 2: (1100.0, 1)}
    """
    out: dict[int, tuple[float, int]] = {}
    for player, rank in ranks.items():
        total, count = 0.0, 0
        for other, theirs in ranks.items():
            if other == player:
                continue
            margin = PERFORMANCE_MARGIN if rank < theirs else -PERFORMANCE_MARGIN if rank > theirs else 0.0
            total += ratings.get(other, 1500.0) + margin
            count += 1
        out[player] = (total, count)
    return out
