"""A newcomer's first game in a real browser: /learn/, Start, and the coach panel following the
first move (suggested chevron, destination, border marker, Confirm) and the random bot's answer
(the in-process bot runner plays its turn), at desktop and phone sizes."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from games.botplay import run_bot_turns
from games.models import Move, Table

from .conftest import Browsers

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


def box(page: Page, selector: str) -> dict[str, float]:
    b = page.locator(selector).bounding_box()
    assert b, f"{selector} has no box"
    return b


def apart(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


@pytest.mark.parametrize("size", SIZES)
def test_a_newcomer_plays_a_first_move_with_the_coach(
    people: Browsers, live_server: Any, artifacts: Path, settings: Any, size: str
) -> None:
    settings.GUEST_PLAY = True
    page = people.open(viewport=SIZES[size])
    page.goto(live_server.url + "/learn/")
    expect(page.locator("h1")).to_have_text("Your first game of Pacru")
    page.screenshot(path=str(artifacts / f"walkthrough-learn-{size}.png"), full_page=True)
    page.locator("#learn-start").click()
    page.wait_for_url(re.compile(r"/tables/\d+/\?coach=1$"))
    table_id = int(re.search(r"/tables/(\d+)/", page.url).group(1))  # type: ignore[union-attr]
    table = Table.objects.get(pk=table_id)
    assert table.game == "pacru" and table.bot_seats == [2] and not table.rated

    coach = page.locator("#coach")
    expect(coach).to_be_visible()
    expect(page.locator("#coach-h")).to_have_text("The board")
    expect(page.locator("#status")).to_have_text("Your turn.")
    page.screenshot(path=str(artifacts / f"walkthrough-board-{size}.png"), full_page=True)
    page.locator("#coach-next").click()
    expect(page.locator("#coach-h")).to_have_text("Pick a chevron")

    # The coach rings a chevron of ours; clicking it and then the suggested destination.
    suggested = page.locator("#board .coach-suggest")
    expect(suggested).to_have_count(1)
    start = suggested.get_attribute("data-cell")
    body = page.locator("#coach-body").inner_text()
    dest = re.search(r"dot on (\w\d)", body).group(1)  # type: ignore[union-attr]
    suggested.click()
    expect(page.locator("#prompt")).to_have_text(f"{start}: choose a highlighted destination.")
    expect(page.locator(f'#board [data-cell="{dest}"]')).to_have_class(re.compile("coach-suggest"))
    page.locator(f'#board [data-cell="{dest}"]').click()

    # A crossing: the coach explains markers, and we pick a field for ours.
    if page.locator("#board .choice").count():
        expect(page.locator("#coach-h")).to_have_text("Crossing into a borderland")
        page.screenshot(path=str(artifacts / f"walkthrough-border-{size}.png"), full_page=True)
        page.locator("#board .choice").first.locator("xpath=..").click()

    expect(page.locator("#confirm")).to_be_visible()
    expect(page.locator("#coach-h")).to_have_text("Confirm the move")
    for sel in ("#prompt", "#confirm"):
        assert apart(box(page, "#coach"), box(page, sel)), f"the coach covers {sel} at {size}"
    page.screenshot(path=str(artifacts / f"walkthrough-confirm-{size}.png"), full_page=True)
    page.locator("#confirm").click()

    # The random bot answers through the in-process runner (what `manage.py clock_sweeper --bots`
    # runs every second without a broker); the coach moves on to power and markers.
    expect(page.locator("#movelist li")).to_have_count(1)
    assert run_bot_turns() >= 1
    expect(page.locator("#movelist li")).to_have_count(2, timeout=20_000)
    expect(page.locator("#coach-h")).to_have_text("Power and markers")
    expect(page.locator("#status")).to_have_text("Your turn.")
    moves = list(Move.objects.filter(table_id=table_id).order_by("seq").values_list("seat", "notation"))
    assert moves[0][0] == 1 and moves[0][1].startswith(f"{start}-{dest}") and moves[1][0] == 2
    assert apart(box(page, "#coach"), box(page, "#prompt"))
    page.screenshot(path=str(artifacts / f"walkthrough-power-{size}.png"), full_page=True)

    page.locator("#coach-next").click()
    expect(page.locator("#coach-body a[href='/rules/pacru/']")).to_be_visible()
    page.locator("#coach-next").click()
    expect(page.locator("#coach-h")).to_have_text("How the game is won")
    page.locator("#coach-next").click()
    expect(page.locator("#coach-h")).to_have_text("You're on your own now")
    expect(page.locator("#coach-next")).to_be_hidden()
    page.screenshot(path=str(artifacts / f"walkthrough-done-{size}.png"), full_page=True)
    page.locator("#coach-close").click()
    expect(coach).to_be_hidden()


def test_skip_jumps_to_the_end_and_a_plain_table_page_has_no_coach(
    people: Browsers, live_server: Any, settings: Any
) -> None:
    settings.GUEST_PLAY = True
    page = people.open()
    page.goto(live_server.url + "/learn/")
    page.locator("#learn-start").click()
    page.wait_for_url(re.compile(r"\?coach=1$"))
    page.locator("#coach-skip").click()
    expect(page.locator("#coach-h")).to_have_text("You're on your own now")
    page.goto(page.url.split("?")[0])
    expect(page.locator("#status")).to_have_text("Your turn.")
    expect(page.locator("#coach")).to_have_count(0)
