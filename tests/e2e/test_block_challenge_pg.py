"""Blocks and challenges in the browser (issue 36): before any block, Bert challenges Anna from her
page with the small form and a table opens with a seat kept for her; she sees the challenge on
her page and declines it. Then Anna follows and blocks Bert from his page; when Bert opens her
page the challenge is refused with the reason shown (without saying she blocked him), a challenge
sent anyway is refused the same way, and he cannot join Anna's open table either. At desktop and
phone sizes; the player page's buttons are the documentation's pictures."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from community.models import Follow
from games import services as games
from games.models import Block, Seat, Table

from .conftest import Browsers, for_docs, shoot

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

SIZES = {
    "desktop": {"viewport": {"width": 1280, "height": 900}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}


@pytest.mark.parametrize("size", list(SIZES))
def test_a_blocked_player_can_no_longer_challenge_nor_join(
    size: str, people: Browsers, live_server: Any, artifacts: Path, make_actor: Any
) -> None:
    anna, bert = make_actor("anna"), make_actor("bert")
    base = live_server.url
    anna_page_url = f"{base}/players/{anna.player.pk}/"

    # Before any block: Bert challenges Anna from her page.
    b = people.open("bert", **SIZES[size])
    b.goto(anna_page_url)
    expect(b.locator("#follow-player button")).to_have_text("Follow")
    b.locator("#challenge summary").click()
    expect(b.locator("#challenge-form")).to_be_visible()
    b.select_option("#challenge-form select[name=time_control]", "correspondence")
    shot = shoot(b, artifacts, "player-friends", size)
    if size == "desktop":
        for_docs(shot, "player-friends.png")
    else:
        for_docs(shot, "player-friends-phone.png")
    b.locator("#challenge-send").click()
    table = Table.objects.get(created_by=bert.player)
    expect(b).to_have_url(f"{base}/tables/{table.pk}/")
    expect(b.locator("#table-challenge")).to_contain_text("You challenged Anna")
    assert table.invited_id == anna.player.pk and table.status == Table.Status.OPEN
    # Off the table's page before Anna answers: its live update reloads the page when the table is
    # aborted, which would cut short a navigation of this test's.
    b.goto(anna_page_url)

    # Anna sees it on her page and declines.
    a = people.open("anna", **SIZES[size])
    expect(a.locator("#table-challenges")).to_contain_text("Bert challenges you to a game of")
    shoot(a, artifacts, "my-friends", size)
    a.locator("#table-challenges button", has_text="Decline").click()
    expect(a.locator("#friends")).not_to_contain_text("Bert challenges you")
    assert Table.objects.get(pk=table.pk).status == Table.Status.ABORTED

    # Anna follows Bert, then blocks him, from his page.
    a.goto(f"{base}/players/{bert.player.pk}/")
    a.locator("#follow-player button").click()
    expect(a.locator("#follow-player button")).to_have_text("Unfollow")
    a.locator("#block-player button").click()
    expect(a.locator("#block-player button")).to_have_text("Unblock")
    assert Block.objects.filter(player=anna.player, blocked=bert.player).exists()
    assert Follow.objects.filter(player=anna.player, followed=bert.player).exists()
    open_table = games.table_create(creator=anna.player, game="pacru", players=2, rated=False)

    # Bert opens her page again: the challenge is refused, with the reason shown.
    b.goto(anna_page_url)
    expect(b.locator("#challenge-refusal")).to_have_text("Anna does not take challenges from you.")
    expect(b.locator("#challenge-form")).to_have_count(0)
    expect(b.locator("#challenge-refusal")).not_to_contain_text("block")
    shoot(b, artifacts, "player-challenge-refused", size)

    # Nor can he take a seat at her open table.
    b.goto(f"{base}/tables/{open_table.pk}/")
    b.locator("#join").click()
    expect(b.locator(".messages")).to_contain_text(f"you cannot join table {open_table.pk}")
    assert list(Seat.objects.filter(table=open_table).values_list("player_id", flat=True)) == [anna.player.pk]
    assert Table.objects.filter(created_by=bert.player).count() == 1
