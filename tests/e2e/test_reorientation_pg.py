"""Reorienting a chevron on the game page (RULES 6.4: 45° costs 2 markers, 90° costs 4, the
player chooses which): a click on the field beside the chevron turns it that way with a suggested
payment, so a 90° turn takes 3 clicks instead of the 8 of buttons and one click per marker; and the
markers paid are crossed out, named in a legend and read out at Confirm, however they were chosen.
Counted clicks are the player's clicks on the page, at laptop and phone sizes."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from games import services
from games.models import Player, Table
from tests.engine.positions import paint, position

from .conftest import PASSWORD, Browsers

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


class Clicker:
    """A page and the number of clicks made on it."""

    def __init__(self, page: Page):
        self.page = page
        self.clicks = 0

    def cell(self, cell: str) -> None:
        self.page.locator(f'#board [data-cell="{cell}"]').click()
        self.clicks += 1

    def button(self, selector: str) -> None:
        self.page.locator(selector).click()
        self.clicks += 1


def register(username: str) -> Player:
    return services.player_register(username=username, password=PASSWORD, display_name=username.title())


def turning_table(alice_p: Player, bob_p: Player) -> Table:
    """Alice's e4 faces N in the centre borderland, where she has four markers (power 4); three
    more of hers lie in a1's borderland, where no chevron of hers stands (losing them costs no
    power)."""
    doc = position("pacru", 2, markers=paint(1, "a1 b1 c1 d5 d6 f5 f6"), chevrons=["e4:1:N", "a9:2:S"])
    table = services.table_create(creator=alice_p, game="pacru", players=2, rated=False)
    services.seat_join(table_id=table.pk, player=bob_p)
    Table.objects.filter(pk=table.pk).update(position=doc, initial_position=doc)
    return Table.objects.get(pk=table.pk)


def open_table(people: Browsers, live_server: Any, table: Table, size: str) -> Clicker:
    extra = {"is_mobile": True, "has_touch": True} if size == "phone" else {}
    page = people.open("alice", viewport=SIZES[size], **extra)
    page.goto(f"{live_server.url}/tables/{table.pk}/")
    expect(page.locator("#status")).to_have_text("Your turn.")
    return Clicker(page)


def paid_cells(page: Page) -> set[str]:
    paid = page.locator("#board [data-cell]:has(.paid)")
    return set(paid.evaluate_all("gs => gs.map(g => g.dataset.cell)"))


def notations(table: Table) -> list[str]:
    return list(table.moves.values_list("notation", flat=True))


@pytest.mark.parametrize("size", SIZES)
def test_a_90_degree_turn_in_three_clicks_with_the_payment_highlighted(
    people: Browsers, live_server: Any, artifacts: Path, size: str
) -> None:
    alice_p, bob_p = register("alice"), register("bob")
    table = turning_table(alice_p, bob_p)
    alice = open_table(people, live_server, table, size)
    page = alice.page

    # Picked, the chevron shows the fields beside it that turn it 90° (not destinations).
    alice.cell("e4")
    expect(page.locator("#board .turn-target")).to_have_count(2)
    expect(page.locator('#board [data-cell="f4"] .turn-target')).to_have_attribute("data-turn-to", ">>")
    expect(page.locator('#board [data-cell="d4"] .turn-target')).to_have_attribute("data-turn-to", "<<")
    expect(page.locator('#board [data-cell="f4"]')).to_have_attribute(
        "aria-label", re.compile("turns the chevron to face E \\(4 markers\\)")
    )
    expect(page.locator("#prompt")).to_contain_text("click a ↻ field beside it")
    page.screenshot(path=str(artifacts / f"reorient-targets-{size}.png"))

    # The field to the east: turned 90° right, paid with the markers its chevrons miss least (the
    # three in a1's borderland, one of the four beside it); crossed out, in the legend, read out.
    alice.cell("f4")
    expect(page.locator("#prompt")).to_have_text("Play e4>>(a1,b1,c1,d5)?")
    assert paid_cells(page) == {"a1", "b1", "c1", "d5"}
    expect(page.locator("#paid-legend")).to_contain_text("Paid with a1, b1, c1, d5 (crossed out in red)")
    expect(page.locator('#board [data-cell="a1"]')).to_have_attribute("aria-label", re.compile("paid"))
    page.screenshot(path=str(artifacts / f"reorient-confirm-{size}.png"))
    alice.button("#confirm")
    expect(page.locator("#movelist li")).to_have_count(1)
    assert notations(table) == ["e4>>(a1,b1,c1,d5)"]
    assert alice.clicks == 3
    expect(page.locator('#board [data-cell="e4"]')).to_have_attribute("aria-label", re.compile("facing E"))


@pytest.mark.parametrize("size", SIZES)
def test_a_payment_of_ones_own_is_highlighted_at_confirm(
    people: Browsers, live_server: Any, artifacts: Path, size: str
) -> None:
    alice_p, bob_p = register("alice"), register("bob")
    table = turning_table(alice_p, bob_p)
    alice = open_table(people, live_server, table, size)
    page = alice.page

    # The long way (8 clicks, as before): the chevron twice, the 90° button, four markers, Confirm.
    alice.cell("e4")
    alice.cell("e4")
    alice.button('[data-turn="<<"]')
    expect(page.locator("#paid-legend")).to_be_visible()
    # A click on a marker replaces the suggestion with the player's own choice.
    for cell in ("f6", "a1", "b1", "c1"):
        alice.cell(cell)
    expect(page.locator("#prompt")).to_have_text("Play e4<<(a1,b1,c1,f6)?")
    assert paid_cells(page) == {"a1", "b1", "c1", "f6"}
    expect(page.locator("#paid-legend")).to_contain_text("Paid with a1, b1, c1, f6")
    expect(page.locator('#board [data-cell="f6"]')).to_have_attribute("aria-label", re.compile("paid"))
    expect(page.locator('#board [data-cell="d5"]')).not_to_have_attribute("aria-label", re.compile("paid"))
    page.screenshot(path=str(artifacts / f"reorient-own-confirm-{size}.png"))
    alice.button("#confirm")
    expect(page.locator("#movelist li")).to_have_count(1)
    assert notations(table) == ["e4<<(a1,b1,c1,f6)"]
    assert alice.clicks == 8


def test_a_45_degree_turn_from_the_turning_step_by_a_field_beside_it(
    people: Browsers, live_server: Any
) -> None:
    alice_p, bob_p = register("alice"), register("bob")
    table = turning_table(alice_p, bob_p)
    alice = open_table(people, live_server, table, "desktop")
    # Clicked twice, the chevron offers all four turns beside it, the 45° ones (destinations
    # otherwise) too.
    alice.cell("e4")
    alice.cell("e4")
    expect(alice.page.locator("#board .turn-target")).to_have_count(4)
    alice.cell("d5")
    expect(alice.page.locator("#prompt")).to_have_text("Play e4<(a1,b1)?")
    alice.button("#confirm")
    expect(alice.page.locator("#movelist li")).to_have_count(1)
    assert notations(table) == ["e4<(a1,b1)"]
    assert alice.clicks == 4
