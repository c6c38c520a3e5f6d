"""Arena scoring and pairing as pure functions (``tournaments.arena.scoring``, ``.pairing``)."""

from __future__ import annotations

import pytest

from tournaments.arena.pairing import REMATCH_PATIENCE, Free, plan_arena_tables
from tournaments.arena.scoring import (
    ARENA_SCALES,
    MIN_BERSERK_MOVES,
    Outcome,
    Score,
    performance,
    score,
    whole,
)
from tournaments.standings import place_points


def _play(before: Score, points: float, won: bool, **kw: bool) -> tuple[Score, int, str]:
    return score(before, Outcome(place_points=points, won=won, **kw))


def test_a_win_pays_the_first_place_and_starts_a_streak() -> None:
    after, earned, mark = _play(Score(), 2.0, True)
    assert (after, earned, mark) == (Score(points=2, games=1, wins=1, streak=1), 2, "2")


def test_points_double_from_the_third_win_in_a_row_until_a_table_that_is_no_win() -> None:
    s = Score()
    marks = []
    for won in (True, True, True, True):
        s, _, mark = _play(s, 2.0 if won else 0.0, won)
        marks.append(mark)
    assert marks == ["2", "2", "4s", "4s"]
    assert s == Score(points=12, games=4, wins=4, streak=4)
    # A draw while on fire is paid double, and ends the streak.
    s, earned, mark = _play(s, 1.0, False)
    assert (earned, mark, s.streak) == (2, "2s", 0)
    s, earned, mark = _play(s, 2.0, True)
    assert (earned, mark, s.streak) == (2, "2", 1)


def test_a_loss_resets_the_streak_and_pays_nothing() -> None:
    s, earned, mark = _play(Score(points=8, games=3, wins=3, streak=3), 0.0, False)
    assert (s, earned, mark) == (Score(points=8, games=4, wins=3, streak=0), 0, "0")


def test_berserk_adds_one_point_on_a_win_only_not_doubled_and_only_with_enough_moves() -> None:
    assert _play(Score(), 2.0, True, berserk=True, berserk_counts=True)[1:] == (3, "3b")
    assert _play(Score(), 0.0, False, berserk=True, berserk_counts=True)[1:] == (0, "0")
    assert _play(Score(), 1.0, False, berserk=True, berserk_counts=True)[1:] == (1, "1")
    assert _play(Score(), 2.0, True, berserk=True, berserk_counts=False)[1:] == (2, "2")
    on_fire = Score(points=4, games=2, wins=2, streak=2)
    assert _play(on_fire, 2.0, True, berserk=True, berserk_counts=True)[1:] == (5, "5sb")
    assert MIN_BERSERK_MOVES >= 1


@pytest.mark.parametrize(
    ("ranks", "expected"),
    [
        ({1: 1, 2: 2, 3: 3}, {1: 3, 2: 1, 3: 0}),
        ({1: 1, 2: 1, 3: 3}, {1: 2, 2: 2, 3: 0}),  # shared first: (3 + 1) / 2
        ({1: 1, 2: 2, 3: 2}, {1: 3, 2: 1, 3: 1}),  # shared second: ½ each, rounded half up
        ({1: 1, 2: 2, 3: 3, 4: 4}, {1: 4, 2: 2, 3: 1, 4: 0}),
        ({1: 1, 2: 2, 3: 2, 4: 4}, {1: 4, 2: 2, 3: 2, 4: 0}),  # 1.5 each → 2
        ({1: 1, 2: 1, 3: 3, 4: 4}, {1: 3, 2: 3, 3: 1, 4: 0}),
        ({1: 1, 2: 1}, {1: 1, 2: 1}),  # a drawn two-seat table
    ],
)
def test_places_at_three_and_four_seats_with_shared_places(
    ranks: dict[int, int], expected: dict[int, int]
) -> None:
    seats = len(ranks)
    points = place_points(seats, ranks, ARENA_SCALES[seats])
    assert {p: whole(v) for p, v in points.items()} == expected


def test_a_shared_first_place_is_no_win_and_breaks_the_streak() -> None:
    s = Score(points=6, games=2, wins=2, streak=2)
    s, earned, _ = _play(s, 2.0, False)  # ranks 1,1,3 at three seats: 2 points each, no win
    assert (earned, s.streak, s.wins) == (4, 0, 2)


def test_performance_counts_each_opponent_plus_or_minus_400() -> None:
    got = performance({1: 1, 2: 2, 3: 2, 4: 4}, {1: 1500.0, 2: 1600.0, 3: 1400.0, 4: 1700.0})
    assert got[1] == (2000.0 + 1800.0 + 2100.0, 3)
    assert got[2] == (1100.0 + 1400.0 + 2100.0, 3)  # lost to 1, shared with 3, beat 4
    assert got[4] == (1100.0 + 1200.0 + 1000.0, 3)
    assert performance({1: 1, 2: 2}, {})[2] == (1100.0, 1)  # no rating: 1500


# ------------------------------------------------------------------ pairing


def _free(player: int, points: int = 0, rating: float = 1500.0, waited: float = 10.0, last=()) -> Free:
    return Free(player, points, rating, waited, frozenset(last))


def test_tables_follow_points_then_rating() -> None:
    free = [
        _free(1, points=0, rating=1900),
        _free(2, points=10, rating=1400),
        _free(3, points=4, rating=1500),
        _free(4, points=4, rating=1700),
    ]
    assert plan_arena_tables(free, seats=2) == [[2, 4], [3, 1]]
    assert plan_arena_tables(list(reversed(free)), seats=2) == [[2, 4], [3, 1]]


def test_leftovers_are_the_players_freed_last() -> None:
    free = [_free(1, points=9, waited=1), _free(2, points=5, waited=30), _free(3, points=1, waited=20)]
    assert plan_arena_tables(free, seats=2) == [[2, 3]]
    assert plan_arena_tables(free[:1], seats=2) == []
    assert plan_arena_tables([_free(n, waited=n) for n in range(1, 8)], seats=3) == [[7, 6, 5], [4, 3, 2]]


def test_no_same_opponents_back_to_back_when_avoidable() -> None:
    free = [
        _free(1, points=9, last={2}),
        _free(2, points=8, last={1}),
        _free(3, points=7, last={4}),
        _free(4, points=6, last={3}),
    ]
    tables = plan_arena_tables(free, seats=2)
    assert tables == [[1, 3], [2, 4]]
    for table in tables:
        assert sorted(table) not in ([1, 2], [3, 4])


def test_a_repeat_when_there_is_no_other_choice() -> None:
    assert sorted(plan_arena_tables([_free(1, last={2}), _free(2, last={1})], seats=2)[0]) == [1, 2]


def test_a_repeat_waits_for_others_while_the_arena_still_plays() -> None:
    """With other tables in play, a table that can only be a repeat is held back until its players
    waited the patience for their table size; with nobody else playing it is seated at once."""
    for seats, patience in REMATCH_PATIENCE.items():
        group = list(range(1, seats + 1))
        just_freed = [_free(n, waited=patience - 1, last=set(group) - {n}) for n in group]
        assert plan_arena_tables(just_freed, seats=seats, others_playing=True) == []
        assert len(plan_arena_tables(just_freed, seats=seats)) == 1
        waited = [_free(n, waited=patience, last=set(group) - {n}) for n in group]
        assert len(plan_arena_tables(waited, seats=seats, others_playing=True)) == 1
    fresh = [_free(1, waited=0.0), _free(2, waited=0.0)]
    assert plan_arena_tables(fresh, seats=2, others_playing=True) == [[2, 1]] or plan_arena_tables(
        fresh, seats=2, others_playing=True
    ) == [[1, 2]], "no repeat: no waiting"


def test_four_seats_avoid_the_last_table_mates() -> None:
    last = {1: {2, 3, 4}, 2: {1, 3, 4}, 3: {1, 2, 4}, 4: {1, 2, 3}}
    free = [_free(n, points=20 - n, last=last.get(n, ())) for n in range(1, 9)]
    tables = plan_arena_tables(free, seats=4)
    assert len(tables) == 2 and sorted(p for t in tables for p in t) == list(range(1, 9))
    for table in tables:
        assert len(set(table) & {1, 2, 3, 4}) == 2
    repeats = sum(1 for t in tables for a in t for b in t if a < b and b in last.get(a, ()))
    assert repeats == 2  # two of the old four must share a table with one another: the fewest possible
