"""Uneven tables: who sits at the small tables, what every table size pays, byes, round-robin seat 1.

Property tests over many seeds and sizes (plain data, no database), plus the worked examples of the
rules in ``tournaments/standings.py``, ``tournaments/pairing/swiss.py`` and ``round_robin.py``.
"""

from __future__ import annotations

import importlib
import random
from collections import Counter, defaultdict
from itertools import combinations

import pytest

from tournaments.pairing import Entrant, Round, round_robin, swiss_round, table_sizes
from tournaments.standings import DEFAULT_SCALES, TableResult, bye_value, place_points, standings, table_scale

rr_module = importlib.import_module("tournaments.pairing.round_robin")  # the package re-exports the function


def seated(rnd: Round) -> list[int]:
    return sorted([p for t in rnd.tables for p in t.players] + list(rnd.byes))


def random_scale(rng: random.Random, seats: int) -> list[float]:
    """A best-first scale: the default, or random non-increasing values (often not evenly spaced)."""
    if rng.random() < 0.3:
        return list(DEFAULT_SCALES[seats])
    return sorted(
        (rng.choice([0, rng.randint(0, 20), rng.uniform(0, 10)]) for _ in range(seats)), reverse=True
    )


def random_ranks(rng: random.Random, players: list[int]) -> dict[int, int]:
    """Competition ranks (1, 2, 2, 4, ...) with random ties."""
    order = list(players)
    rng.shuffle(order)
    ranks: dict[int, int] = {}
    for i, p in enumerate(order):
        tie = i and rng.random() < 0.2
        ranks[p] = ranks[order[i - 1]] if tie else i + 1
    return ranks


class SwissEvent:
    """A 3–4 seat Swiss with random results, tracking every player's small tables as the service must."""

    def __init__(self, n: int, seats: int, seed: int) -> None:
        self.rng = random.Random(seed)
        self.n, self.seats = n, seats
        self.scale = random_scale(self.rng, seats)
        self.rating = {p: self.rng.uniform(1000, 2000) for p in range(n)}
        self.score: defaultdict[int, float] = defaultdict(float)
        self.met: dict[int, Counter[int]] = {p: Counter() for p in range(n)}
        self.hist: dict[int, list[int]] = {p: [] for p in range(n)}
        self.small: Counter[int] = Counter()

    def entrants(self) -> list[Entrant]:
        return [
            Entrant(
                p,
                self.score[p],
                self.rating[p],
                dict(self.met[p]),
                tuple(self.hist[p]),
                small_tables=self.small[p],
            )
            for p in range(self.n)
        ]

    def play(self, rnd: Round) -> None:
        assert seated(rnd) == list(range(self.n)) and rnd.byes == ()
        largest = max(len(t.players) for t in rnd.tables)
        for t in rnd.tables:
            for seat, p in enumerate(t.players, start=1):
                self.hist[p].append(seat)
                self.met[p].update(q for q in t.players if q != p)
                if len(t.players) < largest:
                    self.small[p] += 1
            for p, pts in place_points(
                self.seats, random_ranks(self.rng, list(t.players)), self.scale
            ).items():
                self.score[p] += pts


# ------------------------------------------------------- swiss: small tables rotate


CASES = [(n, seats) for n in range(5, 61) for seats in (3, 4) if n % seats]  # only rounds with small tables


@pytest.mark.parametrize("seats", [3, 4])
def test_small_tables_rotate_within_one_over_every_swiss(seats: int) -> None:
    # Bound asserted: after every round, the small-table counts of any two players differ by at most one
    # (the best possible whenever not everyone sits at a small table equally often). And the round's
    # small seats went to the players with the fewest small tables: every player seated at a small
    # table had at most as many before the round as every player seated at a largest table.
    checked = 0
    for n, s in CASES:
        if s != seats:
            continue
        for seed in range(2 if n <= 30 else 1):
            event = SwissEvent(n, seats, seed=n * 10 + seed)
            for _ in range(8 if n <= 30 else 5):
                before = dict(event.small)
                rnd = swiss_round(event.entrants(), seats)
                sizes = [len(t.players) for t in rnd.tables]
                assert sorted(sizes, reverse=True) == table_sizes(n, seats)[0]
                largest = max(sizes)
                at_small = [p for t in rnd.tables if len(t.players) < largest for p in t.players]
                at_big = [p for t in rnd.tables if len(t.players) == largest for p in t.players]
                if at_small:
                    assert max(before.get(p, 0) for p in at_small) <= min(before.get(p, 0) for p in at_big)
                event.play(rnd)
                counts = [event.small[p] for p in range(n)]
                assert max(counts) - min(counts) <= 1, (n, seats, seed, counts)
                checked += 1
    assert checked > 100


def test_the_audit_case_ten_players_at_four_seats() -> None:
    # 10 players at 4 seats (4 + 3 + 3) over 8 rounds: 6 small seats a round, 48 in all: 4 or 5 each
    # (before, one player sat at a three-player table in all 8 rounds).
    event = SwissEvent(10, 4, seed=7)
    for _ in range(8):
        event.play(swiss_round(event.entrants(), 4))
    assert sorted(set(event.small.values())) == [4, 5] and sum(event.small.values()) == 48


def test_without_a_small_table_history_the_small_tables_stay_at_the_bottom() -> None:
    # Callers that do not pass ``small_tables`` (all 0) get today's pairing: largest tables at the top.
    entrants = [Entrant(p, score=float(10 - p)) for p in range(10)]
    tables = [t.players for t in swiss_round(entrants, 4).tables]
    assert [sorted(t) for t in tables] == [[0, 1, 2, 3], [4, 5, 6], [7, 8, 9]]


def test_the_fewest_small_tables_decide_then_the_ranking() -> None:
    # 7 players at 4 seats (4 + 3). Players 0-2 (the top) have sat at small tables least: they must take
    # the three-player table, which is listed first (its best player leads the ranking).
    entrants = [Entrant(p, score=float(10 - p), small_tables=0 if p < 3 else 1) for p in range(7)]
    tables = [sorted(t.players) for t in swiss_round(entrants, 4).tables]
    assert tables == [[0, 1, 2], [3, 4, 5, 6]]
    # With one small seat's worth of free choice: 0 and 1 must, one of the rest on 1 joins them.
    entrants = [Entrant(p, score=float(10 - p), small_tables=0 if p < 2 else 1) for p in range(7)]
    small = next(t.players for t in swiss_round(entrants, 4).tables if len(t.players) == 3)
    assert {0, 1} < set(small)
    # A player with more small tables than the rest never sits at one while the rest can.
    entrants = [Entrant(p, score=float(10 - p), small_tables=2 if p == 6 else 1) for p in range(7)]
    assert all(6 not in t.players for t in swiss_round(entrants, 4).tables if len(t.players) == 3)


def test_small_table_rotation_keeps_meetings_spread() -> None:
    # The rotation must not cost repeated meetings where there is room: 40 players at 3 seats (14 tables:
    # 12 x 3 + 2 x 2), 5 rounds, no pair meets twice.
    event = SwissEvent(40, 3, seed=3)
    for _ in range(5):
        rnd = swiss_round(event.entrants(), 3)
        met = {frozenset((p, q)) for p in event.met for q in event.met[p]}
        assert not [pair for t in rnd.tables for pair in combinations(t.players, 2) if frozenset(pair) in met]
        event.play(rnd)


# ------------------------------------------------------- points: one scale for every table


def test_full_tables_and_two_seat_events_pay_as_before() -> None:
    assert table_scale(2, 2) == (1.0, 0.0)
    assert table_scale(3, 3) == (2.0, 1.0, 0.0)
    assert table_scale(4, 4) == (3.0, 2.0, 1.0, 0.0)
    assert table_scale(4, 4, [10, 6, 3, 0]) == (10.0, 6.0, 3.0, 0.0)
    assert place_points(2, {1: 1, 2: 1}) == {1: 0.5, 2: 0.5}


def test_small_tables_pay_the_event_scale_read_evenly_with_the_same_average() -> None:
    # Defaults (linear): no correction needed.
    assert table_scale(4, 3) == (3.0, 1.5, 0.0)
    assert table_scale(4, 2) == (3.0, 0.0)
    assert table_scale(3, 2) == (2.0, 0.0)
    # 10, 6, 3, 0 (average 4.75): places 1, 2.5, 4 read 10, 4.5, 0 (average 29 / 6), times 4.75 * 6 / 29.
    assert table_scale(4, 3, [10, 6, 3, 0]) == pytest.approx((10 * 28.5 / 29, 4.5 * 28.5 / 29, 0.0))
    assert table_scale(4, 2, [10, 6, 3, 0]) == pytest.approx((9.5, 0.0))
    # 5, 2, 0 at three seats (average 7 / 3): a two-player table reads 5, 0, times (7 / 3) / 2.5.
    assert table_scale(3, 2, [5, 2, 0]) == pytest.approx((14 / 3, 0.0))
    # Ties share, as at full tables: two tied first at a three-player table of 3, 1.5, 0 get 2.25 each.
    assert place_points(4, {1: 1, 2: 1, 3: 3}) == {1: 2.25, 2: 2.25, 3: 0.0}
    with pytest.raises(ValueError):
        table_scale(4, 5)
    with pytest.raises(ValueError):
        table_scale(3, 1)


def test_every_table_size_pays_the_same_average_under_any_scale() -> None:
    rng = random.Random(11)
    for _ in range(400):
        seats = rng.choice([2, 3, 4])
        scale = random_scale(rng, seats)
        mean = sum(scale) / seats
        for size in range(2, seats + 1):
            values = table_scale(seats, size, scale)
            assert len(values) == size
            assert sum(values) / size == pytest.approx(mean, abs=1e-9)
            assert list(values) == sorted(values, reverse=True), "a better place never pays less"
            if size == seats:
                assert values == tuple(scale)
            else:  # the scale read at evenly spaced places, times mean(S) / mean(read): proportional to it
                read = _read(scale, size)
                read_mean = sum(read) / size
                assert [v * read_mean for v in values] == pytest.approx([x * mean for x in read], abs=1e-9)
            # With ties too: a table hands out size x the average, however its players share places.
            ranks = random_ranks(rng, list(range(size)))
            assert sum(place_points(seats, ranks, scale).values()) == pytest.approx(size * mean, abs=1e-9)


def _read(scale: list[float], size: int) -> list[float]:
    """``scale`` read at ``size`` evenly spaced places, first to last (linear interpolation)."""
    s = len(scale)
    out = []
    for j in range(size):
        x = j * (s - 1) / (size - 1)
        i = min(int(x), s - 2)
        out.append(scale[i] + (x - i) * (scale[i + 1] - scale[i]))
    return out


def test_a_custom_scale_is_applied_at_every_table_size_of_a_swiss() -> None:
    # Over whole events: each table's points (as the standings count them) follow the event's scale at
    # that table's size, and the event's total is the number of seats played x the scale's average.
    for n, seats in [(10, 4), (7, 3), (13, 4), (5, 4), (11, 3)]:
        event = SwissEvent(n, seats, seed=n)
        event.scale = [10.0, 6.0, 3.0, 0.0][:seats] if seats == 4 else [5.0, 2.0, 0.0]
        mean = sum(event.scale) / seats
        results = []
        for r in range(1, 5):
            rnd = swiss_round(event.entrants(), seats)
            for t in rnd.tables:
                ranks = random_ranks(event.rng, list(t.players))
                results.append(TableResult(r, ranks))
                if len(set(ranks.values())) == len(ranks):
                    got = place_points(seats, ranks, event.scale)
                    by_place = [got[p] for p in sorted(ranks, key=ranks.__getitem__)]
                    assert by_place == list(table_scale(seats, len(ranks), event.scale))
                    assert by_place[0] > (2 if seats == 3 else 3), "the custom scale, not the default"
            event.play(rnd)
        rows = standings(list(range(n)), results, seats, scale=event.scale)
        assert sum(r.points for r in rows) == pytest.approx(4 * n * mean)


# ------------------------------------------------------------------ byes


def test_a_bye_is_worth_the_place_just_above_the_average() -> None:
    assert [bye_value(s) for s in (2, 3, 4)] == [1.0, 1.0, 2.0]
    assert bye_value(4, [10, 6, 3, 0]) == 6.0
    assert bye_value(2, [3, 0]) == 3.0, "two seats: always the win"
    assert bye_value(3, [4, 1, 0]) == 4.0, "average 5 / 3: only 4 is at least that"
    rng = random.Random(5)
    for _ in range(300):
        seats = rng.choice([2, 3, 4])
        scale = random_scale(rng, seats)
        mean = sum(scale) / seats
        value = bye_value(seats, scale)
        assert value in scale and value >= mean - 1e-9
        assert not [v for v in scale if mean - 1e-9 <= v < value], "the smallest such value"
        if seats == 2:
            assert value == scale[0]
        byes = rng.randint(1, 3)
        rows = standings([1, 2, 3], [], seats, byes={1: byes}, scale=scale)
        row = next(r for r in rows if r.player == 1)
        assert row.points == pytest.approx(byes * value) and row.played == 0
        assert next(r for r in rows if r.player == 2).points == 0
    assert standings([1], [], 4, byes={1: 1}, scale=[10, 6, 3, 0], bye_points=4.75)[0].points == 4.75


# ---------------------------------------------------------- round robin: seat 1


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_round_robin_shares_seat_one_within_one(seats: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # Seat-1 balancing does not depend on the meeting search: shorten it to keep the sweep fast.
    monkeypatch.setattr(rr_module, "SEARCH_STEPS", 100)
    for n in range(2 if seats == 2 else 3, 31):
        for rounds in (None, 1, 2, 3, n, 2 * n) if seats == 2 else (None, 2, 5):
            schedule = round_robin(list(range(100, 100 + n)), seats, rounds)
            firsts = Counter(t.players[0] for r in schedule for t in r.tables)
            spread = max(firsts.values()) - min(firsts.get(p, 0) for p in range(100, 100 + n))
            assert spread <= 1, (n, seats, rounds, firsts)
            for r in schedule:
                assert seated(r) == list(range(100, 100 + n))


@pytest.mark.parametrize("n, seats", [(15, 3), (10, 4), (13, 4)])
def test_round_robin_seat_one_with_the_full_search(n: int, seats: int) -> None:
    schedule = round_robin(list(range(n)), seats)
    firsts = Counter(t.players[0] for r in schedule for t in r.tables)
    assert max(firsts.values()) - min(firsts.get(p, 0) for p in range(n)) <= 1
    # The other seats still rotate: nobody sits last at every one of their tables.
    last = Counter(t.players[-1] for r in schedule for t in r.tables)
    assert max(last.values()) < len(schedule)
