"""A rematch from the game page: a new table with the same game and settings, every player one
seat on; the others reach the same table (and are seated) through their own Rematch button."""

from __future__ import annotations

import pytest
from django.test import Client

from games import services
from games.models import Table

from .conftest import Actor, started_table

pytestmark = pytest.mark.django_db


def page_client(actor: Actor) -> Client:
    client = Client()
    client.force_login(actor.player.user)
    return client


def seats(table: Table) -> dict[int, str]:
    return dict(table.seats.values_list("number", "player__user__username"))


def rematch(client: Client, table: Table) -> int:
    response = client.post(f"/tables/{table.pk}/rematch/")
    assert response.status_code == 302, response
    return int(response["Location"].strip("/").split("/")[-1])


def test_a_rematch_rotates_the_seats_and_the_others_join_the_same_table(
    alice: Actor, bob: Actor, carol: Actor
) -> None:
    old = started_table([alice, bob, carol], game="shacru", rated=False, time_control={"kind": "untimed"})
    services.game_resign(table_id=old.pk, player=bob.player)
    services.game_resign(table_id=old.pk, player=carol.player)
    old.refresh_from_db()
    assert old.status == Table.Status.FINISHED

    new_id = rematch(page_client(alice), old)
    new = Table.objects.get(pk=new_id)
    assert new.pk != old.pk and new.status == Table.Status.OPEN
    assert (new.game, new.players, new.rated, new.time_control) == (old.game, 3, old.rated, old.time_control)
    assert seats(new) == {2: "alice"}  # seat 1 moves on to seat 2

    assert rematch(page_client(carol), old) == new_id  # the same table, not a second one
    assert seats(new) == {1: "carol", 2: "alice"}  # carol (seat 3) goes round to seat 1
    assert rematch(page_client(alice), old) == new_id  # asking again changes nothing
    assert rematch(page_client(bob), old) == new_id
    new.refresh_from_db()
    assert seats(new) == {1: "carol", 2: "alice", 3: "bob"}
    assert new.status == Table.Status.ACTIVE
    assert Table.objects.count() == 2


def test_only_the_players_of_a_finished_table_can_ask_for_a_rematch(
    alice: Actor, bob: Actor, carol: Actor
) -> None:
    table = started_table([alice, bob])
    response = page_client(alice).post(f"/tables/{table.pk}/rematch/", follow=True)
    assert "only the players of table" in response.content.decode()  # still running
    services.game_resign(table_id=table.pk, player=bob.player)
    response = page_client(carol).post(f"/tables/{table.pk}/rematch/", follow=True)
    assert "only the players of table" in response.content.decode()  # not one of its players
    assert Table.objects.count() == 1
    assert page_client(carol).post("/tables/999999/rematch/").status_code == 404


def test_a_rematch_against_a_bot_brings_the_bot_back(alice: Actor) -> None:
    table = services.table_create(creator=alice.player, game="pacru", players=2, rated=False, bot="random")
    table.refresh_from_db()
    assert table.status == Table.Status.ACTIVE
    services.game_resign(table_id=table.pk, player=alice.player)
    new = Table.objects.get(pk=rematch(page_client(alice), table))
    assert seats(new) == {2: "alice", 1: "random-bot"}
    assert new.status == Table.Status.ACTIVE and new.bot_seats == [1]


def test_the_game_page_boots_with_the_number_of_players(alice: Actor, bob: Actor) -> None:
    table = started_table([alice, bob])
    page = page_client(bob).get(f"/tables/{table.pk}/").content.decode()
    assert '"players": 2' in page and 'id="rematch"' in page and 'id="flip"' in page
