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
A schedule of whole cycles has every player's seat-1 count within one of every
other's; one cut short or going part of the way round again may not, and then
seat 1 is handed over at a few tables by the balancing rule below
(:func:`_balance`), so that the counts are within one in every case.

Three or four seats
-------------------

Every round seats every player once, at tables whose sizes come from
:func:`table_sizes`. Which players share a table, round by round:

* **4 to 40 players** (``SCHEDULES`` in :mod:`.round_robin_data`): a
  precomputed schedule of the default number of rounds, the player indices
  standing for the players in the order of ``players``. It was computed
  offline, deterministically, by ``bench/round_robin.py --search``: a
  *perfect* schedule (every pair meets exactly once) wherever one exists for
  the default number of rounds up to 40 — Kirkman triple systems for 9, 15,
  21, 27, 33 and 39 players at three seats, resolvable designs of blocks of
  four for 16, 28 and 40 players at four seats — built from algebraic
  constructions (affine geometries, designs developed over a group); for
  7, 8, 13, 14, 19, 20, 25, 26, 31, 32, 37, 38 players at three seats and 13,
  15, 25, 27, 37, 39 at four, such a design with one to three players left
  out (and, where there are more rounds than needed, a round dropped), so
  that no pair meets twice (for 8, 14, ..., 38 at three seats and 15, 27, 39
  at four, every pair meets exactly once); elsewhere the best found of: the
  greedy build and local search below, schedules derived from a design on a
  few players more or fewer, and many longer runs of that local search (the
  same moves and cost, many more steps, several temperatures and seeds). The
  figures of every count are printed by
  ``bench/round_robin.py``. The stored rounds are ordered so that the first
  rounds repeat as few pairs as they can (each next round the one repeating
  fewest pairs of those before it). Asked for fewer rounds, the schedule is
  its first rounds; for more, it goes round again from its first round, as
  often as needed (a double round robin plays every table twice).
* **other counts** (2 or 3 players, more than 40): a schedule of the asked
  number of rounds, computed when asked:

  - a first schedule is built round by round: a table starts with the first
    unseated player in the round's starting order (the players rotated by one
    place per round), and each further seat goes to the unseated player who
    has met those already at the table the fewest times so far (ties: the
    starting order);
  - then a local search improves the whole schedule. A move swaps two players
    of one round between two of its tables; the cost is the sum, over every
    pair of players, of the cube of the number of times they meet in the
    schedule. The total number of meetings is fixed by the table sizes, so a
    lower cost means a more even spread; and with the cube, three pairs
    meeting twice cost less than one pair meeting three times (a square rates
    these the same, for the same number of meetings). The search is simulated
    annealing (moves that raise the cost are sometimes taken early on, to get
    out of local minima) for at most :data:`SEARCH_STEPS` moves, keeping the
    best schedule seen; it stops as soon as the cost reaches the perfectly
    even spread. Its random choices come from a generator seeded by the
    player count, the seat count and the number of rounds, so the schedule is
    deterministic.

Then, whichever way the tables were found:

* seat 1 (the first move) of every table is chosen over the whole schedule
  (:func:`_first_seats`): first round by round, the member with the fewest
  seat 1s so far (ties: not first in the previous round, then the starting
  order); then the *balancing rule*: while some player ``a`` has seat 1 at
  least twice more often than a player ``b`` reachable by a chain of
  hand-overs (``a`` hands one of their seat-1 tables to another member ``x``
  of it, ``x`` one of theirs to ``y``, ... to ``b``), the shortest such chain
  is handed over (``a`` loses one, ``b`` gains one, the rest keep their
  count). Every player's seat-1 count ends within one of every other's
  (checked for 3 to 40 players and many round counts; it is the most even
  split the tables allow);
* then the last seat of every table, the same way (:func:`_last_seats`): round
  by round the member other than seat 1 with the fewest last seats so far
  (ties: not last in the previous round, then the starting order), then the
  balancing rule with chains that never hand the last seat to the table's
  seat 1. For the default number of rounds, 4 to 40 players, both counts end
  within one (checked by the tests; a double or cut-short schedule keeps seat
  1 within one, and the last seat within one in all but a few of the cases
  checked, within two in those);
* finally the middle seats of a four-player table (seats 2 and 3) come from
  :func:`assign_seats` over those two, given the seats taken in the schedule's
  earlier rounds shifted down by one (ties: the starting order).

The service plays a full table in exactly this order
(``tournaments.competitions.services.rounds._scheduled_round``): seating each round afresh from
the seats taken so far would undo the balance (it let seat 1 drift to a spread
of two and the last seat to five).

Player ids only name the players: the schedule depends on their order in
``players``, not on their values.

By default there are ``ceil((n - 1) / (seats - 1))`` rounds: the fewest in which
a player could meet all ``n - 1`` others (each round they meet at most
``seats - 1``).
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence

from .round_robin_data import SCHEDULES
from .seats import assign_seats
from .sizes import table_sizes
from .types import Round, Table

SEARCH_STEPS = 60_000  # 3-4 seats: swaps tried by the local search, at most
TEMPERATURE = 1.5  # 3-4 seats: the search's starting temperature (in units of the cost)
ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"  # stored schedules: index -> char
_INDEX = {c: i for i, c in enumerate(ALPHABET)}


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
    return _balanced_pairs(players, schedule)


def _balanced_pairs(players: list[int], schedule: list[Round]) -> list[Round]:
    """The schedule with seat 1 handed over (:func:`_balance`) where some player has it 2+ more often.

    A whole cycle, or whole cycles, are already within one; a schedule cut short or going round part of
    a second time may not be.
    """
    index = {p: i for i, p in enumerate(players)}
    plan = [[[index[p] for p in t.players] for t in r.tables] for r in schedule]
    first = [[g[0] for g in groups] for groups in plan]
    _balance(first, plan, len(players))
    return [
        Round(
            tuple(
                t if index[t.players[0]] == f else Table(t.players[::-1])
                for t, f in zip(r.tables, row, strict=True)
            ),
            r.byes,
        )
        for r, row in zip(schedule, first, strict=True)
    ]


def _tables(players: list[int], seats: int, rounds: int | None) -> list[Round]:
    n = len(players)
    count = rounds if rounds is not None else math.ceil((n - 1) / (seats - 1))
    stored = _stored(n, seats)
    if stored is not None:  # cut short, or round again from the first round
        plan = [[list(g) for g in stored[r % len(stored)]] for r in range(count)]
    else:
        plan = _searched(n, seats, count)
    first = _first_seats(plan, n)
    last = _last_seats(plan, n, first)
    history: dict[int, list[int]] = {p: [] for p in players}
    schedule: list[Round] = []
    for r, groups in enumerate(plan):
        tables = []
        for t, g in enumerate(groups):
            head, tail = first[r][t], last[r][t]
            middle = [players[i] for i in sorted(g, key=lambda i: (i - r) % n) if i not in (head, tail)]
            # Seats 2.. of the table are seats 1.. of the rest: shift the history by one (seat 1 becomes 0).
            shifted = {p: [s - 1 for s in history[p]] for p in middle}
            order = (players[head], *(assign_seats(middle, shifted) if middle else ()), players[tail])
            for seat, p in enumerate(order, start=1):
                history[p].append(seat)
            tables.append(Table(order))
        schedule.append(Round(tuple(tables)))
    return schedule


def _stored(n: int, seats: int) -> list[list[list[int]]] | None:
    """The precomputed schedule (default rounds) for ``n`` players at ``seats``, if there is one."""
    text = SCHEDULES.get((seats, n))
    if text is None:
        return None
    sizes, _ = table_sizes(n, seats)
    plan = []
    for word in text.split():
        row = [_INDEX[c] for c in word]
        ends = list(itertools.accumulate(sizes))
        plan.append([row[end - size : end] for size, end in zip(sizes, ends, strict=True)])
    return plan


def _searched(n: int, seats: int, count: int) -> list[list[list[int]]]:
    """The greedy build then the local search (:func:`_search`), over ``count`` rounds."""
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
    return plan


def _first_seats(plan: list[list[list[int]]], n: int) -> list[list[int]]:
    """Who takes seat 1 at each table of the plan (``first[r][t]``), balanced over the whole schedule.

    First greedily, round by round: the member with the fewest seat-1s so far (ties: not first in the
    previous round, then the round's starting order). Then, while some player ``a`` holds seat 1 at
    least twice more often than a player ``b`` reachable by a chain of hand-overs (``a`` hands one of
    their seat-1 tables to another member ``x`` of it, ``x`` one of theirs to ``y``, ... to ``b``), the
    chain is handed over: ``a`` loses one, ``b`` gains one, the others keep their count. When no such
    chain is left, no reassignment of seat 1 at the same tables can make the counts more even.
    """
    count = [0] * n
    last = [-2] * n  # the last round each player took seat 1
    first: list[list[int]] = []
    for r, groups in enumerate(plan):
        row = []
        for g in groups:
            p = min(g, key=lambda i: (count[i], last[i] == r - 1, (i - r) % n))
            count[p] += 1
            last[p] = r
            row.append(p)
        first.append(row)
    _balance(first, plan, n)
    return first


def _last_seats(plan: list[list[list[int]]], n: int, first: list[list[int]]) -> list[list[int]]:
    """Who takes the last seat at each table of the plan (``last[r][t]``), balanced like seat 1.

    Seat 1 is already chosen (``first``); the last seat goes to another member of the table, by the
    same rules as seat 1 (:func:`_first_seats`): greedily the member with the fewest last seats so far
    (ties: not last in the previous round, then the round's starting order), then hand-overs along
    chains (:func:`_balance`) that never give the last seat to the table's seat 1. Every table has at
    least two players, so there is always someone to sit last; the counts end within one of each
    other for every stored schedule (checked by the tests for 4 to 40 players).
    """
    count = [0] * n
    previous = [-2] * n  # the last round each player sat last
    last: list[list[int]] = []
    for r, groups in enumerate(plan):
        row = []
        for t, g in enumerate(groups):
            p = min(
                (i for i in g if i != first[r][t]),
                key=lambda i: (count[i], previous[i] == r - 1, (i - r) % n),
            )
            count[p] += 1
            previous[p] = r
            row.append(p)
        last.append(row)
    _balance(last, plan, n, barred=first)
    return last


def _balance(
    first: list[list[int]], plan: list[list[list[int]]], n: int, barred: list[list[int]] | None = None
) -> None:
    """Hand seat 1 along chains until no player holds it twice more often than one reachable.

    ``plan[r][t]`` lists the members (indices ``0 .. n - 1``) of table ``t`` of round ``r``, and
    ``first[r][t]`` the one in seat 1; ``first`` is changed in place. See :func:`_first_seats`.
    With ``barred`` (``barred[r][t]``: a member who may not take the seat), the same for another
    seat: :func:`_last_seats` balances the last seat so, ``barred`` being seat 1.
    """
    count = [0] * n
    for row in first:
        for p in row:
            count[p] += 1
    tables = [(r, t) for r, groups in enumerate(plan) for t in range(len(groups))]
    while max(count) - min(count) > 1:
        held: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        for r, t in tables:
            held[first[r][t]].append((r, t))
        for a in sorted(range(n), key=lambda i: (-count[i], i)):
            path = _hand_over(a, count, held, plan, barred)
            if path is not None:
                break
        else:
            return
        for r, t, x in path:  # the players in between gain one and lose one
            first[r][t] = x
        count[a] -= 1
        count[path[-1][2]] += 1


def _hand_over(
    a: int,
    count: list[int],
    held: list[list[tuple[int, int]]],
    plan: list[list[list[int]]],
    barred: list[list[int]] | None = None,
) -> list[tuple[int, int, int]] | None:
    """A shortest chain of hand-overs of seat 1 (or the seat :func:`_balance` balances) from ``a`` to a
    player with at least two fewer; never to a table's ``barred`` member."""
    came: dict[int, tuple[int, int, int]] = {}  # player -> (round, table, player who handed it over)
    queue = [a]
    seen = {a}
    for u in queue:
        for r, t in held[u]:
            for x in plan[r][t]:
                if x in seen or (barred is not None and x == barred[r][t]):
                    continue
                seen.add(x)
                came[x] = (r, t, u)
                if count[x] <= count[a] - 2:
                    path = []
                    while x != a:
                        r2, t2, u2 = came[x]
                        path.append((r2, t2, x))
                        x = u2
                    return path[::-1]
                queue.append(x)
    return None


def _meet(groups: list[list[int]], met: list[list[int]], step: int) -> None:
    for g in groups:
        for a in g:
            for b in g:
                if a != b:
                    met[a][b] += step


def _search(
    plan: list[list[list[int]]],
    met: list[list[int]],
    rng: random.Random,
    steps: int = SEARCH_STEPS,
    heat0: float = TEMPERATURE,
) -> int:
    """Simulated annealing over swaps of two players of one round between tables; keeps the best plan
    (written back into ``plan``) and returns its cost.

    The cost is the sum over pairs of players of the cube of their meeting count (see the module
    docstring). The random choices come from a fixed seed, so the schedule is deterministic. The
    search stops early when the cost reaches the perfectly even spread. ``steps`` and ``heat0``
    (the starting temperature) are larger for the offline search of ``bench/round_robin.py``.
    """
    n = len(met)
    cost = sum(met[a][b] ** 3 for a in range(n) for b in range(a + 1, n))
    if len(plan[0]) < 2:
        return cost
    pairs = n * (n - 1) // 2
    meetings = sum(met[a][b] for a in range(n) for b in range(a + 1, n))
    q, extra = divmod(meetings, pairs)
    floor = (pairs - extra) * q**3 + extra * (q + 1) ** 3
    best_cost, best = cost, [[list(g) for g in groups] for groups in plan]
    for step in range(steps):
        if best_cost == floor:
            break
        heat = heat0 * (1 - step / steps) + 0.05
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
    return best_cost
