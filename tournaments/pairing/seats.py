"""Seat order at a table: who moves first, second, … (an exact assignment).

The cost of putting a player in a seat is how often they sat there before,
plus how often they already sat last; with at most four seats, trying every
permutation (24 at most) finds the cheapest assignment exactly. Ties keep the
order the players were given in.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence


def assign_seats(players: Sequence[int], history: Mapping[int, Sequence[int]]) -> tuple[int, ...]:
    n = len(players)

    def cost(player: int, seat: int) -> int:
        past = history.get(player, ())
        return sum(1 for s in past if s == seat) + (sum(1 for s in past if s >= n) if seat == n else 0)

    best: tuple[int, ...] = tuple(players)
    best_cost = sum(cost(p, i + 1) for i, p in enumerate(players))
    for perm in itertools.permutations(players):
        c = sum(cost(p, i + 1) for i, p in enumerate(perm))
        if c < best_cost:
            best, best_cost = perm, c
    return best
