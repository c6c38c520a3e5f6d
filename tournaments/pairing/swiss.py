"""Swiss rounds for tables of 2, 3 or 4 players.

**Ranking.** Players are ranked by score (highest first), then rating (highest
first), then id (so the result never depends on the input order). A *score
group* is a run of players with the same score.

Two seats
---------

Seat 1 moves first: it plays the part of White in FIDE's Dutch system, whose
colour rules are followed here (C.04.1, C.04.3), seat 2 that of Black.

*Seat preferences.* From the seats a player took (byes left out; seats 3 and 4
ignored), ``d`` = games in seat 1 minus games in seat 2. The preference is
*absolute* for the other seat than the last two games when those were the same
seat, or for the less used seat when ``|d| > 1``; *strong* for the less used
seat when ``|d| == 1``; *mild* for the other seat than the last game when
``d == 0``; none before the first game. Two players *clash* when both have an
absolute preference for the same seat. (FIDE lets topscorers clash in the last
round; this pairing has no such exception.)

*Bye.* With an odd count, one player sits out, among those with the fewest byes
so far (so nobody gets a second bye while someone else has none), tried from the
bottom of the ranking up: the lowest one is taken when the others then pair with
neither a rematch nor a clash (the usual case, settled by pairing them).
Otherwise one maximum matching of everybody (Edmonds' blossom algorithm) is
grown once, and for each candidate one more augmenting search tells whether the
others still pair without a rematch or clash; failing that, without a rematch;
failing that, the candidate whose absence leaves the fewest rematches. So the
bye avoids a rematch whenever any fewest-byes player's bye can, even when only
the leader's can.

*Pairs.* Players are paired twice over if need be: first with rematches and
clashes both forbidden; if that leaves one, again with rematches alone
forbidden, and of the two the one with fewer rematches, then fewer clashes, is
kept. Each time, score groups are paired one after another from the top, as
*brackets* of the group plus the players floating down into it from above:

1. each player floating down, best first, meets the best-ranked player of the
   group allowed, one whose seat preference it does not share (both want the
   same seat) if there is one, and among those one who did not float up last
   round (``Entrant.floated``) if there is one;
2. if the other players are odd in number, one of them will float down: the
   lowest-ranked of the group who did not float down last round (or had a bye)
   is set aside;
3. the others split into a top half S1 and a bottom half S2 (the classic Swiss
   pattern: in a group of eight, 1 meets 5, 2 meets 6, ...): each player of S1,
   best first, meets the first player of S2 allowed whose seat preference it
   does not share, else the first allowed, else the first allowed of S1 below
   it;
4. if two or more are still unpaired, augmenting paths (Edmonds) within the
   bracket raise the number of pairs to the maximum (nearest in the ranking
   tried first), so the fewest possible float down;
5. those left unpaired float down into the next bracket.

Brackets can only get stuck at the bottom, where the last players have all met.
Then the last pairs made are undone, up to :data:`TAIL_UNDO` of them, and those
players plus the rest are paired again by an exact search (depth first, own
score group first from halfway down, then lower groups, remembering the sets of
players that cannot be paired), as long as that concerns at most
:data:`TAIL_LIMIT` players and :data:`TAIL_BUDGET` search steps in all.

*Repair.* If a forbidden pair is still left, a pass swaps partners between that
pair and the nearest pair (in the ranking) for which both new pairs are
allowed. If that is not enough either, a maximum matching over the allowed pairs
(Edmonds, grown from the pairs already made; neighbours tried nearest in the
ranking first) finds the largest number of allowed pairs that exists; only the
players it cannot match are paired otherwise, with those they met least often.
So a rematch happens only when no pairing of these players avoids it, and a
clash only when no rematch-free pairing avoids it; since a player whose
preference is absolute always gets it unless they clash, a player never clashed
ends with ``|d| <= 2`` and never takes one seat three games running.

No global weighted matching is solved, so pairing 1,000 players takes
milliseconds.

*First move.* In each pair, FIDE's colour allocation (C.04.3 E) decides who
takes seat 1: both preferences when they differ (or only one player has one);
else the stronger preference (absolute, strong, mild); between two absolute
ones, the player with the larger ``|d|``; else the players alternate from the
most recent game (counted back from each one's last game) in which they had
different seats; else the higher-ranked player's preference. With no
preference at all (round 1), the higher-ranked player takes seat 1 on the 1st,
3rd, 5th... table and seat 2 on the others. Tables are listed top board first.

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
order rotates first and last seats (:func:`_seat_rotation`): every order of its
players is scored on the seat counts it leads to, so that each player's
first-seat and last-seat counts stay within one of each other and every seat is
used about as often (``Entrant.last_seats`` tells the past last seats).

Small tables are not a handicap in the standings either: every table size pays
the same average points (:mod:`tournaments.standings`).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from .seats import assign_seats  # noqa: F401  (the docstring refers to it)
from .sizes import table_sizes
from .types import Entrant, Round, Table

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


def _two_seats(order: list[Entrant]) -> Round:
    prefs = [preference(e.seat_history) for e in order]
    byes: tuple[int, ...] = ()
    if len(order) % 2 == 0:
        playing, pairs = order, _pair(order, prefs)
    else:
        bye, pairs = _with_bye(order, prefs)
        byes = (order[bye].id,)
        playing = order[:bye] + order[bye + 1 :]
    prefs = [preference(e.seat_history) for e in playing]
    tables = tuple(
        Table(_seat_order(playing[a], playing[b], prefs[a], prefs[b], board))
        for board, (a, b) in enumerate(sorted(pairs))
    )
    return Round(tables, byes)


def _with_bye(order: list[Entrant], prefs: list[Preference]) -> tuple[int, list[Pair]]:
    """The bye (an index into ``order``) and the pairs of the others (indices into the rest).

    Candidates are the players with the fewest byes, from the bottom of the ranking up. The first
    one is taken if the others can be paired with neither a rematch nor a clash of absolute seat
    preferences (the common case, settled by pairing them). Otherwise maximum matchings tell,
    cheaply, which candidate leaves such a pairing; failing that, one without a rematch; failing
    that, the one that leaves the fewest rematches.
    """
    fewest = min(e.byes for e in order)
    candidates = [i for i in range(len(order) - 1, -1, -1) if order[i].byes == fewest]

    def pair_without(i: int) -> tuple[list[Pair], tuple[int, int]]:
        rest, rest_prefs = order[:i] + order[i + 1 :], prefs[:i] + prefs[i + 1 :]
        pairs = _pair(rest, rest_prefs)
        return pairs, _faults(rest, rest_prefs, pairs)

    pairs, faults = pair_without(candidates[0])
    if faults == (0, 0):
        return candidates[0], pairs
    times = _times(order)
    strict = [
        {j for j in range(len(order)) if j != i and j not in times[i] and not _clash(prefs[i], prefs[j])}
        for i in range(len(order))
    ]
    fresh = [{j for j in range(len(order)) if j != i and j not in times[i]} for i in range(len(order))]
    for graph in (strict, fresh):
        left = _left_out(graph, candidates)
        if left:
            best = next(i for i in candidates if left[i] == min(left.values()))
            if left[best] == 0:
                return best, pair_without(best)[0]
    # Rematches are forced: the candidate whose absence leaves the largest not-met matching.
    best = min(candidates, key=lambda i: left[i])  # min keeps the first (lowest-ranked) best
    return best, pair_without(best)[0]


def _left_out(graph: list[set[int]], candidates: list[int]) -> dict[int, int]:
    """For each candidate, how many other players a maximum matching of ``graph`` leaves out without it.

    One maximum matching of everybody is grown (Edmonds). A player can be left out of some maximum
    matching exactly when an alternating path of even length leads to it from a player the matching
    leaves out (Gallai-Edmonds): the outer vertices of the failed searches from those players. Such
    a candidate's absence costs no pair; any other's costs one.
    """
    n = len(graph)
    adj = [sorted(graph[v]) for v in range(n)]
    match = _max_matching(n, adj)
    unmatched = [v for v in range(n) if match[v] == -1]
    spare = [False] * n  # left out by some maximum matching
    for root in unmatched:
        _augment(n, root, match, lambda x: iter(adj[x]), outer=spare)  # fails: the matching is maximum
    return {v: len(unmatched) - 1 if spare[v] else len(unmatched) + 1 for v in candidates}


def _max_matching(n: int, adj: list[list[int]]) -> list[int]:
    """A maximum matching (``match[v]`` is v's partner or -1): greedy by rank, then augmented."""
    match = [-1] * n
    for v in range(n):
        if match[v] == -1:
            u = next((u for u in adj[v] if u > v and match[u] == -1), -1)
            if u != -1:
                match[v], match[u] = u, v
    for root in range(n):
        if match[root] == -1:
            _augment(n, root, match, lambda x: iter(adj[x]))
    return match


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


def _pair(order: Sequence[Entrant], prefs: Sequence[Preference]) -> list[Pair]:
    """Pairs of indices into ``order`` (an even count, ranked), with as few rematches as possible.

    Tried first with clashing absolute seat preferences forbidden like rematches; when that leaves
    a rematch or a clash, again with rematches alone forbidden, and the better of the two (fewer
    rematches, then fewer clashes) is kept.
    """
    times = _times(order)

    def fresh(a: int, b: int) -> bool:
        return b not in times[a]

    def strict(a: int, b: int) -> bool:
        return b not in times[a] and not _clash(prefs[a], prefs[b])

    pairs = _pair_with(order, prefs, strict, times)
    faults = _faults(order, prefs, pairs)
    if faults != (0, 0):
        relaxed = _pair_with(order, prefs, fresh, times)
        if _faults(order, prefs, relaxed) < faults:
            pairs = relaxed
    return pairs


def _pair_with(
    order: Sequence[Entrant],
    prefs: Sequence[Preference],
    allowed: Callable[[int, int], bool],
    times: list[dict[int, int]],
) -> list[Pair]:
    """Bracket by bracket (see the module docstring), then the tail search and the repair stages."""
    n = len(order)
    keys = [round(e.score, 9) for e in order]
    groups: list[list[int]] = []
    for i in range(n):
        if i == 0 or keys[i] != keys[i - 1]:
            groups.append([])
        groups[-1].append(i)

    def conflict(a: int, b: int) -> bool:
        return _conflict(prefs[a], prefs[b])

    floated = [e.floated for e in order]

    pairs: list[Pair] = []
    floaters: list[int] = []
    for group in groups:
        made, floaters = _bracket(floaters, group, allowed, conflict, floated)
        pairs.extend(made)
    if floaters:  # the bottom is stuck: these players have all met
        pairs = _pair_tail(pairs, floaters, keys, allowed, times)
    if any(not allowed(a, b) for a, b in pairs):
        _swap_repair(pairs, allowed)
    if any(not allowed(a, b) for a, b in pairs):
        pairs = _maximum_fresh(n, pairs, allowed, times)
    return sorted((min(a, b), max(a, b)) for a, b in pairs)


def _bracket(
    floaters: list[int],
    residents: list[int],
    allowed: Callable[[int, int], bool],
    conflict: Callable[[int, int], bool],
    floated: Sequence[int],
) -> tuple[list[Pair], list[int]]:
    """Pair one score group and the players floating down into it; return the pairs and who floats on.

    1. Each floater, best first, meets the best-ranked resident allowed, one whose seat preference
       it does not share if there is one.
    2. The others split into a top half S1 and a bottom half S2 (ranked); each player of S1, best
       first, meets the first player of S2 allowed whose seat preference it does not share, else
       the first allowed, else the first allowed of S1 below it.
    3. If two or more are left unpaired, augmenting paths (Edmonds) within the bracket raise the
       number of pairs to the maximum, so the fewest possible float on.
    """
    pairs: list[Pair] = []
    used: set[int] = set()

    def pick(a: int, pool: Sequence[int], up: bool) -> int | None:
        """The first of ``pool`` allowed for ``a``: best one whose seat preference ``a`` does not
        share and, if it would float up (``up``), who did not float up last round."""
        best, best_key = None, (True, True)
        for c in pool:
            if c in used or c == a or not allowed(a, c):
                continue
            key = (conflict(a, c), up and floated[c] > 0)
            if key == (False, False):
                return c
            if best is None or key < best_key:
                best, best_key = c, key
        return best

    for f in floaters:
        c = pick(f, residents, True)
        if c is not None:
            pairs.append((f, c))
            used.update((f, c))
    rest = [i for i in floaters + residents if i not in used]
    drop: list[int] = []
    if len(rest) % 2:  # one must float down: the lowest-ranked resident who did not float down last round
        spare = [i for i in rest if i not in floaters] or rest
        drop = [next((i for i in reversed(spare) if floated[i] >= 0), spare[-1])]
        rest.remove(drop[0])
    half = len(rest) // 2
    s1, s2 = rest[:half], rest[half:]
    for k, a in enumerate(s1):
        if a in used:
            continue
        c = pick(a, s2, False)
        if c is None:
            c = pick(a, s1[k + 1 :], False)
        if c is not None:
            pairs.append((a, c))
            used.update((a, c))
    rest += drop
    left = [i for i in rest if i not in used]
    if len(left) >= 2:
        pairs = _grow(floaters + residents, pairs, allowed)
        matched = {v for pair in pairs for v in pair}
        left = [i for i in floaters + residents if i not in matched]
    return pairs, sorted(left)


def _distance(v: int, u: int) -> int:
    return abs(u - v)


def _grow(players: list[int], pairs: list[Pair], allowed: Callable[[int, int], bool]) -> list[Pair]:
    """Raise ``pairs`` to a maximum matching of the allowed pairs among ``players`` (ranked)."""
    m = len(players)
    local = {v: k for k, v in enumerate(players)}
    match = [-1] * m
    for a, b in pairs:
        match[local[a]], match[local[b]] = local[b], local[a]
    adj = [[u for u in range(m) if u != v and allowed(players[v], players[u])] for v in range(m)]
    for v, row in enumerate(adj):  # nearest in the ranking first, so the pairs stay close in score
        row.sort(key=functools.partial(_distance, v))
    for root in range(m):  # best-ranked first: the ones left out, if any, tend to be the bottom
        if match[root] == -1:
            _augment(m, root, match, lambda x: iter(adj[x]))
    return [(players[v], players[match[v]]) for v in range(m) if match[v] > v]


def _ordered(a: int, rest: Sequence[int], keys: Sequence[float]) -> list[int]:
    """Own score group from halfway down, then back up, then the lower groups: the tail search's order."""
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


def _augment(
    n: int,
    root: int,
    match: list[int],
    neighbours: Callable[[int], Iterator[int]],
    outer: list[bool] | None = None,
) -> bool:
    """Edmonds' blossom search for an augmenting path from ``root``; flips it into ``match`` if found.

    If none is found and ``outer`` is given, the search tree's outer vertices (those an alternating
    path of even length from ``root`` reaches) are marked in it.
    """
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
    if outer is not None:
        for i in range(n):
            outer[i] = outer[i] or used[i]
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
