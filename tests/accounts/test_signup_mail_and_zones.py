"""After a sign-up with an address the next page says "check your mail": where the link went and
what to do if it does not come. The time-zone menu groups the canonical zones by region with
readable city names, leaves out the legacy aliases (UTC stays), and still offers a legacy zone to
the one who has it."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from django.test import Client

from accounts.models import Account
from accounts.zones import city_name
from tests.games.conftest import Actor

from .conftest import verified

pytestmark = pytest.mark.django_db

PASSWORD = "tall-hedge-maze-4"


def words(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def sign_up(client: Client, **extra: str) -> Any:
    data = {"username": "erin", "password1": PASSWORD, "password2": PASSWORD, **extra}
    return client.post("/accounts/signup/", data, follow=True)


def test_after_signing_up_with_an_address_the_page_says_check_your_mail() -> None:
    browser = Client()
    page = sign_up(browser, email="erin@example.org")
    assert page.redirect_chain[-1][0] == "/accounts/signup/check-mail/"
    html = page.content.decode()
    text = words(html)
    assert "<h1>Check your mail</h1>" in html
    assert "We sent a mail to erin@example.org with a link to confirm the address." in text
    assert "spam" in text and "correct it in your settings" in text
    # What to do if it does not come: send the link again, from here.
    form = re.search(r'<form method="post" action="/accounts/settings/"[^>]*>(.*?)</form>', html, re.S)
    assert form and 'name="action" value="resend"' in form.group(1)
    resent = browser.post("/accounts/settings/", {"action": "resend"}, follow=True)
    assert "erin@example.org" in words(resent.content.decode())


def test_without_an_address_or_once_confirmed_there_is_no_mail_to_wait_for(alice: Actor) -> None:
    page = sign_up(Client())
    assert page.redirect_chain[-1][0] == "/"
    assert "Check your mail" not in page.content.decode()
    verified(alice, "alice@example.org")
    browser = Client()
    browser.force_login(alice.player.user)
    assert browser.get("/accounts/signup/check-mail/")["Location"] == "/"


def zone_menu(html: str) -> str:
    return re.search(r'<select name="time_zone"[^>]*>(.*?)</select>', html, re.S).group(0)


def groups(menu: str) -> dict[str, dict[str, str]]:
    """optgroup label → {zone: city} ("" for the options outside a group)."""
    out: dict[str, dict[str, str]] = {}
    for label, body in re.findall(r'<optgroup label="([^"]+)">(.*?)</optgroup>', menu, re.S):
        out[unescape(label)] = dict(re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>', body))
    return out


def test_the_time_zone_menu_is_grouped_by_region_with_city_names(alice: Actor) -> None:
    """The canonical zones by region, city names; legacy aliases out, unless someone has one."""
    browser = Client()
    browser.force_login(alice.player.user)
    html = browser.get("/accounts/settings/").content.decode()
    menu = zone_menu(html)
    found = groups(menu)
    assert list(found)[:3] == ["Europe", "America", "Asia"]
    assert found["America"]["America/New_York"] == "New York"
    assert found["Europe"]["Europe/Madrid"] == "Madrid"
    assert found["America"]["America/Argentina/Buenos_Aires"] == "Buenos Aires (Argentina)"
    assert list(found["Europe"].values()) == sorted(found["Europe"].values(), key=str.casefold)
    assert '<option value="" selected>UTC</option>' in menu  # no zone chosen yet
    every = [z for g in found.values() for z in g]
    for legacy in (
        "US/Eastern",
        "Etc/GMT+5",
        "GB",
        "EST5EDT",
        "Canada/Atlantic",
        "Universal",
        "Asia/Calcutta",
    ):
        assert legacy not in every
    assert 300 < len(every) < 460
    # The browser's own zone is put first by a script (with the server's heading for it).
    assert 'data-browser-zone="Your browser&#x27;s time zone"' in menu
    assert "/static/js/timezone.js" in html

    # A legacy zone already chosen stays on offer to the one who has it.
    Account.objects.update_or_create(user=alice.player.user, defaults={"time_zone": "US/Eastern"})
    menu = zone_menu(browser.get("/accounts/settings/").content.decode())
    assert re.search(r'<option value="US/Eastern" selected>US/Eastern</option>', menu)
    saved = browser.post(
        "/accounts/settings/", {"action": "preferences", "language": "", "time_zone": "US/Eastern"}
    )
    assert saved.status_code == 302
    assert city_name("America/Indiana/Indianapolis") == "Indianapolis (Indiana)"
