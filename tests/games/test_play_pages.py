"""What the browser pages rely on: the lobby's forms, guest play, sign-up, bot invitations, the
table's ETag for polling, the position history, the reorientation choices, live fragments."""

from __future__ import annotations

import re

import pytest
from django.test import Client

import engine
from games import services
from games.botplay import keep_exhibition
from games.models import Move, Player, Table

from .conftest import Actor, as_organiser, play_random, started_table

pytestmark = pytest.mark.django_db


def logged_in(actor: Actor) -> Client:
    client = Client()
    client.force_login(actor.player.user)
    return client


# ------------------------------------------------------------------ polling with ETags
def test_an_unchanged_table_answers_304_and_any_change_gives_a_new_etag(alice: Actor, bob: Actor) -> None:
    table = started_table([alice, bob])
    url = f"/api/v1/tables/{table.pk}/"
    first = bob.get(url)
    etag = first["ETag"]
    assert first.status_code == 200 and etag
    again = bob.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again["ETag"] == etag and again.content == b""
    alice.post(f"{url}moves/", {"ply": 0, "move": "e1-e2"})
    moved = bob.get(url, HTTP_IF_NONE_MATCH=etag)
    assert moved.status_code == 200 and moved["ETag"] != etag and moved.json()["ply"] == 1
    etag = moved["ETag"]
    bob.post(f"{url}resign/")
    finished = bob.get(url, HTTP_IF_NONE_MATCH=etag)
    assert finished.status_code == 200 and finished.json()["status"] == "finished"


def test_a_seat_taken_changes_the_etag_of_an_open_table(alice: Actor, bob: Actor, carol: Actor) -> None:
    table = services.table_create(creator=alice.player, game="azacru", players=3)
    url = f"/api/v1/tables/{table.pk}/"
    etag = alice.get(url)["ETag"]
    services.seat_join(table_id=table.pk, player=bob.player)
    assert alice.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 200


def test_the_etag_of_a_missing_table_is_a_404(alice: Actor) -> None:
    assert alice.get("/api/v1/tables/987654/").status_code == 404


# ------------------------------------------------------------------ history and choices
def test_positions_replay_every_action_including_a_resignation(
    alice: Actor, bob: Actor, carol: Actor
) -> None:
    table = play_random(
        started_table([alice, bob, carol]), {1: alice.player, 2: bob.player, 3: carol.player}, plies=5
    )
    services.game_resign(table_id=table.pk, player=Player.objects.get(seats__table=table, seats__number=2))
    body = alice.get(f"/api/v1/tables/{table.pk}/positions/").json()
    moves = list(Move.objects.filter(table=table).order_by("seq"))
    assert [a["action"] for a in body["actions"]] == [m.action for m in moves]
    assert body["start"] == engine.new_game("pacru", 3).to_dict()
    state = engine.new_game("pacru", 3)
    for entry, move in zip(body["actions"], moves, strict=True):
        state = state.play(move.notation) if move.kind == "move" else state.eliminate(move.seat, move.kind)
        assert entry["position"] == state.to_dict()
    table.refresh_from_db()
    assert body["actions"][-1]["position"] == table.position
    tail = alice.get(f"/api/v1/tables/{table.pk}/positions/?from=4").json()["actions"]
    assert [a["seq"] for a in tail] == [4, 5]
    bad = alice.get(f"/api/v1/tables/{table.pk}/positions/?from=x")
    assert bad.status_code == 400 and "from must be" in bad.json()["detail"]


def test_the_table_lists_reorientation_choices_once_markers_can_pay(alice: Actor, bob: Actor) -> None:
    table = started_table([alice, bob])
    url = f"/api/v1/tables/{table.pk}/"
    assert alice.get(url).json()["reorient"] is None  # no markers yet
    for ply, (actor, move) in enumerate(
        [(alice, "a3-b4(c5)"), (bob, "a7-b7"), (alice, "i3-h4(g5)"), (bob, "e9-e8")]
    ):
        assert actor.post(f"{url}moves/", {"ply": ply, "move": move}).status_code == 201
    body = alice.get(url).json()
    assert body["reorient"] == {
        "cells": ["e1", "b4", "h4", "i9"],
        "turns": ["<", ">"],  # two markers: 45° only
        "removable": ["c5", "g5"],
        "payments": {"<": ["c5", "g5"], ">": ["c5", "g5"]},
    }
    assert body["choices"]["b4-c5"]["effects"] == []  # b5 → b5: no crossing
    assert "a3" not in body["reorient"]["cells"]


# ------------------------------------------------------------------ bots
def test_a_seated_player_invites_bots_and_the_table_starts_when_full(alice: Actor, bob: Actor) -> None:
    table = services.table_create(creator=alice.player, game="pacru", players=4, rated=False)
    url = f"/api/v1/tables/{table.pk}/invite-bot/"
    refused = bob.post(url, {"level": "greedy"})
    assert refused.status_code == 403 and "only the players" in refused.json()["detail"]
    assert alice.post(url, {"level": "turbo"}).status_code == 400
    for _ in range(3):
        r = alice.post(url, {"level": "greedy"})
        assert r.status_code == 200
    table.refresh_from_db()
    names = list(table.seats.order_by("number").values_list("player__user__username", flat=True))
    assert names == ["alice", "greedy-bot", "greedy-bot-2", "greedy-bot-3"]
    assert table.status == "active" and table.bot_seats == [2, 3, 4]
    late = alice.post(url, {"level": "random"})
    assert late.status_code == 409


def test_the_exhibition_keeps_one_bot_game_running(db: None) -> None:
    first = keep_exhibition()
    assert first is not None and first.status == "active"
    assert all(s.player.is_bot for s in first.seats.all()) and not first.rated
    assert keep_exhibition() is None  # one is running
    Table.objects.filter(pk=first.pk).update(status="finished")
    second = keep_exhibition()
    assert second is not None and second.pk != first.pk and second.game == "azacru" and second.players == 3


# ------------------------------------------------------------------ lobby pages
def test_the_lobby_form_opens_a_table_with_bots(alice: Actor) -> None:
    client = logged_in(alice)
    data = {"game": "azacru", "players": "3", "edition": "302", "time_control": "rapid", "rated": "on",
            "bot": "random", "bots": "2"}  # fmt: skip
    r = client.post("/tables/new/", data)
    table = Table.objects.get(created_by=alice.player)
    assert r.status_code == 302 and r["Location"] == f"/tables/{table.pk}/"
    assert table.status == "active" and table.bot_seats == [2, 3]
    assert not table.rated, "the rated box was ticked, but games with bots are never rated"
    assert table.time_control == {"kind": "fischer", "base": 600.0, "increment": 5.0}


def test_the_lobby_form_refuses_a_table_full_of_bots_and_changes_nothing(alice: Actor) -> None:
    client = logged_in(alice)
    data = {"game": "pacru", "players": "2", "edition": "302", "time_control": "untimed", "bot": "greedy",
            "bots": "2"}  # fmt: skip
    r = client.post("/tables/new/", data)
    assert r.status_code == 400 and "leave at least one seat for yourself" in r.content.decode()
    assert not Table.objects.exists()


def test_writes_from_pages_need_a_login_and_csrf(alice: Actor) -> None:
    anonymous = Client()
    r = anonymous.post("/tables/new/", {"game": "pacru"})
    assert r.status_code == 302 and "/accounts/login/" in r["Location"]
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(alice.player.user)
    assert strict.post("/tables/new/", {"game": "pacru", "players": "2"}).status_code == 403
    assert not Table.objects.exists()


def test_join_from_the_lobby_and_your_turn_marker(alice: Actor, bob: Actor) -> None:
    table = services.table_create(creator=alice.player, game="pacru", players=2)
    r = logged_in(bob).post(f"/tables/{table.pk}/join/")
    assert r.status_code == 302
    table.refresh_from_db()
    assert table.status == "active"
    lobby = logged_in(alice).get("/?fragment=lobby").content.decode()
    assert "1 your turn" in lobby and 'class="your-turn"' in lobby
    assert "your turn" not in logged_in(bob).get("/?fragment=lobby").content.decode()


def test_the_lobby_fragment_answers_304_until_something_changes(alice: Actor, bob: Actor) -> None:
    client = Client()
    first = client.get("/?fragment=lobby")
    etag = first["ETag"]
    assert first.status_code == 200 and "<html" not in first.content.decode()
    assert client.get("/?fragment=lobby", HTTP_IF_NONE_MATCH=etag).status_code == 304
    services.table_create(creator=alice.player, game="shacru", players=2)
    changed = client.get("/?fragment=lobby", HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and "Shacru" in changed.content.decode()


def test_a_visitor_plays_a_bot_as_a_guest_in_one_click(db: None, settings: object) -> None:
    settings.GUEST_PLAY = True  # type: ignore[attr-defined]
    client = Client()
    r = client.post("/play-bot/", {"game": "shacru", "level": "random"})
    table = Table.objects.get()
    assert r.status_code == 302 and r["Location"] == f"/tables/{table.pk}/"
    seats = list(table.seats.order_by("number").select_related("player__user"))
    guest = seats[0].player.user
    assert guest.username.startswith("guest-") and not guest.has_usable_password()
    assert seats[1].player.is_bot and table.status == "active" and not table.rated
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert re.search(r'"mySeat": 1', page)


def test_guest_play_is_off_in_production_settings(db: None, settings: object) -> None:
    settings.GUEST_PLAY = False  # type: ignore[attr-defined]
    r = Client().post("/play-bot/", {})
    assert r.status_code == 302 and r["Location"] == "/accounts/signup/"
    assert not Table.objects.exists()


def test_sign_up_logs_in_with_a_player(db: None) -> None:
    client = Client()
    r = client.post(
        "/accounts/signup/",
        {"username": "erin", "display_name": "Erin E.", "password1": "a-long-passphrase-77",
         "password2": "a-long-passphrase-77"},
    )  # fmt: skip
    assert r.status_code == 302
    player = Player.objects.get(user__username="erin")
    assert player.display_name == "Erin E."
    assert "erin" in client.get("/").content.decode()
    short = Client().post("/accounts/signup/", {"username": "fred", "password1": "x", "password2": "x"})
    assert short.status_code == 200 and not Player.objects.filter(user__username="fred").exists()


def test_the_game_page_is_a_shell_with_what_the_script_needs(alice: Actor, bob: Actor) -> None:
    table = started_table([alice, bob])
    page = logged_in(bob).get(f"/tables/{table.pk}/").content.decode()
    assert '"mySeat": 2' in page and f'"api": "/api/v1/tables/{table.pk}/"' in page
    assert 'id="board"' in page and "js/game.js" in page and 'name="csrfmiddlewaretoken"' in page
    spectator = Client().get(f"/tables/{table.pk}/").content.decode()
    assert '"mySeat": null' in spectator and 'id="resign"' not in spectator


# ------------------------------------------------------------------ bot matches from the dashboard
def test_an_organiser_starts_a_bot_match_from_the_dashboard(alice: Actor, bob: Actor) -> None:
    from tournaments.models import League

    league = League.objects.create(name="Club", slug="club")
    league.organisers.add(bob.player)  # running a league's events is not the organiser role
    as_organiser(alice.player)
    data = {"game": "pacru", "seat1": "search", "seat2": "greedy", "seat3": "greedy", "seat4": "",
            "games": "3"}  # fmt: skip
    refused = logged_in(bob).post("/organiser/bot-match/", data, follow=True)
    assert "starting bot matches is for organisers" in refused.content.decode()
    assert not Table.objects.exists()
    r = logged_in(alice).post("/organiser/bot-match/", data, follow=True)
    tables = list(Table.objects.order_by("pk"))
    assert len(tables) == 3 and "bot match started" in r.content.decode()
    seats = [
        list(t.seats.order_by("number").values_list("player__user__username", flat=True)) for t in tables
    ]
    assert seats == [
        ["search-bot", "greedy-bot", "greedy-bot-2"],
        ["greedy-bot", "greedy-bot-2", "search-bot"],
        ["greedy-bot-2", "search-bot", "greedy-bot"],
    ]
    assert all(t.status == "active" and t.bot_seats == [1, 2, 3] and not t.rated for t in tables)
    dashboard = logged_in(alice).get("/organiser/").content.decode()
    assert all(f'href="/tables/{t.pk}/"' in dashboard for t in tables)
    assert "<title>Organiser dashboard · Pacru ladder</title>" in dashboard
    main = dashboard[dashboard.index("<main") :]
    assert 'id="bot-match"' in main and "Bot matches" in main


def test_my_own_open_table_offers_no_join_button(alice: Actor, bob: Actor) -> None:
    table = services.table_create(creator=alice.player, game="pacru", players=3)
    join = f'action="/tables/{table.pk}/join/"'
    mine = logged_in(alice).get("/?fragment=lobby").content.decode()
    assert join not in mine and "your table" in mine
    assert join in logged_in(bob).get("/?fragment=lobby").content.decode()
    assert join not in Client().get("/?fragment=lobby").content.decode()  # visitors log in first
