"""Double elimination on 2-seat tables: whole events simulated with the pure planner for every count
from 2 to 128, and events played through the services (standings, the API and the page)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from hypothesis import given, settings
from hypothesis import strategies as st

from common.errors import Conflict, InvalidInput
from games.models import Table
from tournaments.competitions import selectors, services
from tournaments.models import Round, Tournament
from tournaments.pairing import double_elim as de
from tournaments.pairing.bracket import RoundRecord, TableRecord

from ..games.conftest import Actor
from .test_formats_flow import current_tables, finish_by_resignations, make_event

Pick = Callable[[tuple[int, ...], str, de.State], int]


def simulate(
    n: int, pick: Pick, seeds: list[int] | None = None
) -> tuple[list[int], list[RoundRecord], de.Plan]:
    """Play a whole event with the planner, ``pick`` choosing each table's winner."""
    seeds = seeds or list(range(101, 101 + n))
    rounds: list[RoundRecord] = []
    for _ in range(40):
        plan = de.plan_next(seeds, rounds)
        if plan.finished:
            return seeds, rounds, plan
        state = de.replay(seeds, rounds)
        assert plan.number == len(rounds) + 1 and len(plan.tables) == len(plan.brackets)
        tables = []
        for table, kind in zip(plan.tables, plan.brackets, strict=True):
            winner = pick(table.players, kind, state)
            tables.append(TableRecord(table.players, {p: 1 if p == winner else 2 for p in table.players}))
        rounds.append(RoundRecord(plan.number, plan.byes, tuple(tables)))
    raise AssertionError(f"{n} players: the event did not end")


def check_event(n: int, seeds: list[int], rounds: list[RoundRecord], plan: de.Plan) -> None:
    """The rules every finished event keeps (see the module docstring)."""
    state = de.replay(seeds, rounds)
    winner = plan.winner
    assert winner is not None and plan.finished
    k = de.winners_rounds(n)
    reset = state.finals == 2
    assert len(rounds) == de.planned_rounds(n) + reset == 2 * k + reset
    assert state.players[winner].losses == (1 if reset else 0)
    assert all(s.losses == 2 for p, s in state.players.items() if p != winner), "everyone else lost twice"
    assert plan.eliminated == set(seeds) - {winner}
    kinds = [kind for (number, _), kind in sorted(state.brackets.items())]
    assert kinds.count(de.GRAND_FINAL) == 1 and kinds.count(de.RESET) == reset
    assert kinds[-1] == (de.RESET if reset else de.GRAND_FINAL)
    assert len(rounds[-1].tables) == 1 and (not reset or len(rounds[-2].tables) == 1)
    # every round has a table; players sit at most once per round and never at a table and a bye
    for rnd in rounds:
        assert rnd.tables, f"{n} players: round {rnd.number} is empty"
        seated = [p for t in rnd.tables for p in t.players] + list(rnd.byes)
        assert len(seated) == len(set(seated))
    # winners bracket: round r is event round r; byes in round 1 only, to the top seeds
    winners_rounds = {number for (number, _), kind in state.brackets.items() if kind == de.WINNERS}
    assert winners_rounds == set(range(1, k + 1))
    assert set(rounds[0].byes) == set(seeds[: 2**k - n])
    # byes: at most one a losers round, and a second only when every rival in that round had one
    had: Counter[int] = Counter()
    for i, rnd in enumerate(rounds):
        if rnd.number > 1:
            assert len(rnd.byes) <= 1
        for p in rnd.byes:
            if had[p]:
                before = de.replay(seeds, rounds[:i])
                others = {q for t in rnd.tables for q in t.players if before.players[q].losses == 1}
                assert all(had[q] for q in others), f"{n} players: {p} had a second bye that was avoidable"
        had.update(rnd.byes)
    assert max(had.values(), default=0) <= 2


def random_pick(rng: random.Random) -> Pick:
    return lambda players, kind, state: rng.choice(players)


def test_every_count_from_2_to_128_ends_with_one_winner() -> None:
    for n in range(2, 129):
        for trial in range(2):
            seeds, rounds, plan = simulate(n, random_pick(random.Random(n * 100 + trial)))
            check_event(n, seeds, rounds, plan)


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 128), st.randoms(use_true_random=False))
def test_random_results_keep_the_rules(n: int, rng: random.Random) -> None:
    seeds, rounds, plan = simulate(n, random_pick(rng))
    check_event(n, seeds, rounds, plan)


def favourites(players: tuple[int, ...], kind: str, state: de.State) -> int:
    return min(players, key=lambda p: state.players[p].seed)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8, 12, 16, 24, 32, 64, 128])
def test_no_second_bye_and_no_early_rematch_when_the_favourites_win(n: int) -> None:
    seeds, rounds, plan = simulate(n, favourites)
    check_event(n, seeds, rounds, plan)
    assert plan.winner == seeds[0] and len(rounds) == de.planned_rounds(n), "no reset: seed 1 won the final"
    byes = Counter(p for r in rounds for p in r.byes)
    assert max(byes.values(), default=1) == 1, "nobody has two byes"
    rows = de.standings(seeds, seeds, rounds)
    assert [r.player for r in rows[:2]] == seeds[:2] and [r.place for r in rows] == list(range(1, n + 1))
    # before the losers final no two players met twice (the last two finals may repeat a meeting:
    # with 4 players the losers final is always between two who may have met in round 1)
    met: Counter[frozenset[int]] = Counter(frozenset(t.players) for r in rounds[:-2] for t in r.tables)
    assert max(met.values(), default=1) == 1


def test_the_count_of_rounds_and_known_brackets() -> None:
    assert [de.planned_rounds(n) for n in (2, 3, 4, 5, 8, 9, 16, 17, 128)] == [2, 4, 4, 6, 6, 8, 8, 10, 14]
    with pytest.raises(ValueError, match="at least two"):
        de.planned_rounds(1)
    # 5 players: byes to seeds 1-3, 4 v 5; the one loser waits (no bye) until winners round 2 drops two
    first = de.plan_next([1, 2, 3, 4, 5], [])
    assert first.tables[0].players == (4, 5) and first.byes == (1, 2, 3) and first.brackets == (de.WINNERS,)
    r1 = RoundRecord(1, (1, 2, 3), (TableRecord((4, 5), {4: 1, 5: 2}),))
    second = de.plan_next([1, 2, 3, 4, 5], [r1])
    assert [t.players for t in second.tables] == [(1, 4), (2, 3)] and second.byes == ()
    assert second.brackets == (de.WINNERS, de.WINNERS)
    # 2 players: a final, then the grand final (the same pair), then the reset if the loser wins
    r1 = RoundRecord(1, (), (TableRecord((1, 2), {1: 2, 2: 1}),))
    gf = de.plan_next([1, 2], [r1])
    assert gf.brackets == (de.GRAND_FINAL,) and set(gf.tables[0].players) == {1, 2}
    r2 = RoundRecord(2, (), (TableRecord(gf.tables[0].players, {1: 1, 2: 2}),))
    reset = de.plan_next([1, 2], [r1, r2])
    assert reset.brackets == (de.RESET,) and not reset.finished
    r3 = RoundRecord(3, (), (TableRecord(reset.tables[0].players, {1: 2, 2: 1}),))
    done = de.plan_next([1, 2], [r1, r2, r3])
    assert done.finished and done.winner == 2 and done.eliminated == {1}
    assert [r.player for r in de.standings([1, 2], [1, 2], [r1, r2, r3])] == [2, 1]


def test_seat_one_rotates() -> None:
    """Seats come from ``assign_seats``: who moved first last time tends to move second now."""
    r1 = RoundRecord(1, (), (TableRecord((1, 2), {1: 1, 2: 2}),))
    gf = de.plan_next([1, 2], [r1])
    assert gf.tables[0].players == (2, 1)


def test_a_draw_goes_to_the_better_seed_and_withdrawals_end_the_event() -> None:
    r1 = RoundRecord(1, (), (TableRecord((1, 2), {1: 1, 2: 1}),))
    state = de.replay([1, 2], [r1])
    assert state.players[1].losses == 0 and state.players[2].losses == 1
    assert de.plan_next([1, 2], [r1], active=[1]) == de.Plan(2, winner=1, finished=True)
    assert de.plan_next([1, 2], [r1], active=[2]).winner == 2


def test_standings_while_running_and_after() -> None:
    seeds, rounds, _ = simulate(8, favourites)
    half = rounds[:3]
    rows = de.standings(seeds, seeds, half)
    alive = [r for r in rows if r.losses < 2]
    assert rows[: len(alive)] == alive, "players still in come first"
    assert rows[0].player == seeds[0] and rows[0].losses == 0
    final = de.standings(seeds, seeds, rounds)
    assert final[0].winner and final[0].losses == 0
    assert [r.out_round for r in final[1:]] == sorted((r.out_round for r in final[1:]), reverse=True)
    assert final[1].out_round == 6 and final[2].out_round == 5, "runner-up, then the losers final's loser"


# ------------------------------------------------------------------ through the services


def started(make_actor: Callable[..., Actor], capture: Any, n: int) -> Tournament:
    org, t, _ = make_event(make_actor, n, seats=2, format="double_elim", rated=False)
    with capture(execute=True):
        services.start(tournament_id=t.pk, by=org.player)
    t.refresh_from_db()
    return t


def play_out(t: Tournament, capture: Any, reset: bool) -> None:
    """Play every round: the worse seed wins, and in the grand final the losers champion wins when
    ``reset`` (then the bracket reset is played), else the winners champion."""
    for _ in range(30):
        t.refresh_from_db()
        if t.status == Tournament.Status.FINISHED:
            return
        state = de.replay(t.seeds, selectors.history(t).rounds)
        tables = [tb for tb in current_tables(t) if tb.status == Table.Status.ACTIVE]
        assert tables, f"round {t.current_round} has nothing to play"
        for table in tables:
            seats = dict(table.seats.values_list("number", "player_id"))
            a, b = (state.players[seats[n]] for n in (1, 2))
            if a.losses != b.losses:  # the grand final
                winner = 1 if (a.losses == 1) == reset else 2
            else:
                winner = 1 if a.seed > b.seed else 2
            with capture(execute=True):
                finish_by_resignations(table.pk, [3 - winner, winner])
    raise AssertionError("the double elimination did not end")


@pytest.mark.parametrize(("n", "reset"), [(5, True), (8, False), (8, True), (2, True)])
def test_events_play_to_one_winner(
    make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any, n: int, reset: bool
) -> None:
    t = started(make_actor, django_capture_on_commit_callbacks, n)
    planned = de.planned_rounds(n)
    assert t.rounds == planned and len(t.seeds) == n and t.status == "running"
    first = Round.objects.get(tournament=t, number=1)
    k = de.winners_rounds(n)
    assert sorted(first.byes) == sorted(t.seeds[: 2**k - n])
    play_out(t, django_capture_on_commit_callbacks, reset)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED and t.finished_at is not None
    assert t.current_round == t.rounds == planned + reset
    state = de.replay(t.seeds, selectors.history(t).rounds)
    rows = selectors.current_standings(t)
    assert [r.place for r in rows] == list(range(1, n + 1))
    winner = rows[0].player
    assert state.players[winner].losses == int(reset)
    assert all(state.players[r.player].losses == 2 for r in rows[1:])
    outs = [state.players[r.player].out_round for r in rows[1:]]
    assert outs == sorted(outs, reverse=True) and outs[0] == t.rounds
    assert rows[0].tiebreaks == {
        "losses": float(reset),
        "eliminated_in": 0.0,
        "seed": t.seeds.index(winner) + 1.0,
    }
    byes = Counter(p for r in Round.objects.filter(tournament=t) for p in r.byes)
    assert max(byes.values(), default=1) == 1


def test_the_api_and_the_page_show_brackets_and_standings(
    make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    t = started(make_actor, django_capture_on_commit_callbacks, 4)
    play_out(t, django_capture_on_commit_callbacks, reset=True)
    client = Client()
    detail = client.get(f"/api/v1/tournaments/{t.pk}/").json()
    assert detail["format"] == "double_elim" and detail["status"] == "finished"
    labels = [[tb["bracket"] for tb in r["tables"]] for r in detail["round_list"]]
    assert labels == [
        ["Winners bracket round 1", "Winners bracket round 1"],
        ["Winners bracket round 2", "Losers bracket round 1"],
        ["Losers bracket round 2"],
        ["Grand final"],
        ["Grand final (bracket reset)"],
    ]
    rows = client.get(f"/api/v1/tournaments/{t.pk}/standings/").json()
    assert rows[0]["player"] == detail["standings"][0]["player"]
    assert set(rows[0]["tiebreaks"]) == {"losses", "eliminated_in", "seed"}
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert "Double elimination" in page and "Losers bracket round 2" in page and "Grand final" in page
    standings = page.split("<h2>Standings</h2>")[1].split("</table>")[0]
    assert "Tables won" in standings and detail["standings"][0]["display_name"] in standings.split("</tr>")[1]


def test_only_two_seats_and_no_byes_by_hand(
    make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    org, t, people = make_event(make_actor, 4, seats=2, format="double_elim", rated=False)
    with pytest.raises(InvalidInput, match="2-seat tables only, not 3"):
        services.tournament_create(
            organiser=org.player, league=t.league, name="Three", game="shacru", seats=3, format="double_elim"
        )
    with pytest.raises(Conflict, match="bracket"):
        services.give_bye(tournament_id=t.pk, player=people[0].player, by=org.player)
    r = org.client.post(
        "/api/v1/tournaments/",
        {"league": t.league.slug, "name": "Four", "game": "shacru", "seats": 4, "format": "double_elim"},
        format="json",
    )
    assert r.status_code == 400 and "2-seat tables only" in r.content.decode()
