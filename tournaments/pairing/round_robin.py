"""Round-robin schedules.

**Two seats**: the circle method. Players sit on a circle (plus a dummy when
the count is odd: meeting it is a bye); one player stays fixed while the
others rotate one step per round, so over n−1 rounds (n even) every pair
meets exactly once. The first move alternates: the fixed player's by round,
the others' by their position.

**Three or four seats**: every round seats everyone once (sizes from
:func:`table_sizes`); tables are filled greedily, each player chosen to have
met those already at the table the fewest times so far (ties by a rotating
order, so the schedule is deterministic). By default there are
ceil((n−1)/(seats−1)) rounds: enough for everyone to be able to meet everyone.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from .seats import assign_seats
from .sizes import table_sizes
from .types import Round, Table


def round_robin(players: Sequence[int], seats: int, rounds: int | None = None) -> list[Round]:
    if seats == 2:
        return _circle(list(players))
    n = len(players)
    count = rounds or math.ceil((n - 1) / (seats - 1))
    sizes, _ = table_sizes(n, seats)
    met: Counter[tuple[int, int]] = Counter()
    history: dict[int, list[int]] = {p: [] for p in players}
    schedule = []
    for r in range(count):
        remaining = list(players[r % n :]) + list(players[: r % n])
        tables = []
        for size in sizes:
            table = [remaining.pop(0)]
            while len(table) < size:
                pick = min(
                    range(len(remaining)),
                    key=lambda i: (sum(met[tuple(sorted((remaining[i], p)))] for p in table), i),  # type: ignore[misc]
                )
                table.append(remaining.pop(pick))
            order = assign_seats(table, history)
            for i, p in enumerate(order):
                history[p].append(i + 1)
                for q in order:
                    if p < q:
                        met[(p, q)] += 1
            tables.append(Table(order))
        schedule.append(Round(tuple(tables)))
    return schedule


def _circle(players: list[int]) -> list[Round]:
    ring: list[int | None] = list(players)
    if len(ring) % 2:
        ring.append(None)
    n = len(ring)
    schedule = []
    for r in range(n - 1):
        tables, byes = [], []
        for i in range(n // 2):
            a, b = ring[i], ring[n - 1 - i]
            if a is None or b is None:
                byes.append(a if b is None else b)
                continue
            first = (r % 2 == 0) if i == 0 else (i % 2 == 1)
            tables.append(Table((a, b) if first else (b, a)))
        schedule.append(Round(tuple(tables), tuple(x for x in byes if x is not None)))
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return schedule
