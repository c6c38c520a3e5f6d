"""Quick pairing in the browser: three players each click "Play now" in a 3-seat pool on the
lobby (served by the ASGI server, so the page has its push stream); when the wave seats them,
each page goes to the same new table by itself (no reload, no click), at desktop and phone sizes.

The server is the uvicorn subprocess of tests/live/conftest.py (as test_queue_table_pg.py); the
wave runs in this process, which publishes on Redis as the Celery task or the sweeper of
``scripts/run`` would.
"""

from __future__ import annotations

import re
from importlib import import_module
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.apps import apps as django_apps
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from games.models import Seat
from tests.games.conftest import Actor
from tests.live import conftest as live
from tests.live.conftest import REDIS, Uvicorn
from tournaments.models import Pool
from tournaments.pools import wave

from .conftest import Browsers, for_docs
from .test_queue_table_pg import SIZES, TOPICS, signed_in

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

#: The uvicorn server of tests/live (a module-scoped fixture), for this module too.
uvicorn_server = live.uvicorn_server


@pytest.mark.parametrize("size", list(SIZES))
def test_three_players_click_play_now_and_land_on_the_same_table(
    browser: Browser,
    uvicorn_server: Uvicorn,
    artifacts: Path,
    settings: Any,
    size: str,
    alice: Actor,
    bob: Actor,
    carol: Actor,
) -> None:
    server = uvicorn_server
    # The preset pools (the migration's; a test that commits empties the tables after it).
    import_module("tournaments.migrations.0012_play_now").add_presets(django_apps, None)
    pool = Pool.objects.create(
        game="shacru",
        players=3,
        time_control={"kind": "fischer", "base": 420.0, "increment": 4.0},
        rated=True,
    )
    actors = {"alice": alice, "bob": bob, "carol": carol}
    people = Browsers(browser, server.url)
    try:
        pages: dict[str, Page] = {}
        navigations: dict[str, list[str]] = {}
        for n, (name, actor) in enumerate(actors.items()):
            page = signed_in(people, actor, viewport=SIZES[size])
            with page.expect_response(lambda r: urlsplit(r.url).path == TOPICS) as pushed:
                page.goto(server.url + "/")
            assert pushed.value.status == 200
            row = page.locator(f'li.pool[data-pool="{pool.pk}"]')
            expect(row).to_contain_text(f"{n} waiting")
            # One click: a POST, then the lobby again (with its stream), showing the wait.
            with page.expect_response(lambda r: urlsplit(r.url).path == TOPICS) as pushed:
                row.get_by_role("button", name="Play now").click()
            assert pushed.value.status == 200
            waiting = page.locator("#pool-waiting")
            expect(waiting).to_contain_text(f"({n + 1} waiting)")
            expect(waiting.get_by_role("button", name="Cancel")).to_be_visible()
            log = navigations[name] = []
            page.on(
                "request",
                lambda r, log=log: (
                    log.append(r.url) if r.is_navigation_request() and r.frame.parent_frame is None else None
                ),
            )
            pages[name] = page
        # The first player's block heard the others join (live: no reload).
        expect(pages["alice"].locator("#pool-waiting")).to_contain_text("(3 waiting)")
        shot = artifacts / f"play-now-waiting-{size}.png"
        pages["carol"].locator("#play-now").screenshot(path=str(shot))
        if size == "desktop":
            for_docs(shot, "play-now.png")
        pages["carol"].screenshot(path=str(artifacts / f"play-now-lobby-{size}.png"))

        # The wave seats them (here: this process, publishing on Redis after the commit).
        settings.REDIS_URL = REDIS
        assert wave.sweep(now=timezone.now()) == {"tables": 1, "seated": 3, "dropped": 0}
        table_id = Seat.objects.get(player=alice.player).table_id
        assert {s.player_id for s in Seat.objects.filter(table_id=table_id)} == {
            a.player.pk for a in actors.values()
        }
        table_url = f"{server.url}/tables/{table_id}/"
        for name, page in pages.items():
            page.wait_for_url(table_url, timeout=10_000)
            expect(page.locator("#status")).to_contain_text(re.compile(r"Your turn|to move"), timeout=15_000)
            # One navigation only, to the table: the page was neither reloaded nor clicked.
            assert navigations[name] == [table_url], (name, navigations[name])
        pages["bob"].screenshot(path=str(artifacts / f"play-now-table-{size}.png"))
    finally:
        people.close()
    assert not people.errors, f"JavaScript errors on the pages: {people.errors}"
