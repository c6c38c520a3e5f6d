"""The organiser's result entry keeps a seat that left the game below the seats still in it.

A withdrawal resigns the player's running games, so their seat is out of a 3–4 seat table that
plays on. Entering that table's result (ending it) or correcting a finished one may not rank the
withdrawn seat level with or above a seat still in the game; nor may ending a table revive any seat
that is out (resigned, lost on time, blocked, captured). Refused with a clear message, nothing changes;
a ranking that keeps them below is accepted.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from common.errors import InvalidInput
from games import services as games
from games.models import Player, Seat, Table
from tournaments.competitions import services
from tournaments.models import AuditEntry, League, Tournament
from tournaments.organising import actions

from ..games.conftest import Actor, as_organiser
from .test_formats_flow import current_tables, finish_by_resignations

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(make_actor: Callable[..., Actor]) -> tuple[Actor, League]:
    org = make_actor("rule-org")
    as_organiser(org.player)
    return org, services.league_create(organiser=org.player, name="Rules Club")


def started(
    club: tuple[Actor, League], make_actor: Callable[..., Actor], capture: Any, n: int, **settings: Any
) -> tuple[Tournament, Table]:
    org, league = club
    t = services.tournament_create(
        organiser=org.player, league=league, name="Rules Night", rated=False, **settings
    )
    for i in range(n):
        services.register(tournament_id=t.pk, player=make_actor(f"r{i}").player)
    with capture(execute=True):
        services.start(tournament_id=t.pk, by=org.player)
    t.refresh_from_db()
    return t, current_tables(t)[0]


def seat_player(table: Table, number: int) -> Player:
    return Seat.objects.select_related("player").get(table=table, number=number).player


def ranks_of(table: Table) -> dict[int, int | None]:
    return dict(Seat.objects.filter(table=table).values_list("number", "rank"))


def test_a_withdrawn_seat_cannot_be_ranked_first_at_a_table_still_played(
    club: tuple[Actor, League], make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    org = club[0].player
    t, table = started(
        club, make_actor, django_capture_on_commit_callbacks, 3, game="pacru", seats=3, rounds=2
    )
    gone = seat_player(table, 1)
    with django_capture_on_commit_callbacks(execute=True):
        services.withdraw(tournament_id=t.pk, player=gone, by=org)
    assert Table.objects.get(pk=table.pk).status == Table.Status.ACTIVE, "the two others play on"
    for ranks in ({1: 1, 2: 2, 3: 3}, {1: 2, 2: 1, 3: 3}, {1: 1, 2: 1, 3: 1}):
        with pytest.raises(InvalidInput) as refused:
            actions.enter_result(tournament_id=t.pk, table_id=table.pk, ranks=ranks, reason="dispute", by=org)
        assert refused.value.status_code == 400 and refused.value.code == "invalid"
        assert f"{gone.display_name} withdrew from Rules Night" in refused.value.detail
        assert "a withdrawn seat must rank below every seat still in the game" in refused.value.detail
    assert Table.objects.get(pk=table.pk).status == Table.Status.ACTIVE
    assert ranks_of(table) == {1: None, 2: None, 3: None}
    assert not AuditEntry.objects.filter(tournament=t, action__startswith="result").exists()
    with django_capture_on_commit_callbacks(execute=True):
        change = actions.enter_result(
            tournament_id=t.pk, table_id=table.pk, ranks={1: 3, 2: 1, 3: 2}, reason="dispute", by=org
        )
    assert not change.corrected and change.places[-1] == ("3rd", gone.display_name)
    assert ranks_of(table) == {1: 3, 2: 1, 3: 2}


def test_a_seat_out_of_the_game_cannot_be_revived_by_ending_the_table(
    club: tuple[Actor, League], make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    org = club[0].player
    t, table = started(
        club, make_actor, django_capture_on_commit_callbacks, 3, game="pacru", seats=3, rounds=2
    )
    out = seat_player(table, 2)
    with django_capture_on_commit_callbacks(execute=True):
        games.game_resign(table_id=table.pk, player=out)
    with pytest.raises(InvalidInput, match=f"{out.display_name} is out of this game \\(resigned\\)"):
        actions.enter_result(
            tournament_id=t.pk, table_id=table.pk, ranks={1: 2, 2: 1, 3: 3}, reason="x", by=org
        )
    assert Table.objects.get(pk=table.pk).status == Table.Status.ACTIVE
    with django_capture_on_commit_callbacks(execute=True):
        actions.enter_result(
            tournament_id=t.pk, table_id=table.pk, ranks={1: 1, 2: 3, 3: 1}, reason="x", by=org
        )
    assert ranks_of(table) == {1: 1, 2: 3, 3: 1}


def test_a_correction_cannot_give_a_withdrawn_seat_the_game_it_resigned(
    club: tuple[Actor, League], make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    org = club[0].player
    t, table = started(
        club, make_actor, django_capture_on_commit_callbacks, 4, game="shacru", seats=2, rounds=3
    )
    gone = seat_player(table, 1)
    with django_capture_on_commit_callbacks(execute=True):
        services.withdraw(tournament_id=t.pk, player=gone, by=org)
    assert Table.objects.get(pk=table.pk).status == Table.Status.FINISHED
    assert ranks_of(table) == {1: 2, 2: 1}
    with pytest.raises(InvalidInput, match="a withdrawn seat must rank below"):
        actions.enter_result(
            tournament_id=t.pk, table_id=table.pk, ranks={1: 1, 2: 2}, reason="appeal", by=org
        )
    assert ranks_of(table) == {1: 2, 2: 1}
    # A player who finished a table and withdrew afterwards keeps a result that can be corrected.
    other = current_tables(t)[1]
    with django_capture_on_commit_callbacks(execute=True):
        finish_by_resignations(other.pk, [1, 2])
    later = seat_player(other, 2)
    services.withdraw(tournament_id=t.pk, player=later, by=org)
    actions.enter_result(tournament_id=t.pk, table_id=other.pk, ranks={1: 1, 2: 2}, reason="appeal", by=org)
    assert ranks_of(other) == {1: 1, 2: 2}


def test_the_page_says_why_and_changes_nothing(
    club: tuple[Actor, League], make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    org = club[0]
    t, table = started(
        club, make_actor, django_capture_on_commit_callbacks, 3, game="pacru", seats=3, rounds=2
    )
    gone = seat_player(table, 3)
    with django_capture_on_commit_callbacks(execute=True):
        services.withdraw(tournament_id=t.pk, player=gone, by=org.player)
    c = Client()
    c.force_login(org.player.user)
    page = f"/organiser/events/{t.pk}/result/"
    form = {"table": table.pk, "rank_1": 2, "rank_2": 3, "rank_3": 1, "reason": "dispute"}
    r = c.post(page, form, follow=True)
    messages = [str(m) for m in r.context["messages"]]
    assert any(
        f"{gone.display_name} withdrew from Rules Night: a withdrawn seat must rank below" in m
        for m in messages
    ), messages
    assert Table.objects.get(pk=table.pk).status == Table.Status.ACTIVE and ranks_of(table)[3] is None
    with django_capture_on_commit_callbacks(execute=True):
        r = c.post(page, {**form, "rank_1": 1, "rank_2": 2, "rank_3": 3}, follow=True)
    assert any("Result of round 1, board 1 entered" in str(m) for m in r.context["messages"])
    assert ranks_of(table) == {1: 1, 2: 2, 3: 3}
