"""The chat API's write operations for ``tests/test_permission_matrix.py`` (its world and roles; the
main matrix runs them). Targets: a table of an event of the world's league (organised by ``org``)
where the ``seated`` player plays, that event (``seated`` entered), a ladder of the league
(``seated`` on it) and the league itself (``seated`` a member). Statuses in ROLES order: anon,
guest, player, seated, org, other_org, staff."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from community import rooms
from community.models import ChatOff, Message
from games import services as games
from games.models import Table
from tests.games.conftest import Actor
from tournaments import ladders
from tournaments.competitions import services as clubs
from tournaments.models import Registration, Round, RoundTable, Tournament

ROLES = ["anon", "guest", "player", "seated", "org", "other_org", "staff"]
Case = tuple[str, dict[str, Any], Callable[[], Any]]


def _row(*statuses: int) -> dict[str, int]:
    assert len(statuses) == len(ROLES)
    return dict(zip(ROLES, statuses, strict=True))


#: The table's players' room: its seated players, and staff.
PLAYERS_ROOM = _row(401, 403, 403, 201, 403, 403, 201)
#: Its spectators' room while the game is on: anyone signed in but a guest or a seated player.
SPECTATORS_ROOM = _row(401, 403, 201, 403, 201, 201, 201)
#: Event, ladder and club rooms: entrants, ladder players, members (seated), the club's organisers, staff.
CLUB_ROOM = _row(401, 403, 403, 201, 201, 403, 201)
#: Switching the players' room off: whoever reads it (its players, the club's organisers, staff).
PLAYERS_ROOM_OFF = _row(401, 403, 403, 204, 204, 403, 204)
#: Switching a room anyone reads off: any account but a guest.
OPEN_ROOM_OFF = _row(401, 403, 204, 204, 204, 204, 204)


def _state() -> Any:
    return (
        sorted(Message.objects.values_list("room_id", "author_id", "text")),
        sorted(ChatOff.objects.values_list("room_id", "player_id")),
    )


def _event(w: Any) -> Tournament:
    event = clubs.tournament_create(
        organiser=w.org.player, league=w.league, name="Cup", game="shacru", seats=2, rounds=3
    )
    Registration.objects.create(tournament=event, player=w.seated.player)
    return event


def _table(w: Any) -> Table:
    event = _event(w)
    table = games.table_create(creator=w.seated.player, game="shacru", players=2, rated=False)
    games.seat_join(table_id=table.pk, player=Actor("filler").player)
    RoundTable.objects.create(round=Round.objects.create(tournament=event, number=1), table=table, number=1)
    return table


def _switched_off(w: Any, role: str, room: Any) -> None:
    """For the DELETE cases: the actor switched the room off before (so switching on changes it)."""
    actor = w.actor(role)
    if actor is not None and not actor.player.is_guest:
        ChatOff.objects.get_or_create(room=room, player=actor.player)


def case_table_chat(w: Any, role: str) -> Case:
    return f"/api/v1/tables/{_table(w).pk}/chat/?room=players", {"text": "good luck"}, _state


def case_table_spectators_chat(w: Any, role: str) -> Case:
    return f"/api/v1/tables/{_table(w).pk}/chat/?room=spectators", {"text": "nice move"}, _state


def case_table_chat_off(w: Any, role: str) -> Case:
    return f"/api/v1/tables/{_table(w).pk}/chat/off/?room=players", {}, _state


def case_table_chat_on(w: Any, role: str) -> Case:
    table = _table(w)
    _switched_off(w, role, rooms.table_room(table=table, kind="players"))
    return f"/api/v1/tables/{table.pk}/chat/off/?room=players", {}, _state


def _room_cases(kind: str) -> tuple[Callable[[Any, str], Case], ...]:
    """The chat, chat off and chat on cases of the event's, the ladder's or the club's room."""

    def target(w: Any) -> tuple[str, Any]:
        if kind == "tournaments":
            event = _event(w)
            return f"/api/v1/tournaments/{event.pk}/chat/", rooms.event_room(tournament=event)
        if kind == "ladders":
            ladder = ladders.ladder_create(
                organiser=w.org.player, league=w.league, game="shacru", kind="position"
            )
            ladders.ladder_join(ladder=ladder, player=w.seated.player)
            return f"/api/v1/ladders/{ladder.pk}/chat/", rooms.ladder_room(ladder=ladder)
        w.league.members.add(w.seated.player)
        return f"/api/v1/leagues/{w.league.slug}/chat/", rooms.league_room(league=w.league)

    def post(w: Any, role: str) -> Case:
        return target(w)[0], {"text": "hello all"}, _state

    def off(w: Any, role: str) -> Case:
        return target(w)[0] + "off/", {}, _state

    def on(w: Any, role: str) -> Case:
        url, room = target(w)
        _switched_off(w, role, room)
        return url + "off/", {}, _state

    return post, off, on


def case_club_chat_links(w: Any, role: str) -> Case:
    def state() -> Any:
        return type(w.league).objects.filter(pk=w.league.pk).values_list("chat_links", flat=True).get()

    return f"/api/v1/leagues/{w.league.slug}/chat/settings/", {"links": True}, state


_event_post, _event_off, _event_on = _room_cases("tournaments")
_ladder_post, _ladder_off, _ladder_on = _room_cases("ladders")
_league_post, _league_off, _league_on = _room_cases("leagues")

CHAT_OPERATIONS: list[tuple[str, str, Callable[[Any, str], Case]]] = [
    ("POST /api/v1/tables/{table_id}/chat/", "", case_table_chat),
    ("POST /api/v1/tables/{table_id}/chat/", "spectators", case_table_spectators_chat),
    ("POST /api/v1/tables/{table_id}/chat/off/", "", case_table_chat_off),
    ("DELETE /api/v1/tables/{table_id}/chat/off/", "", case_table_chat_on),
    ("POST /api/v1/tournaments/{tournament_id}/chat/", "", _event_post),
    ("POST /api/v1/tournaments/{tournament_id}/chat/off/", "", _event_off),
    ("DELETE /api/v1/tournaments/{tournament_id}/chat/off/", "", _event_on),
    ("POST /api/v1/ladders/{ladder_id}/chat/", "", _ladder_post),
    ("POST /api/v1/ladders/{ladder_id}/chat/off/", "", _ladder_off),
    ("DELETE /api/v1/ladders/{ladder_id}/chat/off/", "", _ladder_on),
    ("POST /api/v1/leagues/{slug}/chat/", "", _league_post),
    ("POST /api/v1/leagues/{slug}/chat/off/", "", _league_off),
    ("DELETE /api/v1/leagues/{slug}/chat/off/", "", _league_on),
    ("PUT /api/v1/leagues/{slug}/chat/settings/", "", case_club_chat_links),
]

CHAT_MATRIX: dict[str, dict[str, int]] = {
    # the players' room: its seated players; staff may write anywhere; organisers read it (moderators)
    "POST /api/v1/tables/{table_id}/chat/": PLAYERS_ROOM,
    # the spectators' room: not the players while their game is on; never a guest
    "POST /api/v1/tables/{table_id}/chat/ spectators": SPECTATORS_ROOM,
    "POST /api/v1/tables/{table_id}/chat/off/": PLAYERS_ROOM_OFF,
    "DELETE /api/v1/tables/{table_id}/chat/off/": PLAYERS_ROOM_OFF,
    # entrants, ladder players, members; the club's organisers; staff
    "POST /api/v1/tournaments/{tournament_id}/chat/": CLUB_ROOM,
    "POST /api/v1/tournaments/{tournament_id}/chat/off/": OPEN_ROOM_OFF,
    "DELETE /api/v1/tournaments/{tournament_id}/chat/off/": OPEN_ROOM_OFF,
    "POST /api/v1/ladders/{ladder_id}/chat/": CLUB_ROOM,
    "POST /api/v1/ladders/{ladder_id}/chat/off/": OPEN_ROOM_OFF,
    "DELETE /api/v1/ladders/{ladder_id}/chat/off/": OPEN_ROOM_OFF,
    "POST /api/v1/leagues/{slug}/chat/": CLUB_ROOM,
    "POST /api/v1/leagues/{slug}/chat/off/": OPEN_ROOM_OFF,
    "DELETE /api/v1/leagues/{slug}/chat/off/": OPEN_ROOM_OFF,
    # how the club's chat shows links: its organisers and staff
    "PUT /api/v1/leagues/{slug}/chat/settings/": _row(401, 403, 403, 403, 200, 403, 200),
}
