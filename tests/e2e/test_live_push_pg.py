"""Live push in the browser: two players and a spectator watch one table on pages served by the
ASGI server (uvicorn: so the pages offer their push stream); moves made through the API show on
all three pages at once, with no polling while the stream is open; after the server is killed
and started again, the pages catch up with the moves made while it was down.

The server is the uvicorn subprocess of tests/live/conftest.py (not pytest-django's live server,
which is WSGI: its pages would not offer push).
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import Browser, Page, expect

from engine.playout import random_step
from games import services
from games.models import Table
from tests.games.conftest import Actor, started_table
from tests.live import conftest as live
from tests.live.conftest import Uvicorn

from .conftest import Browsers

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

#: The uvicorn server of tests/live (a module-scoped fixture), for this module too.
uvicorn_server = live.uvicorn_server

#: How soon after the move's POST returns every page must show it (the issue's bound). With
#: Redis pub/sub the server reads the table once and writes it to the three streams; the pages
#: then render it: typically tens of milliseconds on this 2-core machine, well inside the bound.
#: A poll (every 800 ms) could not meet it reliably, which is the point of asserting it.
PUSH_BOUND_MS = 250
#: The pages' catching up after the server restarts (the browser reconnects its EventSource
#: within a second of the server being back; until then the page polls with back-off).
CATCH_UP_MS = 15_000

#: Records, per page, when the move list first showed n actions (epoch milliseconds, the same
#: clock as time.time() in the test) and the label of the last action then.
RECORDER = """() => {
    window.__seen = {};
    const list = document.getElementById("movelist");
    const note = () => {
        const n = list.children.length;
        if (!(n in window.__seen)) {
            const last = list.lastElementChild && list.lastElementChild.querySelector("button");
            window.__seen[n] = {
                at: performance.timeOrigin + performance.now(),
                label: last ? last.getAttribute("aria-label") : null,
            };
        }
    };
    note();
    new MutationObserver(note).observe(list, {childList: true});
}"""


def next_move(table_id: int, rng: random.Random) -> tuple[int, int, str]:
    table = Table.objects.get(pk=table_id)
    state = services.current_state(table)
    _, text = random_step(state, rng)
    return state.to_move, table.ply, text


def signed_in(people: Browsers, actor: Actor) -> Page:
    """A browser context with ``actor``'s session cookie (the session is made here, in the test
    database the server reads: this process hashes passwords with MD5 for speed, which the
    server's hashers would not accept at its login form)."""
    client = Client()
    client.force_login(actor.player.user)
    page = people.open()
    page.context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": people.base_url,
            }
        ]
    )
    return page


def seen(page: Page, n: int, timeout: float) -> dict[str, Any]:
    page.wait_for_function("n => window.__seen && window.__seen[n] !== undefined", arg=n, timeout=timeout)
    out: dict[str, Any] = page.evaluate("n => window.__seen[n]", n)
    return out


def test_moves_are_pushed_to_players_and_spectator_and_survive_a_server_crash(
    browser: Browser, uvicorn_server: Uvicorn, artifacts: Path, alice: Actor, bob: Actor, carol: Actor
) -> None:
    server = uvicorn_server
    table = started_table([alice, bob])
    by_seat = {s.number: (alice if s.player_id == alice.player.pk else bob) for s in table.seats.all()}
    api = f"/api/v1/tables/{table.pk}/"
    stream = f"/live/tables/{table.pk}/"
    rng = random.Random(11)

    people = Browsers(browser, server.url)
    try:
        pages: dict[str, Page] = {}
        polls: dict[str, list[str]] = {}
        streams: dict[str, list[int]] = {}
        for name, actor in (("alice", alice), ("bob", bob), ("carol", carol)):
            page = signed_in(people, actor)
            polls[name], streams[name] = [], []
            page.on(
                "request",
                lambda r, log=polls[name]: log.append(r.method) if urlsplit(r.url).path == api else None,
            )
            page.on(
                "response",
                lambda r, log=streams[name]: log.append(r.status) if urlsplit(r.url).path == stream else None,
            )
            # The page reads the table once, then opens its push stream.
            with (
                page.expect_response(lambda r: urlsplit(r.url).path == stream) as pushed,
                page.expect_response(lambda r: urlsplit(r.url).path == api) as first_read,
            ):
                page.goto(f"{server.url}/tables/{table.pk}/")
            assert first_read.value.status == 200
            assert pushed.value.status == 200
            assert pushed.value.headers["content-type"].startswith("text/event-stream")
            mover = by_seat[table.to_move] is actor
            expect(page.locator("#status")).to_contain_text("Your turn." if mover else "to move (ply 1)")
            page.evaluate(RECORDER)
            pages[name] = page

        # From here on the pages are settled: any GET of the table now would be a poll.
        settled = {name: len(log) for name, log in polls.items()}
        delays: list[float] = []
        for n in range(1, 5):
            seat, ply, text = next_move(table.pk, rng)
            status, body = server.post(f"{api}moves/", {"ply": ply, "move": text}, token=by_seat[seat].token)
            returned = time.time() * 1000
            assert status == 201, body
            notation = body["move"]["notation"]
            for name, page in pages.items():
                shown = seen(page, n, timeout=5_000)
                assert shown["label"] == f"Action {n}: {notation}", (name, shown)
                delay = shown["at"] - returned
                delays.append(delay)
                assert delay <= PUSH_BOUND_MS, (
                    f"{name} showed move {n} {delay:.0f} ms after the POST returned"
                )
        for name, page in pages.items():
            assert polls[name][settled[name] :] == [], f"{name}'s page polled the table while pushed"
            expect(page.locator("#movelist li")).to_have_count(4)
        expect(pages["carol"].locator("#status")).to_contain_text("(ply 5)")
        for name, page in pages.items():
            page.screenshot(path=str(artifacts / f"live-{'spectator' if name == 'carol' else name}.png"))

        # The server crashes; two moves are made meanwhile (through the services here); it comes
        # back on the same port, and every page shows the moves it missed.
        server.kill()
        for _ in range(2):
            seat, ply, text = next_move(table.pk, rng)
            services.move_submit(table_id=table.pk, player=by_seat[seat].player, ply=ply, move=text)
        down = {name: len(log) for name, log in streams.items()}
        server.start()
        back = time.time() * 1000
        catch_up: list[float] = []
        for page in pages.values():
            shown = seen(page, 6, timeout=CATCH_UP_MS)
            catch_up.append(shown["at"] - back)
            expect(page.locator("#movelist li")).to_have_count(6)
        # Each page's EventSource connected again (a new 200 for its stream).
        for name, page in pages.items():
            assert reconnected(page, streams[name], down[name]), f"{name}'s push stream did not come back"
        expect(pages["carol"].locator("#status")).to_contain_text("(ply 7)")
        pages["carol"].screenshot(path=str(artifacts / "live-spectator-after-restart.png"))
        print(
            f"push delays after POST (ms): {sorted(round(d) for d in delays)}; "
            f"catch-up after restart (ms): {sorted(round(d) for d in catch_up)}"
        )
    finally:
        people.close()
    assert not people.errors, f"JavaScript errors on the pages: {people.errors}"


def reconnected(page: Page, log: list[int], since: int, timeout: float = 5.0) -> bool:
    """Wait (briefly) for the page's stream to be answered 200 again."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if 200 in log[since:]:
            return True
        page.wait_for_timeout(100)
    return False
