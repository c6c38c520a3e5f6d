"""Team pairing (tournaments.teams.pairing): team Swiss, team round robin, seat order on boards.

Plain data, no database.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable
from itertools import combinations

import pytest

from tournaments.pairing import Entrant, Round
from tournaments.teams.pairing import board_order, schedule, swiss_matches

# ------------------------------------------------------------------ team Swiss


def perfect_matchings(teams: list[int]):
    """Every way to pair an even list of teams (15 for six)."""
    if not teams:
        yield []
        return
    first, rest = teams[0], teams[1:]
    for i, other in enumerate(rest):
        for tail in perfect_matchings(rest[:i] + rest[i + 1 :]):
            yield [(first, other), *tail]


def simulate(
    n: int, rounds: int, winner: Callable[[int, int, int], int | None]
) -> tuple[list[Round], dict[int, tuple[int, ...]], list[tuple[int, int]]]:
    """Play ``rounds`` team Swiss rounds of ``n`` teams (ids 1..n, rating falling with the id),
    the result of each match given by ``winner(round, side1, side2)`` (None: a drawn match).

    Returns the rounds, each team's side orders, and per round (rematches made, fewest rematches
    any pairing of the teams playing that round could have: brute force).
    """
    score: dict[int, float] = defaultdict(float)
    met: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    sides: dict[int, tuple[int, ...]] = defaultdict(tuple)
    byes: dict[int, int] = defaultdict(int)
    played: list[Round] = []
    rematches: list[tuple[int, int]] = []
    for r in range(1, rounds + 1):
        entrants = [
            Entrant(
                id=t,
                score=score[t],
                rating=2000.0 - 10 * t,
                meetings=dict(met[t]),
                seat_history=sides[t],
                byes=byes[t],
            )
            for t in range(1, n + 1)
        ]
        rnd = swiss_matches(teams=entrants, seats=2)
        playing = sorted(t for m in rnd.tables for t in m.players)
        fewest = min(sum(1 for a, b in pairs if met[a][b]) for pairs in perfect_matchings(playing))
        made = sum(1 for m in rnd.tables if met[m.players[0]][m.players[1]])
        rematches.append((made, fewest))
        played.append(rnd)
        for match in rnd.tables:
            a, b = match.players
            met[a][b] += 1
            met[b][a] += 1
            sides[a] += (1,)
            sides[b] += (2,)
            w = winner(r, a, b)
            if w is None:
                score[a] += 1
                score[b] += 1
            else:
                score[w] += 2
        for t in rnd.byes:
            byes[t] += 1
            score[t] += 2
    return played, dict(sides), rematches


RESULTS: dict[str, Callable[[int, int, int], int | None]] = {
    "stronger wins": lambda r, a, b: min(a, b),
    "weaker wins": lambda r, a, b: max(a, b),
    "side 1 wins": lambda r, a, b: a,
    "draws in even rounds": lambda r, a, b: None if r % 2 == 0 else min(a, b),
}


@pytest.mark.parametrize("results", ["stronger wins", "draws in even rounds"])
def test_six_teams_over_five_rounds_never_meet_twice(results: str) -> None:
    rounds, _, rematches = simulate(6, 5, RESULTS[results])
    assert rematches == [(0, 0)] * 5
    pairs = [frozenset(m.players) for rnd in rounds for m in rnd.tables]
    # All 15 pairs met once each: a full round robin.
    assert Counter(pairs) == Counter({frozenset(p): 1 for p in combinations(range(1, 7), 2)})
    for rnd in rounds:
        assert not rnd.byes
        assert sorted(t for m in rnd.tables for t in m.players) == [1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize("results", list(RESULTS))
def test_no_rematch_while_avoidable(results: str) -> None:
    # Each round makes no more rematches than the best pairing of that round could. A Swiss pairs
    # one round at a time, so it can be cornered: with "weaker wins", after round 3 the pairs not yet
    # met among six teams form two triangles (1-3-5 and 2-4-6), and no pairing of round 4 is free
    # of rematches; then one rematch is the fewest possible.
    _, _, rematches = simulate(6, 5, RESULTS[results])
    assert all(made == fewest for made, fewest in rematches), rematches
    assert rematches[:3] == [(0, 0)] * 3  # the first rounds can never be cornered


def test_a_cornered_round_makes_the_fewest_rematches() -> None:
    rounds, _, rematches = simulate(6, 5, RESULTS["weaker wins"])
    met = [frozenset(m.players) for rnd in rounds[:3] for m in rnd.tables]
    unmet = {frozenset(p) for p in combinations(range(1, 7), 2)} - set(met)
    assert unmet == {frozenset(p) for p in [(1, 3), (3, 5), (1, 5), (2, 4), (4, 6), (2, 6)]}
    assert rematches[3] == (1, 1)


@pytest.mark.parametrize("results", list(RESULTS))
def test_side_orders_balance_and_alternate(results: str) -> None:
    # The side orders are the teams' seat history: side 1 is seat 1 of the Dutch seat rules.
    _, sides, _ = simulate(6, 5, RESULTS[results])
    for team, history in sides.items():
        assert history.count(1) in (2, 3), (team, history)  # five matches: side 1 two or three times
        for r in range(2, len(history)):
            assert len(set(history[r - 2 : r + 1])) == 2, (team, history)  # never three running
        for r in range(1, len(history) + 1):
            assert abs(history[:r].count(1) - history[:r].count(2)) <= 2


def test_seat_preferences_decide_which_team_is_side_one() -> None:
    # Team 1 was side 1 twice running (must be side 2), team 2 side 2 twice (must be side 1).
    rnd = swiss_matches(
        teams=[
            Entrant(id=1, score=4, rating=1900, seat_history=(1, 1), meetings={3: 1, 4: 1}),
            Entrant(id=2, score=4, rating=1800, seat_history=(2, 2), meetings={3: 1, 4: 1}),
            Entrant(id=3, score=0, rating=1700, seat_history=(2, 1), meetings={1: 1, 2: 1}),
            Entrant(id=4, score=0, rating=1600, seat_history=(1, 2), meetings={1: 1, 2: 1}),
        ],
        seats=2,
    )
    assert [m.players for m in rnd.tables] == [(2, 1), (4, 3)]


def test_the_bye_goes_to_the_lowest_team_without_one() -> None:
    # Five teams level on points: the lowest-ranked (lowest rating) team 5 already had a bye, so
    # team 4, the lowest without one, sits out.
    teams = [Entrant(id=t, score=2.0, rating=2000.0 - 10 * t, byes=1 if t == 5 else 0) for t in range(1, 6)]
    assert swiss_matches(teams=teams, seats=2).byes == (4,)
    # With nobody's bye yet, the lowest-ranked team (on score first) sits out.
    teams = [Entrant(id=t, score=4.0 if t == 5 else 0.0, rating=2000.0 - 10 * t) for t in range(1, 6)]
    assert swiss_matches(teams=teams, seats=2).byes == (4,)


def test_five_teams_over_five_rounds_each_sit_out_once() -> None:
    rounds, _, rematches = simulate(5, 5, RESULTS["stronger wins"])
    assert rounds[0].byes == (5,)  # round 1: the lowest-rated team
    assert sorted(t for rnd in rounds for t in rnd.byes) == [1, 2, 3, 4, 5]
    pairs = [frozenset(m.players) for rnd in rounds for m in rnd.tables]
    assert rematches == [(0, 0)] * 5
    assert len(set(pairs)) == len(pairs) == 10


def test_team_swiss_at_four_seats_makes_matches_of_four() -> None:
    teams = [Entrant(id=t, rating=2000.0 - t) for t in range(1, 9)]
    rnd = swiss_matches(teams=teams, seats=4)
    assert not rnd.byes
    assert [len(m.players) for m in rnd.tables] == [4, 4]
    assert sorted(t for m in rnd.tables for t in m.players) == list(range(1, 9))


def test_swiss_matches_refuses_bad_seats() -> None:
    with pytest.raises(ValueError, match="2, 3 or 4"):
        swiss_matches(teams=[Entrant(id=1), Entrant(id=2)], seats=5)


# ------------------------------------------------------------------ round robin


def test_six_teams_meet_exactly_once_in_five_rounds() -> None:
    teams = [11, 12, 13, 14, 15, 16]
    plan = schedule(teams=teams, seats=2)
    assert len(plan) == 5
    for rnd in plan:
        assert len(rnd) == 3 and all(len(match) == 2 for match in rnd)
        assert sorted(t for match in rnd for t in match) == teams  # each team plays every round
    pairs = Counter(frozenset(match) for rnd in plan for match in rnd)
    assert pairs == Counter({frozenset(p): 1 for p in combinations(teams, 2)})
    side_one = Counter(match[0] for rnd in plan for match in rnd)
    assert all(side_one[t] in (2, 3) for t in teams)


def test_an_odd_round_robin_gives_each_team_one_bye() -> None:
    teams = [1, 2, 3, 4, 5]
    plan = schedule(teams=teams, seats=2)
    assert len(plan) == 5
    missing = [t for rnd in plan for t in teams if all(t not in match for match in rnd)]
    assert sorted(missing) == teams
    assert len({frozenset(match) for rnd in plan for match in rnd}) == 10


def test_a_double_round_robin_swaps_the_sides() -> None:
    plan = schedule(teams=[1, 2, 3, 4], seats=2, rounds=6)
    first, second = plan[:3], plan[3:]
    orders = Counter(tuple(match) for rnd in plan for match in rnd)
    assert all(count == 1 for count in orders.values()) and len(orders) == 12  # each pair, both ways
    assert {frozenset(m) for rnd in first for m in rnd} == {frozenset(m) for rnd in second for m in rnd}


def test_a_round_robin_at_three_seats() -> None:
    teams = list(range(1, 10))
    plan = schedule(teams=teams, seats=3)
    assert len(plan) == 4  # ceil(8 / 2)
    pairs = Counter(frozenset(p) for rnd in plan for match in rnd for p in combinations(match, 2))
    assert all(len(match) == 3 for rnd in plan for match in rnd)
    assert set(pairs.values()) == {1} and len(pairs) == 36  # nine teams: every pair exactly once


def test_schedule_refuses_bad_input() -> None:
    with pytest.raises(ValueError, match="at least two teams"):
        schedule(teams=[1], seats=2)
    with pytest.raises(ValueError, match="2, 3 or 4"):
        schedule(teams=[1, 2], seats=1)
    with pytest.raises(ValueError, match="twice"):
        schedule(teams=[1, 1, 2], seats=2)


# ------------------------------------------------------------------ seats on boards


def test_board_order_at_two_seats_alternates() -> None:
    # Side 1 (team 7) takes seat 1 on odd boards, side 2 (team 8) on even ones.
    assert [board_order(sides=[7, 8], board=b) for b in range(1, 6)] == [
        [7, 8],
        [8, 7],
        [7, 8],
        [8, 7],
        [7, 8],
    ]


def test_board_order_at_three_seats_rotates() -> None:
    assert [board_order(sides=[1, 2, 3], board=b) for b in range(1, 5)] == [
        [1, 2, 3],
        [2, 3, 1],
        [3, 1, 2],
        [1, 2, 3],
    ]


def test_board_order_at_four_seats_rotates() -> None:
    orders = [board_order(sides=[4, 3, 2, 1], board=b) for b in range(1, 6)]
    assert orders == [[4, 3, 2, 1], [3, 2, 1, 4], [2, 1, 4, 3], [1, 4, 3, 2], [4, 3, 2, 1]]
    # Over four boards every team takes every seat once.
    for seat in range(4):
        assert sorted(order[seat] for order in orders[:4]) == [1, 2, 3, 4]


@pytest.mark.parametrize(
    ("sides", "board", "message"),
    [
        ([1], 1, "2 to 4 sides"),
        ([1, 2, 3, 4, 5], 1, "2 to 4 sides"),
        ([1, 1], 1, "twice"),
        ([1, 2], 0, "from 1"),
    ],
)
def test_board_order_refuses_bad_input(sides: list[int], board: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        board_order(sides=sides, board=board)
