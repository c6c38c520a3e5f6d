"""Club life in a real browser: a player finds an event from the site bar, registers, is paired,
plays from "your game is ready" and sees the standings; two players settle a ladder challenge;
an organiser creates a league and an event, enters four people, starts it and corrects a result.
And every club page at laptop and phone size, with screenshots."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect

from engine.playout import random_step
from games import services as games
from games.models import Player, Table
from tests.games.conftest import as_organiser
from tournaments import ladders
from tournaments.competitions import services as events
from tournaments.models import AuditEntry, Ladder, League, Tournament

from .conftest import PASSWORD, Browsers, for_docs

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def register(username: str) -> Player:
    return games.player_register(username=username, password=PASSWORD, display_name=username.title())


def play_until_turn_of(table_id: int, player: Player, rng: random.Random) -> None:
    """The other seats make random legal moves (through the service) until ``player`` is to move."""
    for _ in range(8):
        table = Table.objects.get(pk=table_id)
        seat = {s.number: s.player for s in table.seats.all()}
        if table.status != Table.Status.ACTIVE or seat[table.to_move].pk == player.pk:
            return
        _, text = random_step(games.current_state(table), rng)
        games.move_submit(table_id=table_id, player=seat[table.to_move], ply=table.ply, move=text)


def type_a_legal_move(page: Page, table_id: int, rng: random.Random) -> str:
    _, text = random_step(games.current_state(Table.objects.get(pk=table_id)), rng)
    page.fill("#notation", text)
    page.press("#notation", "Enter")
    return text


def fits(page: Page) -> bool:
    """No sideways scrolling."""
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"))


def test_a_player_finds_an_event_registers_plays_from_your_game_is_ready_and_sees_the_standings(
    people: Browsers, live_server: Any, artifacts: Path
) -> None:
    rng = random.Random(7)
    organiser = as_organiser(register("olga"))
    alice_p, bob_p = register("alice"), register("bob")
    league = events.league_create(organiser=organiser, name="Riverside Club", slug="riverside")
    swiss = events.tournament_create(
        organiser=organiser, league=league, name="Riverside Open", game="pacru", seats=2, rounds=1
    )
    events.register(tournament_id=swiss.pk, player=bob_p)

    alice = people.open("alice")
    alice.get_by_role("navigation", name="main").get_by_role("link", name="Events").click()
    alice.get_by_role("link", name="Riverside Open").click()
    expect(alice).to_have_url(f"{live_server.url}/tournaments/{swiss.pk}/")
    alice.locator("#register").click()
    expect(alice.locator(".messages")).to_contain_text("registered")
    assert swiss.registrations.filter(player=alice_p, status="registered").exists()

    events.start(tournament_id=swiss.pk, by=organiser)
    alice.reload()
    ready = alice.locator("#your-game")
    expect(ready).to_be_visible()
    alice.screenshot(path=str(artifacts / "event-your-game-is-ready.png"), full_page=True)
    ready.click()
    alice.wait_for_url(re.compile(r"/tables/\d+/$"))
    table_id = int(re.search(r"/tables/(\d+)/$", alice.url).group(1))  # type: ignore[union-attr]
    expect(alice.locator("main")).to_contain_text("Riverside Open")

    play_until_turn_of(table_id, alice_p, rng)
    alice.reload()
    expect(alice.locator("#status")).to_contain_text("Your turn")
    type_a_legal_move(alice, table_id, rng)
    expect(alice.locator("#movelist li").last).to_be_visible()
    games.game_resign(table_id=table_id, player=bob_p)

    alice.goto(f"{live_server.url}/tournaments/{swiss.pk}/")
    expect(alice.locator("main")).to_contain_text("Alice won")
    standings = alice.locator("table.standings tbody tr")
    expect(standings.first).to_contain_text("Alice")
    alice.screenshot(path=str(artifacts / "event-finished.png"), full_page=True)


def test_two_players_settle_a_ladder_challenge_and_swap_places(
    people: Browsers, live_server: Any, artifacts: Path
) -> None:
    organiser = as_organiser(register("olga"))
    alice_p, bob_p = register("alice"), register("bob")
    league = events.league_create(organiser=organiser, name="Riverside Club", slug="riverside")
    ladder = ladders.ladder_create(
        organiser=organiser, league=league, game="pacru", name="Riverside ladder", kind="position"
    )
    ladders.ladder_join(ladder=ladder, player=alice_p)  # place 1
    ladders.ladder_join(ladder=ladder, player=bob_p)  # place 2

    bob = people.open("bob")
    bob.get_by_role("navigation", name="main").get_by_role("link", name="Ladders").click()
    bob.get_by_role("link", name="Riverside ladder").click()
    bob.locator('button.challenge[data-player="Alice"]').click()
    expect(bob.locator(".messages")).to_contain_text("Alice")
    bob.screenshot(path=str(artifacts / "ladder-challenge-sent.png"), full_page=True)

    alice = people.open("alice")
    expect(alice.locator("header .count")).to_have_text("1")  # the challenge waits for her
    alice.goto(f"{live_server.url}/ladders/{ladder.pk}/")
    alice.locator("button.accept").click()
    alice.wait_for_url(re.compile(r"/tables/\d+/$"))
    table_id = int(re.search(r"/tables/(\d+)/$", alice.url).group(1))  # type: ignore[union-attr]
    expect(alice.locator("main")).to_contain_text("Riverside ladder")

    # Alice resigns: the challenger wins and takes her place.
    # The page's script has drawn the table (the seats list is its work) before Alice resigns.
    expect(alice.locator("#seats li")).to_have_count(2)
    expect(alice.locator("#resign")).to_be_visible()
    alice.locator("#resign").click()
    alice.locator("#resign-yes").click()
    expect(alice.locator("#result")).to_contain_text("Game over: Bob wins")
    assert Table.objects.get(pk=table_id).status == Table.Status.FINISHED

    bob.goto(f"{live_server.url}/ladders/{ladder.pk}/")
    first = bob.locator("table.list tbody tr").first
    expect(first).to_contain_text("Bob")
    bob.screenshot(path=str(artifacts / "ladder-after-the-challenge.png"), full_page=True)


def test_an_organiser_creates_a_league_and_an_event_enters_four_players_starts_and_corrects_a_result(
    people: Browsers, live_server: Any, artifacts: Path
) -> None:
    as_organiser(register("olga"))
    for name in ("alice", "bob", "carol", "dave"):
        register(name)
    olga = people.open("olga")
    olga.get_by_role("navigation", name="main").get_by_role("link", name="Organiser").click()

    form = olga.locator("#create-league")
    form.locator('[name="name"]').fill("Hilltop Club")
    form.locator('[name="description"]').fill("Tuesday evenings")
    form.locator("button[type=submit], button").first.click()
    expect(olga.locator(".messages")).to_contain_text("Hilltop Club")
    league = League.objects.get(name="Hilltop Club")

    form = olga.locator("#create-event")
    form.locator('[name="league"]').select_option(str(league.pk))
    form.locator('[name="name"]').fill("Hilltop Swiss")
    form.locator('[name="format"]').select_option("swiss")
    form.locator('[name="rounds"]').fill("2")
    olga.screenshot(path=str(artifacts / "organiser-dashboard.png"), full_page=True)
    form.locator("button[type=submit]").click()
    expect(olga.locator(".messages")).to_contain_text("Hilltop Swiss")
    event = Tournament.objects.get(name="Hilltop Swiss")

    olga.goto(f"{live_server.url}/organiser/events/{event.pk}/")
    for name in ("Alice", "Bob", "Carol", "Dave"):
        register_form = olga.locator("#register-player")
        register_form.locator('[name="player_name"]').fill(name)
        register_form.locator("button").first.click()
        expect(olga.locator(".messages")).to_contain_text(name)
    assert event.registrations.count() == 4

    olga.locator("#start-event").click()
    expect(olga.locator(".messages")).to_contain_text("started")
    event.refresh_from_db()
    assert event.status == Tournament.Status.RUNNING

    # Board 1: enter the result (seat 2 first), with a reason.
    result = olga.locator('form.result-form[data-board="1"]')
    result.locator('[name="rank_1"]').select_option("2")
    result.locator('[name="rank_2"]').select_option("1")
    result.locator('[name="reason"]').fill("the players agreed seat 2 won over the board")
    result.locator("button").first.click()
    expect(olga.locator(".messages")).to_contain_text("board 1")
    entry = AuditEntry.objects.get(tournament=event, action="result entered")
    assert entry.reason == "the players agreed seat 2 won over the board"
    olga.screenshot(path=str(artifacts / "organiser-event.png"), full_page=True)

    # The result stands on the public event page, in words.
    olga.goto(f"{live_server.url}/tournaments/{event.pk}/")
    expect(olga.locator("main")).to_contain_text("won")


def test_every_club_page_fits_a_laptop_and_a_phone(
    people: Browsers, live_server: Any, artifacts: Path
) -> None:
    call_command("seed_demo", verbosity=0)
    robin = Tournament.objects.get(name="Demo Club Round Robin")
    cup = Tournament.objects.get(name="Demo Club Cup")
    swiss = Tournament.objects.get(name="Demo Club Swiss")
    position = Ladder.objects.get(name="Demo Club ladder")
    trios = Ladder.objects.get(name="Demo Club Azacru trios")
    alice_id = Player.objects.get(user__username="alice").pk
    pages = {
        "my-page": "/",
        "events": "/tournaments/",
        "event-registration": f"/tournaments/{swiss.pk}/",
        "event-round-robin": f"/tournaments/{robin.pk}/",
        "event-knockout": f"/tournaments/{cup.pk}/",
        "ladders": "/ladders/",
        "ladder-position": f"/ladders/{position.pk}/",
        "ladder-queue": f"/ladders/{trios.pk}/",
        "leagues": "/leagues/",
        "league": "/leagues/demo-club/",
        "ratings": "/ratings/pacru/",
        "player": f"/players/{alice_id}/",
    }
    organiser_pages = {
        "organiser-dashboard": "/organiser/",
        "organiser-event": f"/organiser/events/{robin.pk}/",
    }
    for size, viewport in (
        ("laptop", {"width": 1280, "height": 900}),
        ("phone", {"width": 390, "height": 844}),
    ):
        for who, urls in (("alice", pages), ("organiser", organiser_pages)):
            page = people.open(who, viewport=viewport, password="demo-pass-2026")
            for name, url in urls.items():
                response = page.goto(live_server.url + url)
                assert response is not None and response.status == 200, url
                page.screenshot(path=str(artifacts / f"club-{name}-{size}.png"), full_page=True)
                if (name, size) == ("my-page", "laptop"):
                    for_docs(artifacts / "club-my-page-laptop.png", "my-page.png")
                if (name, size) == ("ladder-position", "phone"):
                    for_docs(artifacts / "club-ladder-position-phone.png", "ladder-phone.png")
                assert fits(page), f"{url} scrolls sideways at {size} size"
