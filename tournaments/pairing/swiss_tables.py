"""Swiss rounds for tables of three or four seats: table sizes, who sits where, few repeats.

The rules are stated in :mod:`.swiss`.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from .sizes import table_sizes
from .swiss_rules import _times
from .types import Entrant, Round, Table

WINDOW = 12  # 3-4 seats: candidates looked at for each seat
REACH = 2  # 3-4 seats: how many tables apart players may be swapped

# ------------------------------------------------------------ three or four seats


SMALL, FREE, BIG = -1, 0, 1  # 3-4 seats: where a player must sit this round (see _table_kinds)


def _tables(order: list[Entrant], seats: int) -> Round:
    sizes, _ = table_sizes(len(order), seats)
    times = _times(order)
    small_size = sizes[-1] if sizes[-1] < sizes[0] else 0  # 0: every table has the same size
    kind = _table_kinds(order, sum(s for s in sizes if s == small_size))
    # Seats that FREE players may still take at small / big tables (the others' seats are reserved).
    quota = {
        True: sum(s for s in sizes if s == small_size) - kind.count(SMALL),
        False: sum(s for s in sizes if s != small_size) - kind.count(BIG),
    }

    def fits(i: int, small: bool) -> bool:
        return quota[small] > 0 if kind[i] == FREE else (kind[i] == SMALL) == small

    remaining = list(range(len(order)))
    groups: list[list[int]] = []
    while remaining:
        head = remaining.pop(0)
        small = kind[head] == SMALL or (kind[head] == FREE and quota[False] == 0)
        if kind[head] == FREE:
            quota[small] -= 1
        table = [head]
        while len(table) < (small_size if small else sizes[0]):
            window: list[int] = []  # positions in ``remaining`` of the next WINDOW players who fit
            for k, i in enumerate(remaining):
                if fits(i, small):
                    window.append(k)
                    if len(window) == WINDOW:
                        break
            k = min(window, key=lambda k: (sum(times[remaining[k]].get(p, 0) for p in table), k))
            i = remaining.pop(k)
            if kind[i] == FREE:
                quota[small] -= 1
            table.append(i)
        groups.append(table)
    _spread(groups, times, kind)
    return Round(tuple(Table(_seat_rotation([order[i] for i in sorted(g)])) for g in groups))


def _seat_rotation(table: Sequence[Entrant]) -> tuple[int, ...]:
    """Seat order at a 3-4 seat Swiss table: who moves first and who last, each player's turn.

    Every permutation (at most 24) is scored, per player, on the player's seat counts it leads to
    (this round included; the last seat counted as ``Entrant.last_seats`` or, when unknown, as the
    seats at least the table's size, like :func:`assign_seats`): 10 per unit by which the first-
    and last-seat counts differ by more than one, 10 per unit by which the most and least used
    seats differ by more than two, plus the square of the count of the seat given (so the seats
    are used about as often as each other), plus 1 for the seat the player took last round. The
    lowest total wins; on a tie, the first in the given (ranking) order.
    """
    n = len(table)
    costs: list[list[int]] = []
    for e in table:
        past = e.seat_history
        lasts = e.last_seats if e.last_seats is not None else sum(1 for s in past if s >= n)
        recent = past[-1] if past else 0
        row = []
        for seat in range(1, n + 1):
            counts = [past.count(k) for k in range(1, n)] + [lasts]  # seat n: the last seat
            counts[seat - 1] += 1  # this round included
            gap = abs(counts[0] - counts[-1])
            spread = max(counts) - min(counts)
            uses = counts[seat - 1]
            row.append(10 * max(0, gap - 1) + 10 * max(0, spread - 2) + uses * uses + (recent == seat))
        costs.append(row)
    best = min(
        itertools.permutations(range(n)),  # perm[s] = the player in seat s + 1; min keeps the first best
        key=lambda perm: sum(costs[i][s] for s, i in enumerate(perm)),
    )
    return tuple(table[i].id for i in best)


def _table_kinds(order: Sequence[Entrant], small_seats: int) -> list[int]:
    """For each ranked player, SMALL (must sit at a small table), BIG (must not) or FREE.

    The ``small_seats`` seats at small tables go to the players with the fewest small tables so far:
    if ``v`` is the ``small_seats``-th smallest count, players below ``v`` are SMALL, above it BIG,
    and those on ``v`` FREE (as many of them as seats are left sit at small tables).
    """
    if not small_seats:
        return [FREE] * len(order)
    v = sorted(e.small_tables for e in order)[small_seats - 1]
    return [SMALL if e.small_tables < v else BIG if e.small_tables > v else FREE for e in order]


def _cost(group: list[int], times: list[dict[int, int]]) -> int:
    return sum(times[a].get(b, 0) ** 2 for k, a in enumerate(group) for b in group[k + 1 :])


def _spread(
    groups: list[list[int]], times: list[dict[int, int]], kind: Sequence[int], passes: int = 4
) -> None:
    """Swap players between tables to lower the squared meeting counts (see the module docstring).

    First between tables at most REACH apart; then, for each table still holding a repeat, with the
    nearest table at any distance where a swap helps. Each stage runs a few passes, until one
    changes nothing. Between tables of different sizes only FREE players are swapped, so who sits at
    a small table stays as :func:`_table_kinds` decided.
    """
    for _ in range(passes):
        improved = False
        for i in range(len(groups)):
            for j in range(i + 1, min(len(groups), i + 1 + REACH)):
                improved |= _swap(groups[i], groups[j], times, kind)
        if not improved:
            break
    for _ in range(passes):
        improved = False
        for i in range(len(groups)):
            for d in range(1, len(groups)):
                if _cost(groups[i], times) == 0:
                    break
                for j in (i + d, i - d):
                    if 0 <= j < len(groups) and _swap(groups[i], groups[j], times, kind):
                        improved = True
                        break
        if not improved:
            break


def _swap(gi: list[int], gj: list[int], times: list[dict[int, int]], kind: Sequence[int]) -> bool:
    """Swap players between two tables, one swap after another, while each lowers their joint cost."""
    base = _cost(gi, times) + _cost(gj, times)
    improved = False
    if base == 0:
        return False
    same = len(gi) == len(gj)
    for a in range(len(gi)):
        for b in range(len(gj)):
            if not same and (kind[gi[a]] != FREE or kind[gj[b]] != FREE):
                continue
            gi[a], gj[b] = gj[b], gi[a]
            new = _cost(gi, times) + _cost(gj, times)
            if new < base:
                base, improved = new, True
            else:
                gi[a], gj[b] = gj[b], gi[a]
    return improved
