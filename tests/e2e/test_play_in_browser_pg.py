"""People play through the web pages in a real browser: lobby, table start, moves by clicking
(with a border-field choice and a reorientation), typed notation, live updates, resignation,
and a table where a bot answers through a real Celery worker."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from games import services
from games.models import Move, Player, Table
from tests.celery_worker import Celery

from .conftest import PASSWORD, Browsers, for_docs

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def register(username: str) -> Player:
    return services.player_register(username=username, password=PASSWORD, display_name=username.title())


def click(page: Page, cell: str) -> None:
    page.locator(f'#board [data-cell="{cell}"]').click()


def actions(table_id: int) -> list[str]:
    return [m.action for m in Move.objects.filter(table_id=table_id).order_by("seq")]


def open_table_from_lobby(page: Page, **choices: str) -> int:
    """Fill the lobby's form (field name -> option value), open the table, return its id."""
    for field, value in choices.items():
        page.select_option(f"#id_{field}", value)
    page.get_by_role("button", name="Open table").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    match = re.search(r"/tables/(\d+)/$", page.url)
    assert match, page.url
    return int(match.group(1))


def test_two_people_play_pacru_by_clicking_and_see_each_other_live(
    people: Browsers, live_server: Any, artifacts: Path
) -> None:
    register("alice")
    register("bob")
    alice = people.open("alice")
    bob = people.open("bob")

    # Bob is in the lobby before the table exists: it appears there without a reload.
    bob.goto(live_server.url + "/")
    bob.evaluate("window.__stayed = true")

    alice.goto(live_server.url + "/")
    table_id = open_table_from_lobby(alice, game="pacru", players="2", time_control="rapid")
    expect(alice.locator("#wait-h")).to_contain_text("Waiting for players (1/2)")

    join = bob.get_by_role("button", name="Join the Pacru table of Alice")
    expect(join).to_be_visible()
    assert bob.evaluate("window.__stayed") is True, "the lobby reloaded instead of updating"
    bob.screenshot(path=str(artifacts / "lobby.png"), full_page=True)
    join.click()
    bob.wait_for_url(f"{live_server.url}/tables/{table_id}/")

    # Alice's waiting page turns into the game by itself.
    expect(alice.locator("#status")).to_contain_text("Your turn. First move within 1:5")
    expect(bob.locator("#status")).to_contain_text("Alice to move")
    for page in (alice, bob):
        page.evaluate("window.__stayed = true")
    expect(alice.locator('.clock[data-seat="1"]')).to_have_text("10:00")  # stands still until the first move

    # 1. a3-b4 crosses into borderland b5: Alice must choose the field for her marker.
    expect(alice.locator("#board .target")).to_have_count(0)
    click(alice, "a3")
    expect(alice.locator('#board [data-cell="b4"] .target')).to_have_count(1)
    click(alice, "h5")  # not a destination: the selection is dropped, nothing is sent
    expect(alice.locator("#board .selected")).to_have_count(0)
    assert actions(table_id) == []
    click(alice, "a3")
    click(alice, "b4")
    expect(alice.locator("#prompt")).to_contain_text("choose a highlighted field for your marker")
    expect(alice.locator("#board .choice")).to_have_count(9)  # the nine free fields of b5
    click(alice, "c5")
    expect(alice.locator("#prompt")).to_have_text("Play a3-b4(c5)?")
    alice.locator("#confirm").click()
    expect(bob.locator("#movelist")).to_contain_text("a3-b4(c5)")
    expect(bob.locator("#status")).to_have_text("Your turn.")
    expect(bob.locator('.clock[data-seat="2"]')).to_have_text(re.compile(r"^(10:00|9:5\d)$"))  # running

    # 2. Bob answers by clicking; Alice sees it arrive.
    click(bob, "a7")
    click(bob, "b7")
    bob.locator("#confirm").click()
    expect(alice.locator("#movelist")).to_contain_text("a7-b7")

    # 3. Alice types notation: an illegal move is explained and changes nothing, then a legal one.
    alice.fill("#notation", "e1-e5")
    alice.press("#notation", "Enter")
    expect(alice.locator("#error")).to_contain_text("e1-e5")
    assert actions(table_id) == ["a3-b4(c5)", "a7-b7"]
    alice.fill("#notation", "i3-h4(g5)")
    alice.press("#notation", "Enter")
    expect(bob.locator("#movelist")).to_contain_text("i3-h4(g5)")

    # 4. Bob again.
    click(bob, "e9")
    click(bob, "e8")
    bob.locator("#confirm").click()
    expect(alice.locator("#status")).to_have_text("Your turn.")

    # 5. Alice reorients e1 (N) 45° clockwise, paying with her markers on c5 and g5.
    click(alice, "e1")
    click(alice, "e1")
    expect(alice.locator("#prompt")).to_contain_text("Turn the chevron on e1 (facing N)")
    alice.locator('[data-turn=">"]').click()
    expect(alice.locator("#board .choice")).to_have_count(2)
    click(alice, "c5")
    click(alice, "g5")
    expect(alice.locator("#prompt")).to_have_text("Play e1>(c5,g5)?")
    alice.locator("#confirm").click()
    expect(bob.locator("#movelist")).to_contain_text("e1>(c5,g5)")
    expect(bob.locator('#board [data-cell="e1"]')).to_have_attribute(
        "aria-label", re.compile("red chevron facing NE")
    )
    assert actions(table_id) == ["a3-b4(c5)", "a7-b7", "i3-h4(g5)", "e9-e8", "e1>(c5,g5)"]
    alice.screenshot(path=str(artifacts / "game-in-progress.png"), full_page=True)
    for_docs(artifacts / "game-in-progress.png", "game-in-progress.png")

    # Stepping back through the game shows the earlier positions.
    bob.locator("#nav-first").click()
    expect(bob.locator("#board .chevron")).to_have_count(8)
    expect(bob.locator('#board [data-cell="a3"]')).to_have_attribute("aria-label", re.compile("red chevron"))
    bob.locator("#nav-last").click()
    expect(bob.locator('#board [data-cell="a3"]')).to_have_attribute("aria-label", "a3, neutral")

    # Bob resigns; both see the result.
    bob.locator("#resign").click()
    bob.locator("#resign-yes").click()
    for page in (alice, bob):
        expect(page.locator("#result")).to_contain_text("Game over: Alice wins")
        assert page.evaluate("window.__stayed") is True, "the game page reloaded"
    table = Table.objects.get(pk=table_id)
    assert table.status == "finished" and table.winner_seat == 1
    assert actions(table_id)[-1] == "resign 2"
    bob.screenshot(path=str(artifacts / "game-finished.png"), full_page=True)


def test_a_bot_seat_answers_through_the_celery_worker(
    people: Browsers, live_server: Any, celery: Celery, artifacts: Path
) -> None:
    celery.start()
    celery.wait_ready()
    register("alice")
    register("bob")
    alice = people.open("alice")
    bob = people.open("bob")

    table_id = open_table_from_lobby(alice, game="pacru", players="3", bot="2", bots="1")
    expect(alice.locator("#wait-h")).to_contain_text("(2/3)")

    bob.goto(f"{live_server.url}/tables/{table_id}/")
    bob.locator("#join").click()
    expect(bob.locator("#status")).to_contain_text("Alice to move")
    expect(alice.locator("#status")).to_have_text("Your turn.")
    expect(alice.locator("#seats")).to_contain_text("Bot level 2 (bot)")

    click(alice, "g1")
    click(alice, "g2")
    alice.locator("#confirm").click()
    # Seat 2 is the bot: the worker computes and submits its move; both pages show it.
    for page in (alice, bob):
        expect(page.locator("#movelist li")).to_have_count(2, timeout=20_000)
    expect(bob.locator("#status")).to_have_text("Your turn.")
    moves = list(Move.objects.filter(table_id=table_id).order_by("seq").values_list("seat", "notation"))
    assert moves[0] == (1, "g1-g2") and moves[1][0] == 2
    assert Table.objects.get(pk=table_id).bot_seats == [2]
    alice.screenshot(path=str(artifacts / "three-players-with-bot.png"), full_page=True)


def test_shacru_twists_keyboard_play_and_a_spectator(people: Browsers, live_server: Any) -> None:
    alice_p, bob_p = register("alice"), register("bob")
    table = services.table_create(creator=alice_p, game="shacru", players=2)
    services.seat_join(table_id=table.pk, player=bob_p)
    url = f"{live_server.url}/tables/{table.pk}/"
    alice = people.open("alice")
    bob = people.open("bob")
    watcher = people.open()  # not logged in: anyone may watch a public game
    for page in (alice, bob, watcher):
        page.goto(url)
    expect(watcher.locator(".sub")).to_contain_text("spectating")
    expect(watcher.locator("#notation")).to_have_count(0)

    # a3-b4 crosses a border: Shacru asks for the twist.
    click(alice, "a3")
    click(alice, "b4")
    expect(alice.locator("#prompt")).to_have_text("a3-b4 crosses a border: choose the new facing.")
    expect(alice.locator("[data-twist]")).to_have_count(3)
    alice.locator('[data-twist=">"]').click()
    alice.locator("#confirm").click()
    expect(watcher.locator("#movelist")).to_contain_text("a3-b4>")
    expect(watcher.locator('#board [data-cell="b4"]')).to_have_attribute(
        "aria-label",
        re.compile("red chevron facing E"),  # moved NE, then 45° clockwise
    )

    # Bob plays with the keyboard only: Tab to the board, arrows, Enter, Enter to confirm.
    expect(bob.locator("#status")).to_have_text("Your turn.")
    bob.locator('#board [tabindex="0"]').focus()  # the roving focus starts on e5
    # Bob's board is turned round (his home edge, rank 9, at the bottom): the arrows go as drawn.
    for key in ["ArrowRight"] * 4 + ["ArrowDown"] * 2 + ["Enter", "ArrowLeft", "Enter"]:
        bob.keyboard.press(key)
    expect(bob.locator("#prompt")).to_have_text("Play a7-b7?")
    bob.keyboard.press("Enter")
    expect(watcher.locator("#movelist")).to_contain_text("a7-b7")
    expect(alice.locator("#status")).to_have_text("Your turn.")
    assert actions(table.pk) == ["a3-b4>", "a7-b7"]

    # The spectator's connection drops: the page says so, and catches up once it is back.
    watcher.context.set_offline(True)
    expect(watcher.locator("#status")).to_have_attribute("data-offline", re.compile("reconnecting"))
    click(alice, "e1")
    click(alice, "e2")
    alice.locator("#confirm").click()
    expect(alice.locator("#movelist")).to_contain_text("e1-e2")
    expect(watcher.locator("#movelist")).not_to_contain_text("e1-e2")
    watcher.context.set_offline(False)
    expect(watcher.locator("#movelist")).to_contain_text("e1-e2", timeout=15_000)
    expect(watcher.locator("#status")).not_to_have_attribute("data-offline", re.compile("."))


def test_the_game_page_on_a_phone(people: Browsers, live_server: Any, artifacts: Path) -> None:
    alice_p = register("alice")
    table = services.table_create(creator=alice_p, game="pacru", players=2, rated=False)
    services.bot_invite(table_id=table.pk, player=alice_p, level="random")
    phone = people.open("alice", viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    phone.goto(f"{live_server.url}/tables/{table.pk}/")
    expect(phone.locator("#status")).to_contain_text("Your turn")
    phone.locator('#board [data-cell="e1"]').tap()
    phone.locator('#board [data-cell="e2"]').tap()
    phone.locator("#confirm").tap()
    expect(phone.locator("#movelist")).to_contain_text("e1-e2")
    board = phone.locator("#board").bounding_box()
    assert board is not None and board["width"] <= 390 and board["width"] > 330, board
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways on a phone ({width} px)"
    phone.screenshot(path=str(artifacts / "phone.png"), full_page=True)
