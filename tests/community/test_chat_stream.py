"""A chat room's push stream (``/live/chat/<room id>/``, ``live.views.chat_events``) on a real
uvicorn: who may open it (``404`` no room, ``403`` a reader who may not read the room or who
switched its chat off), the messages themselves in each event (posted, removed by a moderator),
the authors a reader blocked left out of what that reader gets, ``Last-Event-ID`` (nothing again
that the page has), and the pages' ``chat:<id>`` topic beside it, each with its own readings."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.test import Client

from community import chat, moderation, rooms
from community.selectors import room_version
from games import blocks
from tests.games.conftest import Actor
from tests.live import conftest as live
from tests.live.conftest import REDIS, Stream, Uvicorn

from .conftest import World

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

#: The uvicorn server of tests/live (a module-scoped fixture).
uvicorn_server = live.uvicorn_server


@pytest.fixture(autouse=True)
def publishing(settings: Any) -> None:
    """This process publishes each message to Redis, as the web processes do."""
    settings.REDIS_URL = REDIS


def session_cookie(actor: Actor) -> str:
    client = Client()
    client.force_login(actor.player.user)
    name = django_settings.SESSION_COOKIE_NAME
    return f"{name}={client.cookies[name].value}"


def refused(server: Uvicorn, path: str, status: int, **headers: str) -> dict[str, Any]:
    with server.stream(path, **headers) as s:
        assert s.status == status, (s.status, s.resp.read(2000))
        body: dict[str, Any] = s.body()
    return body


def messages(s: Stream) -> tuple[str, dict[str, Any]]:
    """The next ``messages`` event: its id and its data."""
    event = s.event()
    assert event["event"] == "messages", event
    return event["id"], json.loads(event["data"])


def test_the_stream_refuses_who_may_not_read_the_room(uvicorn_server: Uvicorn, world: World) -> None:
    players = rooms.table_room(table=world.event_table, kind="players")
    spectators = rooms.table_room(table=world.event_table, kind="spectators")
    event = rooms.event_room(tournament=world.event)
    assert refused(uvicorn_server, "/live/chat/987654321/", 404)["code"] == "not_found"
    # The players' room: not for an anonymous visitor, a spectator, another club's organiser.
    path = f"/live/chat/{players.pk}/"
    assert refused(uvicorn_server, path, 403)["code"] == "forbidden"
    assert refused(uvicorn_server, path, 403, Cookie=session_cookie(world.spectator))["code"] == "forbidden"
    by_token = refused(uvicorn_server, path, 403, Authorization=f"Token {world.other_org.token}")
    assert by_token == {"code": "forbidden", "detail": f"you may not read the chat room {players.pk}"}
    # The spectators' room: not for a player of the running table.
    seated = refused(uvicorn_server, f"/live/chat/{spectators.pk}/", 403, Cookie=session_cookie(world.ann))
    assert seated["code"] == "forbidden"
    # A reader who switched the room's chat off gets no messages there (nor from the API).
    chat.chat_off(room=event, player=world.member.player, off=True)
    off = refused(uvicorn_server, f"/live/chat/{event.pk}/", 403, Cookie=session_cookie(world.member))
    assert off["code"] == "chat_off" and "switched this chat off" in off["detail"]
    assert world.member.get(f"/api/v1/tournaments/{world.event.pk}/chat/").json()["messages"] == []
    # Those who may read it get the stream.
    for cookie in (session_cookie(world.ben), session_cookie(world.org)):
        with uvicorn_server.stream(path, Cookie=cookie) as s:
            assert s.status == 200 and s.content_type.startswith("text/event-stream")
            assert s.block() == {"retry": "1000"}
            assert messages(s)[1] == {"room": players.pk, "messages": [], "more": False}
    with uvicorn_server.stream(f"/live/chat/{spectators.pk}/") as s:  # anyone else, anonymous too
        assert s.status == 200


def test_a_posted_message_arrives_in_the_stream_and_a_removed_one_as_removed(
    uvicorn_server: Uvicorn, world: World
) -> None:
    room = rooms.event_room(tournament=world.event)
    with uvicorn_server.stream(f"/live/chat/{room.pk}/") as s:
        assert s.status == 200
        version, first = messages(s)  # what the room holds now: nothing
        assert first == {"room": room.pk, "messages": [], "more": False} and version == room_version(room.pk)
        said = chat.post(room=room, author=world.ann.player, text="good luck <b>all</b>")
        version, data = messages(s)
        assert version == room_version(room.pk)
        assert data["room"] == room.pk and data["more"] is False
        [message] = data["messages"]
        assert message["id"] == said.pk and message["text"] == "good luck <b>all</b>"
        assert message["author"] == {"id": world.ann.player.pk, "name": "Ann"}
        assert message["removed"] is False and message["deleted"] is False
        # Each event brings the newest messages, oldest first (as the API).
        other = chat.post(room=room, author=world.ben.player, text="and to you")
        assert [m["id"] for m in messages(s)[1]["messages"]] == [said.pk, other.pk]
        moderation.message_delete(message_id=said.pk, by=world.org.player, reason="spam")
        version, data = messages(s)
        assert version == room_version(room.pk)
        gone, kept = data["messages"]
        assert gone["id"] == said.pk and gone["removed"] is True and gone["text"] == ""
        assert kept["id"] == other.pk and kept["text"] == "and to you"


def test_a_reader_does_not_get_the_messages_of_players_they_blocked(
    uvicorn_server: Uvicorn, world: World
) -> None:
    room = rooms.event_room(tournament=world.event)
    blocks.block(player=world.ben.player, other_id=world.ann.player.pk)
    path = f"/live/chat/{room.pk}/"
    with (
        uvicorn_server.stream(path, Cookie=session_cookie(world.ben)) as ben,
        uvicorn_server.stream(path) as anyone,
    ):
        messages(ben), messages(anyone)
        hidden = chat.post(room=room, author=world.ann.player, text="from ann")
        assert messages(ben)[1]["messages"] == []
        assert [m["text"] for m in messages(anyone)[1]["messages"]] == ["from ann"]
        shown = chat.post(room=room, author=world.member.player, text="from the member")
        assert [m["id"] for m in messages(ben)[1]["messages"]] == [shown.pk]
        assert [m["id"] for m in messages(anyone)[1]["messages"]] == [hidden.pk, shown.pk]
    # As the API gives it to them.
    api = world.ben.get(f"/api/v1/tournaments/{world.event.pk}/chat/").json()
    assert [m["id"] for m in api["messages"]] == [shown.pk]


def test_a_page_reconnecting_with_what_it_has_gets_only_what_is_new(
    uvicorn_server: Uvicorn, world: World
) -> None:
    room = rooms.event_room(tournament=world.event)
    chat.post(room=room, author=world.ann.player, text="before")
    have = room_version(room.pk)
    with uvicorn_server.stream(f"/live/chat/{room.pk}/", Last_Event_ID=have) as s:
        assert s.block() == {"retry": "1000"}
        assert s.block() == {"comment": "keep-alive"}  # nothing again that the page has
        chat.post(room=room, author=world.ben.player, text="after")
        version, data = messages(s)
        assert version != have and [m["text"] for m in data["messages"]] == ["before", "after"]


def test_the_pages_topic_and_the_rooms_stream_each_keep_their_own_readings(
    uvicorn_server: Uvicorn, world: World
) -> None:
    """The topic ``chat:<id>`` (still served for other clients) and the room's stream, open at once
    in one process: the topic says ``changed``, the stream brings the messages."""
    room = rooms.event_room(tournament=world.event)
    with uvicorn_server.stream(f"/live/topics/?t=chat:{room.pk}") as topic:
        assert topic.status == 200
        topic.line()  # under way: its channel is made first
        with uvicorn_server.stream(f"/live/chat/{room.pk}/") as stream:
            assert messages(stream)[1]["messages"] == []
            chat.post(room=room, author=world.ann.player, text="both hear it")
            assert json.loads(topic.event()["data"]) == [f"chat:{room.pk}"]
            assert [m["text"] for m in messages(stream)[1]["messages"]] == ["both hear it"]


def test_under_wsgi_the_rooms_stream_answers_501_and_another_method_405(world: World) -> None:
    """gunicorn never holds a stream (the live server serves it); a stream is only read."""
    room = rooms.event_room(tournament=world.event)
    answer = Client().get(f"/live/chat/{room.pk}/")
    assert answer.status_code == 501 and answer.json()["code"] == "not_streaming"
    answer = Client().post(f"/live/chat/{room.pk}/")
    assert answer.status_code == 405 and answer["Allow"] == "GET, HEAD"
