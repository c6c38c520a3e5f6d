"""The account pages in a real browser: the bell in the site bar and the inbox behind it, the
settings pages (account, notifications, sessions), and a password reset from the login page.
Every page at laptop and phone size, with screenshots (``accounts-<page>-<size>.png``)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import Page, expect

from accounts import kinds
from accounts.models import Account, Notification, NotificationSetting, OutgoingMail, SessionRecord
from accounts.notify import notify
from games import services as games
from games.models import Player

from .conftest import PASSWORD, Browsers

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

SIZES = {
    "laptop": {"width": 1280, "height": 900},
    "phone": {"width": 390, "height": 844},
}


def register(username: str, email: str = "") -> Player:
    player = games.player_register(username=username, password=PASSWORD, display_name=username.title())
    if email:
        user = player.user
        user.email = email
        user.save(update_fields=["email"])
        Account.objects.update_or_create(user=user, defaults={"email_verified_at": timezone.now()})
    return player


def three_notifications(player: Player) -> dict[str, Notification]:
    """A challenge, a turn and a paired round, all unread (the newest first in the inbox)."""
    user_id = player.user_id
    made = {
        "challenge": notify(
            user_id=user_id,
            kind="challenge",
            key="challenge:1",
            params={
                "by": "Bob",
                "ladder": "Club ladder",
                "expires": "Tue 24 Nov 10:00 (UTC)",
                "forfeit": True,
            },
            url="/ladders/",
        ),
        "your_turn": notify(
            user_id=user_id,
            kind="your_turn",
            key="turn:41:3",
            params={"table": 41, "ply": 3, "game": "Pacru", "opponents": ["Bob"]},
            url="/",
        ),
        "round": notify(
            user_id=user_id,
            kind="round",
            key="round:7:2",
            params={"event": "Autumn Swiss", "round": 2, "opponents": ["Carol"]},
            url="/tournaments/",
        ),
    }
    assert all(n is not None for n in made.values())
    return made  # type: ignore[return-value]


def fits(page: Page) -> bool:
    """No sideways scrolling."""
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def bell(page: Page) -> Any:
    return page.locator("header a.bell")


def header_is_usable(page: Page, width: int) -> None:
    """The bell, the settings link (the username) and Log out are on screen, inside the width."""
    for item in (
        bell(page),
        page.locator("header a.me"),
        page.locator("header").get_by_role("button", name="Log out"),
    ):
        expect(item).to_be_visible()
        box = item.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, box


@pytest.mark.parametrize("size", SIZES)
def test_the_bell_counts_unread_notifications_and_the_inbox_reads_them(
    people: Browsers, live_server: Any, artifacts: Path, size: str
) -> None:
    alice_p = register("alice")
    made = three_notifications(alice_p)
    viewport = SIZES[size]

    alice = people.open("alice", viewport=viewport)
    expect(bell(alice).locator(".bell-count")).to_have_text("3")
    expect(bell(alice)).to_have_attribute("aria-label", "Notifications: 3 unread")
    header_is_usable(alice, viewport["width"])
    assert fits(alice), f"the home page scrolls sideways at {size} size"

    bell(alice).click()
    expect(alice).to_have_url(f"{live_server.url}/notifications/")
    lines = alice.locator("ul.inbox > li")
    expect(lines).to_have_count(3)
    expect(lines.nth(0)).to_contain_text("Autumn Swiss: round 2 is paired, you play Carol")
    expect(lines.nth(1)).to_contain_text("Your turn in Pacru against Bob (table 41)")
    expect(lines.nth(2)).to_contain_text("Bob challenged you on the ladder Club ladder")
    expect(lines.nth(2).locator(".detail")).to_have_text(
        "Answer by Tue 24 Nov 10:00 (UTC): an unanswered challenge counts as a loss on this ladder."
    )
    expect(alice.locator("ul.inbox > li.unread")).to_have_count(3)
    assert fits(alice), f"the inbox scrolls sideways at {size} size"

    # Following one goes to its page and marks it read: the bell says 2.
    lines.nth(2).get_by_role("link", name=re.compile("Bob challenged you")).click()
    expect(alice).to_have_url(f"{live_server.url}/ladders/")
    expect(bell(alice).locator(".bell-count")).to_have_text("2")
    assert Notification.objects.get(pk=made["challenge"].pk).read_at is not None
    assert Notification.objects.filter(user=alice_p.user, read_at__isnull=True).count() == 2

    bell(alice).click()
    expect(alice.locator("ul.inbox > li.unread")).to_have_count(2)
    expect(alice.locator("ul.inbox > li.read")).to_contain_text("Bob challenged you")
    alice.get_by_role("button", name="Mark all read").click()
    expect(alice.locator(".messages")).to_contain_text("2 notifications marked read.")
    expect(bell(alice).locator(".bell-count")).to_have_count(0)
    expect(bell(alice)).to_have_attribute("aria-label", "Notifications")
    expect(alice.locator("ul.inbox > li.read")).to_have_count(3)
    expect(alice.get_by_role("button", name="Mark all read")).to_have_count(0)
    assert not Notification.objects.filter(user=alice_p.user, read_at__isnull=True).exists()
    # The next page says so too.
    alice.goto(live_server.url + "/")
    expect(bell(alice).locator(".bell-count")).to_have_count(0)


@pytest.mark.parametrize("size", SIZES)
def test_the_settings_pages_save_name_notifications_and_end_another_session(
    people: Browsers, live_server: Any, artifacts: Path, size: str
) -> None:
    alice_p = register("alice", email="alice@example.org")
    viewport = SIZES[size]
    alice = people.open("alice", viewport=viewport)

    # The account page, reached from the username in the site bar.
    alice.locator("header a.me").click()
    expect(alice).to_have_url(f"{live_server.url}/accounts/settings/")
    main = alice.locator("main")
    for heading in ("Name", "E-mail", "Language and time"):
        expect(main.get_by_role("heading", name=heading)).to_be_visible()
    expect(alice.locator("#id_display_name")).to_have_value("Alice")
    expect(alice.locator("#id_email")).to_have_value("alice@example.org")
    expect(alice.locator("#id_language")).to_be_visible()
    expect(alice.locator("#id_time_zone")).to_be_visible()
    expect(main).to_contain_text("alice@example.org")
    expect(main.locator(".ok")).to_have_text("confirmed")
    assert fits(alice), f"the account page scrolls sideways at {size} size"

    alice.fill("#id_display_name", "Alice Liddell")
    alice.get_by_role("button", name="Save name").click()
    expect(alice.locator(".messages")).to_contain_text("Your name at tables is now Alice Liddell.")
    expect(alice.locator("#id_display_name")).to_have_value("Alice Liddell")
    assert Player.objects.get(pk=alice_p.pk).display_name == "Alice Liddell"

    # Notifications: the round pairing by daily digest.
    alice.get_by_role("navigation", name="settings").get_by_role("link", name="Notifications").click()
    expect(alice).to_have_url(f"{live_server.url}/accounts/settings/notifications/")
    expect(alice.locator("table.prefs tbody tr")).to_have_count(len(kinds.KINDS))  # a row per kind
    expect(alice.locator("#id_round")).to_have_value("immediate")
    alice.get_by_label("Your event's round is paired, or you got a bye").select_option(label="daily digest")
    alice.get_by_role("button", name="Save", exact=True).click()
    expect(alice.locator(".messages")).to_contain_text("Your notification settings are saved.")
    alice.reload()
    expect(alice.locator("#id_round")).to_have_value("daily")
    expect(alice.locator("#id_round option:checked")).to_have_text("daily digest")
    expect(alice.locator("#id_your_turn")).to_have_value("immediate")
    assert NotificationSetting.objects.get(user=alice_p.user, kind="round").email == "daily"
    assert fits(alice), f"the notification settings scroll sideways at {size} size"

    # Sessions: this browser, and a second one that logs in now.
    other = people.open("alice")
    alice.get_by_role("navigation", name="settings").get_by_role("link", name="Sessions").click()
    expect(alice).to_have_url(f"{live_server.url}/accounts/settings/sessions/")
    rows = alice.locator("table.sessions tbody tr")
    expect(rows).to_have_count(2)
    this = alice.locator("table.sessions tbody tr.current")
    expect(this).to_have_count(1)
    expect(this).to_contain_text("(this browser)")
    expect(this.get_by_role("button", name="Log out")).to_have_count(0)
    assert fits(alice), f"the sessions page scrolls sideways at {size} size"
    assert SessionRecord.objects.filter(user=alice_p.user).count() == 2

    elsewhere = alice.locator("table.sessions tbody tr:not(.current)")
    expect(elsewhere).not_to_contain_text("(this browser)")
    elsewhere.get_by_role("button", name="Log out").click()
    expect(alice.locator(".messages")).to_contain_text("That session is logged out.")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("(this browser)")
    assert SessionRecord.objects.filter(user=alice_p.user).count() == 1

    # The other browser is logged out on its next page; this one is not.
    other.goto(live_server.url + "/accounts/settings/")
    expect(other).to_have_url(re.compile(r"/accounts/login/\?next=/accounts/settings/$"))
    expect(other.locator("header a.bell")).to_have_count(0)
    alice.reload()
    expect(bell(alice)).to_be_visible()
    expect(alice.locator("header a.me")).to_have_text("alice")


@pytest.mark.parametrize("size", SIZES)
def test_a_forgotten_password_is_reset_from_the_login_page(
    people: Browsers, live_server: Any, artifacts: Path, size: str
) -> None:
    register("alice", email="alice@example.org")
    viewport = SIZES[size]
    visitor = people.open(viewport=viewport)
    visitor.goto(live_server.url + "/accounts/login/")
    visitor.get_by_role("link", name="Forgotten your password?").click()
    expect(visitor).to_have_url(f"{live_server.url}/accounts/password_reset/")
    expect(visitor.get_by_role("heading", level=1)).to_have_text("Forgotten your password?")
    assert fits(visitor), f"the reset form scrolls sideways at {size} size"

    visitor.get_by_label("Email").fill("ALICE@example.org")
    visitor.get_by_role("button", name="Send the link").click()
    expect(visitor).to_have_url(f"{live_server.url}/accounts/password_reset/done/")
    expect(visitor.get_by_role("heading", level=1)).to_have_text("Look in your mailbox")
    assert fits(visitor), f"the 'look in your mailbox' page scrolls sideways at {size} size"

    [mail] = OutgoingMail.objects.filter(to="alice@example.org")
    found = re.search(r"https?://\S+?(/accounts/reset/\S+/\S+/)", mail.text)
    assert found, mail.text
    visitor.goto(live_server.url + found.group(1))
    expect(visitor.get_by_role("heading", level=1)).to_have_text("Choose a new password")
    visitor.screenshot(path=str(artifacts / f"accounts-password-reset-confirm-{size}.png"), full_page=True)
    assert fits(visitor), f"the new password form scrolls sideways at {size} size"
    new_password = "a-brand-new-secret-7"
    visitor.fill("#id_new_password1", new_password)
    visitor.fill("#id_new_password2", new_password)
    visitor.get_by_role("button", name="Set password").click()
    expect(visitor).to_have_url(f"{live_server.url}/accounts/reset/done/")
    expect(visitor.get_by_role("heading", level=1)).to_have_text("Your new password is set")

    # The new password logs in; the old one does not.
    user = get_user_model().objects.get(username="alice")
    assert user.check_password(new_password) and not user.check_password(PASSWORD)
    visitor.get_by_role("main").get_by_role("link", name="Log in").click()
    visitor.fill("#id_username", "alice")
    visitor.fill("#id_password", new_password)
    visitor.get_by_role("main").get_by_role("button", name="Log in").click()
    expect(visitor).to_have_url(f"{live_server.url}/")
    expect(visitor.locator("header a.me")).to_have_text("alice")


def test_every_account_page_fits_a_laptop_and_a_phone(
    people: Browsers, live_server: Any, artifacts: Path
) -> None:
    alice_p = register("alice", email="alice@example.org")
    three_notifications(alice_p)
    notify(
        user_id=alice_p.user_id,
        kind="game_over",
        key="over:40",
        params={
            "table": 40,
            "player": alice_p.pk,
            "game": "Pacru",
            "opponents": ["Bob"],
            "outcome": "Alice won (Bob: resigned)",
            "rank": 1,
            "rated": False,
        },
        url="/",
    )
    Notification.objects.filter(key="over:40").update(read_at=timezone.now())
    pages = {
        "inbox": "/notifications/",
        "settings-account": "/accounts/settings/",
        "settings-password": "/accounts/password_change/",
        "settings-notifications": "/accounts/settings/notifications/",
        "settings-sessions": "/accounts/settings/sessions/",
        "settings-data": "/accounts/settings/data/",
    }
    for size, viewport in SIZES.items():
        people.open("alice")  # a second session for the sessions page
        alice = people.open("alice", viewport=viewport)
        expect(bell(alice).locator(".bell-count")).to_have_text("3")
        header_is_usable(alice, viewport["width"])
        alice.locator("header").screenshot(path=str(artifacts / f"accounts-bell-{size}.png"))
        for name, url in pages.items():
            response = alice.goto(live_server.url + url)
            assert response is not None and response.status == 200, url
            expect(alice.get_by_role("heading", level=1)).to_be_visible()
            alice.screenshot(path=str(artifacts / f"accounts-{name}-{size}.png"), full_page=True)
            assert fits(alice), f"{url} scrolls sideways at {size} size"
            header_is_usable(alice, viewport["width"])

        visitor = people.open(viewport=viewport)
        for name, url in (("login", "/accounts/login/"), ("password-reset", "/accounts/password_reset/")):
            response = visitor.goto(live_server.url + url)
            assert response is not None and response.status == 200, url
            visitor.screenshot(path=str(artifacts / f"accounts-{name}-{size}.png"), full_page=True)
            assert fits(visitor), f"{url} scrolls sideways at {size} size"
        visitor.get_by_label("Email").fill("nobody@example.org")
        visitor.get_by_role("button", name="Send the link").click()
        expect(visitor.get_by_role("heading", level=1)).to_have_text("Look in your mailbox")
        visitor.screenshot(path=str(artifacts / f"accounts-password-reset-done-{size}.png"), full_page=True)
        assert fits(visitor), f"the 'look in your mailbox' page scrolls sideways at {size} size"
