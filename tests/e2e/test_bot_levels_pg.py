"""Playing a bot level from the lobby in a real browser: a visitor picks a level in *Play a bot
now* (level 1, the weakest, and level 6), plays a move, and the bot of that level answers (the
in-process bot runner plays its turn, with the level's fixed work), at desktop and phone sizes."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

import engine
from engine.bots import get
from games.botplay import run_bot_turns
from games.models import Move, Seat, Table

from .conftest import Browsers, shoot

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(("level", "size"), [("1", "desktop"), ("6", "phone")])
def test_a_visitor_plays_a_bot_level_from_the_lobby(
    people: Browsers, live_server: Any, artifacts: Path, settings: Any, level: str, size: str
) -> None:
    settings.GUEST_PLAY = True
    viewport = {"width": 1280, "height": 900} if size == "desktop" else {"width": 390, "height": 844}
    page = people.open(viewport=viewport)
    page.goto(live_server.url + "/")
    picker = page.locator("#play-bot-level")
    expect(picker.locator("option")).to_have_count(8)
    expect(picker.locator("option").nth(5)).to_have_text("6 · Expert")
    picker.select_option(level)
    page.locator("section.quick select[name=game]").select_option("shacru")
    shoot(page, artifacts, f"play-bot-level-{level}-lobby", size)
    page.locator("section.quick button[type=submit]").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    table_id = int(re.search(r"/tables/(\d+)/", page.url).group(1))  # type: ignore[union-attr]
    table = Table.objects.get(pk=table_id)
    bot = Seat.objects.select_related("player").get(table=table, number=2).player
    assert table.game == "shacru" and not table.rated and table.bot_seats == [2]
    assert bot.bot_level == level and bot.display_name == f"Bot level {level}"
    expect(page.locator("#seats")).to_contain_text(f"Bot level {level} (bot)")

    expect(page.locator("#status")).to_have_text("Your turn.")
    first = engine.new_game("shacru", 2).legal_moves()[0]
    page.locator("#notation").fill(first)
    page.locator("#notation").press("Enter")
    expect(page.locator("#movelist li")).to_have_count(1)
    assert run_bot_turns() == 1
    expect(page.locator("#movelist li")).to_have_count(2, timeout=30_000)
    expect(page.locator("#status")).to_have_text("Your turn.")
    moves = list(Move.objects.filter(table_id=table_id).order_by("seq").values_list("seat", "notation"))
    assert moves[0] == (1, first) and moves[1][0] == 2
    # The bot's move is its level's choice for this table and ply (reproducible from the seed).
    state = engine.new_game("shacru", 2).play(first)
    assert moves[1][1] == get(level).choose(state, seed=table.pk * 100_003 + 1)
    shoot(page, artifacts, f"play-bot-level-{level}-answered", size)
    assert not people.errors
