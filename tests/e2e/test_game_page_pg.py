"""The game page as a place to play: the prompt and Confirm stay in view at every step of a move
(on a laptop and on a phone), the board is turned to the viewer's home edge, chevrons show their
power, and the end of the game offers a rematch that the other player can join."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from games import selectors, services
from games.models import Player, Table

from .conftest import PASSWORD, Browsers, for_docs

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
SIZES = {"desktop": DESKTOP, "phone": PHONE}


def register(username: str) -> Player:
    return services.player_register(username=username, password=PASSWORD, display_name=username.title())


def open_as(people: Browsers, username: str, size: str) -> Page:
    if size == "phone":
        return people.open(username, viewport=PHONE, is_mobile=True, has_touch=True)
    return people.open(username, viewport=DESKTOP)


def click(page: Page, cell: str) -> None:
    page.locator(f'#board [data-cell="{cell}"]').click()


def assert_in_view(page: Page, selector: str) -> None:
    """The element is drawn inside the window as it stands (no scrolling needed)."""
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None, selector
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], (selector, box, size)
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], (selector, box, size)


def bottom_left_cell(page: Page) -> str:
    """The field drawn in the bottom-left corner of the board."""
    return page.evaluate(
        """() => {
            let best = null;
            for (const g of document.querySelectorAll('#board [data-cell]')) {
                const r = g.getBoundingClientRect();
                const lower = best && r.bottom > best.r.bottom + 1;
                const level = best && Math.abs(r.bottom - best.r.bottom) <= 1;
                if (!best || lower || (level && r.left < best.r.left)) best = {cell: g.dataset.cell, r};
            }
            return best.cell;
        }"""
    )


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_prompt_and_confirm_stay_in_view_for_every_choice(
    people: Browsers, live_server: Any, artifacts: Path, size: str
) -> None:
    alice_p, bob_p = register("alice"), register("bob")
    pacru = services.table_create(creator=alice_p, game="pacru", players=2)
    services.seat_join(table_id=pacru.pk, player=bob_p)
    alice = open_as(people, "alice", size)
    alice.goto(f"{live_server.url}/tables/{pacru.pk}/")
    expect(alice.locator("#status")).to_contain_text("Your turn")
    assert_in_view(alice, "#prompt")
    # Every chevron shows its power: at the start nobody has markers, so 1 each.
    expect(alice.locator("#board .power")).to_have_count(8)
    expect(alice.locator('#board [data-cell="a3"]')).to_have_attribute("aria-label", re.compile("power 1"))
    # Pointing at a chevron rings the fields it can reach.
    alice.locator('#board [data-cell="a3"]').hover()
    expect(alice.locator("#board .hint")).to_have_count(3)

    # A border crossing: the field for the marker is chosen, then confirmed; all in view.
    click(alice, "a3")
    assert_in_view(alice, "#prompt")
    click(alice, "b4")
    expect(alice.locator("#prompt")).to_contain_text("choose a highlighted field for your marker")
    assert_in_view(alice, "#prompt")
    alice.screenshot(path=str(artifacts / f"game-choice-field-{size}.png"))
    click(alice, "c5")
    expect(alice.locator("#prompt")).to_have_text("Play a3-b4(c5)?")
    assert_in_view(alice, "#prompt")
    assert_in_view(alice, "#confirm")
    alice.screenshot(path=str(artifacts / f"game-confirm-{size}.png"))
    alice.locator("#confirm").click()
    expect(alice.locator("#movelist")).to_contain_text("a3-b4(c5)")
    # The last move is marked, and b4's chevron now has power 1 (c5 is in b5's borderland… not b4's).
    expect(alice.locator("#board .last")).to_have_count(2)

    # Shacru: the twist is chosen with buttons that say the facing it gives.
    shacru = services.table_create(creator=alice_p, game="shacru", players=2)
    services.seat_join(table_id=shacru.pk, player=bob_p)
    alice.goto(f"{live_server.url}/tables/{shacru.pk}/")
    expect(alice.locator("#status")).to_contain_text("Your turn")
    expect(alice.locator("#notation")).to_have_attribute("placeholder", re.compile(r"a3-b4>"))
    click(alice, "a3")
    click(alice, "b4")
    expect(alice.locator("#prompt")).to_have_text("a3-b4 crosses a border: choose the new facing.")
    expect(alice.locator('[data-twist="^"]')).to_contain_text("→ NE")
    expect(alice.locator('[data-twist=">"]')).to_contain_text("→ E")
    expect(alice.locator('[data-twist="<"]')).to_contain_text("→ N")
    assert_in_view(alice, "#prompt")
    for twist in ("^", "<", ">"):
        assert_in_view(alice, f'[data-twist="{twist}"]')
    alice.screenshot(path=str(artifacts / f"game-choice-twist-{size}.png"))
    alice.locator('[data-twist=">"]').click()
    assert_in_view(alice, "#confirm")
    alice.locator("#confirm").click()
    expect(alice.locator("#movelist")).to_contain_text("a3-b4>")

    # An illegal typed move is explained once, with the move named once.
    services.move_submit(table_id=shacru.pk, player=bob_p, ply=1, move="a7-b7")
    expect(alice.locator("#status")).to_have_text("Your turn.")
    alice.fill("#notation", "e9-e5")
    alice.press("#notation", "Enter")
    expect(alice.locator("#error")).to_contain_text("e9-e5")
    assert alice.locator("#error").inner_text().count("e9-e5") == 1, alice.locator("#error").inner_text()


def test_the_board_is_turned_to_each_players_home_edge(
    people: Browsers, live_server: Any, artifacts: Path
) -> None:
    names = ["alice", "bob", "carol", "dave"]
    players = [register(n) for n in names]
    two = services.table_create(creator=players[0], game="pacru", players=2)
    services.seat_join(table_id=two.pk, player=players[1])
    four = services.table_create(creator=players[0], game="pacru", players=4)
    for p in players[1:]:
        services.seat_join(table_id=four.pk, player=p)

    # Two players: seat 1 sits at rank 1, seat 2 at rank 9 (the board turned round).
    alice = people.open("alice")
    alice.goto(f"{live_server.url}/tables/{two.pk}/")
    expect(alice.locator("#status")).to_contain_text("Your turn")
    assert bottom_left_cell(alice) == "a1"
    expect(alice.locator('#strip-bottom .clock[data-seat="1"]')).to_have_count(1)
    expect(alice.locator('#strip-top .clock[data-seat="2"]')).to_have_count(1)
    bob = people.open("bob")
    bob.goto(f"{live_server.url}/tables/{two.pk}/")
    expect(bob.locator("#status")).to_contain_text("Alice to move")
    assert bottom_left_cell(bob) == "i9"
    bob.screenshot(path=str(artifacts / "game-turned-seat2.png"))

    # A spectator sees seat 1 at the bottom and may flip the board.
    watcher = people.open()
    watcher.goto(f"{live_server.url}/tables/{two.pk}/")
    expect(watcher.locator("#status")).to_contain_text("Alice to move")
    assert bottom_left_cell(watcher) == "a1"
    watcher.locator("#flip").click()
    expect(watcher.locator("#board")).to_have_attribute("data-rotation", "180")
    assert bottom_left_cell(watcher) == "i9"
    # Sounds are off until switched on; the choice is remembered.
    expect(watcher.locator("#sound")).to_have_attribute("aria-pressed", "false")
    watcher.locator("#sound").click()
    expect(watcher.locator("#sound")).to_have_attribute("aria-pressed", "true")
    watcher.reload()
    expect(watcher.locator("#sound")).to_have_attribute("aria-pressed", "true")

    # Four players (RULES §2): seat 1 starts on the east edge, 2 west, 3 north, 4 south; each sees
    # their own edge at the bottom, so the bottom-left field is their home corner.
    corners = {"alice": "i1", "bob": "a9", "carol": "i9", "dave": "a1"}
    for n in names:
        page = alice if n == "alice" else bob if n == "bob" else people.open(n)
        page.goto(f"{live_server.url}/tables/{four.pk}/")
        expect(page.locator("#status")).to_contain_text(re.compile("Your turn|to move"))
        assert bottom_left_cell(page) == corners[n], n
        # The viewer's own chevrons are drawn along the bottom row.
        seat = names.index(n) + 1
        expect(page.locator(f'#strip-bottom .clock[data-seat="{seat}"]')).to_have_count(1)
        page.screenshot(path=str(artifacts / f"game-turned-4p-seat{seat}.png"))


def test_the_end_banner_and_a_rematch_the_other_player_joins(
    people: Browsers, live_server: Any, artifacts: Path
) -> None:
    alice_p, bob_p = register("alice"), register("bob")
    table = services.table_create(creator=alice_p, game="pacru", players=2, rated=False)
    services.seat_join(table_id=table.pk, player=bob_p)
    services.move_submit(table_id=table.pk, player=alice_p, ply=0, move="e1-e2")
    alice = people.open("alice")
    bob = open_as(people, "bob", "phone")
    for page in (alice, bob):
        page.goto(f"{live_server.url}/tables/{table.pk}/")
    expect(alice.locator("#end")).to_be_hidden()
    expect(bob.locator("#seats li")).to_have_count(2)  # the page's script is running
    bob.locator("#resign").click()
    bob.locator("#resign-yes").click()
    for page in (alice, bob):
        expect(page.locator("#end")).to_be_visible()
        expect(page.locator("#result")).to_contain_text(
            "Game over: Alice wins (last player standing: Bob resigned)"
        )
        expect(page.locator("#places")).to_contain_text("1st place: Alice")
        expect(page.locator("#places")).to_contain_text("2nd place: Bob")
        expect(page.locator("#notation-form")).to_be_hidden()
        expect(page.locator("#resign")).to_be_hidden()
        expect(page.locator("#new-game")).to_be_visible()
        assert_in_view(page, "#rematch")
    alice.screenshot(path=str(artifacts / "game-end-desktop.png"))
    bob.screenshot(path=str(artifacts / "game-end-phone.png"))

    # After a reload the banner alone tells the result (the server's summary is for no script).
    alice.reload()
    expect(alice.locator("#end")).to_be_visible()
    expect(alice.locator(".result-words")).to_be_hidden()
    # Review: the selected action is explained in words; stepping back explains the move.
    expect(alice.locator("#explain")).to_contain_text("Bob resigned")
    alice.locator('#movelist .mv[data-seq="0"]').click()
    expect(alice.locator("#explain")).to_contain_text("e1-e2: moves 1 field")
    alice.screenshot(path=str(artifacts / "game-review.png"))
    for_docs(artifacts / "game-review.png", "game-review.png")

    # Alice asks for a rematch: a new table, seats turned one on (she is seat 2 now).
    alice.locator("#rematch").click()
    alice.wait_for_url(re.compile(r"/tables/(\d+)/$"))
    new_id = int(re.search(r"/tables/(\d+)/$", alice.url).group(1))  # type: ignore[union-attr]
    assert new_id != table.pk
    expect(alice.locator("#wait-h")).to_contain_text("Waiting for players (1/2)")
    # Bob's Rematch takes him to the same table and seats him; the game starts for both.
    bob.locator("#rematch").click()
    bob.wait_for_url(f"{live_server.url}/tables/{new_id}/")
    new = Table.objects.get(pk=new_id)
    assert new.status == "active"
    assert dict(new.seats.values_list("number", "player__user__username")) == {1: "bob", 2: "alice"}
    expect(bob.locator("#status")).to_have_text("Your turn.")
    expect(alice.locator("#status")).to_contain_text("Bob to move")
    bob.screenshot(path=str(artifacts / "game-rematch-phone.png"))


def play_until_a_connection_choice(players: list[Player]) -> tuple[Table, str]:
    """Random (seeded) Pacru games until the seat on turn has a connection change that also
    crosses a border (RULES: the mover takes the change or a border marker); that table and move."""
    for seed in range(9, 30):
        rng = random.Random(seed)
        table = services.table_create(creator=players[0], game="pacru", players=2, rated=False)
        services.seat_join(table_id=table.pk, player=players[1])
        for _ in range(120):
            table = Table.objects.get(pk=table.pk)
            if table.status != Table.Status.ACTIVE:
                break
            legal = selectors.legal_for_turn(table)
            for base, choice in legal["choices"].items():
                if "*" in choice.get("effects", []) and len(choice["effects"]) > 1:
                    return table, base
            move = rng.choice(legal["base_moves"])
            choice = legal["choices"].get(move) or {}
            tokens = [rng.choice(choice["effects"])] if choice.get("effects") else []
            meetings = (choice.get("meetings") or {}).get(tokens[0] if tokens else "None") or []
            tokens += [rng.choice(meetings)] if meetings else []
            full = f"{move}({','.join(tokens)})" if tokens else move
            services.move_submit(
                table_id=table.pk, player=players[table.to_move - 1], ply=table.ply, move=full
            )
    raise AssertionError("no connection change came up")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_connection_change_is_previewed_and_stays_in_view(
    people: Browsers, live_server: Any, artifacts: Path, size: str
) -> None:
    players = [register("alice"), register("bob")]
    table, base = play_until_a_connection_choice(players)
    mover = players[table.to_move - 1].user.username
    page = open_as(people, mover, size)
    page.goto(f"{live_server.url}/tables/{table.pk}/")
    expect(page.locator("#status")).to_have_text("Your turn.")
    click(page, base[:2])
    click(page, base[3:5])
    expect(page.locator("#prompt")).to_contain_text("take the connection change")
    assert_in_view(page, "#prompt")
    assert_in_view(page, "#opt-star")
    # The fields the connection change would colour are shown before it is chosen.
    files, f, t = "abcdefghi", base[:2], base[3:5]
    gap = max(abs(files.index(f[0]) - files.index(t[0])), abs(int(f[1]) - int(t[1]))) - 1
    expect(page.locator("#board .preview")).to_have_count(gap)
    page.screenshot(path=str(artifacts / f"game-choice-connection-{size}.png"))
    page.locator("#opt-star").click()
    expect(page.locator("#prompt")).to_have_text(f"Play {base}(*)?")
    assert_in_view(page, "#confirm")
    page.locator("#confirm").click()
    expect(page.locator("#movelist")).to_contain_text(f"{base}(*)")


def test_one_click_mode_plays_a_move_without_a_choice_at_once_and_keeps_asking_for_choices(
    people: Browsers, live_server: Any
) -> None:
    alice_p, bob_p = register("alice"), register("bob")
    table = services.table_create(creator=alice_p, game="pacru", players=2, rated=False)
    services.seat_join(table_id=table.pk, player=bob_p)
    alice = people.open("alice")
    alice.goto(f"{live_server.url}/tables/{table.pk}/")
    expect(alice.locator("#one-click")).to_have_text("One-click: off")
    alice.locator("#one-click").click()
    expect(alice.locator("#one-click")).to_have_attribute("aria-pressed", "true")
    # e1-e2 needs no choice: played on the click, no Confirm.
    click(alice, "e1")
    click(alice, "e2")
    expect(alice.locator("#movelist li")).to_have_count(1)
    assert list(table.moves.values_list("notation", flat=True)) == ["e1-e2"]
    # The setting is kept in this browser; a move with a choice still asks.
    services.move_submit(table_id=table.pk, player=bob_p, ply=1, move="e9-e8")
    alice.reload()
    expect(alice.locator("#one-click")).to_have_text("One-click: on")
    expect(alice.locator("#status")).to_have_text("Your turn.")
    click(alice, "a3")
    click(alice, "b4")
    expect(alice.locator("#prompt")).to_contain_text("choose")
    expect(alice.locator("#movelist li")).to_have_count(2)


def prepared_table(alice_p: Player, bob_p: Player) -> Table:
    """A started 2-player Pacru table set to a prepared position (RULES 12, meeting): Alice's e4
    faces N towards her e5 with her e6 chevron facing S beyond it; she has six markers to pay a
    reorientation with."""
    from tests.engine.positions import paint, position

    doc = position("pacru", 2, markers=paint(1, "e5 e6 d5 d6 f5 f6"), chevrons=["e4:1:N", "e6:1:S", "a9:2:S"])
    table = services.table_create(creator=alice_p, game="pacru", players=2, rated=False)
    services.seat_join(table_id=table.pk, player=bob_p)
    Table.objects.filter(pk=table.pk).update(position=doc, initial_position=doc)
    return Table.objects.get(pk=table.pk)


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_meeting_and_reorientation_choices_stay_in_view(
    people: Browsers, live_server: Any, artifacts: Path, size: str
) -> None:
    alice_p, bob_p = register("alice"), register("bob")
    alice = open_as(people, "alice", size)

    # A meeting: e4-e5 meets the e6 chevron; Alice picks the field to change, then confirms.
    table = prepared_table(alice_p, bob_p)
    alice.goto(f"{live_server.url}/tables/{table.pk}/")
    expect(alice.locator("#status")).to_have_text("Your turn.")
    click(alice, "e4")
    click(alice, "e5")
    expect(alice.locator("#prompt")).to_contain_text("Your chevrons meet")
    assert_in_view(alice, "#prompt")
    alice.screenshot(path=str(artifacts / f"game-choice-meeting-{size}.png"))
    click(alice, "i1")
    expect(alice.locator("#confirm")).to_be_visible()
    assert_in_view(alice, "#prompt")
    assert_in_view(alice, "#confirm")
    alice.locator("#confirm").click()
    expect(alice.locator("#movelist li")).to_have_count(1)
    assert list(table.moves.values_list("notation", flat=True)) == ["e4-e5(i1)"]

    # A reorientation: click the chevron twice, pick the turn, pay two markers, confirm.
    table = prepared_table(alice_p, bob_p)
    alice.goto(f"{live_server.url}/tables/{table.pk}/")
    expect(alice.locator("#status")).to_have_text("Your turn.")
    click(alice, "e4")
    click(alice, "e4")
    expect(alice.locator('[data-turn="<"]')).to_be_visible()
    assert_in_view(alice, "#prompt")
    assert_in_view(alice, '[data-turn="<"]')
    alice.locator('[data-turn="<"]').click()
    click(alice, "d5")
    click(alice, "d6")
    expect(alice.locator("#confirm")).to_be_visible()
    assert_in_view(alice, "#prompt")
    assert_in_view(alice, "#confirm")
    alice.screenshot(path=str(artifacts / f"game-choice-reorient-{size}.png"))
    alice.locator("#confirm").click()
    expect(alice.locator("#movelist li")).to_have_count(1)
    assert list(table.moves.values_list("notation", flat=True)) == ["e4<(d5,d6)"]
