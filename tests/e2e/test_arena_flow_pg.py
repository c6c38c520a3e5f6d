"""An arena in the browser: a player joins a running arena on its page, is taken to her table by
the page itself, plays, and when her table ends and the arena pairs her again the table page goes
to the next table by itself — two tables in a row, touching nothing but the board — while the
arena's page, open beside, updates its leaderboard live. At desktop and phone sizes.

Her opponent is a second player scripted here (a move, then a resignation, through the same
services as the API); the pairing waves run from the test (``tournaments.arena.wave.sweep``), as
the server's sweeper would run them every few seconds.
"""

from __future__ import annotations

import shutil
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from games import services as games
from games.models import Move, Table
from tests.games.conftest import Actor, as_organiser
from tournaments.arena import services as arena_services
from tournaments.arena import wave
from tournaments.competitions import services
from tournaments.models import ArenaPlayer, Tournament

from .conftest import Browsers, for_docs

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

#: Where the helpers' screenshots are kept besides the run's artifacts (when the folder exists).
SHOTS = Path("/tmp/h/shots")


def keep(shot: Path) -> None:
    if SHOTS.is_dir():
        shutil.copyfile(shot, SHOTS / shot.name)


def running_arena(org: Actor, opponent: Actor) -> Tournament:
    as_organiser(org.player)
    league = services.league_create(organiser=org.player, name="Arena Club", slug="arena-club")
    t = services.tournament_create(
        organiser=org.player,
        league=league,
        name="Friday Arena",
        game="pacru",
        seats=2,
        format="arena",
        rated=False,
        duration_minutes=20,
        time_control={"kind": "fischer", "base": 300, "increment": 2},
    )
    arena_services.arena_join(tournament_id=t.pk, player=opponent.player)
    services.start(tournament_id=t.pk, by=org.player)
    t.refresh_from_db()
    return t


def table_of(t: Tournament, actor: Actor) -> Table:
    row = ArenaPlayer.objects.get(tournament=t, player=actor.player)
    assert row.table_id is not None, "the wave did not seat her"
    return Table.objects.get(pk=row.table_id)


def play_one_table(page: Page, t: Tournament, alice: Actor, bob: Actor, base: str) -> Table:
    """Alice's page is at her table: Bob moves if he is first, Alice clicks her move on the board,
    Bob answers by resigning. Returns the table."""
    table = table_of(t, alice)
    expect(page).to_have_url(f"{base}/tables/{table.pk}/")
    mine = table.seats.get(player=alice.player).number
    if mine == 2:  # Bob (seat 1) moves first
        games.move_submit(table_id=table.pk, player=bob.player, ply=0, move="e1-e2")
        expect(page.locator("#status")).to_contain_text("Your turn")
        origin, target = "e9", "e8"
    else:
        expect(page.locator("#status")).to_contain_text("Your turn")
        origin, target = "e1", "e2"
    page.locator(f'#board [data-cell="{origin}"]').click()
    page.locator(f'#board [data-cell="{target}"]').click()
    page.locator("#confirm").click()
    expect(page.locator("#movelist")).to_contain_text(f"{origin}-{target}")
    assert Move.objects.filter(table=table, seat=mine, kind=Move.Kind.MOVE).exists()
    games.game_resign(table_id=table.pk, player=bob.player)
    expect(page.locator("#result")).to_contain_text("Alice wins")
    return table


def test_a_player_joins_a_running_arena_and_plays_two_tables_in_a_row(
    people: Browsers, live_server: Any, artifacts: Path, make_actor: Any
) -> None:
    org, alice, bob = make_actor("organiser"), make_actor("alice"), make_actor("bob")
    t = running_arena(org, bob)
    base = live_server.url
    event_url = f"{base}/tournaments/{t.pk}/"

    page = people.open("alice")
    watcher = people.open("organiser")  # the organiser follows the leaderboard from the start
    watcher.goto(event_url)
    watcher.evaluate("window.__stayed = true")
    page.goto(event_url)
    expect(page.locator("#arena-join")).to_be_visible()
    page.locator("#arena-join").click()
    expect(page.locator("body")).to_contain_text("You joined Friday Arena")
    expect(page.locator("#arena-waiting")).to_contain_text("2 players are free")
    expect(watcher.locator("#leaderboard")).to_contain_text("Alice")

    # The wave seats her: the arena's page takes her to her table by itself.
    wave.sweep(now=timezone.now())
    first = play_one_table(page, t, alice, bob, base)
    alice_row = watcher.locator("#leaderboard tr", has_text="Alice")
    expect(alice_row.locator("td.points")).to_have_text("2")

    # Her table ended: the next wave pairs her again, and the table page goes there by itself.
    wave.sweep(now=timezone.now())
    second = table_of(t, alice)
    assert second.pk != first.pk
    expect(page).to_have_url(f"{base}/tables/{second.pk}/", timeout=15_000)
    expect(page.locator("#arena-strip")).to_contain_text("Friday Arena")
    expect(page.locator("#arena-points")).to_have_text("2 points")
    expect(page.locator("#berserk")).to_be_visible()  # before her first move: she may go berserk
    page.screenshot(path=str(artifacts / "arena-strip.png"), full_page=False)
    for_docs(artifacts / "arena-strip.png", "arena-strip.png")
    keep(artifacts / "arena-strip.png")
    # Her own arena page, opened in another tab while she plays (it shows her table's link).
    board = people.open("alice")
    board.goto(event_url)
    expect(board.locator("#arena-table")).to_be_visible()
    board.evaluate("window.__stayed = true")
    play_one_table(page, t, alice, bob, base)

    # The leaderboard beside her followed it all without a reload: two wins, 4 points, a streak.
    my_row = board.locator("#my-row")
    expect(my_row.locator("td.points")).to_contain_text("4")
    expect(my_row.locator("td.sheet .mark")).to_have_count(2)
    expect(board.locator("#my-streak")).to_contain_text("on fire")
    assert board.evaluate("window.__stayed") is True, "the arena page reloaded instead of updating"
    expect(alice_row.locator("td.points")).to_contain_text("4")
    assert watcher.evaluate("window.__stayed") is True, "the organiser's page reloaded instead of updating"
    row = ArenaPlayer.objects.get(tournament=t, player=alice.player)
    assert (row.points, row.games, row.wins, row.streak) == (4, 2, 2, 2)

    # The arena pairs her a third time: her table page shows the next table's link (and goes).
    wave.sweep(now=timezone.now())
    third = table_of(t, alice)
    expect(page).to_have_url(f"{base}/tables/{third.pk}/", timeout=15_000)

    expect(board).to_have_url(f"{base}/tables/{third.pk}/")  # her arena tab went there too
    board.goto(event_url)
    expect(board.locator("#arena-table")).to_be_visible()
    board.screenshot(path=str(artifacts / "arena-page.png"), full_page=True)
    for_docs(artifacts / "arena-page.png", "arena-page.png")
    keep(artifacts / "arena-page.png")

    # On a phone: the arena's page and the table strip fit the width.
    phone = people.open("alice", viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    phone.goto(event_url)
    expect(phone.locator("#my-row")).to_be_visible()
    phone.screenshot(path=str(artifacts / "arena-page-phone.png"), full_page=True)
    keep(artifacts / "arena-page-phone.png")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the arena page scrolls sideways on a phone ({width} px)"
    phone.goto(f"{base}/tables/{third.pk}/")
    expect(phone.locator("#arena-strip")).to_contain_text("4 points")
    phone.screenshot(path=str(artifacts / "arena-strip-phone.png"), full_page=False)
    keep(artifacts / "arena-strip-phone.png")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the table page scrolls sideways on a phone ({width} px)"

    # Bob resigns the third table; at the arena's end time the last wave finishes it: the podium.
    games.game_resign(table_id=third.pk, player=bob.player)
    wave.sweep(now=t.ends_at + timedelta(seconds=1))
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    expect(watcher.locator("#podium")).to_contain_text("Alice")
    expect(page.locator("#arena-over")).to_be_visible()  # her table page says the arena is over
    watcher.screenshot(path=str(artifacts / "arena-final.png"), full_page=True)
    keep(artifacts / "arena-final.png")
