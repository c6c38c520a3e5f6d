"""Who plays in which division, and where a division's final order takes each player: pure
functions (no database), the rules ``docs/organisers/seasons.md`` states.

Placement. Every player gets a spot in one ordered list, best first, which is then cut into levels:

* the first season (no previous one): by rating in the season's game, highest first (no rating
  counts as a newcomer's 1500), then by registration;
* a next season: returning players by the level they *arrive at* (one up for those promoted, one
  down for those relegated, the same for the rest), and within a level those who came down first,
  then those who stayed, then those who came up, each by their last place; newcomers go after
  everyone (``bottom``) or into the highest level whose returning players' average rating is at
  most theirs, after that level's returning players (``rating``; below every level: the bottom).

Levels. The list is cut into levels of ``size`` players from the top; the players left over
(fewer than ``size``) join the bottom level, which so holds ``size`` to ``2 * size - 1`` players.
A bottom level of more than ``size + size // 2`` players is split into two groups, A and B, of
near-equal size (dealt in a snake: 1 A, 2 B, 3 B, 4 A, ...) when each group still has at least
3 players and a full table; fewer than ``size`` players in all make one division. A level that
lost players (they left) is filled from below, so the levels above the bottom are always full.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

UP, DOWN, STAY, NEW = "up", "down", "stay", "new"


@dataclass(frozen=True)
class Arrival:
    """A player to place: ``level`` they arrive at (None: a newcomer), where they came from."""

    player: int
    rating: int
    order: int  # registration order: the last tie-break
    level: int | None = None
    from_level: int = 0  # the level played last season (0: none)
    last_place: int = 0  # the place there


def ordered(arrivals: list[Arrival], *, newcomers: str) -> list[int]:
    """Every player, best first, by the rules above."""
    returning = sorted(
        (a for a in arrivals if a.level is not None),
        key=lambda a: (a.level, a.from_level, a.last_place, a.order),
    )
    fresh = sorted((a for a in arrivals if a.level is None), key=lambda a: (-a.rating, a.order))
    if not returning:
        return [a.player for a in fresh]
    if newcomers != "rating":
        return [a.player for a in returning + fresh]
    levels = sorted({a.level for a in returning if a.level is not None})
    average = {
        level: sum(a.rating for a in returning if a.level == level)
        / sum(1 for a in returning if a.level == level)
        for level in levels
    }
    target = {a.player: next((lv for lv in levels if average[lv] <= a.rating), None) for a in fresh}
    out: list[int] = []
    for level in levels:
        out += [a.player for a in returning if a.level == level]
        out += [a.player for a in fresh if target[a.player] == level]
    return out + [a.player for a in fresh if target[a.player] is None]


def divisions(players: list[int], *, size: int, seats: int) -> list[list[list[int]]]:
    """The ordered players cut into levels (top first), each a list of groups (one, or A and B)."""
    full = max(0, len(players) // size - 1)
    levels = [players[i * size : (i + 1) * size] for i in range(full)]
    bottom = players[len(levels) * size :]
    smallest = max(3, seats)
    if len(bottom) > size + size // 2 and len(bottom) // 2 >= smallest:
        a, b = [], []
        for i, p in enumerate(bottom):
            (a if i % 4 in (0, 3) else b).append(p)
        return [*([lv] for lv in levels), [a, b]]
    return [*([lv] for lv in levels), [bottom]]


def movements(
    order: list[int], *, withdrawn: set[int], level: int, bottom: int, promote: int, relegate: int
) -> dict[int, str]:
    """Where a division's final ``order`` (best first) takes each player: the best ``promote`` still
    playing go up (not from level 1), the last ``relegate`` still playing go down (not from the
    bottom level), the rest stay. A player who withdrew goes down (out of the league's seasons)
    and takes one of the relegation places: fewer of those still playing go down."""
    active = [p for p in order if p not in withdrawn]
    up = active[:promote] if level > 1 else []
    rest = active[len(up) :]
    places = max(0, relegate - len([p for p in order if p in withdrawn]))  # a withdrawal takes one
    down = rest[len(rest) - places :] if level < bottom and places else []
    out = {p: STAY for p in active}
    out.update({p: UP for p in up})
    out.update({p: DOWN for p in down})
    out.update({p: DOWN for p in order if p in withdrawn})
    return out


def arrival_level(*, from_level: int, movement: str) -> int:
    """The level a player arrives at after ``movement`` from ``from_level``."""
    if movement == UP:
        return max(1, from_level - 1)
    if movement == DOWN:
        return from_level + 1
    return from_level


def arrivals(
    entries: list[tuple[int, int, str]], last: Mapping[int, tuple[int, int | None]]
) -> list[Arrival]:
    """The arrivals of a season's entries, each ``(player, rating, how it arrived)`` in registration
    order; ``last`` gives each returning player's (level, place) in the previous season. An entry
    without a last level, or that arrived as a newcomer, is placed as a newcomer."""
    out = []
    for i, (player, rating, arrived) in enumerate(entries):
        came = last.get(player)
        if came is None or arrived not in (UP, DOWN, STAY):
            out.append(Arrival(player, rating, i))
            continue
        level = arrival_level(from_level=came[0], movement=arrived)
        out.append(Arrival(player, rating, i, level, came[0], came[1] or 0))
    return out


def too_many_rounds(
    levels: list[list[list[int]]], *, times: int, rounds: Callable[[list[int]], int]
) -> tuple[int, int, int] | None:
    """The first division that plays more rounds than the calendar has ``times`` for, as (its size,
    its level, its rounds); None when every division fits (or the calendar has no times)."""
    if not times:
        return None
    for level, groups in enumerate(levels, start=1):
        for group in groups:
            if (needed := rounds(group)) > times:
                return len(group), level, needed
    return None
