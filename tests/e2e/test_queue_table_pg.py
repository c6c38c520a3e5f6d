"""A ladder's quick-pairing queue in the browser: three players wait on the ladder page (served by
the ASGI server, so it has its push stream); when matchmaking seats them, each page goes to the
new table by itself (no reload, no click), at desktop and phone sizes. Without JavaScript the
ladder page links to the player's table instead of offering the queue.

The server is the uvicorn subprocess of tests/live/conftest.py (as test_live_push_pg.py); the
table is formed in this process, which publishes it on Redis as the housekeeping worker would.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.conf import settings as django_settings
from django.test import Client
from playwright.sync_api import Browser, Page, expect

from tests.games.conftest import Actor, as_organiser
from tests.live import conftest as live
from tests.live.conftest import REDIS, Uvicorn
from tournaments import ladders
from tournaments.competitions.services import league_create
from tournaments.models import Ladder

from .conftest import Browsers

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

#: The uvicorn server of tests/live (a module-scoped fixture), for this module too.
uvicorn_server = live.uvicorn_server

SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
TOPICS = "/live/topics/"


def three_seat_ladder(actors: list[Actor]) -> Ladder:
    org = as_organiser(actors[0].player)
    league = league_create(organiser=org, name="Queue Club", slug="queue-club")
    ladder = ladders.ladder_create(organiser=org, league=league, game="shacru", name="Quick Three", seats=3)
    ladder.queue_wait_seconds = 0  # the next matchmaking seats whoever waits
    ladder.save()
    for a in actors:
        ladders.ladder_join(ladder=ladder, player=a.player)
    return ladder


def signed_in(people: Browsers, actor: Actor, **context: Any) -> Page:
    """A browser context with ``actor``'s session cookie (made here, in the test database the
    server reads: see test_live_push_pg.signed_in)."""
    client = Client()
    client.force_login(actor.player.user)
    page = people.open(**context)
    page.context.add_cookies(
        [
            {
                "name": django_settings.SESSION_COOKIE_NAME,
                "value": client.cookies[django_settings.SESSION_COOKIE_NAME].value,
                "url": people.base_url,
            }
        ]
    )
    return page


@pytest.mark.parametrize("size", list(SIZES))
def test_each_queue_page_goes_to_its_table_when_the_table_forms(
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
    actors = {"alice": alice, "bob": bob, "carol": carol}
    ladder = three_seat_ladder(list(actors.values()))
    ladder_url = f"{server.url}/ladders/{ladder.pk}/"
    people = Browsers(browser, server.url)
    try:
        pages: dict[str, Page] = {}
        navigations: dict[str, list[str]] = {}
        for name, actor in actors.items():
            page = signed_in(people, actor, viewport=SIZES[size])
            with page.expect_response(lambda r: urlsplit(r.url).path == TOPICS) as pushed:
                page.goto(ladder_url)
            assert pushed.value.status == 200
            # Joining the queue from the page (a POST, then the ladder page again, with its stream).
            with page.expect_response(lambda r: urlsplit(r.url).path == TOPICS) as pushed:
                page.locator("#join-queue").click()
            assert pushed.value.status == 200
            expect(page.locator("#leave-queue")).to_be_visible()
            expect(page.locator("ol.queue li.me a")).to_have_text(actor.player.display_name)
            log = navigations[name] = []
            page.on(
                "request",
                lambda r, log=log: (
                    log.append(r.url) if r.is_navigation_request() and r.frame.parent_frame is None else None
                ),
            )
            pages[name] = page
        pages["carol"].screenshot(path=str(artifacts / f"queue-waiting-{size}.png"), full_page=True)

        # The housekeeping forms the table (here: this process, publishing on Redis after the commit).
        settings.REDIS_URL = REDIS
        (table,) = ladders.matchmake(ladder=ladder)
        table_url = f"{server.url}/tables/{table.pk}/"
        for name, page in pages.items():
            page.wait_for_url(table_url, timeout=10_000)
            # The table page is live: it read the table (the status names who moves).
            expect(page.locator("#status")).to_contain_text(re.compile(r"Your turn|to move"))
            # One navigation only, to the table: the page was neither reloaded nor clicked.
            assert navigations[name] == [table_url], (name, navigations[name])
            page.screenshot(path=str(artifacts / f"queue-table-{name}-{size}.png"))

        # Without JavaScript the ladder page links to the table instead of offering the queue.
        plain = signed_in(people, alice, viewport=SIZES[size], java_script_enabled=False)
        plain.goto(ladder_url)
        ready = plain.locator("#queue-table")
        expect(ready).to_contain_text("Your table is ready:")
        expect(plain.locator("#join-queue")).to_have_count(0)
        ready.scroll_into_view_if_needed()
        plain.screenshot(path=str(artifacts / f"queue-ready-nojs-{size}.png"))
        box = ready.get_by_role("link", name="Go to table").bounding_box()
        assert box is not None and box["x"] + box["width"] <= SIZES[size]["width"]
        ready.get_by_role("link", name="Go to table").click()
        plain.wait_for_url(table_url)
    finally:
        people.close()
    assert not people.errors, f"JavaScript errors on the pages: {people.errors}"
