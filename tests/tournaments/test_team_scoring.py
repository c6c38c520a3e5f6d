"""Team scoring (tournaments.teams.scoring): board points, match results, byes and team standings.

Plain data, no database. Every expected number is worked out by hand in the comments.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.teams.scoring import (
    DEFAULT_MATCH_POINTS,
    TIEBREAKS,
    MatchRecord,
    board_points,
    bye_points,
    match_result,
    team_standings,
)

# ------------------------------------------------------------------ board points


@pytest.mark.parametrize(
    ("ranks", "expected"),
    [
        ({1: 1, 2: 2}, {1: 1.0, 2: 0.0}),  # a win
        ({1: 2, 2: 1}, {1: 0.0, 2: 1.0}),
        ({1: 1, 2: 1}, {1: 0.5, 2: 0.5}),  # a draw: shared first place, (1 + 0) / 2 each
        ({1: 1}, {1: 1.0, 2: 0.0}),  # team 2's player missing: team 1 wins by forfeit
        ({2: 1}, {1: 0.0, 2: 1.0}),
        ({}, {1: 0.0, 2: 0.0}),  # both missing: nobody scores
    ],
)
def test_board_points_at_two_seats(ranks: dict[int, int], expected: dict[int, float]) -> None:
    assert board_points(seats=2, teams=[1, 2], ranks=ranks) == expected


def test_board_points_at_two_seats_with_a_custom_scale() -> None:
    # Scale 3 / 1: a draw shares (3 + 1) / 2 = 2; a lone player gets the first value, 3.
    assert board_points(seats=2, teams=[1, 2], ranks={1: 1, 2: 1}, scale=[3, 1]) == {1: 2.0, 2: 2.0}
    assert board_points(seats=2, teams=[1, 2], ranks={2: 1}, scale=[3, 1]) == {1: 0.0, 2: 3.0}


@pytest.mark.parametrize(
    ("ranks", "expected"),
    [
        ({1: 1, 2: 2, 3: 3}, {1: 2.0, 2: 1.0, 3: 0.0}),  # scale 2, 1, 0
        ({1: 1, 2: 1, 3: 3}, {1: 1.5, 2: 1.5, 3: 0.0}),  # shared first: (2 + 1) / 2
        ({1: 1, 2: 2, 3: 2}, {1: 2.0, 2: 0.5, 3: 0.5}),  # shared second: (1 + 0) / 2
        # team 3 missing: a two-player table of a three-seat event pays 2, 0 (table_scale)
        ({1: 2, 2: 1}, {1: 0.0, 2: 2.0, 3: 0.0}),
        ({3: 1}, {1: 0.0, 2: 0.0, 3: 2.0}),  # a lone present player: the scale's first value
        ({}, {1: 0.0, 2: 0.0, 3: 0.0}),
    ],
)
def test_board_points_at_three_seats(ranks: dict[int, int], expected: dict[int, float]) -> None:
    assert board_points(seats=3, teams=[1, 2, 3], ranks=ranks) == expected


@pytest.mark.parametrize(
    ("ranks", "expected"),
    [
        ({1: 1, 2: 2, 3: 3, 4: 4}, {1: 3.0, 2: 2.0, 3: 1.0, 4: 0.0}),
        # ranks 1, 2, 2, 4: the two seconds cover places 2 and 3: (2 + 1) / 2 = 1.5 each
        ({1: 1, 2: 2, 3: 2, 4: 4}, {1: 3.0, 2: 1.5, 3: 1.5, 4: 0.0}),
        # team 4 missing: three present are paid as a three-player table of four seats: 3, 1.5, 0
        ({1: 3, 2: 1, 3: 2}, {1: 0.0, 2: 3.0, 3: 1.5, 4: 0.0}),
        # two present, tied: a two-player table pays 3, 0; shared: 1.5 each
        ({1: 1, 4: 1}, {1: 1.5, 2: 0.0, 3: 0.0, 4: 1.5}),
        ({2: 1}, {1: 0.0, 2: 3.0, 3: 0.0, 4: 0.0}),  # lone present player: 3
        ({}, {1: 0.0, 2: 0.0, 3: 0.0, 4: 0.0}),
    ],
)
def test_board_points_at_four_seats(ranks: dict[int, int], expected: dict[int, float]) -> None:
    assert board_points(seats=4, teams=[1, 2, 3, 4], ranks=ranks) == expected


def test_board_points_of_three_teams_in_a_four_seat_event() -> None:
    # Three sides (the team count did not divide): a three-player table of four seats, 3, 1.5, 0.
    assert board_points(seats=4, teams=[5, 6, 7], ranks={5: 2, 6: 3, 7: 1}) == {5: 1.5, 6: 0.0, 7: 3.0}


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"seats": 5, "teams": [1, 2], "ranks": {}}, "2, 3 or 4"),
        ({"seats": 1, "teams": [1, 2], "ranks": {}}, "2, 3 or 4"),
        ({"seats": 2, "teams": [1, 2], "ranks": {}, "scale": [1, 0.5, 0]}, "needs 2 values"),
        ({"seats": 2, "teams": [1, 2], "ranks": {3: 1}}, "not on this board"),
        ({"seats": 2, "teams": [1, 1], "ranks": {}}, "twice"),
        ({"seats": 2, "teams": [1, 2, 3], "ranks": {}}, "2 to 2 teams"),
        ({"seats": 3, "teams": [1, 2], "ranks": {1: 0, 2: 1}}, "from 1"),
    ],
)
def test_board_points_refuses_bad_input(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        board_points(**kwargs)


# ------------------------------------------------------------------ match results


def test_match_result_at_two_seats() -> None:
    # 2.5 - 1.5 on four boards: a won match, 2 / 0.
    assert match_result(seats=2, game_points={1: 2.5, 2: 1.5}) == {1: (1, 2.0), 2: (2, 0.0)}
    assert match_result(seats=2, game_points={1: 0.0, 2: 4.0}) == {1: (2, 0.0), 2: (1, 2.0)}
    # 2 - 2: equal game points share first place: (2 + 0) / 2 = 1 each.
    assert match_result(seats=2, game_points={1: 2.0, 2: 2.0}) == {1: (1, 1.0), 2: (1, 1.0)}
    # Sums of halves that differ only in floating-point rounding are equal.
    assert match_result(seats=2, game_points={1: 0.1 + 0.2, 2: 0.3}) == {1: (1, 1.0), 2: (1, 1.0)}


def test_match_result_with_the_events_match_points() -> None:
    # 3 / 1 for win / loss: a draw pays (3 + 1) / 2 = 2 each.
    assert match_result(seats=2, game_points={1: 2.0, 2: 2.0}, scale=[3, 1]) == {1: (1, 2.0), 2: (1, 2.0)}
    assert match_result(seats=2, game_points={1: 3.0, 2: 1.0}, scale=[3, 1]) == {1: (1, 3.0), 2: (2, 1.0)}


def test_match_result_at_three_seats() -> None:
    assert match_result(seats=3, game_points={1: 5.0, 2: 3.0, 3: 4.0}) == {
        1: (1, 2.0),
        2: (3, 0.0),
        3: (2, 1.0),
    }
    # Two share first: places 1 and 2, (2 + 1) / 2 = 1.5 each; the last is third.
    assert match_result(seats=3, game_points={1: 4.0, 2: 4.0, 3: 1.0}) == {
        1: (1, 1.5),
        2: (1, 1.5),
        3: (3, 0.0),
    }


def test_match_result_at_four_seats() -> None:
    # Game points 6, 3, 3, 0: places 1, 2, 2, 4; the seconds share (2 + 1) / 2 = 1.5.
    assert match_result(seats=4, game_points={1: 6.0, 2: 3.0, 3: 3.0, 4: 0.0}) == {
        1: (1, 3.0),
        2: (2, 1.5),
        3: (2, 1.5),
        4: (4, 0.0),
    }
    # All equal: everyone first, (3 + 2 + 1 + 0) / 4 = 1.5 each.
    assert match_result(seats=4, game_points={1: 2.0, 2: 2.0, 3: 2.0, 4: 2.0}) == {
        t: (1, 1.5) for t in (1, 2, 3, 4)
    }
    # Three teams in a four-seat event: the scale read as a three-team match, 3, 1.5, 0.
    assert match_result(seats=4, game_points={1: 1.0, 2: 5.0, 3: 3.0}) == {
        1: (3, 0.0),
        2: (1, 3.0),
        3: (2, 1.5),
    }


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"seats": 2, "game_points": {1: 1.0}}, "2 to 2 teams"),
        ({"seats": 3, "game_points": {1: 1.0, 2: 1.0, 3: 0.0, 4: 0.0}}, "2 to 3 teams"),
        ({"seats": 2, "game_points": {1: 1.0, 2: 0.0}, "scale": [2, 1, 0]}, "need 2 values"),
        ({"seats": 6, "game_points": {1: 1.0, 2: 0.0}}, "2, 3 or 4"),
    ],
)
def test_match_result_refuses_bad_input(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        match_result(**kwargs)


OUTCOMES = st.sampled_from(["first", "second", "draw", "first only", "second only", "nobody"])


@settings(max_examples=200, deadline=None)
@given(
    boards=st.lists(OUTCOMES, min_size=1, max_size=8),
    match_scale=st.sampled_from([None, [2, 0], [3, 1], [1, 0]]),
)
def test_two_teams_always_share_the_scales_sum_of_match_points(boards: list[str], match_scale) -> None:
    """At two seats a match pays the match scale's sum in all: a win pays both values, a draw
    twice their average; and no board pays more than the board scale's first value in all."""
    ranks = {
        "first": {1: 1, 2: 2},
        "second": {1: 2, 2: 1},
        "draw": {1: 1, 2: 1},
        "first only": {1: 1},
        "second only": {2: 1},
        "nobody": {},
    }
    game = {1: 0.0, 2: 0.0}
    for outcome in boards:
        pts = board_points(seats=2, teams=[1, 2], ranks=ranks[outcome])
        assert sum(pts.values()) <= 1.0
        for team, value in pts.items():
            game[team] += value
    result = match_result(seats=2, game_points=game, scale=match_scale)
    expected = sum(match_scale or DEFAULT_MATCH_POINTS[2])
    assert sum(mp for _, mp in result.values()) == pytest.approx(expected)
    winner = max(game, key=game.get)
    assert result[winner][0] == 1


# ------------------------------------------------------------------ byes


def test_bye_points() -> None:
    # A won match's match points (2) and a drawn match's game points (4 boards x 0.5).
    assert bye_points(seats=2, boards=4) == (2.0, 2.0)
    assert bye_points(seats=2, boards=5) == (2.0, 2.5)
    # Three boards at four seats: 3 match points, 3 x mean(3, 2, 1, 0) = 4.5 game points.
    assert bye_points(seats=4, boards=3) == (3.0, 4.5)
    # Board scale 3 / 1 (average 2) and match points 3 / 1: 3, and 4 x 2 = 8.
    assert bye_points(seats=2, boards=4, scale=[3, 1], match_scale=[3, 1]) == (3.0, 8.0)
    with pytest.raises(ValueError, match="at least one board"):
        bye_points(seats=2, boards=0)
    with pytest.raises(ValueError, match="need 2 values"):
        bye_points(seats=2, boards=4, match_scale=[2])


# ------------------------------------------------------------------ standings


def rec(rnd: int, a: int, b: int, ga: float, gb: float) -> MatchRecord:
    """A two-team match of four boards, its match points by the default 2 / 0 (1 / 1 drawn)."""
    mp = (2.0, 0.0) if ga > gb else (0.0, 2.0) if gb > ga else (1.0, 1.0)
    return MatchRecord(round=rnd, game_points={a: ga, b: gb}, match_points={a: mp[0], b: mp[1]})


# Four teams, a round robin at two seats over four boards (A=1, B=2, C=3, D=4):
#   R1: A 3-1 B (A 2, B 0)      C 2-2 D (1, 1)
#   R2: A 2-2 C (1, 1)          B 2.5-1.5 D (B 2, D 0)
#   R3: A 1.5-2.5 D (A 0, D 2)  B 3-1 C (B 2, C 0)
# Match points: A 2+1+0 = 3, B 0+2+2 = 4, C 1+1+0 = 2, D 1+0+2 = 3.
# Game points:  A 3+2+1.5 = 6.5, B 1+2.5+3 = 6.5, C 2+2+1 = 5, D 2+1.5+2.5 = 6.
# A and D are level on 3:
#   game_points: A 6.5 > D 6 -> A first
#   direct: A-D was won by D: A 0, D 2 -> D first
#   buchholz: A: B 4 + C 2 + D 3 = 9; D: C 2 + B 4 + A 3 = 9 -> equal, then game points -> A
#   sonneborn_berger: A: 4*2 + 2*1 + 3*0 = 10; D: 2*1 + 4*0 + 3*2 = 8 -> A first
ROUND_ROBIN = [
    rec(1, 1, 2, 3, 1),
    rec(1, 3, 4, 2, 2),
    rec(2, 1, 3, 2, 2),
    rec(2, 2, 4, 2.5, 1.5),
    rec(3, 1, 4, 1.5, 2.5),
    rec(3, 2, 3, 3, 1),
]


@pytest.mark.parametrize(
    ("tiebreak", "order"),
    [
        ("game_points", [2, 1, 4, 3]),
        ("direct", [2, 4, 1, 3]),
        ("buchholz", [2, 1, 4, 3]),
        ("sonneborn_berger", [2, 1, 4, 3]),
    ],
)
def test_standings_of_a_small_round_robin(tiebreak: str, order: list[int]) -> None:
    rows = team_standings(teams=[1, 2, 3, 4], matches=ROUND_ROBIN, seats=2, boards=4, tiebreak=tiebreak)
    assert [r.team for r in rows] == order
    assert [r.place for r in rows] == [1, 2, 3, 4]
    by_team = {r.team: r for r in rows}
    assert {t: r.match_points for t, r in by_team.items()} == {1: 3, 2: 4, 3: 2, 4: 3}
    assert {t: r.game_points for t, r in by_team.items()} == {1: 6.5, 2: 6.5, 3: 5, 4: 6}
    assert list(by_team[1].tiebreaks) == [tiebreak, *(t for t in TIEBREAKS if t != tiebreak)]
    assert by_team[1].tiebreaks["direct"] == 0 and by_team[4].tiebreaks["direct"] == 2
    assert by_team[1].tiebreaks["buchholz"] == by_team[4].tiebreaks["buchholz"] == 9
    assert by_team[1].tiebreaks["sonneborn_berger"] == 10
    assert by_team[4].tiebreaks["sonneborn_berger"] == 8
    # B is alone on 4 match points, C alone on 2: no team to meet directly.
    assert by_team[2].tiebreaks["direct"] == by_team[3].tiebreaks["direct"] == 0
    # won / drawn / lost: A W D L, B L W W, C D D L, D D L W
    assert [(by_team[t].played, by_team[t].won, by_team[t].drawn, by_team[t].lost) for t in (1, 2, 3, 4)] == [
        (3, 1, 1, 1),
        (3, 2, 0, 1),
        (3, 0, 2, 1),
        (3, 1, 1, 1),
    ]


# Two rounds of a Swiss among four teams (two seats, four boards):
#   R1: 1 2.5-1.5 2 (1: 2, 2: 0)   3 4-0 4 (3: 2, 4: 0)
#   R2: 1 2-2 3 (1 each)           2 4-0 4 (2: 2, 4: 0)
# Match points: 1: 3, 2: 2, 3: 3, 4: 0. Game points: 1: 4.5, 2: 5.5, 3: 6, 4: 0.
# Teams 1 and 3 are level on 3:
#   game_points: 3 (6) before 1 (4.5)
#   direct: they drew, 1 each -> equal; then game points -> 3 first
#   buchholz: 1: team 2's 2 + team 3's 3 = 5; 3: team 4's 0 + team 1's 3 = 3 -> 1 first
#   sonneborn_berger: 1: 2*2 + 3*1 = 7; 3: 0*2 + 3*1 = 3 -> 1 first
SWISS = [rec(1, 1, 2, 2.5, 1.5), rec(1, 3, 4, 4, 0), rec(2, 1, 3, 2, 2), rec(2, 2, 4, 4, 0)]


@pytest.mark.parametrize(
    ("tiebreak", "order"),
    [
        ("game_points", [3, 1, 2, 4]),
        ("direct", [3, 1, 2, 4]),
        ("buchholz", [1, 3, 2, 4]),
        ("sonneborn_berger", [1, 3, 2, 4]),
    ],
)
def test_standings_of_a_small_swiss(tiebreak: str, order: list[int]) -> None:
    rows = team_standings(teams=[1, 2, 3, 4], matches=SWISS, seats=2, boards=4, tiebreak=tiebreak)
    assert [r.team for r in rows] == order
    by_team = {r.team: r for r in rows}
    assert by_team[1].tiebreaks["buchholz"] == 5 and by_team[3].tiebreaks["buchholz"] == 3
    assert by_team[1].tiebreaks["sonneborn_berger"] == 7 and by_team[3].tiebreaks["sonneborn_berger"] == 3
    assert by_team[1].tiebreaks["direct"] == by_team[3].tiebreaks["direct"] == 1


def test_direct_encounter_counts_only_matches_among_the_teams_level() -> None:
    # Five teams A=1 .. E=5 at two seats:
    #   R1: A 2.5-1.5 B (A 2, B 0)   C 2-2 E (1, 1)
    #   R2: B 2-2 C (1, 1)           A 1-3 D (A 0, D 2)
    #   R3: C 2-2 A (1, 1)           B 3-1 D (B 2, D 0)
    # Match points: A 2+0+1 = 3, B 0+1+2 = 3, C 1+1+1 = 3, D 2+0 = 2, E 1.
    # Game points: A 2.5+1+2 = 5.5, B 1.5+2+3 = 6.5, C 2+2+2 = 6.
    # Direct among A, B, C only (the matches against D and E left out):
    #   A: vs B 2 + vs C 1 = 3; B: vs A 0 + vs C 1 = 1; C: vs B 1 + vs A 1 = 2.
    matches = [
        rec(1, 1, 2, 2.5, 1.5),
        rec(1, 3, 5, 2, 2),
        rec(2, 2, 3, 2, 2),
        rec(2, 1, 4, 1, 3),
        rec(3, 3, 1, 2, 2),
        rec(3, 2, 4, 3, 1),
    ]
    rows = team_standings(teams=[1, 2, 3, 4, 5], matches=matches, seats=2, boards=4, tiebreak="direct")
    assert [r.team for r in rows] == [1, 3, 2, 4, 5]
    assert {r.team: r.tiebreaks["direct"] for r in rows} == {1: 3, 2: 1, 3: 2, 4: 0, 5: 0}
    # By game points the same three come B (6.5), C (6), A (5.5).
    rows = team_standings(teams=[1, 2, 3, 4, 5], matches=matches, seats=2, boards=4)
    assert [r.team for r in rows] == [2, 3, 1, 4, 5]


def test_byes_count_a_won_match_and_a_drawn_matchs_game_points() -> None:
    # Three teams, two seats, four boards; a bye pays 2 match points and 4 x 0.5 = 2 game points.
    #   R1: 1 3-1 2 (1: 2, 2: 0), 3 bye      R2: 3 2.5-1.5 1 (3: 2, 1: 0), 2 bye
    #   R3: 2 2-2 3 (1 each), 1 bye
    # Match points: 1: 2+0+2 = 4, 2: 0+2+1 = 3, 3: 2+2+1 = 5.
    # Game points: 1: 3+1.5+2 = 6.5, 2: 1+2+2 = 5, 3: 2+2.5+2 = 6.5.
    # Buchholz (a bye adds the team's own final match points):
    #   1: 2's 3 + 3's 5 + own 4 = 12; 2: 1's 4 + 3's 5 + own 3 = 12; 3: own 5 + 1's 4 + 2's 3 = 12.
    # Sonneborn-Berger (byes add nothing): 1: 3*2 + 5*0 = 6; 2: 4*0 + 5*1 = 5; 3: 4*2 + 3*1 = 11.
    matches = [rec(1, 1, 2, 3, 1), rec(2, 3, 1, 2.5, 1.5), rec(3, 2, 3, 2, 2)]
    rows = team_standings(teams=[1, 2, 3], matches=matches, byes={3: [1], 2: [2], 1: [3]}, seats=2, boards=4)
    assert [(r.team, r.match_points, r.game_points) for r in rows] == [(3, 5, 6.5), (1, 4, 6.5), (2, 3, 5)]
    assert {r.team: r.tiebreaks["buchholz"] for r in rows} == {1: 12, 2: 12, 3: 12}
    assert {r.team: r.tiebreaks["sonneborn_berger"] for r in rows} == {1: 6, 2: 5, 3: 11}
    assert {r.team: (r.played, r.won, r.drawn, r.lost) for r in rows} == {
        1: (2, 1, 0, 1),
        2: (2, 0, 1, 1),
        3: (2, 1, 1, 0),
    }


def test_seed_then_id_settle_what_every_tiebreak_leaves_equal() -> None:
    # Nothing played: all level; seeds 1 and 2 first, then the unseeded team; places never shared.
    rows = team_standings(teams=[5, 6, 7], matches=[], seats=2, boards=4, seeds={6: 1, 7: 2})
    assert [(r.team, r.place) for r in rows] == [(6, 1), (7, 2), (5, 3)]
    rows = team_standings(teams=[9, 5, 7], matches=[], seats=2, boards=4)
    assert [(r.team, r.place) for r in rows] == [(5, 1), (7, 2), (9, 3)]
    assert all(r.played == r.won == r.drawn == r.lost == 0 for r in rows)


def test_standings_at_four_seats_with_shared_places() -> None:
    # One match of four teams, game points 5, 5, 1, 1 over two boards: places 1, 1, 3, 3;
    # match points (3 + 2) / 2 = 2.5 for the firsts, (1 + 0) / 2 = 0.5 for the others.
    gp = {1: 5.0, 2: 5.0, 3: 1.0, 4: 1.0}
    mp = {t: pts for t, (_, pts) in match_result(seats=4, game_points=gp).items()}
    assert mp == {1: 2.5, 2: 2.5, 3: 0.5, 4: 0.5}
    rows = team_standings(
        teams=[1, 2, 3, 4], matches=[MatchRecord(1, gp, mp)], seats=4, boards=2, tiebreak="buchholz"
    )
    by_team = {r.team: r for r in rows}
    assert [r.team for r in rows] == [1, 2, 3, 4]  # 1 and 2 equal on everything: by id
    # Buchholz of team 1: 2.5 + 0.5 + 0.5 = 3.5; Sonneborn-Berger: 3.5 x 2.5 = 8.75.
    # Direct: 1 and 2 are level and met: 2.5 each.
    assert by_team[1].tiebreaks == {
        "buchholz": 3.5,
        "game_points": 5.0,
        "direct": 2.5,
        "sonneborn_berger": 8.75,
    }
    # Team 3: Buchholz 2.5 + 2.5 + 0.5 = 5.5; SB 5.5 x 0.5 = 2.75.
    assert by_team[3].tiebreaks["buchholz"] == 5.5
    assert by_team[3].tiebreaks["sonneborn_berger"] == 2.75
    assert (by_team[1].won, by_team[1].drawn, by_team[1].lost) == (0, 1, 0)  # shared first
    assert (by_team[3].won, by_team[3].drawn, by_team[3].lost) == (0, 0, 1)


def test_withdrawn_teams_count_as_opponents_but_get_no_row() -> None:
    # Team 2 withdrew after losing to team 1 (1: 2 match points) and beating team 3 (2: 2).
    matches = [rec(1, 1, 2, 3, 1), rec(2, 2, 3, 3, 1)]
    rows = team_standings(teams=[1, 3], matches=matches, seats=2, boards=4)
    assert [r.team for r in rows] == [1, 3]
    assert rows[0].tiebreaks["buchholz"] == 2.0  # team 2's 2 match points


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"tiebreak": "coin"}, "tiebreak is one of"),
        ({"seats": 5}, "2, 3 or 4"),
        ({"boards": 0}, "at least one board"),
        ({"scale": [1, 0, 0]}, "needs 2 values"),
        ({"match_scale": [2, 1, 0]}, "need 2 values"),
        ({"matches": [MatchRecord(1, {1: 2.0, 2: 2.0}, {1: 1.0})]}, "different teams"),
        ({"matches": [MatchRecord(1, {1: 2.0}, {1: 1.0})]}, "not 2 to 2"),
        ({"teams": [1, 1]}, "twice"),
    ],
)
def test_team_standings_refuses_bad_input(kwargs: dict, message: str) -> None:
    args = {"teams": [1, 2], "matches": [], "seats": 2, "boards": 4} | kwargs
    with pytest.raises(ValueError, match=message):
        team_standings(**args)
