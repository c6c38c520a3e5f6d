"""Swiss rounds for tables of 2, 3 or 4 players.

**Ranking.** Players are ranked by score (highest first), then rating (highest
first), then id (so the result never depends on the input order). A *score
group* is a run of players with the same score.

Two seats
---------

*Bye.* With an odd count, one player sits out: the lowest-ranked player among
those with the fewest byes so far. So nobody gets a second bye while someone
else has none, and byes go to the bottom of the ranking. (If that choice would
force a rematch and another of those players would not, the next one up is
tried, up to :data:`BYE_TRIES` of them.)

*Pairs.* Pairs are made top-down. The highest-ranked unpaired player ``a``
takes the first player in this order whom ``a`` has not met:

1. players of ``a``'s own score group, starting halfway down it (the classic
   Swiss pattern: in a group of eight, 1 meets 5, 2 meets 6, ...), going down to
   the bottom of the group, then back up towards ``a``;
2. then players of the lower score groups, best first: ``a`` *floats down*.
   A group with an odd count, or whose members have all met, floats its last
   player down this way, who then meets the top of the next group.

The order is read lazily, so a pair costs little more than looking at the few
candidates it skips, and a round of 1,000 players takes milliseconds (no
matching over all pairs of players, which would be far too slow).

Walking down the ranking can only get stuck at the bottom: a player who has met
every remaining player has played at least as many games as there are players
left. Then the last pairs made are undone, up to :data:`TAIL_UNDO` of them, and
those players plus the rest are paired again by an exact search (depth first,
in the same order of preference, remembering the sets of players that cannot
be paired), as long as that concerns at most :data:`TAIL_LIMIT` players and
:data:`TAIL_BUDGET` search steps in all.

*Repair.* If a rematch is still left, a pass swaps partners between the pair
with the rematch and the nearest pair (in the ranking) for which both new pairs
are fresh. If that is not enough either, a maximum matching over the "not met
yet" graph (Edmonds' blossom algorithm, grown from the pairs already made, so it
only has to add the few missing pairs; neighbours are tried nearest in the
ranking first) finds the largest number of fresh pairs that exists. Only the
players it cannot match meet again, paired with those they met least often. So a
rematch happens only when no pairing of these players avoids it.

*First move.* In each pair, seat 1 (the first move) goes to the player who has
had seat 1 fewer times; on a tie, to the lower-ranked player. Tables are listed
top board first.

Three or four seats
-------------------

Table sizes come from :func:`table_sizes` (no byes). When they differ (10
players at 4 seats: 4 + 3 + 3), the *small tables* (those smaller than the
largest) rotate: their ``m`` seats go to the players with the fewest small
tables so far (``Entrant.small_tables``). With ``v`` the ``m``-th smallest of
those counts, players below ``v`` must sit at a small table, players above ``v``
must not, and players on ``v`` are free (exactly as many of them as small seats
are left sit at one). So small-table counts never differ by more than one
between players who have played every round, and nobody sits at a second small
table while another player has had none. Who of the free players gets the small
seats follows the ranking, as below.

Tables are filled from the top of the ranking: a table starts with the
best-ranked player not yet seated; it is a small table if that player must sit
at one, or is free and every seat at the largest tables is taken or reserved.
Each further seat goes to the candidate, among the next :data:`WINDOW` unseated
players who may sit at a table of that size, who has met the players already at
the table the fewest times (counting every earlier meeting); on a tie, the
best-ranked. So tables hold players of similar score, small tables sit where
their players are in the ranking (at the bottom when nobody is bound: with every
``small_tables`` equal, as when a caller leaves it at 0, the largest tables are
the top ones), and repeated meetings are avoided where a nearby player can take
the seat. Then players are swapped between tables at most :data:`REACH` apart
(so still of similar score) whenever the swap lowers the sum, over both tables,
of the squared earlier-meeting counts of the pairs seated together (squared, so
that a pair meeting for the third time weighs more than two pairs meeting for
the second time); between tables of different sizes only two free players are
swapped. A table still holding a repeat after that looks further, to the
nearest table at any distance where a swap helps. Tables are listed in the order
they were started (the best-ranked player first). Finally each table's seat
order comes from :func:`assign_seats`.

Small tables are not a handicap in the standings either: every table size pays
the same average points (:mod:`tournaments.standings`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from .seats import assign_seats
from .sizes import table_sizes
from .types import Entrant, Round, Table

BYE_TRIES = 8  # bye candidates tried, from the bottom, when the first one forces a rematch
TAIL_UNDO = 8  # pairs undone, at most, to pair the bottom of the ranking again
TAIL_LIMIT = 40  # players, at most, paired again that way (beyond that, the repair stages do it)
TAIL_BUDGET = 20_000  # search steps allowed for that, in all
WINDOW = 12  # 3-4 seats: candidates looked at for each seat
REACH = 2  # 3-4 seats: how many tables apart players may be swapped

Pair = tuple[int, int]  # indices into the ranking, better-ranked first


def swiss_round(entrants: Sequence[Entrant], seats: int) -> Round:
    """Pair one Swiss round (rules in the module docstring).

    With fewer than two entrants there is nothing to pair: the lone entrant, if
    any, sits out.
    """
    if seats not in (2, 3, 4):
        raise ValueError(f"tables have 2, 3 or 4 seats, not {seats}")
    ids = [e.id for e in entrants]
    if len(set(ids)) != len(ids):
        raise ValueError("an entrant appears twice")
    order = rank(entrants)
    if len(order) < 2:
        return Round((), tuple(ids))
    if seats == 2:
        return _two_seats(order)
    return _tables(order, seats)


def rank(entrants: Sequence[Entrant]) -> list[Entrant]:
    """Score, then rating (both highest first), then id."""
    return sorted(entrants, key=lambda e: (-e.score, -e.rating, e.id))


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


def _two_seats(order: list[Entrant]) -> Round:
    byes: tuple[int, ...] = ()
    if len(order) % 2 == 0:
        playing, pairs = order, _pair(order)
    else:
        fewest = min(e.byes for e in order)
        candidates = [i for i in range(len(order) - 1, -1, -1) if order[i].byes == fewest][:BYE_TRIES]
        best: tuple[int, int, list[Entrant], list[Pair]] | None = None
        for i in candidates:
            rest = order[:i] + order[i + 1 :]
            tried = _pair(rest)
            times = _times(rest)
            repeats = sum(1 for a, b in tried if b in times[a])
            if best is None or repeats < best[0]:
                best = (repeats, i, rest, tried)
            if repeats == 0:
                break
        assert best is not None
        _, bye, playing, pairs = best
        byes = (order[bye].id,)
    tables = tuple(Table(_first_move(playing[a], playing[b])) for a, b in sorted(pairs))
    return Round(tables, byes)


def _first_move(better: Entrant, lower: Entrant) -> tuple[int, int]:
    """Seat 1 to the player with fewer first moves so far; on a tie, to the lower-ranked one."""
    if better.seat_history.count(1) < lower.seat_history.count(1):
        return better.id, lower.id
    return lower.id, better.id


def _pair(order: Sequence[Entrant]) -> list[Pair]:
    """Pairs of indices into ``order`` (an even count, ranked), with as few rematches as possible."""
    n = len(order)
    times = _times(order)

    def fresh(a: int, b: int) -> bool:
        return b not in times[a]

    keys = [round(e.score, 9) for e in order]
    group_of: list[int] = []
    members: list[list[int]] = []  # unpaired players of each score group, in rank order
    for i in range(n):
        if i == 0 or keys[i] != keys[i - 1]:
            members.append([])
        members[-1].append(i)
        group_of.append(len(members) - 1)

    pairs: list[Pair] = []
    top = 0  # first score group with unpaired players
    while True:
        while top < len(members) and not members[top]:
            top += 1
        if top == len(members):
            break
        a = members[top][0]
        b = next((c for c in _preference(a, members, top) if fresh(a, c)), None)
        if b is None:
            rest = sorted(i for g in members[top:] for i in g)
            pairs = _pair_tail(pairs, rest, keys, fresh, times)
            break
        pairs.append((a, b))
        members[top].remove(a)
        members[group_of[b]].remove(b)

    if any(not fresh(a, b) for a, b in pairs):
        _swap_repair(pairs, fresh)
    if any(not fresh(a, b) for a, b in pairs):
        pairs = _maximum_fresh(n, pairs, fresh, times)
    return pairs


def _preference(a: int, members: list[list[int]], top: int) -> Iterator[int]:
    """``a``'s partners in order of preference: own group from halfway down, then lower groups."""
    group = members[top]  # group[0] is a
    half = max(1, len(group) // 2)  # a group of one (a alone) has no one to offer
    for k in range(half, len(group)):
        yield group[k]
    for k in range(half - 1, 0, -1):
        yield group[k]
    for g in range(top + 1, len(members)):
        yield from members[g]


def _ordered(a: int, rest: Sequence[int], keys: Sequence[float]) -> list[int]:
    """The same order of preference as :func:`_preference`, over a plain list of ranked players."""
    own = [c for c in rest if keys[c] == keys[a]]
    half = (len(own) + 1) // 2  # own excludes a: the group's halfway point, counting a
    below = [c for c in rest if keys[c] != keys[a]]
    return own[half - 1 :] + own[: half - 1][::-1] + below if own else below


def _pair_tail(
    pairs: list[Pair],
    rest: list[int],
    keys: Sequence[float],
    fresh: Callable[[int, int], bool],
    times: list[dict[int, int]],
) -> list[Pair]:
    """Pair the stuck bottom of the ranking, undoing the last pairs made if that helps."""
    budget = [TAIL_BUDGET]  # search steps, shared by all the attempts
    for undo in range(min(TAIL_UNDO, len(pairs)) + 1):
        kept = pairs[: len(pairs) - undo]
        players = sorted(rest + [p for pair in pairs[len(pairs) - undo :] for p in pair])
        if len(players) > TAIL_LIMIT:
            break
        found = _exact(players, keys, fresh, budget)
        if found is not None:
            return kept + found
        if budget[0] <= 0:
            break
    # No fresh pairing of the tail: pair it with as few repeats as the greedy order finds; repair follows.
    out = list(pairs)
    left = list(rest)
    while left:
        a = left.pop(0)
        b = min(_ordered(a, left, keys), key=lambda c: times[a].get(c, 0))  # min keeps the first best
        left.remove(b)
        out.append((a, b))
    return out


class _OutOfSteps(Exception):
    pass


def _exact(
    players: list[int], keys: Sequence[float], fresh: Callable[[int, int], bool], budget: list[int]
) -> list[Pair] | None:
    """A pairing of ``players`` without rematches, in order of preference; None if none (or out of steps).

    ``budget[0]`` counts down the search steps left.
    """
    failed: set[tuple[int, ...]] = set()

    def solve(left: tuple[int, ...]) -> list[Pair] | None:
        if not left:
            return []
        if left in failed:
            return None
        budget[0] -= 1
        if budget[0] < 0:
            raise _OutOfSteps
        a, rest = left[0], left[1:]
        for b in _ordered(a, rest, keys):
            if fresh(a, b):
                sub = solve(tuple(c for c in rest if c != b))
                if sub is not None:
                    return [(a, b), *sub]
        failed.add(left)
        return None

    try:
        return solve(tuple(players))
    except _OutOfSteps:
        return None


def _swap_repair(pairs: list[Pair], fresh: Callable[[int, int], bool]) -> None:
    """Swap partners with the nearest pair that makes both pairs fresh, for each rematch."""
    pairs.sort()
    for i in range(len(pairs)):
        a, b = pairs[i]
        if fresh(a, b):
            continue
        for d in range(1, len(pairs)):
            done = False
            for j in (i + d, i - d):
                if not 0 <= j < len(pairs):
                    continue
                c, e = pairs[j]
                for (w, x), (y, z) in (((a, c), (b, e)), ((a, e), (b, c))):
                    if fresh(w, x) and fresh(y, z):
                        pairs[i], pairs[j] = (min(w, x), max(w, x)), (min(y, z), max(y, z))
                        done = True
                        break
                if done:
                    break
            if done:
                break


def _maximum_fresh(
    n: int, pairs: list[Pair], fresh: Callable[[int, int], bool], times: list[dict[int, int]]
) -> list[Pair]:
    """Grow the fresh pairs into a maximum matching of the not-met graph; pair the rest by fewest meetings."""
    match = [-1] * n
    for a, b in pairs:
        if fresh(a, b):
            match[a], match[b] = b, a

    def neighbours(v: int) -> Iterator[int]:
        for d in range(1, n):
            for u in (v + d, v - d):
                if 0 <= u < n and fresh(v, u):
                    yield u

    for root in range(n):
        if match[root] == -1:
            _augment(n, root, match, neighbours)
    out: list[Pair] = []
    left = [v for v in range(n) if match[v] == -1]
    for v in range(n):
        if match[v] > v:
            out.append((v, match[v]))
    while left:
        a = left.pop(0)
        b = min(left, key=lambda c: (times[a].get(c, 0), c))
        left.remove(b)
        out.append((a, b))
    return sorted(out)


def _augment(n: int, root: int, match: list[int], neighbours: Callable[[int], Iterator[int]]) -> bool:
    """Edmonds' blossom search for an augmenting path from ``root``; flips it into ``match`` if found."""
    base = list(range(n))
    parent = [-1] * n
    used = [False] * n
    used[root] = True
    queue = [root]

    def lca(a: int, b: int) -> int:
        seen = [False] * n
        while True:
            a = base[a]
            seen[a] = True
            if match[a] == -1:
                break
            a = parent[match[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[match[b]]

    def mark(v: int, b: int, child: int, blossom: list[bool]) -> None:
        while base[v] != b:
            blossom[base[v]] = blossom[base[match[v]]] = True
            parent[v] = child
            child = match[v]
            v = parent[match[v]]

    head = 0
    while head < len(queue):
        v = queue[head]
        head += 1
        for to in neighbours(v):
            if base[v] == base[to] or match[v] == to:
                continue
            if to == root or (match[to] != -1 and parent[match[to]] != -1):
                cur = lca(v, to)
                blossom = [False] * n
                mark(v, cur, to, blossom)
                mark(to, cur, v, blossom)
                for i in range(n):
                    if blossom[base[i]]:
                        base[i] = cur
                        if not used[i]:
                            used[i] = True
                            queue.append(i)
            elif parent[to] == -1:
                parent[to] = v
                if match[to] == -1:
                    while to != -1:  # flip the path root ... v - to
                        pv = parent[to]
                        nxt = match[pv]
                        match[to], match[pv] = pv, to
                        to = nxt
                    return True
                used[match[to]] = True
                queue.append(match[to])
    return False


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
    history = {e.id: e.seat_history for e in order}
    return Round(tuple(Table(assign_seats([order[i].id for i in sorted(g)], history)) for g in groups))


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
