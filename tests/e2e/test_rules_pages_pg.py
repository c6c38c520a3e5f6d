"""The rules pages in a real Chromium, wide and narrow: a reader plays an example move by clicking
the chevron and then its destination, and sees the engine's position after it; the page never
scrolls sideways."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import Browsers, for_docs

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
]

SIZES = {"1280x900": {"width": 1280, "height": 900}, "390x844": {"width": 390, "height": 844}}
#: The diagram each page's test plays, and the field the move leaves, the field it reaches and a
#: field the engine's after-position changes.
EXAMPLES = {
    "shacru": ("shacru-board", "a3", "b3", "b3"),
    "azacru": ("azacru-connect", "c3", "e3", "d3"),
    "pacru": ("pincer", "e3", "e5", "d6"),
}


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game", list(EXAMPLES))
def test_play_an_example_move_on_each_rules_page(
    people: Browsers, live_server: Any, artifacts: Path, game: str, size: str
) -> None:
    page = people.open(viewport=SIZES[size])
    page.goto(f"{live_server.url}/rules/{game}/")
    expect(page.get_by_role("link", name="Rules", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="Try it against the random bot")).to_be_visible()
    # Every diagram is drawn: 81 fields each.
    figures = page.locator("figure.diagram")
    assert figures.count() >= 6
    assert page.locator("figure.diagram .cell").count() == 81 * figures.count()

    key, frm, to, changed = EXAMPLES[game]
    fig = page.locator(f"#d-{key}")
    fig.scroll_into_view_if_needed()
    expect(fig.locator(".after-text")).to_be_hidden()
    expect(fig.locator(f'[data-cell="{frm}"] .chevron')).to_have_count(1)
    fig.locator(f'[data-cell="{frm}"]').click()
    expect(fig.locator(f'[data-cell="{to}"] .target')).to_have_count(1)
    fig.locator(f'[data-cell="{to}"]').click()
    # The position after the move, as the engine computed it.
    expect(fig.locator(".after-text")).to_be_visible()
    expect(fig.locator(".status")).to_contain_text("to move")
    expect(fig.locator(f'[data-cell="{frm}"] .chevron')).to_have_count(0)
    expect(fig.locator(f'[data-cell="{to}"] .chevron')).to_have_count(1)
    expect(fig.locator(f'[data-cell="{changed}"] .changed')).to_have_count(1)
    expect(fig.locator(f'[data-cell="{changed}"] .marker')).to_have_count(1)
    page.screenshot(path=str(artifacts / f"rules-{game}-{size}.png"))
    if (game, size) == ("pacru", "1280x900"):
        for_docs(artifacts / "rules-pacru-1280x900.png", "rules-pacru.png")

    # The button takes the diagram back, and plays it again.
    fig.locator("button.play").click()
    expect(fig.locator(f'[data-cell="{frm}"] .chevron')).to_have_count(1)
    fig.locator("button.play").click()
    expect(fig.locator(".after-text")).to_be_visible()

    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_examples_without_a_destination_play_from_the_chevron_or_the_button(
    people: Browsers, live_server: Any
) -> None:
    page = people.open()
    page.goto(f"{live_server.url}/rules/pacru/")
    # A reorientation has no destination: clicking the chevron plays it.
    fig = page.locator("#d-reorient")
    expect(fig.locator('[data-cell="e5"] .chevron')).to_have_attribute("data-facing", "N")
    fig.locator('[data-cell="e5"]').click()
    expect(fig.locator('[data-cell="e5"] .chevron')).to_have_attribute("data-facing", "W")
    expect(fig.locator(".marker")).to_have_count(1)  # four of the five markers were paid
    # A blocked player goes out: the engine's verdict is shown under the board.
    fig = page.locator("#d-blocked")
    fig.locator("button.play").click()
    expect(fig.locator(".status")).to_contain_text("Black cannot move and is out. Yellow to move.")
    expect(fig.locator('.chevron[data-seat="2"]')).to_have_count(0)
    page.goto(f"{live_server.url}/rules/shacru/")
    fig = page.locator("#d-shacru-pass")
    fig.locator("button.play").click()
    expect(fig.locator(".status")).to_contain_text("Black to move")
    fig.locator("button.play").click()
    expect(fig.locator(".before-text")).to_be_visible()
