"""Knockout brackets: the plan, whole events simulated with the pure functions, standings (no database)."""

from __future__ import annotations

import random
from collections import Counter
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import Entrant
from tournaments.pairing.bracket import (
    BracketError,
    BracketRound,
    RoundRecord,
    TableRecord,
    bracket,
    bracket_fields,
    bracket_round,
    knockout_standings,
    max_players,
    seed_order,
    setting_error,
    table_advancers,
    table_order,
)

SETTINGS = [(seats, advance) for seats in (2, 3, 4) for advance in range(1, seats)]


def test_the_plan_of_every_count_from_2_to_200() -> None:
    for seats, advance in SETTINGS:
        limit = max_players(seats, advance)
        for n in range(2, 201):
            if limit is not None and n > limit:
                with pytest.raises(BracketError, match="cannot be bracketed"):
                    bracket(n, seats, advance)
                continue
            plan = bracket(n, seats, advance)
            assert plan[0].field == n
            final = plan[-1]
            assert len(final.tables) == 1 and final.byes == 0 and 2 <= final.field <= seats
            for number, (rnd, nxt) in enumerate(pairwise(plan), start=1):
                assert rnd.byes == 0 or number == 1, "byes only in round 1"
                assert sum(rnd.tables) + rnd.byes == rnd.field
                assert all(advance < size <= seats for size in rnd.tables), (n, seats, advance, rnd)
                assert max(rnd.tables) - min(rnd.tables) <= 1
                assert nxt.field == rnd.byes + advance * len(rnd.tables) < rnd.field
            if seats == 2:
                assert [r.field for r in plan[1:]] == [2**k for k in range(len(plan) - 1, 0, -1)]
                assert len(plan) == (n - 1).bit_length(), "the fewest rounds: ceil(log2 n)"


def test_known_plans() -> None:
    assert bracket_fields(5, 2, 1) == (5, 4, 2)
    assert bracket(5, 2, 1)[0] == BracketRound(5, 3, (2,)), "three byes: round 2 is a full bracket of 4"
    assert bracket_fields(6, 2, 1) == (6, 4, 2) and bracket(6, 2, 1)[0].byes == 2
    assert bracket_fields(8, 2, 1) == (8, 4, 2) and bracket(8, 2, 1)[0].byes == 0
    assert bracket(4, 3, 2) == (BracketRound(4, 1, (3,)), BracketRound(3, 0, (3,)))
    assert bracket(5, 4, 3) == (BracketRound(5, 1, (4,)), BracketRound(4, 0, (4,)))
    assert bracket(8, 4, 2) == (BracketRound(8, 0, (4, 4)), BracketRound(4, 0, (4,)))
    assert bracket_fields(23, 4, 2) == (23, 12, 6, 4)
    assert bracket(3, 4, 1) == (BracketRound(3, 0, (3,)),), "a field that fits one table is the final"


def test_settings_that_cannot_produce_a_winner_are_named() -> None:
    assert setting_error(3, 3) and "1 to 2" in str(setting_error(3, 3))
    assert setting_error(2, 2) and setting_error(4, 0) and setting_error(5, 1)
    assert all(setting_error(s, a) is None for s, a in SETTINGS)
    with pytest.raises(BracketError, match="must send on fewer"):
        bracket(8, 3, 3)
    with pytest.raises(BracketError, match="at least two"):
        bracket(1, 2, 1)
    with pytest.raises(BracketError, match="2 to 4 players"):
        bracket(5, 3, 2)
    assert (max_players(3, 2), max_players(4, 3)) == (4, 5)
    assert {max_players(s, a) for s, a in SETTINGS if a < s - 1 or s == 2} == {None}


def test_ties_at_the_cut_go_to_the_better_seed() -> None:
    seed = {10: 4, 11: 1, 12: 2, 13: 3}
    assert table_advancers({10: 1, 11: 2, 12: 2, 13: 4}, 2, seed) == [10, 11]
    assert table_advancers({10: 1, 11: 1, 12: 1, 13: 1}, 3, seed) == [11, 12, 13]
    assert table_advancers({10: 2, 12: 2}, 3, seed) == [12], "a table never sends everyone on"
    assert table_order({10: 2, 11: 2, 99: 1}, seed) == [99, 11, 10]


def test_byes_go_to_the_top_seeds_and_tables_are_dealt_in_snake_order() -> None:
    entrants = [Entrant(p, rating=float(10 - p)) for p in (5, 3, 1, 2, 4)]
    assert seed_order(entrants) == [1, 2, 3, 4, 5]
    assert seed_order([Entrant(9, rating=1.0), Entrant(7, rating=1.0)]) == [7, 9], "equal ratings: by id"
    rnd = bracket_round([1, 2, 3, 4, 5, 6], bracket(6, 2, 1)[0])
    assert rnd.byes == (1, 2) and sorted(sorted(t.players) for t in rnd.tables) == [[3, 6], [4, 5]]
    rnd = bracket_round(list(range(1, 9)), bracket(8, 4, 2)[0])
    assert [sorted(t.players) for t in rnd.tables] == [[1, 4, 5, 8], [2, 3, 6, 7]]


def test_a_short_field_after_withdrawals_keeps_to_the_plan() -> None:
    planned = BracketRound(4, 0, (2, 2))
    rnd = bracket_round([1, 2, 3], planned)
    assert len(rnd.tables) == 1 and rnd.byes == (1,), "the top seed walks over"
    assert bracket_round([7], BracketRound(2, 0, (2,))).byes == (7,)
    with pytest.raises(ValueError):
        bracket_round([1, 2, 3], BracketRound(2, 0, (2,)))


def simulate(n: int, seats: int, advance: int, rng: random.Random, withdraw: float = 0.0) -> None:
    """A whole event on the pure functions: random ranks with random ties; checks every rule."""
    seeds = rng.sample(range(1000, 5000), n)
    seed = {p: i for i, p in enumerate(seeds, start=1)}
    plan = bracket(n, seats, advance)
    field, records, byes, gone = list(seeds), [], Counter[int](), set()
    final_order: list[int] = []
    for number, planned in enumerate(plan, start=1):
        assert len(field) <= planned.field and (withdraw or len(field) == planned.field)
        rnd = bracket_round(field, planned)
        seated = sorted([*rnd.byes, *(p for t in rnd.tables for p in t.players)])
        assert seated == sorted(field)
        if not withdraw:
            assert not rnd.byes or number == 1, "byes only in round 1"
        byes.update(rnd.byes)
        tables, going = [], list(rnd.byes)
        for table in rnd.tables:
            assert 2 <= len(table.players) <= seats
            ranks = {p: rng.randint(1, len(table.players)) for p in table.players}
            tables.append(TableRecord(table.players, ranks))
            if number == len(plan):
                final_order = table_order(ranks, seed)
            else:
                going += table_advancers(ranks, advance, seed)
        records.append(RoundRecord(number, rnd.byes, tuple(tables)))
        if number == len(plan):
            assert len(rnd.tables) <= 1 and (withdraw or (len(rnd.tables) == 1 and not rnd.byes))
            break
        assert len(going) < len(field) or not rnd.tables, "every round strictly reduces the field"
        if withdraw:
            gone |= {p for p in going if rng.random() < withdraw}
        field = [p for p in seeds if p in going and p not in gone]
    if not withdraw:
        assert max(byes.values(), default=0) <= 1, "nobody gets two byes"
    rows = knockout_standings(seeds, seeds, records, advance, len(plan))
    assert [r.place for r in rows] == list(range(1, n + 1))
    assert sorted(r.player for r in rows) == sorted(seeds)
    champions = [r for r in rows if r.champion]
    if withdraw and not final_order and not records[-1].byes:
        assert champions == []  # everyone left withdrew
        return
    assert len(champions) == 1 and rows[0].champion, "exactly one winner, listed first"
    if final_order:
        assert rows[0].player == final_order[0] and rows[0].played >= 1
        assert rows[1].player == final_order[1], "the final's runner-up is second"
        assert [r.player for r in rows[: len(final_order)]] == final_order, "the final decides the top places"
    if not withdraw:
        assert rows[0].survived == len(plan)
        survived = [r.survived for r in rows]
        assert survived == sorted(survived, reverse=True)


@settings(max_examples=200, deadline=None)
@given(
    n=st.integers(2, 200),
    setting=st.sampled_from(SETTINGS),
    salt=st.integers(0, 2**32),
)
def test_every_knockout_ends_with_one_winner(n: int, setting: tuple[int, int], salt: int) -> None:
    seats, advance = setting
    limit = max_players(seats, advance)
    simulate(min(n, limit) if limit else n, seats, advance, random.Random(salt))


def test_every_small_knockout_ends_with_one_winner() -> None:
    rng = random.Random(7)
    for seats, advance in SETTINGS:
        for n in range(2, min(max_players(seats, advance) or 40, 40) + 1):
            for _ in range(3):
                simulate(n, seats, advance, rng)


@settings(max_examples=80, deadline=None)
@given(n=st.integers(2, 120), setting=st.sampled_from(SETTINGS), salt=st.integers(0, 2**32))
def test_withdrawals_between_rounds_never_break_the_bracket(
    n: int, setting: tuple[int, int], salt: int
) -> None:
    seats, advance = setting
    limit = max_players(seats, advance)
    simulate(min(n, limit) if limit else n, seats, advance, random.Random(salt), withdraw=0.3)


def test_standings_while_a_round_is_played_and_for_players_who_did_not_start() -> None:
    seeds = [1, 2, 3, 4, 5]
    records = [
        RoundRecord(1, (1, 2, 3), (TableRecord((4, 5), {4: 2, 5: 1}),)),
        RoundRecord(2, (), (TableRecord((1, 5), {1: 1, 5: 2}), TableRecord((2, 3), None))),
    ]
    rows = knockout_standings([1, 2, 3, 4, 5, 6], seeds, records, 1, 3)
    assert [r.player for r in rows] == [1, 2, 3, 5, 4, 6]
    assert [r.survived for r in rows] == [2, 1, 1, 1, 0, 0]
    assert not rows[0].champion and not rows[1].out and rows[3].out and rows[3].exit_place == 2
    assert rows[-1].seed == 0 and rows[-1].played == 0
