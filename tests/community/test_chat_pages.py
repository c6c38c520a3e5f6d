"""The chat panel on the pages (community.pages, templates/community/_chat.html): each page shows
the rooms its viewer may read — a player at a table in play their players' room only, a spectator
and an anonymous visitor the spectators' room, a moderator both — a send box only to those who may
write (the reason why not to the others, "sign in" to the anonymous), and the panel's words in the
reader's language. Messages are never rendered by the server: the script reads them from the API."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from community import chat
from community.models import Room
from games import services as games
from games.models import Player, Table
from tests.community.conftest import World

pytestmark = pytest.mark.django_db

#: Every word the script takes from the page (community.pages._strings).
STRING_KEYS = {
    "older", "counter", "too_long", "sending", "throttled", "throttled_now", "sign_in", "refused", "failed",
    "reconnecting", "switch_off", "switch_on", "removed", "deleted", "menu", "menu_short", "report",
    "report_title", "reason", "details", "reported", "remove", "remove_title", "removed_done", "mute",
    "mute_title", "muted_done", "mute_where", "mute_for", "why", "why_needed", "cancel", "confirm", "mention",
    "new_below",
}  # fmt: skip


def visit(path: str, player: Player | None = None, **headers: Any) -> tuple[str, dict[str, Any]]:
    client = Client()
    if player is not None:
        client.force_login(player.user)
    r = client.get(path, **headers)
    assert r.status_code == 200, r.content[:300]
    html = r.content.decode()
    found = re.search(r'<script id="chat-config" type="application/json">(.*?)</script>', html, re.S)
    assert found, f"{path} shows no chat panel"
    return html, json.loads(found.group(1))


def kinds(config: dict[str, Any]) -> list[str]:
    return [room["kind"] for room in config["rooms"]]


def send_boxes(html: str) -> list[str]:
    """The send forms of the panel, shown (``hidden`` left out) or not."""
    return re.findall(r'<form class="chat-send"[^>]*>', html)


def test_a_player_at_a_table_in_play_gets_the_players_room_only(world: World) -> None:
    table = world.event_table
    html, config = visit(f"/tables/{table.pk}/", world.ann.player)
    assert kinds(config) == ["players"]
    players = Room.objects.get(table=table, kind="players")
    assert config["rooms"][0]["id"] == players.pk
    assert config["rooms"][0]["topic"] == f"chat:{players.pk}"
    assert config["rooms"][0]["api"] == f"/api/v1/tables/{table.pk}/chat/"
    assert config["rooms"][0]["query"] == "room=players"
    assert config["rooms"][0]["may_write"] is True
    assert config["rooms"][0]["may_moderate"] is False
    # The spectators' room comes only once the game is over: its tab is there, hidden, with no id.
    assert config["later"] == {
        "kind": "spectators",
        "tab": "Spectators",
        "api": f"/api/v1/tables/{table.pk}/chat/",
        "query": "room=spectators",
    }
    spectators = Room.objects.filter(table=table, kind="spectators").first()
    if spectators is not None:
        assert f'data-room="{spectators.pk}"' not in html
        assert f"chat:{spectators.pk}" not in html
    assert re.search(r'<button[^>]*id="chat-tab-spectators"[^>]* hidden data-later', html)
    assert [b for b in send_boxes(html) if "hidden" not in b], "the player has a send box"
    assert config["me"] == {"id": world.ann.player.pk, "name": world.ann.player.display_name}


def test_a_spectator_gets_the_spectators_room_with_a_send_box(world: World) -> None:
    table = world.event_table
    html, config = visit(f"/tables/{table.pk}/", world.spectator.player)
    assert kinds(config) == ["spectators"]
    assert "later" not in config
    assert config["rooms"][0]["may_write"] is True and config["rooms"][0]["refusal"] is None
    assert 'id="chat-pane-players"' not in html
    assert len(send_boxes(html)) == 1 and "hidden" not in send_boxes(html)[0]


def test_an_anonymous_visitor_reads_the_spectators_room_and_is_asked_to_sign_in(world: World) -> None:
    table = world.event_table
    html, config = visit(f"/tables/{table.pk}/")
    assert kinds(config) == ["spectators"]
    assert config["me"] is None
    assert config["rooms"][0]["may_write"] is False
    assert send_boxes(html) == [] and "<textarea" not in html
    assert "chat-toggle" not in html  # nothing to switch off without an account
    assert f'href="/accounts/login/?next=/tables/{table.pk}/">Sign in to chat.</a>' in html


def test_once_the_game_is_over_the_players_get_both_rooms(world: World) -> None:
    table = world.casual
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED, finished_at=timezone.now())
    html, config = visit(f"/tables/{table.pk}/", world.cat.player)
    assert kinds(config) == ["players", "spectators"]
    assert "later" not in config
    assert all(room["may_write"] for room in config["rooms"])
    assert 'id="chat-tab-players"' in html and 'id="chat-tab-spectators"' in html


def test_a_moderator_of_the_club_reads_both_rooms_and_may_moderate(world: World) -> None:
    table = world.event_table
    _, config = visit(f"/tables/{table.pk}/", world.org.player)
    assert kinds(config) == ["spectators", "players"]
    assert all(room["may_moderate"] for room in config["rooms"])
    assert [s["value"] for s in config["scopes"]] == ["room", "league"]  # the whole site: staff only
    _, config = visit(f"/tables/{table.pk}/", world.other_org.player)
    assert kinds(config) == ["spectators"]
    assert config["rooms"][0]["may_moderate"] is False
    _, config = visit(f"/tables/{table.pk}/", world.staff.player)
    assert kinds(config) == ["spectators", "players"]
    assert [s["value"] for s in config["scopes"]] == ["room", "league", "site"]


def test_a_guest_sees_why_they_cannot_chat_and_no_send_box(world: World) -> None:
    table = world.event_table
    html, config = visit(f"/tables/{table.pk}/", world.guest.player)
    room = config["rooms"][0]
    assert room["may_write"] is False and "guest" in room["refusal"]
    assert all("hidden" in b for b in send_boxes(html))
    assert re.search(r'<p class="chat-refusal">[^<]*guest', html)


def test_messages_are_not_rendered_by_the_server(world: World) -> None:
    """The page carries no message: the script reads them from the API and sets them as text."""
    table = world.event_table
    room = Room.objects.get(pk=visit(f"/tables/{table.pk}/", world.spectator.player)[1]["rooms"][0]["id"])
    chat.post(room=room, author=world.spectator.player, text="<script>alert(1)</script> hello there")
    html, _ = visit(f"/tables/{table.pk}/", world.staff.player)
    assert "alert(1)" not in html and "hello there" not in html


@pytest.mark.parametrize("page", ["event", "ladder", "league"])
def test_the_event_ladder_and_club_pages_show_their_room(world: World, page: str) -> None:
    """One room each, read without a query by the page (its first read through the API tells the
    script what the viewer may do there): a signed-in visitor's send box waits hidden for that
    answer, an anonymous visitor gets none and is asked to sign in."""
    path, kind, api, label = {
        "event": (f"/tournaments/{world.event.pk}/", "event", f"/api/v1/tournaments/{world.event.pk}/chat/",
                  world.event.name),
        "ladder": (f"/ladders/{world.ladder.pk}/", "ladder", f"/api/v1/ladders/{world.ladder.pk}/chat/",
                   str(world.ladder)),
        "league": (f"/leagues/{world.league.slug}/", "league", f"/api/v1/leagues/{world.league.slug}/chat/",
                   world.league.name),
    }[page]  # fmt: skip
    html, config = visit(path, world.member.player)
    assert kinds(config) == [kind]
    room = config["rooms"][0]
    assert room["api"] == api and room["query"] == "" and room["label"] == label
    assert room["id"] is None and room["may_write"] is None and room["may_moderate"] is None
    if page == "league":
        assert room["league"] == world.league.slug  # the mute of the whole club is offered
    assert len(send_boxes(html)) == 1 and "hidden" in send_boxes(html)[0]
    assert "js/chat.js" in html and "css/chat.css" in html
    assert "chat-toggle" in html
    # What the script's first read answers: the member may write, the organiser moderate.
    answer = Client()
    answer.force_login(world.member.player.user)
    r = answer.get(api)
    assert r.status_code == 200 and r.json()["room"]["may_write"] is True
    assert r.json()["room"]["topic"] == f"chat:{Room.objects.get(kind=kind, league=world.league).pk}"
    html, config = visit(path)
    assert kinds(config) == [kind] and config["me"] is None
    assert send_boxes(html) == [] and "<textarea" not in html and "chat-toggle" not in html
    assert "Sign in to chat." in html


def test_the_event_page_counts_no_query_for_its_chat(world: World) -> None:
    """The panel of an event, ladder or club page reads nothing: its room comes from the API."""
    client = Client()
    client.force_login(world.member.player.user)
    for path in (
        f"/tournaments/{world.event.pk}/",
        f"/ladders/{world.ladder.pk}/",
        f"/leagues/{world.league.slug}/",
    ):
        client.get(path)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(path).status_code == 200
        assert not [q["sql"] for q in queries.captured_queries if "community_" in q["sql"]], path


def test_links_are_shown_as_links_only_where_the_club_allows_them(world: World) -> None:
    table = world.event_table  # an event of the home club
    assert visit(f"/tables/{table.pk}/", world.spectator.player)[1]["rooms"][0]["links"] is False
    type(world.league).objects.filter(pk=world.league.pk).update(chat_links=True)
    assert visit(f"/tables/{table.pk}/", world.spectator.player)[1]["rooms"][0]["links"] is True
    assert visit(f"/tables/{world.casual.pk}/", world.spectator.player)[1]["rooms"][0]["links"] is False


def test_the_panel_speaks_the_readers_language(world: World) -> None:
    path = f"/tournaments/{world.event.pk}/"
    _, english = visit(path, world.member.player, HTTP_ACCEPT_LANGUAGE="en")
    html_de, german = visit(path, world.member.player, HTTP_ACCEPT_LANGUAGE="de")
    assert set(english["strings"]) == STRING_KEYS == set(german["strings"])
    assert all(isinstance(v, str) and v for v in german["strings"].values())
    # Words the catalogue has already: the panel takes them in the reader's language.
    assert english["strings"]["cancel"] == "Cancel" and german["strings"]["cancel"] == "Abbrechen"
    assert english["strings"]["reason"] == "Reason" and german["strings"]["reason"] == "Grund"
    assert english["reasons"][0] == {"value": "abuse", "label": "abuse or insults"}
    assert [r["value"] for r in german["reasons"]] == ["abuse", "spam", "cheating", "name", "other"]
    # Every placeholder survives translation (the script fills them by name).
    names = re.compile(r"%\((\w+)\)s")
    for key, text in english["strings"].items():
        assert set(names.findall(text)) == set(names.findall(german["strings"][key])), key
    # Once the chat's words are translated, the panel changes with the language.
    if german["strings"]["switch_off"] != "Switch chat off":
        assert "Switch chat off" not in html_de


def test_a_table_waiting_for_players_shows_its_chat_outside_the_hidden_board(world: World) -> None:
    table = games.table_create(creator=world.ann.player, game="shacru", players=2, rated=False)
    html, config = visit(f"/tables/{table.pk}/", world.ann.player)
    assert kinds(config) == ["players"] and config["later"]["kind"] == "spectators"
    waiting, game = html.split('<div id="game"', 1)
    assert 'id="chat"' in waiting and 'id="chat"' not in game  # the board is hidden until it starts
    html, config = visit(f"/tables/{table.pk}/", world.spectator.player)
    assert kinds(config) == ["spectators"] and config["rooms"][0]["may_write"] is True
