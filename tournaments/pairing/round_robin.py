"""Round-robin schedules: every round of the event, computed up front.

Two seats: the circle (Berger) method
-------------------------------------

With an odd number of players a dummy is added; meeting the dummy is a bye.
The ``n`` places (players plus the dummy, ``n`` even) are laid out on a circle:
place 0 stays fixed (the dummy, when there is one, so that byes rotate; else the
first player), and after each round everyone else moves one place round the
circle. In a round, place ``i`` meets place ``n - 1 - i``. Over ``n - 1`` rounds
every pair meets exactly once, and with an odd count every player has exactly
one bye.

Seat 1 (the first move): at the table of the fixed place it alternates from
round to round (the fixed player takes it in the first round); at the other
tables the player in place ``i`` (``1 <= i < n / 2``) takes it when ``i`` is
odd, the player opposite when ``i`` is even. As a player moves one place per
round, their seat alternates from round to round, except once per cycle when
they pass the fixed place; so every player moves first in half of their games
(rounded up or down), never more than twice in a row.

``rounds`` (optional) asks for a different number of rounds: fewer cut the
schedule short; more go round again (a double round robin) with the seats of
every table swapped, so that each player moves first in the return meeting.

Three or four seats
-------------------

Every round seats every player once, at tables whose sizes come from
:func:`table_sizes`. A complete "everyone meets everyone exactly once" design
exists only for a few player counts, so the schedule spreads meetings as
evenly as it can, deterministically:

* a first schedule is built round by round: a table starts with the first
  unseated player in the round's starting order (the players rotated by one
  place per round), and each further seat goes to the unseated player who has
  met those already at the table the fewest times so far (ties: the starting
  order);
* then a local search improves the whole schedule. A move swaps two players of
  one round between two of its tables; the cost is the sum, over every pair of
  players, of the cube of the number of times they meet in the schedule. The
  total number of meetings is fixed by the table sizes, so a lower cost means a
  more even spread; and with the cube, three pairs meeting twice cost less
  than one pair meeting three times (a square rates these the same, for the
  same number of meetings). The search is
  simulated annealing (moves that raise the cost are sometimes taken early on,
  to get out of local minima) for at most :data:`SEARCH_STEPS` moves, keeping
  the best schedule seen; it stops as soon as the cost reaches the perfectly even
  spread. Its random choices come from a generator seeded by the player count,
  the seat count and the number of rounds, so the schedule is deterministic;
* finally each table's seat order comes from :func:`assign_seats`, given the
  seats taken in the schedule's earlier rounds (ties: the starting order).

Player ids only name the players: the schedule depends on their order in
``players``, not on their values.

By default there are ``ceil((n - 1) / (seats - 1))`` rounds: the fewest in which
a player could meet all ``n - 1`` others (each round they meet at most
``seats - 1``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from .seats import assign_seats
from .sizes import table_sizes
from .types import Round, Table

SEARCH_STEPS = 60_000  # 3-4 seats: swaps tried by the local search, at most
TEMPERATURE = 1.5  # 3-4 seats: the search's starting temperature (in units of the cost)


def round_robin(players: Sequence[int], seats: int, rounds: int | None = None) -> list[Round]:
    """The whole schedule (rules in the module docstring)."""
    table_sizes(len(players), seats)  # validates the counts
    if len(set(players)) != len(players):
        raise ValueError("a player appears twice")
    if rounds is not None and rounds < 1:
        raise ValueError("a schedule has at least one round")
    if seats == 2:
        return _circle(list(players), rounds)
    return _tables(list(players), seats, rounds)


def _circle(players: list[int], rounds: int | None) -> list[Round]:
    ring: list[int | None] = [None, *players] if len(players) % 2 else list(players)
    n = len(ring)
    cycle: list[Round] = []
    for r in range(n - 1):
        tables: list[Table] = []
        byes: list[int] = []
        for i in range(n // 2):
            a, b = ring[i], ring[n - 1 - i]
            if a is None or b is None:
                byes.extend(x for x in (a, b) if x is not None)
                continue
            first = r % 2 == 0 if i == 0 else i % 2 == 1
            tables.append(Table((a, b) if first else (b, a)))
        cycle.append(Round(tuple(tables), tuple(byes)))
        ring = [ring[0], ring[-1], *ring[1:-1]]
    total = len(cycle) if rounds is None else rounds
    schedule = []
    for r in range(total):
        rnd = cycle[r % len(cycle)]
        if (r // len(cycle)) % 2:
            rnd = Round(tuple(Table(t.players[::-1]) for t in rnd.tables), rnd.byes)
        schedule.append(rnd)
    return schedule


def _tables(players: list[int], seats: int, rounds: int | None) -> list[Round]:
    n = len(players)
    count = rounds if rounds is not None else math.ceil((n - 1) / (seats - 1))
    sizes, _ = table_sizes(n, seats)
    met = [[0] * n for _ in range(n)]
    plan: list[list[list[int]]] = []  # round -> tables -> player indices
    for r in range(count):
        remaining = [(i + r) % n for i in range(n)]
        groups: list[list[int]] = []
        for size in sizes:
            table = [remaining.pop(0)]
            while len(table) < size:
                k = min(range(len(remaining)), key=lambda k: (sum(met[remaining[k]][p] for p in table), k))
                table.append(remaining.pop(k))
            groups.append(table)
        _meet(groups, met, 1)
        plan.append(groups)
    _search(plan, met, random.Random(n * 1009 + seats * 101 + count))
    history: dict[int, list[int]] = {p: [] for p in players}
    schedule: list[Round] = []
    for r, groups in enumerate(plan):
        tables = []
        for g in groups:
            order = assign_seats([players[i] for i in sorted(g, key=lambda i: (i - r) % n)], history)
            for seat, p in enumerate(order, start=1):
                history[p].append(seat)
            tables.append(Table(order))
        schedule.append(Round(tuple(tables)))
    return schedule


def _meet(groups: list[list[int]], met: list[list[int]], step: int) -> None:
    for g in groups:
        for a in g:
            for b in g:
                if a != b:
                    met[a][b] += step


def _search(plan: list[list[list[int]]], met: list[list[int]], rng: random.Random) -> None:
    """Simulated annealing over swaps of two players of one round between tables; keeps the best plan.

    The cost is the sum over pairs of players of the cube of their meeting count (see the module
    docstring). The random choices come from a fixed seed, so the schedule is deterministic. The
    search stops early when the cost reaches the perfectly even spread.
    """
    n = len(met)
    if len(plan[0]) < 2:
        return
    pairs = n * (n - 1) // 2
    meetings = sum(met[a][b] for a in range(n) for b in range(a + 1, n))
    q, extra = divmod(meetings, pairs)
    floor = (pairs - extra) * q**3 + extra * (q + 1) ** 3
    cost = sum(met[a][b] ** 3 for a in range(n) for b in range(a + 1, n))
    best_cost, best = cost, [[list(g) for g in groups] for groups in plan]
    for step in range(SEARCH_STEPS):
        if best_cost == floor:
            break
        heat = TEMPERATURE * (1 - step / SEARCH_STEPS) + 0.05
        r = rng.randrange(len(plan))
        i, j = rng.sample(range(len(plan[r])), 2)
        gi, gj = plan[r][i], plan[r][j]
        a, b = rng.randrange(len(gi)), rng.randrange(len(gj))
        x, y = gi[a], gj[b]
        # x leaves gi for gj and y the other way: going up from c meetings adds 3c² + 3c + 1 to a pair's
        # cube, going down from c takes 3c² - 3c + 1 off it.
        d = 0
        for o, gone, came in [(o, x, y) for o in gi if o != x] + [(o, y, x) for o in gj if o != y]:
            c, e = met[gone][o], met[came][o]
            d += 3 * e * e + 3 * e + 1 - (3 * c * c - 3 * c + 1)
        if d <= 0 or rng.random() < math.exp(-d / heat):
            _meet([gi, gj], met, -1)
            gi[a], gj[b] = y, x
            _meet([gi, gj], met, 1)
            cost += d
            if cost < best_cost:
                best_cost, best = cost, [[list(g) for g in groups] for groups in plan]
    for r, groups in enumerate(best):
        plan[r] = groups
