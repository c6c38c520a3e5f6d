"""Who may read, write and moderate in each chat room (``community.rooms``): every kind of room ×
every role, through the API (reads and writes) and the service (moderation).

Rooms: a table of the home club's event (its players' and spectators' rooms), a casual table
(its two rooms), the event's, the ladder's and the club's rooms. Roles: the seated player (``ann``,
at both tables, entered in the event), a spectator, an anonymous visitor, a guest, a club member,
a muted player (``ann`` again, muted on the whole site), the organiser of this club, of another
club, and staff. A blocked player's messages are left out for the player who blocked them only.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from community import chat, rooms, selectors
from community.models import Message, Mute, Room
from games import services as games
from games.models import Block, Table

from .conftest import World

ROOMS = [
    "event_players",
    "event_spectators",
    "casual_players",
    "casual_spectators",
    "event",
    "ladder",
    "league",
]
ROLES = ["seated", "spectator", "anon", "guest", "member", "muted", "org", "other_org", "staff"]

T, F = True, False
#: Who reads each room (roles in ROLES order).
READ = {
    "event_players": [T, F, F, F, F, T, T, F, T],
    "event_spectators": [F, T, T, T, T, F, T, T, T],
    "casual_players": [T, F, F, F, F, T, F, F, T],
    "casual_spectators": [F, T, T, T, T, F, T, T, T],
    "event": [T, T, T, T, T, T, T, T, T],
    "ladder": [T, T, T, T, T, T, T, T, T],
    "league": [T, T, T, T, T, T, T, T, T],
}
#: What POST answers (the read refusal first, then the write refusal; anonymous: 401).
WRITE = {
    "event_players": [201, 403, 401, 403, 403, 403, 403, 403, 201],
    "event_spectators": [403, 201, 401, 403, 201, 403, 201, 201, 201],
    "casual_players": [201, 403, 401, 403, 403, 403, 403, 403, 201],
    "casual_spectators": [403, 201, 401, 403, 201, 403, 201, 201, 201],
    "event": [201, 403, 401, 403, 201, 403, 201, 403, 201],
    "ladder": [403, 403, 401, 403, 201, 403, 201, 403, 201],
    "league": [403, 403, 401, 403, 201, 403, 201, 403, 201],
}
#: Who moderates (deletes messages, mutes) in each room: staff, and the club's organisers.
MODERATE = {
    "event_players": [F, F, F, F, F, F, T, F, T],
    "event_spectators": [F, F, F, F, F, F, T, F, T],
    "casual_players": [F, F, F, F, F, F, F, F, T],
    "casual_spectators": [F, F, F, F, F, F, F, F, T],
    "event": [F, F, F, F, F, F, T, F, T],
    "ladder": [F, F, F, F, F, F, T, F, T],
    "league": [F, F, F, F, F, F, T, F, T],
}


def room_of(w: World, name: str) -> Room:
    if name.startswith("event_"):
        return rooms.table_room(table=w.event_table, kind=name.removeprefix("event_"))
    if name.startswith("casual_"):
        return rooms.table_room(table=w.casual, kind=name.removeprefix("casual_"))
    if name == "event":
        return rooms.event_room(tournament=w.event)
    if name == "ladder":
        return rooms.ladder_room(ladder=w.ladder)
    return rooms.league_room(league=w.league)


def url_of(w: World, name: str) -> str:
    if name.startswith("event_"):
        return f"/api/v1/tables/{w.event_table.pk}/chat/?room={name.removeprefix('event_')}"
    if name.startswith("casual_"):
        return f"/api/v1/tables/{w.casual.pk}/chat/?room={name.removeprefix('casual_')}"
    if name == "event":
        return f"/api/v1/tournaments/{w.event.pk}/chat/"
    if name == "ladder":
        return f"/api/v1/ladders/{w.ladder.pk}/chat/"
    return f"/api/v1/leagues/{w.league.slug}/chat/"


def actor_of(w: World, role: str) -> Any:
    if role == "anon":
        return None
    if role == "seated":
        return w.ann
    if role == "muted":
        Mute.objects.create(
            player=w.ann.player,
            scope=Mute.Scope.SITE,
            until=timezone.now() + timedelta(hours=1),
            reason="insults",
            by=w.staff.player,
        )
        return w.ann
    return getattr(w, role)


def client_of(actor: Any) -> APIClient:
    return actor.client if actor is not None else APIClient()


@pytest.mark.parametrize("name", ROOMS)
@pytest.mark.parametrize("role", ROLES)
def test_who_reads_each_room(world: World, name: str, role: str) -> None:
    room = room_of(world, name)
    writer = world.staff.player
    message = chat.post(room=room, author=writer, text="hello room")
    actor = actor_of(world, role)
    expected = READ[name][ROLES.index(role)]
    assert rooms.may_read(room=room, player=actor.player if actor else None) is expected
    response = client_of(actor).get(url_of(world, name))
    if expected:
        assert response.status_code == 200, response.content
        body = response.json()
        assert [m["id"] for m in body["messages"]] == [message.pk]
        assert body["room"]["id"] == room.pk and body["room"]["topic"] == f"chat:{room.pk}"
    else:
        assert response.status_code == 403, response.content
        assert response.json()["code"] == "forbidden" and response.json()["detail"]


@pytest.mark.parametrize("name", ROOMS)
@pytest.mark.parametrize("role", ROLES)
def test_who_writes_in_each_room(world: World, name: str, role: str) -> None:
    room = room_of(world, name)
    actor = actor_of(world, role)
    expected = WRITE[name][ROLES.index(role)]
    player = actor.player if actor else None
    assert (rooms.write_refusal(room=room, player=player) is None) is (expected == 201)
    response = client_of(actor).post(url_of(world, name), {"text": "hi"}, format="json")
    assert response.status_code == expected, response.content
    stored = Message.objects.filter(room=room).count()
    assert stored == (1 if expected == 201 else 0)
    if expected == 403:
        assert response.json()["detail"]
        if role == "guest":
            assert "guest accounts cannot chat" in response.json()["detail"]
        if role == "muted" and READ[name][ROLES.index(role)]:
            assert "muted" in response.json()["detail"]
    if expected == 201 or (expected == 403 and READ[name][ROLES.index(role)]):
        # What the room says of it, for the page's form: the same answer.
        body = client_of(actor).get(url_of(world, name)).json()["room"]
        assert body["may_write"] is (expected == 201)
        assert (body["refusal"] is None) is (expected == 201)


@pytest.mark.parametrize("name", ROOMS)
@pytest.mark.parametrize("role", ROLES)
def test_who_moderates_each_room(world: World, name: str, role: str) -> None:
    room = room_of(world, name)
    actor = actor_of(world, role)
    player = actor.player if actor else None
    assert rooms.may_moderate(room=room, player=player) is MODERATE[name][ROLES.index(role)]


@pytest.mark.parametrize("name", ROOMS)
def test_a_blocked_players_messages_are_left_out_for_whoever_blocked_them(world: World, name: str) -> None:
    """Staff write everywhere: the reader who blocked them (the seated player in a players' room,
    the spectator elsewhere) no longer gets their messages, through the API too; another reader
    does, and the blocked player is not kept from writing."""
    room = room_of(world, name)
    players_room = name.endswith("players")
    reader = world.ann if players_room else world.spectator
    other = (world.cat if name.startswith("casual") else world.ben) if players_room else world.member
    if name.endswith("spectators"):
        Table.objects.filter(pk__in=[world.event_table.pk, world.casual.pk]).update(status="finished")
        room.table.refresh_from_db()
    blocked = chat.post(room=room, author=world.staff.player, text="from staff")
    Block.objects.create(player=reader.player, blocked=world.staff.player)
    kept = (
        chat.post(room=room, author=world.ann.player, text="from ann")
        if name not in ("league", "ladder")
        else None
    )
    page = selectors.messages(room=room, reader=reader.player)
    assert blocked.pk not in [m.pk for m in page.messages]
    assert [m.pk for m in page.messages] == ([kept.pk] if kept else [])
    body = reader.get(url_of(world, name)).json()
    assert [m["id"] for m in body["messages"]] == ([kept.pk] if kept else [])
    assert blocked.pk in [m["id"] for m in other.get(url_of(world, name)).json()["messages"]]
    assert rooms.write_refusal(room=room, player=world.staff.player) is None


def test_each_room_belongs_to_the_club_that_moderates_it(world: World) -> None:
    assert room_of(world, "event_players").league_id == world.league.pk
    assert room_of(world, "event_spectators").league_id == world.league.pk
    assert room_of(world, "casual_players").league_id is None
    assert room_of(world, "event").league_id == world.league.pk
    assert room_of(world, "ladder").league_id == world.league.pk
    assert room_of(world, "league").league_id == world.league.pk
    # Asked again: the same room, never a second one.
    assert room_of(world, "event_players").pk == room_of(world, "event_players").pk
    assert Room.objects.filter(table=world.event_table, kind="players").count() == 1


def test_labels_and_pages_of_the_rooms(world: World) -> None:
    table = world.event_table.pk
    assert rooms.room_label(room=room_of(world, "event_players")) == f"Table {table} · players"
    assert rooms.room_label(room=room_of(world, "event_spectators")) == f"Table {table} · spectators"
    assert rooms.room_label(room=room_of(world, "event")) == "Spring Swiss"
    assert rooms.room_label(room=room_of(world, "league")) == "Home Club"
    assert rooms.room_url(room=room_of(world, "event_players")) == f"/tables/{table}/"
    assert rooms.room_url(room=room_of(world, "event")) == f"/tournaments/{world.event.pk}/"
    assert rooms.room_url(room=room_of(world, "ladder")) == f"/ladders/{world.ladder.pk}/"
    assert rooms.room_url(room=room_of(world, "league")) == f"/leagues/{world.league.slug}/"
    found = rooms.room_by_id(room_id=room_of(world, "league").pk)
    assert found.kind == Room.Kind.LEAGUE


def test_the_spectators_room_opens_to_the_players_when_the_game_ends(world: World) -> None:
    room = room_of(world, "casual_spectators")
    said = chat.post(room=room, author=world.spectator.player, text="ann is losing")
    url = url_of(world, "casual_spectators")
    assert world.ann.get(url).status_code == 403
    assert world.ann.post(url, {"text": "I can hear you"}).status_code == 403
    assert world.cat.get(url).status_code == 403
    games.game_resign(table_id=world.casual.pk, player=world.ann.player)
    world.casual.refresh_from_db()
    assert world.casual.status == Table.Status.FINISHED
    body = world.ann.get(url).json()
    assert [m["id"] for m in body["messages"]] == [said.pk]
    assert body["room"]["may_write"] is True
    assert world.ann.post(url, {"text": "good game, all"}).status_code == 201
    assert world.cat.get(url).status_code == 200


def test_a_seated_player_gets_the_players_room_by_default_and_others_the_spectators(world: World) -> None:
    url = f"/api/v1/tables/{world.event_table.pk}/chat/"
    assert world.ann.get(url).json()["room"]["kind"] == "players"
    assert world.spectator.get(url).json()["room"]["kind"] == "spectators"
    assert APIClient().get(url).json()["room"]["kind"] == "spectators"
    assert world.org.get(url).json()["room"]["kind"] == "spectators"
    refused = world.ann.get(url + "?room=kitchen")
    assert refused.status_code == 400 and refused.json()["code"] == "invalid"


@pytest.mark.parametrize("scope", ["room", "league", "site"])
def test_a_mute_refuses_with_its_end_and_a_lifted_or_past_one_does_not(world: World, scope: str) -> None:
    room = room_of(world, "event")
    mute = Mute.objects.create(
        player=world.ann.player,
        scope=scope,
        room=room if scope == "room" else None,
        league=world.league if scope == "league" else None,
        until=timezone.now() + timedelta(hours=2),
        reason="spam",
        by=world.org.player,
    )
    assert rooms.active_mute(player=world.ann.player, room=room) == mute
    refusal = rooms.write_refusal(room=room, player=world.ann.player)
    assert refusal is not None and "muted" in refusal and "until" in refusal
    # A club mute or a room mute keeps the player from this room only (or this club's).
    other_room = rooms.league_room(league=world.other_league)
    expected_elsewhere = mute if scope == "site" else None
    assert rooms.active_mute(player=world.ann.player, room=other_room) == expected_elsewhere
    Mute.objects.filter(pk=mute.pk).update(lifted_at=timezone.now())
    assert rooms.active_mute(player=world.ann.player, room=room) is None
    Mute.objects.filter(pk=mute.pk).update(lifted_at=None, until=timezone.now() - timedelta(seconds=1))
    assert rooms.write_refusal(room=room, player=world.ann.player) is None


def test_moderating_a_club_needs_being_its_organiser_or_staff(world: World) -> None:
    assert rooms.may_moderate_league(league=world.league, player=world.org.player)
    assert not rooms.may_moderate_league(league=world.league, player=world.other_org.player)
    assert not rooms.may_moderate_league(league=world.league, player=world.member.player)
    assert not rooms.may_moderate_league(league=world.league, player=None)
    assert rooms.may_moderate_league(league=None, player=world.staff.player)
    assert not rooms.may_moderate_league(league=None, player=world.org.player)
