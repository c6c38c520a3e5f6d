"""Standings: points per place and every tiebreak, on small examples worked out by hand."""

from __future__ import annotations

import pytest

from tournaments.standings import StandingRow, TableResult, place_points, standings


def by_player(rows: list[StandingRow]) -> dict[int, StandingRow]:
    return {r.player: r for r in rows}


# ------------------------------------------------------------------- points


def test_place_points_default_scales() -> None:
    assert place_points(2, {1: 1, 2: 2}) == {1: 1.0, 2: 0.0}
    assert place_points(3, {1: 1, 2: 2, 3: 3}) == {1: 2.0, 2: 1.0, 3: 0.0}
    assert place_points(4, {1: 4, 2: 3, 3: 2, 4: 1}) == {1: 0.0, 2: 1.0, 3: 2.0, 4: 3.0}


def test_place_points_share_tied_places() -> None:
    # A draw: both share first and second, (1 + 0) / 2.
    assert place_points(2, {1: 1, 2: 1}) == {1: 0.5, 2: 0.5}
    # 1, 2, 2, 4 at four seats: the two seconds cover places 2 and 3: (2 + 1) / 2 = 1.5 each.
    assert place_points(4, {1: 1, 2: 2, 3: 2, 4: 4}) == {1: 3.0, 2: 1.5, 3: 1.5, 4: 0.0}
    # Three tied first at three seats: (2 + 1 + 0) / 3 = 1 each.
    assert place_points(3, {1: 1, 2: 1, 3: 1}) == {1: 1.0, 2: 1.0, 3: 1.0}
    # Two tied first and two tied third at four seats: (3 + 2) / 2 = 2.5 and (1 + 0) / 2 = 0.5.
    assert place_points(4, {1: 1, 2: 1, 3: 3, 4: 3}) == {1: 2.5, 2: 2.5, 3: 0.5, 4: 0.5}
    # Dense ranks (1, 2, 2, 3) read the same as 1, 2, 2, 4.
    assert place_points(4, {1: 1, 2: 2, 3: 2, 4: 3}) == place_points(4, {1: 1, 2: 2, 3: 2, 4: 4})


def test_place_points_custom_scale_and_smaller_tables() -> None:
    assert place_points(3, {1: 1, 2: 2, 3: 3}, scale=[5, 2, 0]) == {1: 5.0, 2: 2.0, 3: 0.0}
    assert place_points(3, {1: 2, 2: 2, 3: 1}, scale=[5, 2, 0]) == {1: 1.0, 2: 1.0, 3: 5.0}
    # A three-player table in a four-seat event reads the event's scale at places 1, 2.5 and 4 and keeps
    # its average: 3, 1.5, 0 (average 1.5, as 3, 2, 1, 0). With 10, 5, 2, 0 (average 4.25): 10, 3.5, 0
    # (average 4.5), times 4.25 / 4.5.
    assert place_points(4, {1: 1, 2: 2, 3: 3}) == {1: 3.0, 2: 1.5, 3: 0.0}
    assert place_points(4, {1: 1, 2: 2, 3: 3}, scale=[10, 5, 2, 0]) == pytest.approx(
        {1: 10 * 4.25 / 4.5, 2: 3.5 * 4.25 / 4.5, 3: 0.0}
    )
    assert place_points(2, {1: 1, 2: 2}, scale=[]) == {1: 1.0, 2: 0.0}, "an empty scale is no scale"


def test_place_points_refuses_nonsense() -> None:
    with pytest.raises(ValueError):
        place_points(3, {1: 1, 2: 2}, scale=[3, 0])  # a scale per seat
    with pytest.raises(ValueError):
        place_points(2, {1: 1, 2: 2, 3: 3})  # three at a two-seat event
    with pytest.raises(ValueError):
        place_points(5, {1: 1, 2: 2})


# --------------------------------------------------------------- two seats

A, B, C, D, E = 1, 2, 3, 4, 5
TWO_SEAT_EVENT = [
    # Round 1: A beats B, C draws D, E has the bye.
    TableResult(1, {A: 1, B: 2}),
    TableResult(1, {C: 1, D: 1}),
    # Round 2: E beats A, B beats C, D has the bye.
    TableResult(2, {E: 1, A: 2}),
    TableResult(2, {B: 1, C: 2}),
    # Round 3: A beats D, E draws C, B has the bye.
    TableResult(3, {A: 1, D: 2}),
    TableResult(3, {E: 1, C: 1}),
]
TWO_SEAT_BYES = {E: 1, D: 1, B: 1}


def test_two_seat_points_and_every_tiebreak_by_hand() -> None:
    rows = by_player(standings([A, B, C, D, E], TWO_SEAT_EVENT, 2, byes=TWO_SEAT_BYES))
    # Points: A 1 + 0 + 1 = 2; B 0 + 1 + bye 1 = 2; C ½ + 0 + ½ = 1; D ½ + bye 1 + 0 = 1.5;
    # E bye 1 + 1 + ½ = 2.5.
    assert {p: r.points for p, r in rows.items()} == {A: 2.0, B: 2.0, C: 1.0, D: 1.5, E: 2.5}
    # Buchholz: A met B 2, E 2.5, D 1.5 = 6; B met A 2, C 1 = 3; C met D 1.5, B 2, E 2.5 = 6;
    # D met C 1, A 2 = 3; E met A 2, C 1 = 3.
    assert {p: r.tiebreaks["buchholz"] for p, r in rows.items()} == {A: 6, B: 3, C: 6, D: 3, E: 3}
    # Median Buchholz: A drops 2.5 and 1.5 → 2; C likewise → 2; two opponents only (B, D, E): all kept.
    assert {p: r.tiebreaks["median_buchholz"] for p, r in rows.items()} == {A: 2, B: 3, C: 2, D: 3, E: 3}
    # Sonneborn-Berger: A beat B (2) and D (1.5) = 3.5; B beat C (1) = 1;
    # C drew D (1.5 / 2) and E (2.5 / 2) = 2; D drew C (1 / 2) = 0.5; E beat A (2), drew C (1 / 2) = 2.5.
    assert {p: r.tiebreaks["sonneborn_berger"] for p, r in rows.items()} == {
        A: 3.5,
        B: 1.0,
        C: 2.0,
        D: 0.5,
        E: 2.5,
    }
    # Wins (games, not byes): A 2, B 1, E 1; draws are not wins.
    assert {p: r.wins for p, r in rows.items()} == {A: 2, B: 1, C: 0, D: 0, E: 1}
    assert {p: r.tiebreaks["wins"] for p, r in rows.items()} == {A: 2, B: 1, C: 0, D: 0, E: 1}
    assert {p: r.played for p, r in rows.items()} == {A: 3, B: 2, C: 3, D: 2, E: 2}
    assert list(rows[A].tiebreaks) == ["buchholz", "median_buchholz", "sonneborn_berger", "wins"]


def test_two_seat_order_and_places() -> None:
    rows = standings([A, B, C, D, E], TWO_SEAT_EVENT, 2, byes=TWO_SEAT_BYES)
    # E 2.5; A and B on 2, Buchholz 6 against 3 puts A ahead; D 1.5; C 1.
    assert [(r.player, r.place) for r in rows] == [(E, 1), (A, 2), (B, 3), (D, 4), (C, 5)]


def test_median_buchholz_decides_when_buchholz_is_equal() -> None:
    # X and Y each beat one opponent and lost to two (1 point each). Byes (½ each here) set the
    # opponents' points: X's: P1 0 + 2 byes = 1, P2 1 + 0 = 1, P3 1 + 6 byes = 4 → Buchholz 6, median 1.
    # Y's: Q1 0 + 4 byes = 2, Q2 1 + 2 byes = 2, Q3 1 + 2 byes = 2 → Buchholz 6, median 2: Y ahead.
    X, Y, P1, P2, P3, Q1, Q2, Q3 = range(1, 9)
    results = [
        TableResult(1, {X: 1, P1: 2}),
        TableResult(2, {P2: 1, X: 2}),
        TableResult(3, {P3: 1, X: 2}),
        TableResult(1, {Y: 1, Q1: 2}),
        TableResult(2, {Q2: 1, Y: 2}),
        TableResult(3, {Q3: 1, Y: 2}),
    ]
    byes = {P1: 2, P3: 6, Q1: 4, Q2: 2, Q3: 2}
    rows = by_player(standings([X, Y], results, 2, byes=byes, bye_points=0.5))
    assert rows[X].points == rows[Y].points == 1.0
    assert rows[X].tiebreaks["buchholz"] == rows[Y].tiebreaks["buchholz"] == 6.0
    assert (rows[X].tiebreaks["median_buchholz"], rows[Y].tiebreaks["median_buchholz"]) == (1.0, 2.0)
    assert [(r.player, r.place) for r in standings([X, Y], results, 2, byes=byes, bye_points=0.5)] == [
        (Y, 1),
        (X, 2),
    ]


def test_sonneborn_berger_decides_when_both_buchholz_are_equal() -> None:
    # Both beat one and lost to two; opponents' points 1, 2, 3 for both (Buchholz 6, median 2),
    # but X beat the 1-point opponent (SB 1) and Y the 3-point one (SB 3).
    # X's: P1 0 + 2 byes = 1, P2 1 + 2 = 2, P3 1 + 4 = 3. Y's: Q1 1 + 0 = 1, Q2 1 + 2 = 2, Q3 0 + 6 = 3.
    X, Y, P1, P2, P3, Q1, Q2, Q3 = range(1, 9)
    results = [
        TableResult(1, {X: 1, P1: 2}),
        TableResult(2, {P2: 1, X: 2}),
        TableResult(3, {P3: 1, X: 2}),
        TableResult(1, {Q1: 1, Y: 2}),
        TableResult(2, {Q2: 1, Y: 2}),
        TableResult(3, {Y: 1, Q3: 2}),
    ]
    byes = {P1: 2, P2: 2, P3: 4, Q2: 2, Q3: 6}
    rows = standings([X, Y], results, 2, byes=byes, bye_points=0.5)
    x, y = by_player(rows)[X], by_player(rows)[Y]
    assert (x.tiebreaks["buchholz"], x.tiebreaks["median_buchholz"]) == (6.0, 2.0)
    assert (y.tiebreaks["buchholz"], y.tiebreaks["median_buchholz"]) == (6.0, 2.0)
    assert (x.tiebreaks["sonneborn_berger"], y.tiebreaks["sonneborn_berger"]) == (1.0, 3.0)
    assert [r.player for r in rows] == [Y, X] and [r.place for r in rows] == [1, 2]


def test_wins_decide_when_everything_else_is_equal() -> None:
    # X drew P1 (1 point) and P2 (3); Y beat Q1 (2) and lost to Q2 (2). Both: 1 point, Buchholz 4,
    # median 4 (two opponents: nothing dropped), SB X = (1 + 3) / 2 = 2, Y = 2. Wins: X 0, Y 1.
    # Opponents' points, with ½-point byes: P1 ½ + 1 bye, P2 ½ + 5, Q1 0 + 4, Q2 1 + 2.
    X, Y, P1, P2, Q1, Q2 = range(1, 7)
    results = [
        TableResult(1, {X: 1, P1: 1}),
        TableResult(2, {X: 1, P2: 1}),
        TableResult(1, {Y: 1, Q1: 2}),
        TableResult(2, {Q2: 1, Y: 2}),
    ]
    byes = {P1: 1, P2: 5, Q1: 4, Q2: 2}
    rows = standings([X, Y], results, 2, byes=byes, bye_points=0.5)
    x, y = by_player(rows)[X], by_player(rows)[Y]
    assert x.tiebreaks == {"buchholz": 4.0, "median_buchholz": 4.0, "sonneborn_berger": 2.0, "wins": 0.0}
    assert y.tiebreaks == {"buchholz": 4.0, "median_buchholz": 4.0, "sonneborn_berger": 2.0, "wins": 1.0}
    assert [(r.player, r.place) for r in rows] == [(Y, 1), (X, 2)]


def test_byes_score_the_place_just_above_the_average_unless_told_otherwise() -> None:
    # Two seats: a win (1 of 1, 0); four seats: a second place (2 of 3, 2, 1, 0), not a table win.
    rows = by_player(standings([1, 2, 3], [TableResult(1, {1: 1, 2: 2})], 2, byes={3: 1}))
    assert (rows[3].points, rows[3].played, rows[3].wins) == (1.0, 0, 0)
    assert rows[3].tiebreaks["buchholz"] == 0.0, "a bye has no opponent"
    assert by_player(standings([3], [], 4, byes={3: 2}))[3].points == 4.0, "two 4-seat second places"
    assert by_player(standings([3], [], 3, byes={3: 1}))[3].points == 1.0, "2, 1, 0: the average, 1"
    assert by_player(standings([3], [], 3, byes={3: 1}, scale=[4, 1, 0]))[3].points == 4.0, "avg 5 / 3"
    assert by_player(standings([3], [], 4, byes={3: 1}, scale=[10, 6, 3, 0]))[3].points == 6.0
    assert by_player(standings([3], [], 2, byes={3: 1}, bye_points=0.5))[3].points == 0.5


# --------------------------------------------------------- three and four seats


def test_multi_seat_points_and_tiebreaks_by_hand() -> None:
    # Seven players at four seats: a table of 4 and one of 3 in each round.
    results = [
        # Round 1. Table of 4: 1 first, 2 and 3 tied second, 4 last: 3, 1.5, 1.5, 0.
        TableResult(1, {1: 1, 2: 2, 3: 2, 4: 4}, markers={1: 9, 2: 7, 3: 7, 4: 2}),
        # Table of 3 (the four-seat scale at places 1, 2.5, 4: 3, 1.5, 0): 5, 6, 7.
        TableResult(1, {5: 1, 6: 2, 7: 3}, markers={5: 8, 6: 6, 7: 1}),
        # Round 2. Table of 4: 5 (3), 1 (2), 2 (1), 6 (0). Table of 3: 3 (3), 7 (1.5), 4 (0).
        TableResult(2, {5: 1, 1: 2, 2: 3, 6: 4}, markers={5: 10, 1: 8, 2: 4, 6: 3}),
        TableResult(2, {3: 1, 7: 2, 4: 3}, markers={3: 9, 7: 5, 4: 4}),
    ]
    rows = by_player(standings(list(range(1, 8)), results, 4))
    # Points: 1: 3 + 2 = 5; 2: 1.5 + 1 = 2.5; 3: 1.5 + 3 = 4.5; 4: 0 + 0 = 0;
    # 5: 3 + 3 = 6; 6: 1.5 + 0 = 1.5; 7: 0 + 1.5 = 1.5.
    assert {p: r.points for p, r in rows.items()} == {1: 5, 2: 2.5, 3: 4.5, 4: 0, 5: 6, 6: 1.5, 7: 1.5}
    # Opponents' points, once per meeting:
    # 1: (2 2.5 + 3 4.5 + 4 0) + (5 6 + 2 2.5 + 6 1.5) = 7 + 10 = 17
    # 2: (1 5 + 3 4.5 + 4 0) + (5 6 + 1 5 + 6 1.5) = 9.5 + 12.5 = 22   (meets 1 twice: counted twice)
    # 3: (1 5 + 2 2.5 + 4 0) + (7 1.5 + 4 0) = 7.5 + 1.5 = 9
    # 4: (1 5 + 2 2.5 + 3 4.5) + (3 4.5 + 7 1.5) = 12 + 6 = 18
    # 5: (6 1.5 + 7 1.5) + (1 5 + 2 2.5 + 6 1.5) = 3 + 9 = 12
    # 6: (5 6 + 7 1.5) + (5 6 + 1 5 + 2 2.5) = 7.5 + 13.5 = 21
    # 7: (5 6 + 6 1.5) + (3 4.5 + 4 0) = 7.5 + 4.5 = 12
    assert {p: r.tiebreaks["opponents_points"] for p, r in rows.items()} == {
        1: 17,
        2: 22,
        3: 9,
        4: 18,
        5: 12,
        6: 21,
        7: 12,
    }
    # Markers: 1: 9 + 8; 2: 7 + 4; 3: 7 + 9; 4: 2 + 4; 5: 8 + 10; 6: 6 + 3; 7: 1 + 5.
    assert {p: r.tiebreaks["markers"] for p, r in rows.items()} == {
        1: 17,
        2: 11,
        3: 16,
        4: 6,
        5: 18,
        6: 9,
        7: 6,
    }
    # Average place: 1: (1 + 2) / 2; 2: (2 + 3) / 2; 3: (2 + 1) / 2; 4: (4 + 3) / 2; 5: 1; 6: (2 + 4) / 2;
    # 7: (3 + 2) / 2.
    assert {p: r.tiebreaks["average_place"] for p, r in rows.items()} == {
        1: 1.5,
        2: 2.5,
        3: 1.5,
        4: 3.5,
        5: 1.0,
        6: 3.0,
        7: 2.5,
    }
    # Wins (outright firsts): 1 once, 3 once, 5 twice.
    assert {p: r.wins for p, r in rows.items() if r.wins} == {1: 1, 3: 1, 5: 2}
    # Order: 5 (6), 1 (5), 3 (4.5), 2 (2.5); 6 and 7 on 1.5 points, opponents' 21 against 12: 6 first;
    # 4 last.
    order = standings(list(range(1, 8)), results, 4)
    assert [(r.player, r.place) for r in order] == [(5, 1), (1, 2), (3, 3), (2, 4), (6, 5), (7, 6), (4, 7)]


def test_markers_decide_when_points_and_opponents_are_equal() -> None:
    # Two mirrored three-player tables; the winners (1 and 4) have 2 points, opponents' points 1 + 0 and
    # average place 1 each; 4 ended with 12 markers, 1 with 10: 4 ahead.
    results = [
        TableResult(1, {1: 1, 2: 2, 3: 3}, markers={1: 10, 2: 8, 3: 5}),
        TableResult(1, {4: 1, 5: 2, 6: 3}, markers={4: 12, 5: 8, 6: 5}),
    ]
    rows = standings([1, 2, 3, 4, 5, 6], results, 3)
    assert [(r.player, r.place) for r in rows] == [(4, 1), (1, 2), (2, 3), (5, 3), (3, 5), (6, 5)]
    assert rows[0].tiebreaks == {"opponents_points": 1.0, "markers": 12.0, "average_place": 1.0}


def test_average_place_decides_last_and_lower_is_better() -> None:
    # Four-seat event, byes worth ½. X is second at a three-player table (1.5 points on the scale read at
    # places 1, 2.5, 4: 3, 1.5, 0; place 2); Y is third at a four-player table (1 point, place 3) and has
    # a bye (½): 1.5 points too. Both ended with 5 markers.
    # X's opponents: P 3 points, Q 0 + four byes (2 points) = 5. Y's: W 3, U 2, V 0 = 5.
    # Everything is equal but the average place, 2 against 3: X ahead (it sorts ascending).
    X, P, Q, Y, W, U, V = range(1, 8)
    results = [
        TableResult(1, {P: 1, X: 2, Q: 3}, markers={X: 5}),
        TableResult(1, {W: 1, U: 2, Y: 3, V: 4}, markers={Y: 5}),
    ]
    rows = standings([Y, X], results, 4, byes={Q: 4, Y: 1}, bye_points=0.5)
    assert [r.points for r in rows] == [1.5, 1.5]
    assert [r.player for r in rows] == [X, Y] and [r.place for r in rows] == [1, 2]
    assert rows[0].tiebreaks == {"opponents_points": 5.0, "markers": 5.0, "average_place": 2.0}
    assert rows[1].tiebreaks == {"opponents_points": 5.0, "markers": 5.0, "average_place": 3.0}
    # A player with no table played gets the middle place, (4 + 1) / 2.
    assert by_player(standings([9], [], 4, byes={9: 1}))[9].tiebreaks["average_place"] == 2.5


def test_places_are_shared_only_when_everything_is_equal() -> None:
    results = [
        TableResult(1, {1: 1, 2: 2, 3: 3}, markers={1: 10, 2: 8, 3: 5}),
        TableResult(1, {4: 1, 5: 2, 6: 3}, markers={4: 10, 5: 8, 6: 5}),
    ]
    rows = standings([4, 5, 6, 1, 2, 3], results, 3)
    # Mirror images: every pair shares its place; the order of ``players`` is kept within a tie.
    assert [(r.player, r.place) for r in rows] == [(4, 1), (1, 1), (5, 3), (2, 3), (6, 5), (3, 5)]
    # Points equal but one tiebreak apart (a marker): no longer shared.
    results[1] = TableResult(1, {4: 1, 5: 2, 6: 3}, markers={4: 10, 5: 8, 6: 6})
    rows = standings([1, 2, 3, 4, 5, 6], results, 3)
    assert [(r.player, r.place) for r in rows] == [(1, 1), (4, 1), (2, 3), (5, 3), (6, 5), (3, 6)]


def test_sums_that_differ_only_by_rounding_still_tie() -> None:
    # Scale 0.3, 0.2, 0.1, 0. Player 1 finishes 3rd, 2nd, 1st: 0.1 + 0.2 + 0.3; player 4 finishes 1st, 2nd,
    # 3rd: 0.3 + 0.2 + 0.1. Equal sums in exact arithmetic, not in floating point. Both average place 2,
    # no markers; each table's other three share the rest of the table's points the same way, so the
    # opponents' points are equal too (again up to rounding). They must share first place.
    scale = [0.3, 0.2, 0.1, 0]
    results = [
        TableResult(1, {1: 3, 11: 1, 12: 2, 13: 4}),
        TableResult(2, {1: 2, 11: 1, 12: 3, 13: 4}),
        TableResult(3, {1: 1, 11: 2, 12: 3, 13: 4}),
        TableResult(1, {4: 1, 14: 2, 15: 3, 16: 4}),
        TableResult(2, {4: 2, 14: 1, 15: 3, 16: 4}),
        TableResult(3, {4: 3, 14: 1, 15: 2, 16: 4}),
    ]
    rows = standings([1, 4], results, 4, scale=scale)
    assert 0.1 + 0.2 + 0.3 != 0.3 + 0.2 + 0.1, "the float sums really differ"
    assert [r.place for r in rows] == [1, 1]


def test_players_without_results_and_withdrawn_opponents() -> None:
    # 9 withdrew after beating 1: not listed, but their point still counts for 1's tiebreak.
    rows = standings([1, 2], [TableResult(1, {9: 1, 1: 2})], 2)
    assert [(r.player, r.points, r.played) for r in rows] == [(1, 0.0, 1), (2, 0.0, 0)]
    assert rows[0].tiebreaks["buchholz"] == 1.0 and rows[0].place == 1 and rows[1].place == 2
