"""Fairness of whole Swiss events, simulated with random results (plain data, no database).

Two seats (seat 1 moves first, "white"): no rematch while a rematch-free round exists (checked
against an exact oracle on small fields), byes to the fewest-byes players, seat preferences as
FIDE's Dutch system has them (no two players who both need the same seat meet while that can be
avoided), and so no player with |W - B| >= 3 or three games running in the same seat. Three or
four seats: small tables and first/last seats rotate. Fields change between rounds: players
withdraw, and late entries arrive with no history and some score.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Callable
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.pairing import Entrant, Round, swiss_round
from tournaments.pairing.swiss import Preference, preference
from tournaments.pairing.swiss_rules import _clash

Rule = Callable[[int, int], bool]


class Sim:
    """A Swiss event: the state :func:`swiss_round` is called with, updated round after round."""

    def __init__(self, n: int, seats: int, seed: int) -> None:
        self.rng = random.Random(seed)
        self.seats = seats
        self.next_id = 0
        self.present: list[int] = []
        self.rating: dict[int, float] = {}
        self.score: defaultdict[int, float] = defaultdict(float)
        self.met: dict[int, Counter[int]] = {}
        self.hist: dict[int, list[int]] = {}
        self.byes: Counter[int] = Counter()
        self.small: Counter[int] = Counter()
        self.lasts: Counter[int] = Counter()
        self.floated: dict[int, int] = {}
        self.missed: set[int] = set()  # players who did not play every round (late, or a bye)
        self.clashed: dict[int, int] = {}  # player -> games played when first paired in a clash
        self.clashes = 0
        self.rounds = 0
        for _ in range(n):
            self.enter(0.0)

    def enter(self, score: float) -> None:
        p = self.next_id
        self.next_id += 1
        self.present.append(p)
        self.rating[p] = self.rng.uniform(1000, 2000)
        self.score[p] = score
        self.met[p], self.hist[p] = Counter(), []
        if self.rounds:
            self.missed.add(p)

    def withdraw(self, k: int) -> None:
        for _ in range(min(k, len(self.present) - 2)):
            self.present.remove(self.rng.choice(self.present))

    def entrants(self) -> list[Entrant]:
        return [
            Entrant(
                p,
                float(self.score[p]),
                self.rating[p],
                dict(self.met[p]),
                tuple(self.hist[p]),
                self.byes[p],
                self.small[p],
                floated=self.floated.get(p, 0),
                last_seats=self.lasts[p],
            )
            for p in self.present
        ]

    def play(self, rnd: Round) -> None:
        seated = sorted([p for t in rnd.tables for p in t.players] + list(rnd.byes))
        assert seated == sorted(self.present), "everyone present seated exactly once"
        before = dict(self.score)
        self.floated = {p: -1 for p in rnd.byes}
        largest = max(len(t.players) for t in rnd.tables)
        for p in rnd.byes:
            self.byes[p] += 1
            self.score[p] += 1
            self.missed.add(p)
        for t in rnd.tables:
            if len(t.players) == 2:
                a, b = t.players
                if _clash(preference(self.hist[a]), preference(self.hist[b])):
                    self.clashes += 1
                    for p in t.players:
                        self.clashed.setdefault(p, len(self.hist[p]))
                if before[a] != before[b]:
                    self.floated[a] = 1 if before[a] < before[b] else -1
                    self.floated[b] = -self.floated[a]
            if len(t.players) < largest:
                self.small.update(t.players)
            self.lasts[t.players[-1]] += 1
            for seat, p in enumerate(t.players, start=1):
                self.hist[p].append(seat)
                self.met[p].update(q for q in t.players if q != p)
            order = list(t.players)
            if len(order) == 2 and self.rng.random() < 0.1:
                self.score[order[0]] += 0.5
                self.score[order[1]] += 0.5
                continue
            order.sort(key=lambda p: self.rating[p] + self.rng.gauss(0, 300), reverse=True)
            for place, p in enumerate(order):
                self.score[p] += len(order) - 1 - place
        self.rounds += 1


def perfect(players: list[int], ok: Callable[[int, int], bool]) -> bool:
    """Whether ``players`` (an even count) can all be paired by pairs ``ok`` allows: exact, by bitmask."""
    n = len(players)

    @cache
    def solve(mask: int) -> bool:
        if mask == 0:
            return True
        a = (mask & -mask).bit_length() - 1
        return any(
            mask >> b & 1 and ok(players[a], players[b]) and solve(mask & ~(1 << a) & ~(1 << b))
            for b in range(a + 1, n)
        )

    return solve((1 << n) - 1)


def best_possible(sim: Sim, ok: Callable[[int, int], bool]) -> bool:
    """Whether a round exists (a fewest-byes player out if the count is odd) whose pairs ``ok`` allows."""
    players = list(sim.present)
    if len(players) % 2 == 0:
        return perfect(players, ok)
    fewest = min(sim.byes[p] for p in players)
    return any(perfect([q for q in players if q != c], ok) for c in players if sim.byes[c] == fewest)


def check_colours(sim: Sim) -> None:
    """Every player, before their first game in a clash pair, has |W - B| <= 2 and no seat three
    times running."""
    for p, h in sim.hist.items():
        clean = h[: sim.clashed[p]] if p in sim.clashed else h
        for k in range(1, len(clean) + 1):
            assert abs(clean[:k].count(1) - clean[:k].count(2)) <= 2, (p, h)
            assert k < 3 or len(set(clean[k - 3 : k])) > 1, (p, h)


def _rules(met: set[frozenset[int]], prefs: dict[int, Preference]) -> tuple[Rule, Rule]:
    """Which pairs are fresh (not met), and which are fresh without a clash of seat preferences."""

    def fresh(a: int, b: int) -> bool:
        return frozenset((a, b)) not in met

    def strict(a: int, b: int) -> bool:
        return fresh(a, b) and not _clash(prefs[a], prefs[b])

    return fresh, strict


def play_event(sim: Sim, rounds: int, churn: list[tuple[int, int]], oracle: bool) -> None:
    """Play ``rounds`` rounds; before round r + 1, ``churn[r]`` = (withdrawals, late entries)."""
    for r in range(rounds):
        if r and r - 1 < len(churn):
            out, late = churn[r - 1]
            sim.withdraw(out)
            for _ in range(late):
                sim.enter(float(sim.rng.randint(0, r)))
        met = {frozenset((p, q)) for p in sim.present for q in sim.met[p]}
        fewest = min(sim.byes[p] for p in sim.present)
        prefs = {p: preference(sim.hist[p]) for p in sim.present}
        rnd = swiss_round(sim.entrants(), 2)
        assert all(sim.byes[b] == fewest for b in rnd.byes), "no second bye while someone present has none"
        repeats = sum(frozenset(t.players) in met for t in rnd.tables)
        clashes = sum(_clash(prefs[t.players[0]], prefs[t.players[1]]) for t in rnd.tables)
        if oracle and (repeats or clashes):
            fresh, strict = _rules(met, prefs)
            assert not best_possible(sim, strict), "a round without rematch or clash existed"
            assert not repeats or not best_possible(sim, fresh), "a rematch-free round existed"
        sim.play(rnd)
    check_colours(sim)


churns = st.lists(st.tuples(st.integers(0, 2), st.integers(0, 2)), max_size=12)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 13), rounds=st.integers(1, 14), seed=st.integers(0, 10**6), churn=churns)
def test_small_events_are_as_fair_as_any_pairing_allows(
    n: int, rounds: int, seed: int, churn: list[tuple[int, int]]
) -> None:
    # Each round is compared with an exact oracle over every pairing (and every fewest-byes bye):
    # a rematch only if every round has one; a clash of absolute seat preferences only if every
    # rematch-free round has one (or a rematch). Players withdraw and late entries arrive.
    churn = [(o, min(late, max(0, 14 - n))) for o, late in churn]  # keep the oracle's fields small
    play_event(Sim(n, 2, seed), rounds, churn, oracle=True)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(20, 200), rounds=st.integers(5, 9), seed=st.integers(0, 10**6), churn=churns)
def test_large_events_have_no_rematch_and_balanced_seats(
    n: int, rounds: int, seed: int, churn: list[tuple[int, int]]
) -> None:
    # With at least 20 players and at most 9 rounds, each player has met at most 8 of the m - 1 >= 19
    # others, so the not-met graph has minimum degree >= m / 2 and a perfect matching (Dirac): a
    # rematch is always avoidable, so there is none. Withdrawals are capped to keep that true.
    churn = [(min(o, 1), late) for o, late in churn]
    sim = Sim(n + 2 * rounds, 2, seed)
    play_event(sim, rounds, churn, oracle=False)
    assert all(c <= 1 for p in sim.met for c in sim.met[p].values()), "no rematch"
    # No clash arose in these fields, so every player has |W - B| <= 2 and no seat three times running.
    assert sim.clashes == 0
    regulars = [h for p, h in sim.hist.items() if p not in sim.missed]
    assert all(abs(h.count(1) - h.count(2)) <= 1 for h in regulars if len(h) % 2), "odd count: one apart"


@pytest.mark.parametrize("n, rounds", [(16, 7), (40, 9), (100, 9), (200, 9)])
def test_events_like_the_benchmark_keep_seats_balanced(n: int, rounds: int) -> None:
    for seed in range(3):
        sim = Sim(n, 2, seed)
        play_event(sim, rounds, [], oracle=False)
        assert sim.clashes == 0
        for h in sim.hist.values():
            assert abs(h.count(1) - h.count(2)) <= 2
            assert all(len(set(h[k : k + 3])) > 1 for k in range(len(h) - 2))
        assert all(c == 1 for p in sim.met for c in sim.met[p].values())


def test_the_bye_goes_to_the_top_player_when_only_that_avoids_a_rematch() -> None:
    # Eleven players: the leader has met all ten others, who can still all be paired fresh. Only a bye
    # to the leader avoids a rematch, though ten players rank below them.
    others = list(range(1, 11))
    met = {0: dict.fromkeys(others, 1)} | {p: {0: 1} for p in others}
    entrants = [Entrant(0, score=5, meetings=met[0])]
    entrants += [Entrant(p, score=1, rating=-p, meetings=met[p]) for p in others]
    rnd = swiss_round(entrants, 2)
    assert rnd.byes == (0,)
    assert all(0 not in t.players for t in rnd.tables)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(5, 60), seats=st.integers(3, 4), seed=st.integers(0, 10**6))
def test_multi_seat_events_rotate_small_tables_and_first_and_last_seats(
    n: int, seats: int, seed: int
) -> None:
    # Exact properties for players in every round: small-table counts within one of each other;
    # |first seats - last seats| <= 3 for everyone and <= 1 for all but two players or 10 % of them,
    # whichever is more (a table whose players all need the first seat cannot give it to each; over
    # many events about 1 % of players end two apart).
    sim = Sim(n, seats, seed)
    for _ in range(9):
        sim.play(swiss_round(sim.entrants(), seats))
    small = [sim.small[p] for p in sim.present]
    assert max(small) - min(small) <= 1
    gaps = [abs(sim.hist[p].count(1) - sim.lasts[p]) for p in sim.present]
    assert max(gaps) <= 3
    assert sum(g > 1 for g in gaps) <= max(2, 0.1 * len(gaps))


def test_seat_preferences_follow_fide() -> None:
    assert preference(()).seat == 0
    assert (preference((1,)).seat, preference((1,)).strength) == (2, 2)  # strong: diff +1
    assert (preference((1, 2)).seat, preference((1, 2)).strength) == (1, 1)  # mild: alternate
    assert (preference((2, 1, 1)).seat, preference((2, 1, 1)).strength) == (2, 3)  # same seat twice: absolute
    assert (preference((1, 2, 1, 1, 2, 1)).seat, preference((1, 2, 1, 1, 2, 1)).strength) == (2, 3)  # diff +2
    assert preference((1, 3, 2)).diff == 0  # seats 3 and 4 do not count


def test_a_player_who_floated_down_last_round_does_not_float_down_again() -> None:
    # Scores 1, 1, 1 | 0, 0, 0: the top group is odd, so one of it meets the group below. Its lowest
    # (2) floated down last round, so the next one up (1) floats instead.
    entrants = [Entrant(p, score=1 if p < 3 else 0, rating=-p, floated=-1 if p == 2 else 0) for p in range(6)]
    tables = {frozenset(t.players) for t in swiss_round(entrants, 2).tables}
    assert tables == {frozenset(p) for p in [(0, 2), (1, 3), (4, 5)]}
    # Without that, the lowest floats: 0-1, 2-3, 4-5.
    entrants = [Entrant(p, score=1 if p < 3 else 0, rating=-p) for p in range(6)]
    tables = {frozenset(t.players) for t in swiss_round(entrants, 2).tables}
    assert tables == {frozenset(p) for p in [(0, 1), (2, 3), (4, 5)]}
