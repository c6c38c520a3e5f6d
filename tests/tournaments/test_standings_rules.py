"""Standings and tiebreaks on hand-checked examples."""

from __future__ import annotations

import pytest

from tournaments.standings import TableResult, place_points, standings


def test_place_points_share_ties() -> None:
    assert place_points(2, {1: 1, 2: 2}) == {1: 1.0, 2: 0.0}
    assert place_points(2, {1: 1, 2: 1}) == {1: 0.5, 2: 0.5}
    assert place_points(4, {1: 1, 2: 2, 3: 2, 4: 4}) == {1: 3.0, 2: 1.5, 3: 1.5, 4: 0.0}
    assert place_points(4, {1: 1, 2: 2, 3: 3}) == {1: 3.0, 2: 1.5, 3: 0.0}, (
        "a 3-player table in a 4-seat event: the same average, 1.5, as 3, 2, 1, 0"
    )
    assert place_points(3, {1: 1, 2: 2, 3: 3}, scale=[5, 2, 0]) == {1: 5, 2: 2, 3: 0}


def test_two_seat_tiebreaks_by_hand() -> None:
    # Round 1: A beats B, C draws D.  Round 2: A draws C, B beats D.  Round 3: A beats D, B beats C.
    A, B, C, D = 1, 2, 3, 4
    results = [
        TableResult(1, {A: 1, B: 2}),
        TableResult(1, {C: 1, D: 1}),
        TableResult(2, {A: 1, C: 1}),
        TableResult(2, {B: 1, D: 2}),
        TableResult(3, {A: 1, D: 2}),
        TableResult(3, {B: 1, C: 2}),
    ]
    rows = {r.player: r for r in standings([A, B, C, D], results, 2)}
    # points: A 2.5, B 2, C 1, D 0.5
    assert [rows[p].points for p in (A, B, C, D)] == [2.5, 2.0, 1.0, 0.5]
    # Buchholz A: B 2 + C 1 + D 0.5 = 3.5; median drops 2 and 0.5 → 1
    assert rows[A].tiebreaks["buchholz"] == 3.5 and rows[A].tiebreaks["median_buchholz"] == 1.0
    # Sonneborn-Berger A: beat B (2) + half of C (0.5) + beat D (0.5) = 3
    assert rows[A].tiebreaks["sonneborn_berger"] == 3.0
    # B: lost to A, beat D (0.5) and C (1) → SB 1.5; wins 2
    assert rows[B].tiebreaks["sonneborn_berger"] == 1.5 and rows[B].wins == 2
    assert [r.player for r in standings([A, B, C, D], results, 2)] == [A, B, C, D]


def test_multi_seat_tiebreaks_and_shared_places() -> None:
    # Two 3-player tables. T1: 1 first, 2 second, 3 third. T2: 4 first, 5 second, 6 third.
    res = [
        TableResult(1, {1: 1, 2: 2, 3: 3}, markers={1: 10, 2: 8, 3: 5}),
        TableResult(1, {4: 1, 5: 2, 6: 3}, markers={4: 10, 5: 8, 6: 5}),
    ]
    rows = standings([1, 2, 3, 4, 5, 6], res, 3)
    # 1 and 4 have equal points (2), opponents' points (1 + 0 = 1), markers (10), average place (1): shared
    assert [(r.player, r.place, r.points) for r in rows[:2]] == [(1, 1, 2.0), (4, 1, 2.0)]
    assert rows[0].tiebreaks == {"opponents_points": 1.0, "markers": 10.0, "average_place": 1.0}
    assert [r.place for r in rows] == [1, 1, 3, 3, 5, 5]
    res.append(TableResult(2, {1: 1, 4: 2, 5: 3}, markers={1: 3, 4: 12, 5: 1}))
    rows = standings([1, 2, 3, 4, 5, 6], res, 3)
    assert rows[0].player == 1 and rows[0].points == 4.0 and rows[1].player == 4


def test_byes_score_the_place_just_above_the_average_by_default() -> None:
    rows = {r.player: r for r in standings([1, 2, 3], [TableResult(1, {1: 1, 2: 2})], 2, byes={3: 1})}
    assert rows[3].points == 1.0 and rows[3].played == 0
    rows = {r.player: r for r in standings([1, 2, 3], [], 4, byes={3: 1})}
    assert rows[3].points == pytest.approx(2.0), "a second place of 3, 2, 1, 0 (average 1.5)"
