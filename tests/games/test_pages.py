"""Server-rendered pages: the home page, a table's page, logging in and out."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils.html import escape

from games import services
from games.models import Move, Table

from .conftest import Actor, play_random, started_table

CSRF_FIELD = re.compile(r'<input type="hidden" name="csrfmiddlewaretoken" value="([^"]+)"')


def sections(html: str) -> dict[str, str]:
    """The home page's sections by their heading."""
    parts = re.split(r"<h2[^>]*>(.*?)</h2>", html)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts) - 1, 2)}


def csrf_token(html: str) -> str:
    match = CSRF_FIELD.search(html)
    assert match, "no CSRF token field on the page"
    return match.group(1)


@pytest.fixture
def three_tables(alice: Actor, bob: Actor, carol: Actor) -> dict[str, Table]:
    active = play_random(started_table([alice, bob]), {1: alice.player, 2: bob.player}, plies=4)
    finished = started_table([bob, carol], game="shacru")
    services.game_resign(table_id=finished.pk, player=carol.player)
    open_table = services.table_create(creator=carol.player, game="azacru", players=3)
    aborted = services.table_create(creator=alice.player, game="pacru", players=2)
    services.seat_leave(table_id=aborted.pk, player=alice.player)
    tables = {"active": active, "finished": finished, "open": open_table, "aborted": aborted}
    for table in tables.values():
        table.refresh_from_db()
    assert [t.status for t in tables.values()] == ["active", "finished", "open", "aborted"]
    return tables


def test_the_home_page_lists_open_active_and_finished_tables(three_tables: dict[str, Table]) -> None:
    r = Client().get("/")
    assert r.status_code == 200 and r["Content-Type"].startswith("text/html")
    found = sections(r.content.decode())
    # "Play now" first: the quick pairing pools (tournaments.pools), then the bots and the tables.
    assert list(found) == [
        "Play now",
        "Play a bot now",
        "Waiting for players",
        "Live games",
        "Recently finished",
    ]
    where = {
        name: [heading for heading, body in found.items() if f'href="/tables/{table.pk}/"' in body]
        for name, table in three_tables.items()
    }
    assert where == {
        "open": ["Waiting for players"],
        "active": ["Live games"],
        "finished": ["Recently finished"],
        "aborted": [],
    }
    assert "Carol" in found["Waiting for players"] and "1/3" in found["Waiting for players"]
    assert "Alice" in found["Live games"] and "Bob" in found["Live games"]
    assert "Azacru" in found["Waiting for players"] and "Pacru 302" in found["Live games"]
    done = found["Recently finished"]
    assert "Bob" in done and "Carol" in done and "Shacru" in done
    assert "Alice" not in found["Recently finished"]
    assert "No open tables" not in r.content.decode()


def test_the_home_page_without_tables(db: None) -> None:
    page = Client().get("/").content.decode()
    for empty in ("No open tables: open one below.", "No games in progress.", "No finished games yet."):
        assert empty in page
    assert 'href="/tables/' not in page


def test_a_full_table_is_not_listed_as_waiting(alice: Actor, bob: Actor) -> None:
    table = started_table([alice, bob])
    found = sections(Client().get("/").content.decode())
    assert f'href="/tables/{table.pk}/"' not in found["Waiting for players"]
    assert f'href="/tables/{table.pk}/"' in found["Live games"]


def test_the_table_page_shows_the_board_seats_and_moves(three_tables: dict[str, Table]) -> None:
    table = three_tables["active"]
    r = Client().get(f"/tables/{table.pk}/")
    assert r.status_code == 200
    page = r.content.decode()
    assert f"Table #{table.pk}: Pacru" in page
    board = re.search(r'<pre class="board"[^>]*>(.*?)</pre>', page, re.S)
    assert board and board.group(1).strip(), "the board is drawn"
    seats = re.search(r'<ol class="seats">(.*?)</ol>', page, re.S)
    assert seats
    assert re.search(r"1</span> Alice \(red\)", seats.group(1))
    assert re.search(r"2</span> Bob \(black\)", seats.group(1))
    moves = re.search(r'<ol class="moves">(.*?)</ol>', page, re.S)
    assert moves
    shown = re.findall(r"<li>(.*?)</li>", moves.group(1))
    expected = [escape(m.action) for m in Move.objects.filter(table=table).order_by("seq")]
    assert len(expected) == 4 and shown == expected
    assert "ply 4" in page
    assert f'href="/api/v1/tables/{table.pk}/record/"' in page


def test_the_page_of_a_finished_table_shows_the_resignation(three_tables: dict[str, Table]) -> None:
    table = three_tables["finished"]
    page = Client().get(f"/tables/{table.pk}/").content.decode()
    assert "Status: finished" in page
    assert "out: resigned" in page and "rank 1" in page
    assert "<li>resign 2</li>" in page
    assert '<pre class="board"' in page


def test_an_open_table_has_no_board_and_no_moves(three_tables: dict[str, Table]) -> None:
    page = Client().get(f"/tables/{three_tables['open'].pk}/").content.decode()
    assert '<pre class="board"' not in page
    assert "No moves yet." in page and "Carol" in page


def test_a_missing_table_is_404(db: None) -> None:
    assert Client().get("/tables/987654/").status_code == 404
    assert Client().get("/tables/not-a-number/").status_code == 404


def test_the_login_page_has_a_csrf_token_and_checks_the_password(alice: Actor) -> None:
    client = Client(enforce_csrf_checks=True)
    r = client.get("/accounts/login/")
    assert r.status_code == 200
    token = csrf_token(r.content.decode())
    assert 'name="username"' in r.content.decode() and 'name="password"' in r.content.decode()

    no_token = client.post("/accounts/login/", {"username": "alice", "password": "correct-horse-9"})
    assert no_token.status_code == 403
    assert "_auth_user_id" not in client.session

    wrong = client.post(
        "/accounts/login/",
        {"username": "alice", "password": "wrong-password", "csrfmiddlewaretoken": token},
    )
    assert wrong.status_code == 200, "the form comes back"
    assert wrong.context["form"].errors and "_auth_user_id" not in client.session

    right = client.post(
        "/accounts/login/",
        {"username": "alice", "password": "correct-horse-9", "csrfmiddlewaretoken": token},
    )
    assert right.status_code == 302 and right["Location"] == "/"
    assert client.session["_auth_user_id"] == str(alice.player.user_id)
    home = client.get("/").content.decode()
    assert "alice" in home and "Log out" in home


def test_login_follows_a_local_next_but_not_a_foreign_one(alice: Actor) -> None:
    client = Client()
    r = client.post(
        "/accounts/login/", {"username": "alice", "password": "correct-horse-9", "next": "/tables/5/"}
    )
    assert r.status_code == 302 and r["Location"] == "/tables/5/"
    client = Client()
    r = client.post(
        "/accounts/login/",
        {"username": "alice", "password": "correct-horse-9", "next": "https://evil.example/"},
    )
    assert r.status_code == 302 and r["Location"] == "/"


def test_logout_is_a_post_with_a_csrf_token(alice: Actor) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice.player.user)
    home = client.get("/").content.decode()
    assert 'action="/accounts/logout/"' in home
    token = csrf_token(home)

    assert client.get("/accounts/logout/").status_code == 405, "no logging out by a link"
    assert client.post("/accounts/logout/").status_code == 403, "no logging out without the token"
    assert client.session.get("_auth_user_id") == str(alice.player.user_id)

    r = client.post("/accounts/logout/", {"csrfmiddlewaretoken": token})
    assert r.status_code == 302 and r["Location"] == "/"
    assert "_auth_user_id" not in client.session
    assert "Log in" in client.get("/").content.decode()
