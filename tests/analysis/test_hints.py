"""Hints: a level's move for the player on turn in a casual game against the house bots; refused
in rated games, in events, with another person at the table, off turn; throttled; offered on the
page only where allowed."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client

import engine
from analysis import explorer_apis, hints
from engine.bots import levels
from games import services
from games.models import Table
from tests.games.conftest import Actor, as_organiser, started_table
from tournaments.competitions import services as clubs
from tournaments.models import Round, RoundTable

pytestmark = pytest.mark.django_db


def against_a_bot(actor: Actor, game: str = "shacru", players: int = 2) -> Table:
    """A casual table of ``actor`` (seat 1, on turn first) against house bots; the bots' turns
    are not played (the tests run no commit callbacks)."""
    table = services.table_create(
        creator=actor.player, game=game, players=players, bot="random", bots=players - 1
    )
    assert table.status == Table.Status.ACTIVE and table.to_move == 1 and not table.rated
    return table


def url(table: Table) -> str:
    return f"/api/v1/tables/{table.pk}/hint/"


@pytest.mark.parametrize("game", ["shacru", "pacru"])
def test_a_hint_against_a_bot_is_a_legal_move_and_the_same_when_asked_again(alice: Actor, game: str) -> None:
    table = against_a_bot(alice, game=game)
    r = alice.post(url(table))
    assert r.status_code == 200, r.content
    body = r.json()
    assert body["level"] == hints.HINT_LEVEL == 5
    state = engine.load(table.position)
    # The level's own choice, never one of its careless moves.
    seed = table.pk * 100_003 + table.actions
    assert body["move"] == levels.choose(state, 5, seed=seed, careless=False)
    assert state.play(body["move"]).last_move == body["move"]  # playable as it is
    assert body["words"].startswith(body["move"].split("(")[0])  # said as the review says it
    assert alice.post(url(table)).json() == body
    assert hints.hint(table_id=table.pk, player=alice.player) == body["move"]
    # And the move is the player's to make.
    services.move_submit(table_id=table.pk, player=alice.player, ply=table.ply, move=body["move"])


def test_no_hint_off_turn_or_after_the_game(alice: Actor) -> None:
    table = against_a_bot(alice)
    services.move_submit(table_id=table.pk, player=alice.player, ply=0, move="e1-e2")  # the bot's turn now
    r = alice.post(url(table))
    assert r.status_code == 409 and r.json()["code"] == "not_your_turn"
    services.game_resign(table_id=table.pk, player=alice.player)
    r = alice.post(url(table))
    assert r.status_code == 409 and r.json()["code"] == "table_not_active"


def test_no_hint_in_a_rated_game(alice: Actor) -> None:
    table = against_a_bot(alice)
    Table.objects.filter(pk=table.pk).update(rated=True)
    r = alice.post(url(table))
    assert r.status_code == 403 and r.json()["code"] == "hint_rated"


def test_no_hint_in_an_events_game(alice: Actor, bob: Actor) -> None:
    table = against_a_bot(alice)
    org = as_organiser(bob.player)
    league = clubs.league_create(organiser=org, name="Hint Club")
    event = clubs.tournament_create(
        organiser=org, league=league, name="Cup", game="shacru", seats=2, rounds=3
    )
    RoundTable.objects.create(round=Round.objects.create(tournament=event, number=1), table=table, number=1)
    r = alice.post(url(table))
    assert r.status_code == 403 and r.json()["code"] == "hint_event"


def test_no_hint_with_another_person_at_the_table(alice: Actor, bob: Actor, carol: Actor) -> None:
    people = started_table([alice, bob], game="shacru", rated=False)
    r = alice.post(url(people))
    assert r.status_code == 403 and r.json()["code"] == "hint_no_bot"
    # Two people and a bot: still a game against a person.
    mixed = services.table_create(creator=alice.player, game="shacru", players=3, bot="random", bots=1)
    services.seat_join(table_id=mixed.pk, player=carol.player)
    mixed.refresh_from_db()
    assert mixed.status == Table.Status.ACTIVE and mixed.to_move == 1
    r = alice.post(url(mixed))
    assert r.status_code == 403 and r.json()["code"] == "hint_no_bot"


def test_only_the_seated_player_signed_in_asks(alice: Actor, bob: Actor, anon: Any) -> None:
    table = against_a_bot(alice)
    assert anon.post(url(table)).status_code == 401
    r = bob.post(url(table))
    assert r.status_code == 403 and r.json()["code"] == "not_seated"
    assert bob.post("/api/v1/tables/999999/hint/").status_code == 404


def test_hints_are_throttled(alice: Actor, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(explorer_apis, "HINT_RATE", "2/min")
    table = against_a_bot(alice)
    assert [alice.post(url(table)).status_code for _ in range(3)] == [200, 200, 429]


def boot_of(client: Client, table: Table) -> dict[str, Any]:
    html = client.get(f"/tables/{table.pk}/").content.decode()
    found = re.search(r'<script id="boot" type="application/json">(.*?)</script>', html, re.S)
    assert found, "no boot data on the table page"
    return json.loads(found.group(1))  # type: ignore[no-any-return]


def test_the_page_offers_hints_only_where_they_are_allowed(alice: Actor, bob: Actor) -> None:
    page = Client()
    page.force_login(alice.player.user)
    table = against_a_bot(alice)
    assert boot_of(page, table)["hint"] is True
    assert boot_of(Client(), table)["hint"] is False  # a visitor
    people = started_table([alice, bob], game="shacru", rated=False)
    assert boot_of(page, people)["hint"] is False
    Table.objects.filter(pk=table.pk).update(rated=True)
    assert boot_of(page, table)["hint"] is False
