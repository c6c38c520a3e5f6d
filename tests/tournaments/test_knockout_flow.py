"""Knockouts through the services: events end with one winner; refusals; standings on the API and page."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from common.errors import Conflict, InvalidInput
from games.models import Table
from tournaments.competitions import selectors, services
from tournaments.models import Round, Tournament

from ..games.conftest import Actor
from .test_formats_flow import current_tables, finish_by_resignations, make_event


def play_out(t: Tournament, capture: Any) -> list[int]:
    """Play every round (seat 1 resigns first, the last seat wins); the final's players, best first."""
    final: list[int] = []
    for _ in range(20):
        t.refresh_from_db()
        if t.status == Tournament.Status.FINISHED:
            return final
        tables = [tb for tb in current_tables(t) if tb.status == Table.Status.ACTIVE]
        assert tables, f"round {t.current_round} has nothing to play"
        for table in tables:
            seats = dict(table.seats.values_list("number", "player_id"))
            final = [seats[n] for n in sorted(seats, reverse=True)]
            with capture(execute=True):
                finish_by_resignations(table.pk, sorted(seats))
    raise AssertionError("the knockout did not end")


def started(make_actor: Callable[..., Actor], capture: Any, n: int, **settings: Any) -> Tournament:
    org, t, _ = make_event(make_actor, n, format="knockout", rated=False, **settings)
    with capture(execute=True):
        services.start(tournament_id=t.pk, by=org.player)
    t.refresh_from_db()
    return t


def test_five_players_two_seats_end_with_one_winner_who_played(
    make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    t = started(make_actor, django_capture_on_commit_callbacks, 5, seats=2)
    assert t.rounds == 3 and len(t.seeds) == 5
    first = Round.objects.get(tournament=t, number=1)
    assert sorted(first.byes) == sorted(t.seeds[:3]), "byes to the three top seeds, round 1 only"
    final = play_out(t, django_capture_on_commit_callbacks)
    rounds = list(Round.objects.filter(tournament=t).order_by("number"))
    assert [len(r.tables.all()) for r in rounds] == [1, 2, 1]
    assert all(not r.byes for r in rounds[1:])
    byes = Counter(p for r in rounds for p in r.byes)
    assert max(byes.values()) == 1, "nobody has two byes"
    rows = selectors.current_standings(t)
    assert [r.player for r in rows[:2]] == final, "the champion, then the final's runner-up"
    assert rows[0].played >= 1 and rows[0].points == 3 and rows[1].points == 2
    assert rows[0].tiebreaks == {"exit_place": 1.0, "seed": float(t.seeds.index(final[0]) + 1)}
    assert [r.place for r in rows] == [1, 2, 3, 4, 5]


@pytest.mark.parametrize(("n", "seats", "advance", "rounds"), [(4, 3, 2, 2), (5, 4, 3, 2), (9, 4, 2, 3)])
def test_settings_that_used_to_loop_end(
    make_actor: Callable[..., Actor],
    django_capture_on_commit_callbacks: Any,
    n: int,
    seats: int,
    advance: int,
    rounds: int,
) -> None:
    t = started(make_actor, django_capture_on_commit_callbacks, n, seats=seats, advance=advance)
    final = play_out(t, django_capture_on_commit_callbacks)
    t.refresh_from_db()
    assert t.status == "finished" and t.current_round == t.rounds == rounds
    assert Round.objects.get(tournament=t, number=rounds).tables.count() == 1
    rows = selectors.current_standings(t)
    assert [r.player for r in rows[: len(final)]] == final, "the final's ranking decides the top places"


def test_impossible_settings_are_refused_with_what_works(
    make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    org, t, _ = make_event(make_actor, 6, seats=3, format="knockout", advance=2, rated=False)
    with pytest.raises(InvalidInput, match=r"1 to 2 player.* advancing .* not 3"):
        services.tournament_create(
            organiser=org.player, league=t.league, name="Too many", game="shacru", seats=3,
            format="knockout", advance=3,
        )  # fmt: skip
    with pytest.raises(Conflict, match=r"6 players cannot be bracketed.*2 to 4 players"):
        services.start(tournament_id=t.pk, by=org.player)
    t.refresh_from_db()
    assert t.status == "registration" and t.seeds is None


def test_a_knockout_gives_no_bye_by_hand(make_actor: Callable[..., Actor]) -> None:
    org, t, people = make_event(make_actor, 4, seats=2, format="knockout", rated=False)
    with pytest.raises(Conflict, match="bracket"):
        services.give_bye(tournament_id=t.pk, player=people[0].player, by=org.player)


def test_the_api_and_the_page_list_the_champion_first(
    make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    t = started(make_actor, django_capture_on_commit_callbacks, 6, seats=2)
    champion = play_out(t, django_capture_on_commit_callbacks)[0]
    client = Client()
    rows = client.get(f"/api/v1/tournaments/{t.pk}/standings/").json()
    assert rows[0]["player"] == champion and rows[0]["place"] == 1
    assert set(rows[0]) == {"place", "player", "display_name", "points", "played", "wins", "tiebreaks"}
    assert set(rows[0]["tiebreaks"]) == {"exit_place", "seed"}
    detail = client.get(f"/api/v1/tournaments/{t.pk}/").json()
    assert detail["standings"][0]["player"] == champion
    after_round_1 = client.get(f"/api/v1/tournaments/{t.pk}/standings/?round=1").json()
    assert {r["points"] for r in after_round_1} == {0, 1}
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    name = detail["standings"][0]["display_name"]
    standings = page.split("<h2>Standings</h2>")[1].split("</table>")[0]
    assert "Rounds survived" in standings and name in standings.split("</tr>")[1]
