"""The matching search of a two-seat Swiss round: the bye, score groups, floats and repairs.

Which pairs it looks for is stated in :mod:`.swiss`; the rules it keeps are in :mod:`.swiss_rules`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence

from .swiss_rules import Pair, Preference, _clash, _conflict, _faults, _times
from .types import Entrant

TAIL_UNDO = 8  # pairs undone, at most, to pair the bottom of the ranking again
TAIL_LIMIT = 40  # players, at most, paired again that way (beyond that, the repair stages do it)
TAIL_BUDGET = 20_000  # search steps allowed for that, in all


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
