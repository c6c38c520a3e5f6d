"""Hints and the explorer in a real browser: in a casual game against a bot, "Show me a good move"
draws the suggested move as an arrow and says it in words; on a finished game's review, the
"Played here" panel lists the moves played from the position shown, and a click draws one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from analysis import explorer
from games import services
from games.models import Player, Table

from .conftest import PASSWORD, Browsers, for_docs, shoot

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


def register(username: str) -> Player:
    return services.player_register(username=username, password=PASSWORD, display_name=username.title())


def open_as(people: Browsers, username: str, size: str) -> Any:
    if size == "phone":
        return people.open(username, viewport=SIZES[size], is_mobile=True, has_touch=True)
    return people.open(username, viewport=SIZES[size])


@pytest.mark.parametrize("size", SIZES)
def test_a_hint_shows_an_arrow_in_a_game_against_a_bot(
    people: Browsers, live_server: Any, artifacts: Path, size: str
) -> None:
    alice = register("alice")
    table = services.table_create(
        creator=alice, game="pacru", players=2, bot="random", time_control={"kind": "untimed"}
    )
    assert table.status == Table.Status.ACTIVE and table.to_move == 1
    page = open_as(people, "alice", size)
    page.goto(f"{live_server.url}/tables/{table.pk}/")
    button = page.locator("#hint")
    expect(button).to_be_visible()
    button.click()
    expect(page.locator("#overlay .hint-arrow")).to_have_count(1)
    move = page.locator("#overlay .hint-arrow").get_attribute("data-move")
    assert move and move in services.current_state(table).legal_moves()
    expect(page.locator("#hint-words")).to_contain_text(move.split("(")[0])
    shot = shoot(page, artifacts, "hint", size)
    if size == "desktop":
        for_docs(shot, "hint.png")


def test_no_hint_button_with_a_person_at_the_table(people: Browsers, live_server: Any) -> None:
    alice, bob = register("alice"), register("bob")
    table = services.table_create(creator=alice, game="pacru", players=2, rated=False)
    services.seat_join(table_id=table.pk, player=bob)
    page = open_as(people, "alice", "desktop")
    page.goto(f"{live_server.url}/tables/{table.pk}/")
    expect(page.locator("#strip-bottom")).to_contain_text("Alice")  # the page has drawn the table
    expect(page.locator("#hint")).to_have_count(0)


@pytest.mark.parametrize("size", SIZES)
def test_the_explorer_lists_the_moves_played_on_a_finished_games_review(
    people: Browsers, live_server: Any, artifacts: Path, size: str
) -> None:
    alice, bob = register("alice"), register("bob")
    finished = []
    for first, loser in (("e1-e2", bob), ("e1-e2", alice), ("i3-h3", bob)):
        table = services.table_create(creator=alice, game="shacru", players=2, rated=False)
        services.seat_join(table_id=table.pk, player=bob)
        services.move_submit(table_id=table.pk, player=alice, ply=0, move=first)
        finished.append(services.game_resign(table_id=table.pk, player=loser))
    for table in finished:
        explorer.index_table(table_id=table.pk)  # done already by the task after the game: once only
    page = open_as(people, "bob", size)
    page.goto(f"{live_server.url}/tables/{finished[0].pk}/")
    panel = page.locator("#explorer")
    expect(panel).to_contain_text("The game ended here")
    page.locator("#nav-first").click()
    rows = page.locator("#explorer-moves tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("e1-e2")
    expect(rows.nth(0)).to_contain_text("50%")  # won one of two
    expect(rows.nth(1)).to_contain_text("i3-h3")
    page.locator(".explorer-move", has_text="i3-h3").click()
    expect(page.locator("#overlay .explorer-arrow")).to_have_attribute("data-move", "i3-h3")
    expect(page.locator(".explorer-move", has_text="i3-h3")).to_have_attribute("aria-pressed", "true")
    shot = shoot(page, artifacts, "explorer", size)
    if size == "desktop":
        for_docs(shot, "explorer-review.png")
    # Back to the end of the game: the panel says so, and the arrow of another position is gone.
    page.locator("#nav-last").click()
    expect(panel).to_contain_text("The game ended here")
    expect(page.locator("#overlay .explorer-arrow")).to_have_count(0)


@pytest.mark.parametrize("size", SIZES)
def test_the_walkthroughs_coach_offers_the_hint_where_the_player_picks_a_chevron(
    people: Browsers, live_server: Any, artifacts: Path, settings: Any, size: str
) -> None:
    settings.GUEST_PLAY = True
    page = people.open(
        viewport=SIZES[size], **({"is_mobile": True, "has_touch": True} if size == "phone" else {})
    )
    page.goto(live_server.url + "/learn/")
    page.locator("#learn-start").click()
    expect(page.locator("#coach")).to_have_attribute("data-step", "board")
    expect(page.locator("#coach-hint")).to_be_hidden()  # beside Next: the coach only explains here
    expect(page.locator("#hint")).to_be_hidden()  # no second button while the coach is open
    page.locator("#coach-next").click()
    expect(page.locator("#coach")).to_have_attribute("data-step", "pick")
    page.locator("#coach-hint").click()
    arrow = page.locator("#overlay .hint-arrow")
    expect(arrow).to_have_count(1)
    move = arrow.get_attribute("data-move")
    assert move
    expect(page.locator("#coach #hint-words")).to_contain_text(move.split("(")[0])
    shoot(page, artifacts, "hint-coach", size)
