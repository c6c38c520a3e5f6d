"""A double-elimination event page in Chromium: both brackets drawn, the losers bracket fed by the
winners bracket's losers, the page fitting a laptop and a phone. The laptop picture is the one
the documentation shows (``docs/screenshots/event-bracket.png``, written here)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from games import services as games
from games.models import Player, Table
from tests.games.conftest import as_organiser
from tournaments.competitions import services as events
from tournaments.models import Round, Tournament

from .conftest import PASSWORD, Browsers, for_docs

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]
NAMES = ["lena", "alice", "jun", "kemal", "hannah", "igor"]
SIZES = {"laptop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


def register(username: str) -> Player:
    return games.player_register(username=username, password=PASSWORD, display_name=username.title())


def finish_round(event: Tournament, number: int) -> None:
    """Every table of round ``number`` still being played ends: the first seat resigns. The last
    table's end pairs the next round (the service's own after-commit work)."""
    for rt in Round.objects.get(tournament=event, number=number).tables.select_related("table"):
        table = rt.table
        if table.status == Table.Status.ACTIVE:
            first = table.seats.order_by("number").select_related("player").first()
            assert first is not None
            games.game_resign(table_id=table.pk, player=first.player)


def six_players_three_rounds_in() -> Tournament:
    organiser = as_organiser(register("olga"))
    players = [register(name) for name in NAMES]
    league = events.league_create(organiser=organiser, name="Demo Club", slug="demo-club")
    event = events.tournament_create(
        organiser=organiser,
        league=league,
        name="Double Elim Six",
        game="pacru",
        seats=2,
        format=Tournament.Format.DOUBLE_ELIMINATION,
        rated=False,
    )
    for player in players:
        events.register(tournament_id=event.pk, player=player)
    events.start(tournament_id=event.pk, by=organiser)
    for number in (1, 2, 3):
        finish_round(event, number)
    assert Round.objects.filter(tournament=event).count() == 4
    return event


def test_a_double_elimination_event_shows_both_brackets_at_laptop_and_phone_size(
    people: Browsers, live_server: Any, artifacts: Path
) -> None:
    event = six_players_three_rounds_in()
    for size, viewport in SIZES.items():
        alice = people.open("alice", viewport=viewport)
        alice.goto(f"{live_server.url}/tournaments/{event.pk}/")
        bracket = alice.locator("#bracket svg.bracket")
        expect(bracket).to_be_visible()
        expect(bracket).to_contain_text("Winners bracket")
        expect(bracket).to_contain_text("Losers bracket")
        expect(alice.locator("#rounds")).to_contain_text("Losers bracket round")
        assert alice.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), size
        shot = artifacts / f"event-bracket-{size}.png"
        alice.screenshot(path=str(shot), full_page=True)
    written = for_docs(artifacts / "event-bracket-laptop.png", "event-bracket.png")
    assert written.read_bytes() == (artifacts / "event-bracket-laptop.png").read_bytes()
