"""The chat through the API (``community.chat_apis``): its answers' shapes, the rate (429 with
``Retry-After``) and the length (400, nothing stored) limits, text returned as typed inside JSON,
switching a room's chat off, paging, rooms that do not exist, and the live topic ``chat:<id>``
(403 for a reader who may not read the room, 404 for no such room, ``changed`` on a post)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.test import Client
from rest_framework.test import APIClient

from community import chat, rooms
from community.models import ChatOff, Message, Room
from tests.games.conftest import Actor
from tests.live.conftest import REDIS, Uvicorn, uvicorn_server  # noqa: F401  (the live server fixture)

from .conftest import World


def table_url(w: World, room: str = "") -> str:
    return f"/api/v1/tables/{w.event_table.pk}/chat/" + (f"?room={room}" if room else "")


def test_a_message_and_the_room_as_the_api_gives_them(world: World) -> None:
    posted = world.ann.post(table_url(world), {"text": "  good luck  "})
    assert posted.status_code == 201
    message = posted.json()
    assert set(message) == {"id", "author", "text", "created", "removed", "deleted"}
    assert message["author"] == {"id": world.ann.player.pk, "name": "Ann"}
    assert message["text"] == "good luck" and message["removed"] is False and message["deleted"] is False
    body = world.ben.get(table_url(world)).json()
    assert body["messages"] == [message] and body["more"] is False
    room = Room.objects.get(table=world.event_table, kind="players")
    assert body["room"] == {
        "id": room.pk,
        "kind": "players",
        "label": f"Table {world.event_table.pk} · players",
        "topic": f"chat:{room.pk}",
        "may_write": True,
        "refusal": None,
        "may_moderate": False,
        "links": False,
        "chat_off": False,
        "max_length": 500,
    }
    as_org = world.org.get(table_url(world, "players")).json()["room"]
    assert as_org["may_moderate"] is True and as_org["may_write"] is False
    assert "only the players" in as_org["refusal"]


def test_links_follow_the_clubs_choice(world: World) -> None:
    url = f"/api/v1/leagues/{world.league.slug}/chat/"
    assert APIClient().get(url).json()["room"]["links"] is False
    world.league.chat_links = True
    world.league.save(update_fields=["chat_links"])
    assert APIClient().get(url).json()["room"]["links"] is True
    assert APIClient().get(table_url(world, "spectators")).json()["room"]["links"] is True
    casual = f"/api/v1/tables/{world.casual.pk}/chat/"
    assert APIClient().get(casual).json()["room"]["links"] is False


def test_html_is_returned_literally_as_json_text(world: World) -> None:
    typed = "<script>alert(1)</script><img src=x onerror=alert(2)>"
    assert world.ann.post(table_url(world), {"text": typed}).status_code == 201
    response = world.ben.get(table_url(world))
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["messages"][0]["text"] == typed
    assert Message.objects.get().text == typed


def test_past_five_messages_in_ten_seconds_the_api_answers_429_with_retry_after(
    world: World, settings
) -> None:
    settings.CHAT_RATE_BURST, settings.CHAT_RATE_MINUTE = 5, 20
    for n in range(5):
        assert world.ann.post(table_url(world), {"text": f"n{n}"}).status_code == 201
    refused = world.ann.post(table_url(world), {"text": "sixth"})
    assert refused.status_code == 429
    body = refused.json()
    assert body["code"] == "throttled" and "too fast" in body["detail"]
    assert 1 <= int(refused["Retry-After"]) <= 10 and body["retry"] == int(refused["Retry-After"])
    assert Message.objects.count() == 5
    # The other player at the table is not held back by ann's rate.
    assert world.ben.post(table_url(world), {"text": "my turn to talk"}).status_code == 201


def test_the_longest_message_passes_and_one_character_more_is_a_400_storing_nothing(
    world: World, settings
) -> None:
    settings.CHAT_MESSAGE_MAX_LENGTH = 40
    assert world.ann.post(table_url(world), {"text": "é" * 40}).status_code == 201
    refused = world.ann.post(table_url(world), {"text": "é" * 41})
    assert refused.status_code == 400 and refused.json()["code"] == "invalid"
    assert "41" in refused.json()["detail"] and "40" in refused.json()["detail"]
    for empty in ("", "   \n\t ", "\x01\x02 \u202e"):
        answer = world.ann.post(table_url(world), {"text": empty})
        assert answer.status_code == 400 and "empty" in answer.json()["detail"]
    assert world.ann.post(table_url(world), {"text": "a\x00b"}).status_code == 400  # NUL: refused at the edge
    assert world.ann.post(table_url(world), {}).status_code == 400
    assert world.ann.post(table_url(world), {"text": ["a"]}).status_code == 400
    assert Message.objects.count() == 1
    assert world.ann.get(table_url(world)).json()["room"]["max_length"] == 40


def test_paging_with_after_before_and_limit(world: World, settings) -> None:
    settings.CHAT_RATE_BURST = settings.CHAT_RATE_MINUTE = 0
    url = f"/api/v1/tournaments/{world.event.pk}/chat/"
    ids = [world.ann.post(url, {"text": f"m{n}"}).json()["id"] for n in range(8)]
    anon = APIClient()
    newest = anon.get(url, {"limit": 3}).json()
    assert [m["id"] for m in newest["messages"]] == ids[5:] and newest["more"] is True
    older = anon.get(url, {"limit": 3, "before": ids[5]}).json()
    assert [m["id"] for m in older["messages"]] == ids[2:5] and older["more"] is True
    after = anon.get(url, {"after": ids[6]}).json()
    assert [m["id"] for m in after["messages"]] == ids[7:]
    assert anon.get(url, {"after": ids[7]}).json()["messages"] == []
    for bad in ({"limit": 0}, {"limit": 101}, {"after": "x"}, {"before": -1}, {"after": 2**64}):
        answer = anon.get(url, bad)
        assert answer.status_code == 400, bad
        assert answer.json()["code"] == "invalid"


def test_rooms_of_nothing_are_404(world: World) -> None:
    for url in (
        "/api/v1/tables/987654321/chat/",
        "/api/v1/tournaments/987654321/chat/",
        "/api/v1/ladders/987654321/chat/",
        "/api/v1/leagues/no-such-club/chat/",
    ):
        assert APIClient().get(url).status_code == 404, url
        assert world.ann.post(url, {"text": "hello?"}).status_code == 404, url
        assert world.ann.post(url + "off/").status_code == 404, url
    assert not Room.objects.filter(table_id=987654321).exists()


def test_switching_the_chat_off_and_on_through_the_api(world: World) -> None:
    off = f"/api/v1/tables/{world.event_table.pk}/chat/off/"
    chat.post(
        room=rooms.table_room(table=world.event_table, kind="players"), author=world.ben.player, text="hi"
    )
    assert world.ann.post(off).status_code == 204
    assert world.ann.post(off).status_code == 204
    body = world.ann.get(table_url(world)).json()
    assert body["room"]["chat_off"] is True and body["messages"] == []
    assert body["room"]["may_write"] is False and "switched this chat off" in body["room"]["refusal"]
    assert world.ann.post(table_url(world), {"text": "x"}).status_code == 403
    assert world.ann.client.delete(off).status_code == 204
    assert [m["text"] for m in world.ann.get(table_url(world)).json()["messages"]] == ["hi"]
    assert not ChatOff.objects.exists()
    # A spectator may switch the spectators' room off, not the players' room.
    assert world.spectator.post(off + "?room=spectators").status_code == 204
    assert world.spectator.post(off + "?room=players").status_code == 403
    assert APIClient().post(off).status_code == 401
    assert world.guest.post(f"/api/v1/tournaments/{world.event.pk}/chat/off/").status_code == 403
    league_off = f"/api/v1/leagues/{world.league.slug}/chat/off/"
    assert world.member.post(league_off).status_code == 204
    assert world.member.get(f"/api/v1/leagues/{world.league.slug}/chat/").json()["room"]["chat_off"] is True


def test_anonymous_writes_are_401(world: World) -> None:
    answer = APIClient().post(f"/api/v1/tournaments/{world.event.pk}/chat/", {"text": "hi"}, format="json")
    assert answer.status_code == 401
    assert not Message.objects.exists()


# ---------------------------------------------------------------- the live topic
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


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_chat_topic_refuses_who_may_not_read_and_tells_a_post(
    uvicorn_server: Uvicorn,  # noqa: F811
    world: World,
    settings: Any,
) -> None:
    settings.REDIS_URL = REDIS  # this process publishes, as the web processes do
    players = rooms.table_room(table=world.event_table, kind="players")
    spectators = rooms.table_room(table=world.event_table, kind="spectators")
    assert refused(uvicorn_server, "/live/topics/?t=chat:987654321", 404)["code"] == "not_found"
    path = f"/live/topics/?t=chat:{players.pk}"
    assert refused(uvicorn_server, path, 403)["code"] == "forbidden"
    assert refused(uvicorn_server, path, 403, Cookie=session_cookie(world.spectator))["code"] == "forbidden"
    assert refused(uvicorn_server, path, 403, Authorization=f"Token {world.other_org.token}")["code"] == (
        "forbidden"
    )
    seated_out = f"/live/topics/?t=lobby&t=chat:{spectators.pk}"
    assert refused(uvicorn_server, seated_out, 403, Cookie=session_cookie(world.ann))["code"] == "forbidden"
    with uvicorn_server.stream(path, Cookie=session_cookie(world.ben)) as s:
        assert s.status == 200
        s.line()  # the stream is under way
        chat.post(room=players, author=world.ann.player, text="your move")
        assert json.loads(s.event()["data"]) == [f"chat:{players.pk}"]
    with uvicorn_server.stream(f"/live/topics/?t=chat:{spectators.pk}") as s:  # anyone reads it
        assert s.status == 200
        s.line()
        chat.post(room=spectators, author=world.spectator.player, text="nice")
        assert json.loads(s.event()["data"]) == [f"chat:{spectators.pk}"]


def test_a_live_pages_read_of_what_is_new_costs_a_few_queries(
    world: World, django_assert_max_num_queries
) -> None:
    """A room's open pages each read ``?after=`` on every message: the room made already, the
    read is the room, the reader's standing in it and one query for the messages (``more`` is not
    looked for)."""
    url = f"/api/v1/tournaments/{world.event.pk}/chat/"
    first = world.ann.post(url, {"text": "one"}).json()["id"]
    world.ben.post(url, {"text": "two"})
    # The token, the room, the reader's switch, mute, entry, club and moderation, the messages.
    with django_assert_max_num_queries(8):
        body = world.member.get(f"{url}?after={first}").json()
    assert [m["text"] for m in body["messages"]] == ["two"] and body["more"] is False
