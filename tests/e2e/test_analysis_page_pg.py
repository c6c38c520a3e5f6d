"""The game page's analysis in Chromium: on a finished game a player asks for the analysis, the
graph appears, the planted blunder is marked in the move list, and stepping to it draws the
engine's preferred move as an arrow on the board with the move in words (tasks run eagerly in the
live server: the request computes it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from analysis.models import Analysis
from games import services
from games.models import Player, Table
from tests.analysis.test_analysis import BLUNDER, PREFIX

from .conftest import PASSWORD, Browsers, for_docs, shoot

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def register(username: str) -> Player:
    return services.player_register(username=username, password=PASSWORD, display_name=username.title())


def blunder_game(one: Player, two: Player) -> Table:
    """Seat 1 walks a chevron into a pincer at action 35, then resigns."""
    actions = "\n".join([*PREFIX, BLUNDER, "resign 1"])
    text = f"Game: pacru\nPlayers: 2\nSeat1: {one.user.username}\nSeat2: {two.user.username}\n\n{actions}\n"
    return services.table_import_record(text=text, imported_by=one)


def test_request_analysis_see_the_graph_and_the_blunders_arrow(
    people: Browsers, live_server: Any, artifacts: Path
) -> None:
    alice, bob = register("alice"), register("bob")
    table = blunder_game(alice, bob)
    blunder_seq = len(PREFIX)
    page = people.open("alice")
    page.goto(f"{live_server.url}/tables/{table.pk}/")
    expect(page.locator("#analysis")).to_be_visible()
    expect(page.locator("#analysis-status")).to_contain_text("No analysis of this game yet")
    page.select_option("#analysis-depth", "3")
    page.get_by_role("button", name="Request analysis").click()
    expect(page.locator("#analysis-graph svg polyline.seat-line")).to_have_count(1)  # two players: one line
    expect(page.locator("#analysis-status")).to_contain_text("depth 3")
    analysis = Analysis.objects.get(table=table, depth=3)
    assert analysis.status == "done"
    blunder = analysis.plies[blunder_seq]
    assert blunder["action"] == BLUNDER and blunder["mark"] in ("mistake", "blunder")
    # The move list marks it; the graph has a dot for every marked move.
    marked = page.locator(f'#movelist button[data-seq="{blunder_seq}"] .an-mark')
    expect(marked).to_have_text("??" if blunder["mark"] == "blunder" else "?")
    marks = sum(1 for p in analysis.plies if p["mark"])
    expect(page.locator("#analysis-graph circle.mark")).to_have_count(marks)
    # Stepping to the blunder draws the engine's move on the board and says it in words.
    page.locator(f'#movelist button[data-seq="{blunder_seq}"]').click()
    arrow = page.locator("#overlay .analysis-arrow")
    expect(arrow).to_have_count(1)
    expect(arrow).to_have_attribute("data-move", blunder["best"])
    expect(page.locator("#analysis-best")).to_contain_text(f"Better: {blunder['best']}")
    expect(page.locator("#analysis-summary tbody tr")).to_have_count(2)
    for_docs(shoot(page, artifacts, "analysis", "desktop"), "game-analysis.png")
    # Another move without a mark: no arrow; the graph steps the board where it is clicked.
    page.locator('#movelist button[data-seq="0"]').click()
    expect(arrow).to_have_count(0 if not analysis.plies[0]["mark"] else 1)
    box = page.locator("#analysis-graph svg").bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] - 2, box["y"] + box["height"] / 2)
    expect(page.locator("#viewing")).to_be_hidden()  # the last action: the board is live again
    # A visitor on a phone sees the analysis already made, without asking.
    phone = people.open(None, viewport=PHONE, is_mobile=True, has_touch=True)
    phone.goto(f"{live_server.url}/tables/{table.pk}/")
    expect(phone.locator("#analysis-graph svg")).to_be_visible()
    expect(phone.locator("#analysis-request")).to_have_count(0)
    phone.locator(f'#movelist button[data-seq="{blunder_seq}"]').click()
    expect(phone.locator("#overlay .analysis-arrow")).to_have_count(1)
    shoot(phone, artifacts, "analysis", "phone")
