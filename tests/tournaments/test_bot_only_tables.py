"""A table of house bots only is a bot match (issue 29, finding 8): organisers only, counted against
their daily bot-match limit, however it is made (``join: false`` and invite-bot calls included)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games import services as games
from games.models import Seat, Table
from tests.games.conftest import Actor, as_organiser
from tournaments.models import OrganiserRole
from tournaments.organising import botmatches
from tournaments.organising import roles as organisers


@pytest.fixture(autouse=True)
def _no_throttles(settings: Any) -> None:
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_CLASSES": []}


def _empty_table(actor: Actor, seats: int = 2) -> int:
    r = actor.post("/api/v1/tables/", {"game": "pacru", "players": seats, "rated": False, "join": False})
    assert r.status_code == 201, r.content
    return int(r.json()["id"])


def _seats(table_id: int) -> list[tuple[int, int]]:
    return sorted(Seat.objects.filter(table_id=table_id).values_list("number", "player_id"))


def test_a_player_cannot_fill_a_table_with_bots(alice: Actor) -> None:
    table_id = _empty_table(alice, seats=3)
    for _ in range(2):  # bots may wait at an open table for people to come
        assert alice.post(f"/api/v1/tables/{table_id}/invite-bot/", {"level": "random"}).status_code == 200
    before = _seats(table_id)
    r = alice.post(f"/api/v1/tables/{table_id}/invite-bot/", {"level": "greedy"})
    assert r.status_code == 403, r.content
    assert r.json()["code"] == "bot_match_organisers_only"
    assert "bot match" in r.json()["detail"] and "/organiser/request/" in r.json()["detail"]
    assert _seats(table_id) == before and Table.objects.get(pk=table_id).status == Table.Status.OPEN
    # Seated among the bots, it is a game against them: allowed.
    assert alice.post(f"/api/v1/tables/{table_id}/join/").status_code == 200
    assert Table.objects.get(pk=table_id).status == Table.Status.ACTIVE


def test_opening_a_full_table_of_bots_in_one_call_is_refused_and_leaves_nothing(alice: Actor) -> None:
    tables = Table.objects.count()
    r = alice.post(
        "/api/v1/tables/",
        {"game": "pacru", "players": 2, "rated": False, "join": False, "bot": "random", "bots": 2},
    )
    assert r.status_code == 403 and r.json()["code"] == "bot_match_organisers_only"
    assert Table.objects.count() == tables


def test_a_bot_match_made_by_invitations_counts_against_the_organisers_daily_limit(
    make_actor: Callable[..., Actor],
) -> None:
    org = make_actor("organiser")
    as_organiser(org.player)
    OrganiserRole.objects.filter(player=org.player).update(bot_tables_per_day=2)
    first = _empty_table(org)
    assert org.post(f"/api/v1/tables/{first}/invite-bot/", {"level": "random"}).status_code == 200
    assert org.post(f"/api/v1/tables/{first}/invite-bot/", {"level": "greedy"}).status_code == 200
    assert Table.objects.get(pk=first).status == Table.Status.ACTIVE
    assert organisers.bot_tables_started(player=org.player) == 1
    # One table left today: a bot-match series of two no longer fits.
    with pytest.raises(organisers.BotMatchLimit):
        botmatches.bot_match_start(by=org.player, game="pacru", levels=["random", "greedy"], games_count=2)
    second = _empty_table(org)
    assert org.post(f"/api/v1/tables/{second}/invite-bot/", {"level": "random"}).status_code == 200
    assert org.post(f"/api/v1/tables/{second}/invite-bot/", {"level": "greedy"}).status_code == 200
    assert organisers.bot_tables_started(player=org.player) == 2
    third = _empty_table(org)
    assert org.post(f"/api/v1/tables/{third}/invite-bot/", {"level": "random"}).status_code == 200
    before = _seats(third)
    r = org.post(f"/api/v1/tables/{third}/invite-bot/", {"level": "greedy"})
    assert r.status_code == 409 and r.json()["code"] == "bot_match_limit", r.content
    assert "your limit is 2" in r.json()["detail"]
    assert _seats(third) == before and Table.objects.get(pk=third).status == Table.Status.OPEN


def test_staff_have_no_limit(make_actor: Callable[..., Actor]) -> None:
    staff = make_actor("staffer", staff=True)
    for _ in range(3):
        table_id = _empty_table(staff)
        for level in ("random", "greedy"):
            assert staff.post(f"/api/v1/tables/{table_id}/invite-bot/", {"level": level}).status_code == 200


def test_a_game_against_the_bots_and_an_outside_bot_are_no_bot_match(
    alice: Actor, bob: Actor, make_actor: Callable[..., Actor]
) -> None:
    # A person seated: the usual game against a bot.
    table = games.table_create(creator=alice.player, game="pacru", players=2, rated=False, bot="random")
    assert table.status == Table.Status.ACTIVE
    # An outside bot account (a program its owner runs) against a house bot: allowed, as before.
    assert bob.post("/api/v1/account/bot/").status_code == 200
    table_id = int(bob.post("/api/v1/tables/", {"game": "pacru", "players": 2, "rated": False}).json()["id"])
    assert bob.post(f"/api/v1/tables/{table_id}/invite-bot/", {"level": "random"}).status_code == 200
