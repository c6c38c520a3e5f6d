"""Seat order at one table: who takes seat 1 (moves first), seat 2, and so on.

This is an assignment problem (players to seats), and with at most four seats
it is solved exactly by trying every permutation (at most 4! = 24).

The cost of putting a player in seat ``s`` of an ``n``-seat table is:

* the number of times the player already sat in seat ``s``; plus
* when ``s`` is the last seat (``s == n``), the number of times the player
  already sat last. The history holds seat numbers only, not table sizes, so
  "sat last" is read as "sat in seat ``n`` or later" (seat 3 at a four-player
  table counts as last when the player now sits at a three-player table). Moving
  last twice therefore costs double, and nobody keeps moving last.

The permutation with the lowest total cost wins. Among equal totals, the one
that puts the fewest players back in the seat they had in their most recent
round wins, then the first in the order the players were given (so with no
history at all the given order is kept: callers pass their preferred order, e.g.
the seeds of a knockout).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence


def assign_seats(players: Sequence[int], history: Mapping[int, Sequence[int]]) -> tuple[int, ...]:
    """The seat order (``result[0]`` takes seat 1) of least repetition, given each player's past seats.

    >>> assign_seats([7, 8], {7: [1, 1], 8: [2, 2]})
    (8, 7)
    """
    n = len(players)
    if n > 4 or n < 1:
        raise ValueError(f"a table seats 1 to 4 players, not {n}")
    if len(set(players)) != n:
        raise ValueError("a player cannot take two seats")
    # cost[i][s]: player i in seat s + 1, as (repeats, same seat as last round)
    cost: list[list[tuple[int, int]]] = []
    for p in players:
        past = list(history.get(p, ()))
        lasts = sum(1 for s in past if s >= n)
        recent = past[-1] if past else 0
        cost.append([(past.count(s) + (lasts if s == n else 0), int(recent == s)) for s in range(1, n + 1)])
    best: tuple[int, int] | None = None
    best_perm: tuple[int, ...] = tuple(range(n))
    for perm in itertools.permutations(range(n)):  # perm[s] = index of the player in seat s + 1
        total = (
            sum(cost[i][s][0] for s, i in enumerate(perm)),
            sum(cost[i][s][1] for s, i in enumerate(perm)),
        )
        if best is None or total < best:
            best, best_perm = total, perm
    return tuple(players[i] for i in best_perm)
