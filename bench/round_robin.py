"""Benchmark and offline search: round-robin schedules at 3 and 4 seats (prints figures; not a test).

Default mode: for every player count from 4 to 40 at 3 and 4 seats, build the
schedule with :func:`tournaments.pairing.round_robin` (default number of rounds)
and print its figures: the pairs of players who never meet, the pairs meeting
twice or more, the most meetings of one pair, the lower bound on never-meeting
pairs (``max(0, pairs - meetings)``, the meetings being fixed by the table
sizes), whether the schedule is perfect (every pair meets exactly once), and the
spread of seat 1 and of the last seat (the most minus the fewest times a
player sat there, every round seated by the service's own
``tournaments.competitions.services.rounds._scheduled_round``: at most 1), and the time to build
it; next to them the figures of the previous algorithm (the greedy build and
60,000-step annealing alone, measured before the precomputed schedules came
in: :data:`OLD`).

    .venv/bin/python bench/round_robin.py

Search mode (``--search``) recomputes the precomputed schedules and writes
``tournaments/pairing/round_robin_data.py`` (or ``--out``). For each count it
takes, where there is one, a perfect schedule from a construction:

* affine geometry: the lines of AG(2, 3) (9 players in threes), AG(3, 3)
  (27 in threes) and AG(2, 4) (16 in fours), one round per direction;
* Kirkman triple systems on ``2q + 1`` points, ``q = 6t + 1`` prime (15 and 39
  players): points ``GF(q) x {A, B}`` and one more; a base round is developed
  by adding each element of ``GF(q)`` (which A point joins each mixed triple
  is found by a small backtracking search);
* 21 players in threes: points ``Z_7 x {0, 1, 2}``, a base round developed
  over ``Z_7`` and three rounds that are ``Z_7`` orbits (:func:`kirkman_21`);
* 1-rotational designs (33 players in threes over ``Z_32``; 28 in fours over
  ``Z_3^3``, 40 over ``Z_39``): points a group of order ``n - 1`` plus one fixed
  point, a base round invariant under a subgroup of order ``seats - 1``, its
  blocks found by backtracking over differences, translated by the cosets;

failing that, the best (fewest pairs meeting twice or more, then fewest never
meeting) of: the module's own search (so never worse than it); schedules
derived from those designs by leaving out or adding players (:func:`derived`),
each also polished by annealing started cool; and annealing runs from random
starts (the module's moves and cost, the sum of cubes of the pair meeting
counts; ``100,000 + 25,000 n`` steps, starting temperatures 0.6, 1.5, 3.0 in
turn, seeded) until ``--budget`` seconds have gone (at least 2 runs, at most
12), or a run reaches the most even spread the meeting count allows. The
rounds are then ordered so that short prefixes repeat as few pairs as they can
(greedily). Each run is seeded, but the number of runs depends on the
machine's speed, so a rerun may write other schedules
(the file in the repository is the one the tests and the table below check).

    .venv/bin/python bench/round_robin.py --search [--budget SECONDS]
"""

from __future__ import annotations

import argparse
import functools
import math
import random
import sys
import time
from collections import Counter
from itertools import combinations, permutations, product
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.pairing import round_robin, table_sizes
from tournaments.pairing.round_robin import ALPHABET, _search, _searched

DATA = Path(__file__).resolve().parent.parent / "tournaments" / "pairing" / "round_robin_data.py"
COUNTS = range(4, 41)

# (players, seats) -> (never, twice or more, max meetings) of the previous algorithm, measured before
# the change (same machine as the new figures; it took 0.3-0.6 s per schedule when the search ran).
# fmt: off
OLD: dict[tuple[int, int], tuple[int, int, int]] = {
    (4, 3): (2, 0, 1), (5, 3): (3, 1, 2), (6, 3): (3, 6, 2), (7, 3): (6, 0, 1), (8, 3): (0, 0, 1),
    (9, 3): (0, 0, 1), (10, 3): (5, 0, 1), (11, 3): (6, 1, 2), (12, 3): (1, 7, 2), (13, 3): (12, 0, 1),
    (14, 3): (3, 3, 2), (15, 3): (5, 5, 2), (16, 3): (10, 2, 2), (17, 3): (10, 2, 2), (18, 3): (2, 11, 2),
    (19, 3): (20, 2, 2), (20, 3): (5, 5, 2), (21, 3): (12, 12, 2), (22, 3): (16, 5, 2), (23, 3): (17, 6, 2),
    (24, 3): (5, 17, 2), (25, 3): (27, 3, 2), (26, 3): (11, 11, 2), (27, 3): (17, 17, 2),
    (28, 3): (24, 10, 2), (29, 3): (27, 13, 2), (30, 3): (14, 29, 2), (31, 3): (41, 11, 2),
    (32, 3): (22, 22, 2), (33, 3): (28, 28, 2), (34, 3): (39, 22, 2), (35, 3): (39, 22, 2),
    (36, 3): (26, 44, 2), (37, 3): (53, 17, 2), (38, 3): (35, 35, 2), (39, 3): (42, 42, 2),
    (40, 3): (53, 33, 2),
    (4, 4): (0, 0, 1), (5, 4): (3, 1, 2), (6, 4): (5, 2, 2), (7, 4): (6, 3, 2), (8, 4): (4, 12, 2),
    (9, 4): (9, 0, 1), (10, 4): (12, 3, 2), (11, 4): (7, 12, 2), (12, 4): (12, 18, 2), (13, 4): (18, 0, 1),
    (14, 4): (4, 3, 2), (15, 4): (4, 4, 2), (16, 4): (0, 0, 1), (17, 4): (13, 3, 2), (18, 4): (14, 5, 2),
    (19, 4): (19, 10, 2), (20, 4): (8, 28, 2), (21, 4): (28, 7, 2), (22, 4): (27, 6, 2),
    (23, 4): (14, 25, 2), (24, 4): (20, 32, 2), (25, 4): (43, 7, 2), (26, 4): (26, 25, 2),
    (27, 4): (31, 31, 2), (28, 4): (34, 34, 2), (29, 4): (40, 24, 2), (30, 4): (42, 27, 2),
    (31, 4): (46, 31, 2), (32, 4): (30, 62, 2), (33, 4): (59, 26, 2), (34, 4): (58, 25, 2),
    (35, 4): (43, 60, 2), (36, 4): (46, 64, 2), (37, 4): (88, 34, 2), (38, 4): (54, 53, 2),
    (39, 4): (65, 65, 2), (40, 4): (75, 75, 2),
}
# fmt: on

Plan = list[list[list[int]]]  # rounds -> tables -> player indices


def default_rounds(n: int, seats: int) -> int:
    return math.ceil((n - 1) / (seats - 1))


def figures(plan: Plan, n: int) -> tuple[int, int, int]:
    met = Counter(frozenset(p) for groups in plan for g in groups for p in combinations(g, 2))
    never = n * (n - 1) // 2 - len(met)
    return never, sum(1 for v in met.values() if v >= 2), max(met.values(), default=0)


def meetings(n: int, seats: int) -> int:
    """Meetings in the schedule (pairs at one table, counted per round): fixed by the table sizes."""
    sizes, _ = table_sizes(n, seats)
    return default_rounds(n, seats) * sum(s * (s - 1) // 2 for s in sizes)


def bound(n: int, seats: int) -> int:
    """Pairs that must go without a meeting: the pairs less the meetings the tables hold."""
    return max(0, n * (n - 1) // 2 - meetings(n, seats))


def ideal(n: int, seats: int) -> tuple[int, int, int]:
    """(max meetings, pairs meeting twice+, never) of the most even spread the meeting count allows."""
    extra = meetings(n, seats) - n * (n - 1) // 2
    return (1, 0, -extra) if extra <= 0 else (2, extra, 0)


# ------------------------------------------------------------------ constructions


def affine_plane(q: int) -> Plan:
    """AG(2, q) for q = 3 or 4: q + 1 rounds (slopes and the vertical) of q lines."""
    if q == 3:
        add = lambda a, b: (a + b) % 3  # noqa: E731
        mul = lambda a, b: a * b % 3  # noqa: E731
    else:  # GF(4) = {0, 1, w, w + 1} as 2-bit numbers: addition is xor, multiplication via logs
        log, exp = {1: 0, 2: 1, 3: 2}, [1, 2, 3]
        add = lambda a, b: a ^ b  # noqa: E731
        mul = lambda a, b: 0 if a == 0 or b == 0 else exp[(log[a] + log[b]) % 3]  # noqa: E731
    point = lambda x, y: x * q + y  # noqa: E731
    plan = [[[point(x, add(mul(m, x), b)) for x in range(q)] for b in range(q)] for m in range(q)]
    plan.append([[point(c, y) for y in range(q)] for c in range(q)])
    return plan


def affine_space_3() -> Plan:
    """AG(3, 3): 13 directions, each a round of 9 lines {p, p + d, p + 2d}."""
    points = list(product(range(3), repeat=3))
    index = {p: i for i, p in enumerate(points)}
    directions = [d for d in points if d != (0, 0, 0) and d[next(i for i in range(3) if d[i])] == 1]
    plan = []
    for d in directions:
        seen: set[tuple[int, ...]] = set()
        groups = []
        for p in points:
            if p in seen:
                continue
            line = [tuple((p[i] + k * d[i]) % 3 for i in range(3)) for k in range(3)]
            seen.update(line)
            groups.append([index[x] for x in line])
        plan.append(groups)
    return plan


def kirkman_prime(q: int) -> Plan | None:
    """KTS(2q + 1), q = 6t + 1 prime: ``(x, A)`` is ``x``, ``(x, B)`` is ``q + x``, the extra point ``2q``."""
    t = (q - 1) // 6
    w = next(g for g in range(2, q) if len({pow(g, e, q) for e in range(q - 1)}) == q - 1)
    p = [pow(w, e, q) for e in range(q - 1)]
    pure = [[p[i], p[i + 2 * t], p[i + 4 * t]] for i in range(t)]  # side A: differences cover GF(q)* once
    left = [p[e] for r in (range(t, 2 * t), range(3 * t, 4 * t), range(5 * t, 6 * t)) for e in r]
    halves = [p[j] for j in range(3 * t)]  # side B pairs {h, -h}: differences cover GF(q)* once
    choice: list[int] = []

    def extend(used: set[int]) -> bool:  # mixed differences (B - A) must cover GF(q)* exactly once
        if len(choice) == len(halves):
            return True
        h = halves[len(choice)]
        for a in left:
            if a in choice:
                continue
            new = {(h - a) % q, (-h - a) % q}
            if 0 in new or len(new) < 2 or new & used:
                continue
            choice.append(a)
            if extend(used | new):
                return True
            choice.pop()
        return False

    if not extend(set()):
        return None
    base = [[2 * q, 0, q]] + pure + [[a, q + h, q + (-h) % q] for h, a in zip(halves, choice, strict=True)]
    shift = lambda v, x: v if v == 2 * q else (v // q) * q + (v % q + x) % q  # noqa: E731
    return [[[shift(v, x) for v in g] for g in base] for x in range(q)]


def kirkman_21() -> Plan | None:
    """KTS(21) on ``Z_7 x {0, 1, 2}`` (``(x, i)`` is ``7i + x``) with ``Z_7`` as automorphisms.

    A base round of one triple {c, c + 1, c + 3} (or {c, c + 2, c + 3}) per level and four transversal
    triples (one point per level) is developed by adding each element of ``Z_7``: 7 rounds; three more
    rounds are each the ``Z_7`` orbit of one transversal triple. Differences between levels (1 - 0,
    2 - 0, 2 - 1) over the seven transversal triples must cover ``Z_7`` once each; found by backtracking.
    """
    for shapes in product(((0, 1, 3), (0, 2, 3)), repeat=3):
        for c1, c2 in product(range(7), repeat=2):
            starts = (0, c1, c2)
            pure = [[(starts[i] + d) % 7 for d in shapes[i]] for i in range(3)]
            left = [[x for x in range(7) if x not in pure[i]] for i in range(3)]
            for p1 in permutations(left[1]):
                d10 = [(b - a) % 7 for a, b in zip(left[0], p1, strict=True)]
                if len(set(d10)) < 4:
                    continue
                for p2 in permutations(left[2]):
                    d20 = [(b - a) % 7 for a, b in zip(left[0], p2, strict=True)]
                    d21 = [(b - a) % 7 for a, b in zip(p1, p2, strict=True)]
                    if len(set(d20)) < 4 or len(set(d21)) < 4:
                        continue
                    # three orbit rounds: triples (0, x, y) with the missing differences
                    for xs in permutations([d for d in range(7) if d not in d10]):
                        ys = [d for d in range(7) if d not in d20]
                        for yp in permutations(ys):
                            rest = [(y - x) % 7 for x, y in zip(xs, yp, strict=True)]
                            if sorted(d21 + rest) != list(range(7)):
                                continue
                            base = [[7 * i + x for x in pure[i]] for i in range(3)]
                            base += [[a, 7 + b, 14 + c] for a, b, c in zip(left[0], p1, p2, strict=True)]
                            shift = lambda v, t: (v // 7) * 7 + (v % 7 + t) % 7  # noqa: E731
                            plan = [[[shift(v, t) for v in g] for g in base] for t in range(7)]
                            for x, y in zip(xs, yp, strict=True):
                                plan.append([[t, 7 + (t + x) % 7, 14 + (t + y) % 7] for t in range(7)])
                            return plan
    return None


def rotational(n: int, k: int, moduli: tuple[int, ...], limit: float = 20.0) -> Plan | None:
    """A 1-rotational resolvable design: points the group Z_m1 x Z_m2 ... (order n - 1) and a fixed point.

    The base round is the fixed point with a subgroup H of order k - 1 (generated by an element of that
    order), and orbits B + H of base blocks B whose differences cover the group less H exactly once;
    the rounds are the base round translated by representatives of the cosets of H.
    """
    order = math.prod(moduli)
    elems = list(product(*(range(m) for m in moduli)))
    idx = {e: i for i, e in enumerate(elems)}
    total = lambda a, b: tuple((x + y) % m for x, y, m in zip(a, b, moduli, strict=True))  # noqa: E731
    add = [[idx[total(a, b)] for b in elems] for a in elems]
    neg = [idx[tuple((-x) % m for x, m in zip(a, moduli, strict=True))] for a in elems]
    diff = [[add[b][neg[a]] for b in range(order)] for a in range(order)]  # diff[a][b] = b - a
    deadline = time.perf_counter() + limit
    for g in range(1, order):
        sub = [0]
        while len(sub) < k and add[sub[-1]][g] != 0:
            sub.append(add[sub[-1]][g])
        if len(sub) != k - 1 or add[sub[-1]][g] != 0:
            continue
        try:
            blocks = _base_blocks(sub, add, diff, k, deadline)
        except TimeoutError:
            return None
        if blocks is None:
            continue
        base = [[order, *sub]] + [[add[b][s] for b in block] for block in blocks for s in sub]
        reps, seen = [], set()
        for x in range(order):
            if x not in seen:
                reps.append(x)
                seen.update(add[x][s] for s in sub)
        return [[[v if v == order else add[v][r] for v in g] for g in base] for r in reps]
    return None


def _base_blocks(
    sub: list[int], add: list[list[int]], diff: list[list[int]], k: int, deadline: float
) -> list[list[int]] | None:
    """Base blocks of :func:`rotational` for the subgroup ``sub``, by backtracking (or None)."""
    h = set(sub)
    rest = [x for x in range(len(add)) if x not in h]
    blocks: list[list[int]] = []

    def extend(covered: set[int], used: set[int]) -> bool:
        if time.perf_counter() > deadline:
            raise TimeoutError
        free = [x for x in rest if x not in covered]
        if not free:
            return True
        for others in combinations(free[1:], k - 1):
            block = [free[0], *others]
            orbit = {add[b][s] for b in block for s in sub}
            if len(orbit) != k * (k - 1) or orbit & covered:
                continue
            ds = [diff[a][b] for a in block for b in block if a != b]
            if len(set(ds)) != len(ds) or set(ds) & (used | h):
                continue
            blocks.append(block)
            if extend(covered | orbit, used | set(ds)):
                return True
            blocks.pop()
        return False

    return blocks if extend(set(), set()) else None


# ------------------------------------------------------------------ annealing


def anneal(
    n: int, seats: int, seed: int, steps: int, heat0: float, start: Plan | None = None
) -> tuple[tuple[int, ...], Plan]:
    """Simulated annealing from ``start`` (else a random schedule); the best plan seen and its key."""
    rng = random.Random(seed)
    sizes, _ = table_sizes(n, seats)
    plan: Plan = [[list(g) for g in groups] for groups in start] if start else []
    for _ in range(0 if start else default_rounds(n, seats)):
        order = list(range(n))
        rng.shuffle(order)
        groups, at = [], 0
        for s in sizes:
            groups.append(order[at : at + s])
            at += s
        plan.append(groups)
    met = [[0] * n for _ in range(n)]
    for groups in plan:
        for g in groups:
            for a, b in permutations(g, 2):
                met[a][b] += 1
    best_cost = _search(plan, met, rng, steps=steps, heat0=heat0)  # the service's own search, longer
    best = plan
    never, twice, top = figures(best, n)
    return (top, twice, never, best_cost), best


# ------------------------------------------------------------------ search mode


@functools.cache
def construction(n: int, seats: int) -> Plan | None:
    if seats == 3:
        if n == 9:
            return affine_plane(3)
        if n == 27:
            return affine_space_3()
        if n in (15, 39):
            return kirkman_prime((n - 1) // 2)
        if n == 21:
            return kirkman_21()
        if n == 33:
            return rotational(33, 3, (32,), limit=60)
    if seats == 4:
        if n == 16:
            return affine_plane(4)
        if n == 28:
            return rotational(28, 4, (3, 3, 3))
        if n == 40:
            return rotational(40, 4, (39,), limit=120)
    return None


def derived(n: int, seats: int) -> list[Plan]:
    """Schedules made from the perfect designs (:data:`PERFECT`) on ``v`` points, ``v`` near ``n``.

    ``v > n`` (up to ``n + seats - 1``): ``v - n`` points are left out, the last ones of a table of
    the first round (so they meet only there); rounds beyond the default number are dropped, that
    round first. ``v < n`` (down to ``n - seats + 1``): the ``n - v`` new players make one more table
    in every round, and the design's rounds are taken again from the first if more are needed. Then
    any round whose tables do not have the sizes of :func:`table_sizes` is mended: a player moves from
    a table too large to one too small (the player who has met that table's players least).
    """
    plans = []
    sizes, _ = table_sizes(n, seats)
    keep = default_rounds(n, seats)
    for v in range(n - seats + 1, n + seats):
        if v == n or (v, seats) not in PERFECT:
            continue
        design = construction(v, seats)
        assert design is not None
        if v > n:
            gone = set(design[0][0][-(v - n) :])
            rounds = design[1 : keep + 1] if len(design) > keep else design[:keep]
            rename = {p: i for i, p in enumerate(p for p in range(v) if p not in gone)}
            plan = [[[rename[p] for p in g if p not in gone] for g in groups] for groups in rounds]
        else:
            plan = [[list(g) for g in design[r % len(design)]] + [list(range(v, n))] for r in range(keep)]
        plan = [[g for g in groups if g] for groups in plan]
        if any(len(groups) != len(sizes) for groups in plan):
            continue
        met = Counter(frozenset(p) for groups in plan for g in groups for p in combinations(g, 2))
        for groups in plan:
            groups.sort(key=len, reverse=True)
            while True:
                small = [g for g, s in zip(groups, sizes, strict=True) if len(g) < s]
                large = [g for g, s in zip(groups, sizes, strict=True) if len(g) > s]
                if not small:
                    break
                to, src = small[0], large[0]
                x = min(src, key=lambda p: (sum(met[frozenset((p, o))] for o in to), p))
                for o in src:
                    if o != x:
                        met[frozenset((x, o))] -= 1
                src.remove(x)
                met.update(frozenset((x, o)) for o in to)
                to.append(x)
                groups.sort(key=len, reverse=True)
        plans.append(plan)
    return plans


PERFECT = {(9, 3), (15, 3), (21, 3), (27, 3), (33, 3), (39, 3), (16, 4), (28, 4), (40, 4)}


def perfect(plan: Plan, n: int) -> bool:
    return figures(plan, n) == (0, 0, 1)


def shape(plan: Plan, n: int, seats: int) -> Plan:
    """Check every round seats everyone once; sort each round's tables largest first."""
    sizes, _ = table_sizes(n, seats)
    out = []
    for groups in plan:
        if sorted(p for g in groups for p in g) != list(range(n)):
            raise AssertionError("a round does not seat everyone exactly once")
        groups = sorted((sorted(g) for g in groups), key=lambda g: (-len(g), g))
        if [len(g) for g in groups] != sizes:
            raise AssertionError("table sizes differ from table_sizes()")
        out.append(groups)
    if len(out) != default_rounds(n, seats):
        raise AssertionError("wrong number of rounds")
    return out


def order_rounds(plan: Plan) -> Plan:
    """Greedy: next the round repeating fewest pairs of those before it (ties: the earlier)."""
    left, done, met = list(plan), [], Counter()
    while left:
        k = min(range(len(left)), key=lambda i: sum(met[p] for g in left[i] for p in combinations(g, 2)))
        rnd = left.pop(k)
        met.update(p for g in rnd for p in combinations(g, 2))
        done.append(rnd)
    return done


def search(n: int, seats: int, budget: float) -> Plan:
    built = construction(n, seats)
    if built is not None and perfect(built, n):
        return shape(built, n, seats)
    start, seed = time.perf_counter(), 0
    best = _searched(n, seats, default_rounds(n, seats))  # the module's own search: never do worse
    never, twice, top = figures(best, n)
    best_key: tuple[int, ...] | None = (top, twice, never, 0)
    steps = 100_000 + 25_000 * n
    for near in derived(n, seats):
        never, twice, top = figures(near, n)
        if best_key is None or (top, twice, never) < best_key[:3]:
            best_key, best = (top, twice, never, 0), near
        if (top, twice, never) != ideal(n, seats):  # polish it: annealing started cool from it
            key, plan = anneal(n, seats, n * 31 + seats, steps, 0.5, start=near)
            if key[:3] < best_key[:3]:
                best_key, best = key, plan
    while best_key is None or (
        best_key[:3] != ideal(n, seats) and seed < 12 and (seed < 2 or time.perf_counter() - start < budget)
    ):
        key, plan = anneal(n, seats, seed * 7919 + n * 31 + seats, steps, (0.6, 1.5, 3.0)[seed % 3])
        if best_key is None or key[:3] < best_key[:3]:
            best_key, best = key, plan
        seed += 1
    assert best is not None
    return shape(best, n, seats)


def encode(plan: Plan) -> str:
    return " ".join("".join(ALPHABET[p] for g in groups for p in g) for groups in plan)


def write(results: dict[tuple[int, int], str], out: Path) -> None:
    lines = [
        '"""Precomputed round-robin schedules at 3 and 4 seats (``bench/round_robin.py --search``).',
        "",
        "``SCHEDULES[seats, players]`` holds the default number of rounds, separated by spaces; a round",
        "lists the player indices (one character each, in the order of ``ALPHABET`` in ``round_robin.py``)",
        "table after table, the tables in the order of ``table_sizes`` (largest first). Do not edit by hand.",
        '"""',
        "",
        "SCHEDULES: dict[tuple[int, int], str] = {",
    ]
    for (seats, n), text in sorted(results.items()):
        words = text.split()
        lines.append(f"    ({seats}, {n}): (")
        lines.extend(f'        "{w}{" " if i < len(words) - 1 else ""}"' for i, w in enumerate(words))
        lines.append("    ),")
    lines.append("}")
    out.write_text("\n".join(lines) + "\n")


def run_search(budget: float, counts: list[int], seats_list: list[int], out: Path) -> None:
    results: dict[tuple[int, int], str] = {}
    if out.exists():  # keep the schedules of the counts not searched again
        space: dict[str, dict[tuple[int, int], str]] = {}
        exec(out.read_text(), space)  # our own data file
        results.update(space["SCHEDULES"])
    for seats in seats_list:
        for n in counts:
            start = time.perf_counter()
            plan = order_rounds(search(n, seats, budget))
            results[seats, n] = encode(plan)
            print(n, seats, figures(plan, n), f"{time.perf_counter() - start:.1f} s", flush=True)
            write(results, out)


def service_seating(schedule: list, n: int) -> Plan:
    """The schedule as the service seats it: ``competitions.services.rounds._scheduled_round``
    round by round (everyone present), on an unsaved event holding the schedule as ``start`` stores
    it. No database is touched; Django is set up on the first call (``DATABASE_URL`` defaults to a
    SQLite file)."""
    import os

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DATABASE_URL", "sqlite:///bench-round-robin.db")
    import django

    django.setup()
    from tournaments.competitions.services import rounds
    from tournaments.models import Tournament

    event = Tournament(schedule=[[list(t.players) for t in r.tables] for r in schedule])
    taken: dict[int, list[int]] = {p: [] for p in range(n)}
    plan: Plan = []
    for number in range(1, len(schedule) + 1):
        rnd = rounds._scheduled_round(event, number, set(range(n)), taken)
        for t in rnd.tables:
            for seat, p in enumerate(t.players, start=1):
                taken[p].append(seat)
        plan.append([list(t.players) for t in rnd.tables])
    return plan


def seat_spreads(plan: Plan, n: int) -> tuple[int, int]:
    """(first, last): the most minus the fewest times a player took seat 1, and the last seat."""
    first = Counter(t[0] for r in plan for t in r)
    last = Counter(t[-1] for r in plan for t in r)
    return (
        max(first[p] for p in range(n)) - min(first[p] for p in range(n)),
        max(last[p] for p in range(n)) - min(last[p] for p in range(n)),
    )


def run_bench(counts: list[int], seats_list: list[int]) -> None:
    print(
        f"{'players':>7} {'seats':>5} {'rounds':>6} {'never':>5} {'bound':>5} {'twice+':>6} {'max':>3} "
        f"{'perfect':>7} {'first':>5} {'last':>4} {'ms':>6}   old: never twice+ max"
    )
    for seats in seats_list:
        for n in counts:
            start = time.perf_counter()
            schedule = round_robin(list(range(n)), seats)
            ms = (time.perf_counter() - start) * 1000
            plan = [[list(t.players) for t in r.tables] for r in schedule]
            never, twice, top = figures(plan, n)
            first, last = seat_spreads(service_seating(schedule, n), n)
            old = OLD.get((n, seats))
            old_text = f"{old[0]:>5} {old[1]:>6} {old[2]:>3}" if old else ""
            print(
                f"{n:>7} {seats:>5} {len(schedule):>6} {never:>5} {bound(n, seats):>5} {twice:>6} {top:>3} "
                f"{'yes' if (never, twice, top) == (0, 0, 1) else '':>7} {first:>5} {last:>4} {ms:>6.1f}   "
                f"{old_text}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--search", action="store_true", help="recompute the precomputed schedules")
    parser.add_argument("--budget", type=float, default=20.0, help="search: seconds of annealing per count")
    parser.add_argument("--players", type=int, nargs="+", default=list(COUNTS))
    parser.add_argument("--seats", type=int, nargs="+", default=[3, 4], choices=[3, 4])
    parser.add_argument("--out", type=Path, default=DATA, help="search: the data file to write")
    args = parser.parse_args()
    if args.search:
        run_search(args.budget, args.players, args.seats, args.out)
    else:
        run_bench(args.players, args.seats)


if __name__ == "__main__":
    main()
