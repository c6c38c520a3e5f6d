"""A newcomer's first game in a real browser: /learn/, Start, and the coach panel following the
first move (suggested chevron, destination, border marker, Confirm) and the random bot's answer
(the in-process bot runner plays its turn), at desktop and phone sizes.

The coach stays inside the window at every step (beside the board on a laptop, docked at the
bottom of a phone's window) without covering what the step asks the player to tap, and a step that
asks for something has no Next: it moves on when the player does it, and back when they cancel."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from games.botplay import run_bot_turns
from games.models import Move, Table

from .conftest import Browsers, for_docs

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


def open_page(people: Browsers, size: str) -> Page:
    if size == "phone":
        return people.open(viewport=SIZES[size], is_mobile=True, has_touch=True)
    return people.open(viewport=SIZES[size])


def box(page: Page, selector: str) -> dict[str, float]:
    b = page.locator(selector).first.bounding_box()
    assert b, f"{selector} has no box"
    return b


def apart(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def inside_window(page: Page, selector: str) -> None:
    b, size = box(page, selector), page.viewport_size
    assert size is not None
    assert b["y"] >= 0 and b["y"] + b["height"] <= size["height"] + 0.5, (selector, b, size)
    assert b["x"] >= 0 and b["x"] + b["width"] <= size["width"] + 0.5, (selector, b, size)


def at_step(page: Page, step: str, title: str, *, explains: bool) -> None:
    """The coach shows ``step``, inside the window; Next only on a step that just explains."""
    expect(page.locator("#coach")).to_have_attribute("data-step", step)
    expect(page.locator("#coach-h")).to_have_text(title)
    inside_window(page, "#coach")
    if explains:
        expect(page.locator("#coach-next")).to_be_visible()
        expect(page.locator("#coach-wait")).to_be_hidden()
    else:
        expect(page.locator("#coach-next")).to_be_hidden()
        expect(page.locator("#coach-wait")).to_be_visible()


def uncovered(page: Page, selector: str) -> None:
    """What the step asks the player to tap is in the window and not under the coach."""
    inside_window(page, selector)
    assert apart(box(page, "#coach"), box(page, selector)), f"the coach covers {selector}"


@pytest.mark.parametrize("size", SIZES)
def test_a_newcomer_plays_a_first_move_with_the_coach(
    people: Browsers, live_server: Any, artifacts: Path, settings: Any, size: str
) -> None:
    settings.GUEST_PLAY = True
    page = open_page(people, size)
    page.goto(live_server.url + "/learn/")
    expect(page.locator("h1")).to_have_text("Your first game of Pacru")
    page.screenshot(path=str(artifacts / f"walkthrough-learn-{size}.png"), full_page=True)
    page.locator("#learn-start").click()
    page.wait_for_url(re.compile(r"/tables/\d+/\?coach=1$"))
    table_id = int(re.search(r"/tables/(\d+)/", page.url).group(1))  # type: ignore[union-attr]
    table = Table.objects.get(pk=table_id)
    assert table.game == "pacru" and table.bot_seats == [2] and not table.rated

    expect(page.locator("#status")).to_have_text("Your turn.")
    at_step(page, "board", "The board", explains=True)
    suggested = page.locator("#board .coach-suggest")
    expect(suggested).to_have_count(1)
    page.screenshot(path=str(artifacts / f"walkthrough-board-{size}.png"))
    page.locator("#coach-next").click()

    # Pick: no Next; a click on an empty field is not the action, so the coach stays.
    at_step(page, "pick", "Pick a chevron", explains=False)
    start = suggested.get_attribute("data-cell")
    assert start and start in page.locator("#coach-body").inner_text()
    uncovered(page, f'#board [data-cell="{start}"]')
    page.locator('#board [data-cell="e5"]').click()
    at_step(page, "pick", "Pick a chevron", explains=False)
    page.screenshot(path=str(artifacts / f"walkthrough-pick-{size}.png"))
    suggested.click()

    # Destination: the coach rings it; Cancel takes the coach back to picking.
    at_step(page, "dest", "Choose where it goes", explains=False)
    expect(page.locator("#prompt")).to_have_text(f"{start}: choose a highlighted destination.")
    dest = re.search(r"one on (\w\d)", page.locator("#coach-body").inner_text()).group(1)  # type: ignore[union-attr]
    expect(page.locator(f'#board [data-cell="{dest}"]')).to_have_class(re.compile("coach-suggest"))
    uncovered(page, f'#board [data-cell="{dest}"]')
    page.locator("#options button", has_text="Cancel").click()
    at_step(page, "pick", "Pick a chevron", explains=False)
    page.locator(f'#board [data-cell="{start}"]').click()
    at_step(page, "dest", "Choose where it goes", explains=False)
    page.screenshot(path=str(artifacts / f"walkthrough-dest-{size}.png"))
    page.locator(f'#board [data-cell="{dest}"]').click()

    # A crossing: the coach explains markers, and we pick a field for ours.
    if page.locator("#board .choice").count():
        at_step(page, "border", "Crossing into a borderland", explains=False)
        uncovered(page, "#board .choice >> xpath=..")
        page.screenshot(path=str(artifacts / f"walkthrough-border-{size}.png"))
        if size == "desktop":
            for_docs(artifacts / "walkthrough-border-desktop.png", "walkthrough.png")
        page.locator("#board .choice").first.locator("xpath=..").click()

    # Confirm: the coach waits for the button, which it does not cover.
    expect(page.locator("#confirm")).to_be_visible()
    at_step(page, "confirm", "Confirm the move", explains=False)
    for sel in ("#prompt", "#confirm"):
        uncovered(page, sel)
    page.screenshot(path=str(artifacts / f"walkthrough-confirm-{size}.png"))
    page.locator("#confirm").click()

    # The random bot answers through the in-process runner (what `manage.py clock_sweeper --bots`
    # runs every second without a broker); the coach waits for it, then explains power and markers.
    expect(page.locator("#movelist li")).to_have_count(1)
    at_step(page, "answer", "The bot's turn", explains=False)
    assert run_bot_turns() >= 1
    expect(page.locator("#movelist li")).to_have_count(2, timeout=20_000)
    at_step(page, "power", "Power and markers", explains=True)
    expect(page.locator("#status")).to_have_text("Your turn.")
    moves = list(Move.objects.filter(table_id=table_id).order_by("seq").values_list("seat", "notation"))
    assert moves[0][0] == 1 and moves[0][1].startswith(f"{start}-{dest}") and moves[1][0] == 2
    uncovered(page, "#prompt")
    page.screenshot(path=str(artifacts / f"walkthrough-power-{size}.png"))

    page.locator("#coach-next").click()
    at_step(page, "more", "More to discover", explains=True)
    expect(page.locator("#coach-body a[href='/rules/pacru/']")).to_be_visible()
    page.locator("#coach-next").click()
    at_step(page, "win", "How the game is won", explains=True)
    page.locator("#coach-next").click()
    expect(page.locator("#coach-h")).to_have_text("You're on your own now")
    inside_window(page, "#coach")
    expect(page.locator("#coach-next")).to_be_hidden()
    page.screenshot(path=str(artifacts / f"walkthrough-done-{size}.png"))
    page.locator("#coach-close").click()
    expect(page.locator("#coach")).to_be_hidden()


def test_acting_ahead_moves_the_coach_on_skip_ends_it_and_a_plain_table_has_none(
    people: Browsers, live_server: Any, settings: Any
) -> None:
    settings.GUEST_PLAY = True
    page = people.open()
    page.goto(live_server.url + "/learn/")
    page.locator("#learn-start").click()
    page.wait_for_url(re.compile(r"\?coach=1$"))
    at_step(page, "board", "The board", explains=True)
    # Picking a chevron while the board is explained: the coach follows to the destination.
    page.locator("#board .coach-suggest").click()
    at_step(page, "dest", "Choose where it goes", explains=False)
    page.locator("#coach-skip").click()
    expect(page.locator("#coach-h")).to_have_text("You're on your own now")
    page.goto(page.url.split("?")[0])
    expect(page.locator("#status")).to_have_text("Your turn.")
    expect(page.locator("#coach")).to_have_count(0)
