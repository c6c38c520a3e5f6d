"""Round robins at 3 and 4 seats: perfect designs where they exist, an even spread of meetings elsewhere.

Rules in ``tournaments/pairing/round_robin.py`` (module docstring); the schedules for 4 to 40 players are
precomputed by ``bench/round_robin.py --search`` into ``tournaments/pairing/round_robin_data.py``.
"""

from __future__ import annotations

import math
from collections import Counter
from itertools import combinations

import pytest

from tournaments.pairing import Round, Table, round_robin, table_sizes
from tournaments.pairing.round_robin_data import SCHEDULES

PERFECT = [(9, 3), (15, 3), (21, 3), (27, 3), (33, 3), (39, 3), (16, 4), (28, 4), (40, 4)]
# Perfect designs with one or two players left out (one to three at four seats): every pair meets at
# most once, and for one left out (two at three seats) every pair meets exactly once.
PACKINGS = [(n, 3) for n in (7, 8, 13, 14, 19, 20, 25, 26, 31, 32, 37, 38)] + [
    (n, 4) for n in (13, 15, 25, 27, 37, 39)
]


def rounds_for(n: int, seats: int) -> int:
    return math.ceil((n - 1) / (seats - 1))


def meetings(schedule: list[Round]) -> Counter[frozenset[int]]:
    return Counter(frozenset(p) for r in schedule for t in r.tables for p in combinations(t.players, 2))


def capacity(n: int, seats: int) -> int:
    """Meetings the default schedule holds (pairs at a table, per round): fixed by the table sizes."""
    return rounds_for(n, seats) * sum(s * (s - 1) // 2 for s in table_sizes(n, seats)[0])


def check_rounds(schedule: list[Round], ids: list[int], seats: int) -> None:
    for r in schedule:
        assert sorted(p for t in r.tables for p in t.players) == sorted(ids) and r.byes == ()
        assert [len(t.players) for t in r.tables] == table_sizes(len(ids), seats)[0]


@pytest.mark.parametrize("n, seats", PERFECT)
def test_perfect_schedule_where_a_resolvable_design_exists(n: int, seats: int) -> None:
    ids = list(range(500, 500 + n))
    schedule = round_robin(ids, seats)
    assert len(schedule) == rounds_for(n, seats)
    check_rounds(schedule, ids, seats)
    met = meetings(schedule)
    assert len(met) == n * (n - 1) // 2 and set(met.values()) == {1}, "every pair meets exactly once"


@pytest.mark.parametrize("n, seats", PACKINGS)
def test_designs_with_players_left_out_repeat_no_pair(n: int, seats: int) -> None:
    schedule = round_robin(list(range(n)), seats)
    met = meetings(schedule)
    assert max(met.values()) == 1
    # Every pair at most once: the unmet pairs are exactly those the tables have no room for.
    assert n * (n - 1) // 2 - len(met) == n * (n - 1) // 2 - capacity(n, seats)


@pytest.mark.parametrize("seats", [3, 4])
def test_meetings_are_spread_evenly_for_every_count(seats: int) -> None:
    for n in range(4, 41):
        schedule = round_robin(list(range(n)), seats)
        assert len(schedule) == rounds_for(n, seats)
        check_rounds(schedule, list(range(n)), seats)
        met = meetings(schedule)
        pairs = n * (n - 1) // 2
        assert max(met.values()) <= 2, (n, seats, "no pair meets a third time")
        # With no pair meeting three times, pairs never meeting = pairs - capacity + pairs meeting twice:
        # the doubles are the whole excess over the most even spread, which has max(0, capacity - pairs)
        # doubles. The excess is 0 wherever a design (or one with players left out) exists, and at most
        # a third of the player count (plus one) at three seats, the player count at four (the previous
        # search went beyond both, e.g. 46 for 36 players at four seats).
        doubles = sum(1 for v in met.values() if v == 2)
        never = pairs - len(met)
        assert never == pairs - capacity(n, seats) + doubles
        slack = n // 3 + 1 if seats == 3 else n
        assert doubles <= max(0, capacity(n, seats) - pairs) + slack, (n, seats, doubles)


def test_stored_schedules_are_well_formed() -> None:
    assert {(seats, n) for seats in (3, 4) for n in range(4, 41)} <= set(SCHEDULES)
    for (seats, n), text in SCHEDULES.items():
        words = text.split()
        assert len(words) == rounds_for(n, seats)
        assert all(len(w) == n and len(set(w)) == n for w in words), (seats, n)


@pytest.mark.parametrize("n, seats", [(9, 3), (15, 3), (16, 3), (18, 3), (24, 4), (16, 4), (31, 4)])
def test_schedule_is_deterministic_and_ids_only_name_players(n: int, seats: int) -> None:
    a = round_robin(list(range(n)), seats)
    assert a == round_robin(list(range(n)), seats)
    ids = [1000 - 7 * i for i in range(n)]  # other ids, same order: the same schedule, renamed
    rename = dict(zip(range(n), ids, strict=True))
    b = round_robin(ids, seats)
    assert b == [Round(tuple(Table(tuple(rename[p] for p in t.players)) for t in r.tables)) for r in a]


@pytest.mark.parametrize("seats", [3, 4])
def test_seat_one_is_shared_within_one(seats: int) -> None:
    for n in range(4, 41):
        default = rounds_for(n, seats)
        for rounds in (None, 1, default - 1, default + 1, 2 * default):
            if rounds == 0:
                continue
            schedule = round_robin(list(range(n)), seats, rounds)
            assert len(schedule) == (rounds or default)
            firsts = Counter(t.players[0] for r in schedule for t in r.tables)
            assert max(firsts.values()) - min(firsts.get(p, 0) for p in range(n)) <= 1, (n, seats, rounds)


@pytest.mark.parametrize("n, seats", [(15, 3), (21, 3), (16, 4), (20, 3), (24, 4)])
def test_fewer_rounds_cut_short_and_more_go_round_again(n: int, seats: int) -> None:
    default = round_robin(list(range(n)), seats)
    tables = [sorted(sorted(t.players) for t in r.tables) for r in default]
    short = round_robin(list(range(n)), seats, 3)
    assert [sorted(sorted(t.players) for t in r.tables) for r in short] == tables[:3]
    long = round_robin(list(range(n)), seats, 2 * len(default) + 1)
    assert [sorted(sorted(t.players) for t in r.tables) for r in long] == (tables * 3)[: len(long)]


@pytest.mark.parametrize("n, seats", PERFECT)
def test_first_rounds_of_a_perfect_schedule_repeat_nobody(n: int, seats: int) -> None:
    met = meetings(round_robin(list(range(n)), seats, 3))
    assert set(met.values()) == {1}
