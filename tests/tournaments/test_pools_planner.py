"""The pools' pairing wave as a pure function (``tournaments.pools.planner``)."""

from __future__ import annotations

import random

import pytest

from tournaments.pools.planner import MAX_RANGE, START_RANGE, WIDEN_SECONDS, Waiting, plan_wave, rating_range


def test_the_range_starts_narrow_widens_in_steps_and_is_capped():
    assert rating_range(0) == START_RANGE
    assert rating_range(WIDEN_SECONDS - 0.1) == START_RANGE
    assert rating_range(WIDEN_SECONDS) > START_RANGE
    assert rating_range(3 * WIDEN_SECONDS) > rating_range(2 * WIDEN_SECONDS)
    assert rating_range(10_000) == MAX_RANGE
    widths = [rating_range(s) for s in range(0, 200)]
    assert widths == sorted(widths)


def test_far_apart_players_wait_until_their_ranges_have_widened():
    far = 300.0
    fresh = [Waiting(1, 1500.0, 0.0), Waiting(2, 1500.0 + far, 0.0)]
    assert plan_wave(fresh, seats=2) == []
    # The gap fits only once *both* have waited long enough.
    needed = next(s for s in range(0, 600) if rating_range(s) >= far)
    one_waited = [Waiting(1, 1500.0, needed), Waiting(2, 1500.0 + far, 0.0)]
    assert plan_wave(one_waited, seats=2) == []
    both = [Waiting(1, 1500.0, needed), Waiting(2, 1500.0 + far, needed)]
    assert plan_wave(both, seats=2) == [[1, 2]]


def test_the_longest_waiting_is_seated_first_with_the_closest_ratings():
    waiting = [
        Waiting(1, 1500.0, 1.0),
        Waiting(2, 1560.0, 1.0),
        Waiting(3, 1520.0, 1.0),
        Waiting(4, 1550.0, 30.0),  # the anchor
    ]
    assert plan_wave(waiting, seats=2) == [[4, 2], [1, 3]]  # equal waits: the lower id anchors


def test_a_table_of_the_pools_size_and_leftovers_wait():
    waiting = [Waiting(p, 1500.0 + p, 10.0 - p) for p in range(1, 8)]
    tables = plan_wave(waiting, seats=3)
    assert [len(t) for t in tables] == [3, 3]
    assert len({p for t in tables for p in t}) == 6


@pytest.mark.parametrize("pair", [(1, 2), (2, 1)])
def test_blocked_players_are_never_seated_together_either_direction(pair):
    # 3 is far out of 1's and 2's range: without the block 1 and 2 sit together, with it nobody does.
    waiting = [Waiting(1, 1500.0, 20.0), Waiting(2, 1500.0, 10.0), Waiting(3, 1800.0, 0.0)]
    assert plan_wave(waiting, seats=2) == [[1, 2]]
    assert plan_wave(waiting, seats=2, blocks=[pair]) == []
    # With a fourth player in range, the blocked pair is split.
    waiting.append(Waiting(4, 1510.0, 0.0))
    assert sorted(map(sorted, plan_wave(waiting, seats=2, blocks=[pair]))) == [[1, 4]]


def test_blocks_hold_at_four_seats_across_the_whole_table():
    waiting = [Waiting(p, 1500.0, 50.0 - p) for p in range(1, 9)]
    blocks = [(1, 2), (3, 1), (4, 5), (8, 6)]
    tables = plan_wave(waiting, seats=4, blocks=blocks)
    assert len(tables) == 2
    for table in tables:
        for a, b in blocks:
            assert not {a, b} <= set(table)


def test_no_immediate_rematch_when_another_table_exists():
    waiting = [
        Waiting(1, 1500.0, 20.0, avoid=frozenset({2})),
        Waiting(2, 1500.0, 10.0, avoid=frozenset({1})),
        Waiting(3, 1540.0, 5.0),
        Waiting(4, 1540.0, 5.0),
    ]
    tables = plan_wave(waiting, seats=2)
    assert sorted(map(sorted, tables)) == [[1, 3], [2, 4]]


def test_a_rematch_seen_from_one_side_only_is_still_avoided():
    waiting = [
        Waiting(1, 1500.0, 20.0),
        Waiting(2, 1500.0, 10.0, avoid=frozenset({1})),
        Waiting(3, 1510.0, 1.0),
    ]
    assert plan_wave(waiting, seats=2) == [[1, 3]]


def test_a_rematch_is_allowed_when_it_is_the_only_table():
    waiting = [
        Waiting(1, 1500.0, 20.0, avoid=frozenset({2, 3})),
        Waiting(2, 1500.0, 10.0, avoid=frozenset({1, 3})),
        Waiting(3, 1500.0, 10.0, avoid=frozenset({1, 2})),
    ]
    assert sorted(plan_wave(waiting, seats=3)[0]) == [1, 2, 3]
    two = [Waiting(1, 1500.0, 2.0, avoid=frozenset({2})), Waiting(2, 1500.0, 1.0, avoid=frozenset({1}))]
    assert plan_wave(two, seats=2) == [[1, 2]]


def test_among_rematch_tables_the_one_with_fewest_rematches_wins():
    # Everyone sat with everyone but 4: the table with 4 repeats two pairs instead of three.
    last = frozenset({1, 2, 3})
    waiting = [
        Waiting(1, 1500.0, 30.0, avoid=last - {1}),
        Waiting(2, 1500.0, 20.0, avoid=last - {2}),
        Waiting(3, 1500.0, 20.0, avoid=last - {3}),
        Waiting(4, 1600.0, 20.0),
    ]
    table = plan_wave(waiting, seats=3)[0]
    assert table[0] == 1 and 4 in table


def test_the_plan_does_not_depend_on_the_input_order():
    rng = random.Random(7)
    waiting = [
        Waiting(p, rng.uniform(1200, 1800), rng.uniform(0, 60), frozenset(rng.sample(range(200), 3)))
        for p in range(200)
    ]
    blocks = [tuple(rng.sample(range(200), 2)) for _ in range(40)]
    plan = plan_wave(waiting, seats=4, blocks=blocks)
    shuffled = waiting[:]
    rng.shuffle(shuffled)
    assert plan_wave(shuffled, seats=4, blocks=blocks) == plan
    seated = [p for t in plan for p in t]
    assert len(seated) == len(set(seated)) and all(len(t) == 4 for t in plan)
    by_id = {w.player: w for w in waiting}
    for table in plan:
        spread = max(by_id[p].rating for p in table) - min(by_id[p].rating for p in table)
        assert all(spread <= rating_range(by_id[p].waited) for p in table)
        assert not any({a, b} <= set(table) for a, b in blocks)


def test_a_thousand_players_are_planned():
    rng = random.Random(3)
    waiting = [Waiting(p, rng.gauss(1500, 200), rng.uniform(0, 30)) for p in range(1000)]
    plan = plan_wave(waiting, seats=4)
    assert len(plan) > 200


@pytest.mark.parametrize("seats", [1, 5])
def test_a_table_seats_two_to_four(seats):
    with pytest.raises(ValueError):
        plan_wave([], seats=seats)
