"""In a real Chromium: the API's Redoc and Swagger pages load nothing from anywhere but the site
(Redoc's bundle used to fetch its logo from cdn.redoc.ly, which the CSP blocked with a console
error), and the time-zone menu puts the browser's own zone first, choosing it when none is set.
Screenshots ``docs-redoc-<size>.png`` and ``zone-menu-<size>.png``."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page

from accounts.models import Account
from games import services as games

from .conftest import PASSWORD, Browsers

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

SIZES = {"laptop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


def watch(page: Page, base_url: str) -> tuple[list[str], list[str]]:
    """Requests that would leave the site (aborted, so none does) and console errors."""
    home = urlsplit(base_url).netloc
    outside: list[str] = []
    errors: list[str] = []

    def route(r: Any) -> None:
        url = r.request.url
        if urlsplit(url).scheme in ("data", "blob") or urlsplit(url).netloc == home:
            r.continue_()
        else:
            outside.append(url)
            r.abort()

    page.route("**/*", route)
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return outside, errors


@pytest.mark.parametrize("size", SIZES)
def test_the_api_docs_load_nothing_from_elsewhere(
    people: Browsers, live_server: Any, artifacts: Path, size: str
) -> None:
    page = people.open(viewport=SIZES[size])
    outside, errors = watch(page, live_server.url)
    page.goto(live_server.url + "/api/v1/redoc/")
    page.wait_for_selector(".api-content h1", timeout=20_000)
    page.wait_for_load_state("networkidle")
    assert outside == [], outside
    assert [e for e in errors if "Content Security Policy" in e or "cdn" in e.lower()] == [], errors
    # The "API docs by Redocly" footer's logo now comes from the site, and is drawn.
    logo = page.wait_for_selector("a[href='https://redocly.com/redoc/'] img", state="attached")
    assert urlsplit(logo.get_attribute("src") or "").path.startswith("/static/")
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=logo)
    page.screenshot(path=str(artifacts / f"docs-redoc-{size}.png"))
    page.goto(live_server.url + "/api/v1/docs/")
    page.wait_for_selector(".swagger-ui .info", timeout=20_000)
    page.wait_for_load_state("networkidle")
    assert outside == [], outside
    assert [e for e in errors if "Content Security Policy" in e or "cdn" in e.lower()] == [], errors
    assert errors == [], errors


@pytest.mark.parametrize("size", SIZES)
def test_the_zone_menu_puts_the_browsers_zone_first(
    people: Browsers, live_server: Any, artifacts: Path, size: str
) -> None:
    player = games.player_register(username="zoe", password=PASSWORD, display_name="Zoe")
    page = people.open("zoe", viewport=SIZES[size], timezone_id="America/New_York")
    page.goto(live_server.url + "/accounts/settings/")
    select = page.locator("select[name=time_zone]")
    first = select.locator(":scope > *").first
    assert first.evaluate("e => e.tagName + ':' + e.label") == "OPTGROUP:Your browser's time zone"
    assert (
        first.locator("option").evaluate("o => o.value + ':' + o.textContent") == "America/New_York:New York"
    )
    assert select.input_value() == "America/New_York"  # none set: the browser's is chosen
    select.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / f"zone-menu-{size}.png"))
    page.get_by_role("button", name="Save preferences").click()
    page.wait_for_url(live_server.url + "/accounts/settings/")
    assert Account.objects.get(user=player.user).time_zone == "America/New_York"

    # A zone set already stays chosen; the browser's still comes first.
    Account.objects.filter(user=player.user).update(time_zone="Europe/Berlin")
    page.goto(live_server.url + "/accounts/settings/")
    assert select.input_value() == "Europe/Berlin"
    assert select.locator(":scope > optgroup").first.get_attribute("label") == "Your browser's time zone"
