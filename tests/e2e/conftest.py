"""End-to-end tests in a real headless Chromium (Debian's ``chromium``, driven by Playwright).

The browser is the system's ``/usr/bin/chromium`` (``scripts/test`` installs Debian's package
when it is missing; ``CHROMIUM`` points elsewhere); Playwright never downloads one. Pages are
served by pytest-django's live server on the PostgreSQL test database. Screenshots go to
``artifacts/screenshots/``; the few the documentation shows are also written to
``docs/screenshots/`` by the test that takes them (:func:`for_docs`), so they never go stale.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
DOCS_SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
# Headless, and no calls home: the machines have no internet.
ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]
PASSWORD = "correct-horse-9"


@pytest.fixture(scope="module", autouse=True)
def _sync_orm_beside_playwright() -> Iterator[None]:
    """Playwright's sync API keeps an event loop in this thread while the browser is open; the
    ORM calls the tests (and the database fixtures) make meanwhile are ordinary synchronous
    code. Set for the browser tests only, never in deployment or for the other tests."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        yield


@pytest.fixture(scope="module")
def browser(_sync_orm_beside_playwright: None) -> Iterator[Browser]:
    """One Chromium for the module, closed after it (its event loop must not outlive the
    browser tests: Django refuses ORM calls from a thread with a running loop)."""
    if not Path(CHROMIUM).exists():
        pytest.fail(
            f"no Chromium at {CHROMIUM}: scripts/test installs Debian's chromium package "
            "(apt-get install chromium), or set CHROMIUM=/path/to/chromium"
        )
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


def shoot(page: Page, artifacts: Path, name: str, size: str) -> Path:
    """A full-page screenshot (``NAME.png`` at desktop, ``NAME-phone.png`` on a phone); on a
    phone the page must not scroll sideways."""
    shot = artifacts / (f"{name}.png" if size == "desktop" else f"{name}-phone.png")
    page.screenshot(path=str(shot), full_page=True)
    if size == "phone":
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"{page.url} scrolls sideways on a phone ({width} px)"
    return shot


def for_docs(shot: Path, name: str) -> Path:
    """Keep ``shot`` as ``docs/screenshots/NAME``, a picture the documentation shows.

    The docs' screenshots are written by the browser test that takes them, never copied by
    hand, so every run of the browser tests refreshes them. Call it with the docs' file name as
    a literal: ``tests/test_docs.py`` checks every picture the docs show has such a call.
    """
    DOCS_SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    target = DOCS_SCREENSHOTS / name
    shutil.copyfile(shot, target)
    return target


class Browsers:
    """Browser contexts (separate cookie jars: separate people) that log in through the login page."""

    def __init__(self, browser: Browser, base_url: str):
        self.browser = browser
        self.base_url = base_url
        self.contexts: list[Any] = []
        self.errors: list[str] = []

    def open(self, username: str | None = None, password: str = PASSWORD, **context: Any) -> Page:
        ctx = self.browser.new_context(**{"viewport": {"width": 1280, "height": 900}, **context})
        ctx.set_default_timeout(10_000)
        self.contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda exc: self.errors.append(f"{username}: {exc}"))
        if username:
            page.goto(self.base_url + "/accounts/login/")
            page.fill("#id_username", username)
            page.fill("#id_password", password)
            page.get_by_role("button", name="Log in").click()
            page.wait_for_url(self.base_url + "/")
        return page

    def close(self) -> None:
        for ctx in self.contexts:
            ctx.close()


@pytest.fixture
def people(browser: Browser, live_server: Any) -> Iterator[Browsers]:
    b = Browsers(browser, live_server.url)
    yield b
    b.close()
    assert not b.errors, f"JavaScript errors on the pages: {b.errors}"
