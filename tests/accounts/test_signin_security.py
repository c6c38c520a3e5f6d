"""Signing in, second pass (issue 29): the admin's sign-in has the site's limits; device cookies
keep the owner's browser signing in while strangers' guesses lock strangers out; the counts are
atomic; a password change or reset ends every token and other session; the sessions page shows
no session key."""

from __future__ import annotations

import re
import threading
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core import signing
from django.db import connection
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from accounts.models import OutgoingMail, SessionRecord
from common import devices
from tests.games.conftest import Actor

from .conftest import verified

PASSWORD = "correct-horse-9"
NEW_PASSWORD = "a-brand-new-secret-7"
#: The site's defaults for signing in, a small device limit, and reads that never get in the way.
RATES = {
    "anon": "10000/min",
    "user": "10000/min",
    "auth": "20/hour",  # the site has 20/min; by the hour no test can cross into a new window
    "login_account": "20/hour",
    "login_device": "3/hour",
}


@pytest.fixture
def rates(monkeypatch: pytest.MonkeyPatch, settings: Any) -> None:
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": dict(RATES)}
    # The throttles read their rates from a class attribute bound when DRF was imported.
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", dict(RATES))


_addresses = iter(range(1, 1_000_000))


def stranger() -> Client:
    """A browser on an address of its own, with no cookie."""
    n = next(_addresses)
    return Client(REMOTE_ADDR=f"10.{n // 65536 % 256}.{n // 256 % 256}.{n % 256}")


def sign_in(browser: Client, username: str, password: str) -> Any:
    return browser.post("/accounts/login/", {"username": username, "password": password})


def signed_in_as(browser: Client) -> int | None:
    value = browser.session.get("_auth_user_id")
    return int(value) if value else None


def lock_out(username: str, attempts: int = 25) -> list[int]:
    """Strangers guess ``username``'s password, each from an address of its own."""
    return [sign_in(stranger(), username, f"guess-{i}-wrong").status_code for i in range(attempts)]


# ------------------------------------------------------------------ 1. the admin's sign-in


@pytest.fixture
def organiser(db: None) -> Any:
    return get_user_model().objects.create_user("organiser", password=PASSWORD, is_staff=True)


def admin_sign_in(browser: Client, password: str, username: str = "organiser") -> Any:
    return browser.post("/admin/login/", {"username": username, "password": password, "next": "/admin/"})


def test_the_admin_sign_in_is_limited_per_account(rates: None, organiser: Any) -> None:
    codes = [admin_sign_in(stranger(), f"wrong-{i}").status_code for i in range(60)]
    assert codes == [200] * 20 + [429] * 40, "20 wrong passwords are checked, then none"
    # While the account is limited, the right password does not get in either.
    browser = stranger()
    refused = admin_sign_in(browser, PASSWORD)
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert b"Too many sign-in attempts" in refused.content
    assert signed_in_as(browser) is None
    assert browser.get("/admin/").status_code == 302, "still not in the admin"


def test_the_admin_sign_in_is_limited_per_address(rates: None, organiser: Any) -> None:
    browser = stranger()
    codes = [admin_sign_in(browser, "wrong", username=f"name-{i}").status_code for i in range(60)]
    assert codes == [200] * 20 + [429] * 40, "the address's 20 attempts a minute, whatever the name"
    assert admin_sign_in(browser, PASSWORD).status_code == 429
    assert signed_in_as(browser) is None


def test_the_admin_sign_in_still_signs_staff_in_and_gives_a_device_cookie(
    rates: None, organiser: Any, settings: Any
) -> None:
    settings.SESSION_COOKIE_SECURE = True  # as in production
    browser = stranger()
    answer = admin_sign_in(browser, PASSWORD)
    assert answer.status_code == 302 and answer["Location"] == "/admin/"
    assert signed_in_as(browser) == organiser.pk
    assert browser.get("/admin/").status_code == 200
    cookie = answer.cookies[devices.cookie_name()]
    assert cookie["httponly"] and cookie["secure"] and cookie["samesite"] == "Lax"
    assert cookie["max-age"] == 365 * 86400


# ------------------------------------------------------------------ 2. device cookies


def owners_browser(actor: Actor) -> Client:
    """The owner's browser: it signed in before (and so holds a device cookie), then logged out."""
    browser = stranger()
    assert sign_in(browser, actor.player.user.username, PASSWORD).status_code == 302
    assert browser.cookies[devices.cookie_name()].value
    browser.post("/accounts/logout/")
    assert signed_in_as(browser) is None
    return browser


def test_strangers_lock_strangers_out_but_the_owners_browser_signs_in(rates: None, alice: Actor) -> None:
    browser = owners_browser(alice)
    assert lock_out("alice") == [200] * 20 + [429] * 5
    # A browser without the cookie is refused even with the right password...
    fresh = stranger()
    refused = sign_in(fresh, "alice", PASSWORD)
    assert refused.status_code == 429 and b"reset your password" in refused.content, "what the owner does"
    assert signed_in_as(fresh) is None
    # ...the owner's browser signs in, and its cookie is renewed.
    answer = sign_in(browser, "alice", PASSWORD)
    assert answer.status_code == 302 and signed_in_as(browser) == alice.player.user_id
    assert answer.cookies[devices.cookie_name()].value


def test_the_owners_typos_count_against_the_device_not_the_account(rates: None, alice: Actor) -> None:
    browser = owners_browser(alice)
    assert [sign_in(browser, "alice", "typo-typo").status_code for _ in range(4)] == [200, 200, 200, 429]
    refused = sign_in(browser, "alice", PASSWORD)
    assert refused.status_code == 429, "a device cookie that failed too often is refused"
    assert signed_in_as(browser) is None
    # The account was not counted: a stranger's attempt with the right password gets in.
    other = stranger()
    assert sign_in(other, "alice", PASSWORD).status_code == 302


def test_a_device_cookie_for_another_account_does_not_help(rates: None, alice: Actor, bob: Actor) -> None:
    browser = owners_browser(bob)
    lock_out("alice")
    assert sign_in(browser, "alice", PASSWORD).status_code == 429
    assert signed_in_as(browser) is None
    # Its failures were counted with the strangers' (the account's count, not bob's cookie).
    assert sign_in(browser, "bob", PASSWORD).status_code == 302


@pytest.mark.parametrize(
    "tamper",
    [
        lambda v: v[:-1] + ("A" if v[-1] != "A" else "B"),  # the signature changed
        lambda v: (
            signing.dumps(  # the account changed, the signature kept
                {"a": devices.account_key("alice"), "n": "x"}, salt=devices.SALT
            ).rsplit(":", 1)[0]
            + ":"
            + v.rsplit(":", 1)[1]
        ),
        lambda v: signing.dumps({"a": devices.account_key("alice"), "n": "x"}, salt="another"),
        lambda v: signing.dumps(
            {"a": devices.account_key("alice"), "n": "x"}, key="not-the-secret-key", salt=devices.SALT
        ),
    ],
    ids=["signature", "payload", "salt", "key"],
)
def test_a_tampered_device_cookie_does_not_help(
    rates: None, alice: Actor, bob: Actor, tamper: Callable[[str], str]
) -> None:
    mallory = stranger()
    assert sign_in(mallory, "bob", PASSWORD).status_code == 302
    value = mallory.cookies[devices.cookie_name()].value
    mallory.post("/accounts/logout/")
    lock_out("alice")
    mallory.cookies[devices.cookie_name()] = tamper(value)
    assert sign_in(mallory, "alice", PASSWORD).status_code == 429
    assert signed_in_as(mallory) is None


def test_a_locked_out_owner_resets_the_password_and_that_browser_signs_in(
    rates: None, alice: Actor, settings: Any
) -> None:
    settings.SITE_URL = "http://testserver"
    verified(alice, "alice@example.org")
    lock_out("alice")
    browser = stranger()
    assert sign_in(browser, "alice", PASSWORD).status_code == 429
    # The reset still works while sign-ins are limited.
    assert browser.post("/accounts/password_reset/", {"email": "alice@example.org"}).status_code == 302
    mail = OutgoingMail.objects.get(user=alice.player.user, key__startswith="reset:")
    link = re.search(r"/accounts/reset/[^/\s]+/[^/\s]+/", mail.text)
    assert link, mail.text
    form = browser.get(link.group(0), follow=True)
    assert form.status_code == 200 and b"new_password1" in form.content
    done = browser.post(
        form.redirect_chain[-1][0], {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    )
    assert done.status_code == 302, done.content
    assert done.cookies[devices.cookie_name()].value, "the mailed link proved the owner: a device cookie"
    # Strangers are still kept out, even with the new password; the owner's browser signs in.
    assert sign_in(stranger(), "alice", NEW_PASSWORD).status_code == 429
    assert sign_in(browser, "alice", NEW_PASSWORD).status_code == 302
    assert signed_in_as(browser) == alice.player.user_id


def test_the_api_token_takes_the_device_cookie_in_a_header(rates: None, alice: Actor) -> None:
    first = APIClient(REMOTE_ADDR="10.200.0.1").post(
        "/api/v1/auth/token/", {"username": "alice", "password": PASSWORD}, format="json"
    )
    assert first.status_code == 200
    device = first.json()["device"]
    assert first.cookies[devices.cookie_name()].value == device
    wrong = {"username": "alice", "password": "a-wrong-guess"}
    codes = [
        APIClient(REMOTE_ADDR=f"10.201.0.{i}").post("/api/v1/auth/token/", wrong, format="json").status_code
        for i in range(22)
    ]
    assert codes == [400] * 20 + [429] * 2
    right = {"username": "alice", "password": PASSWORD}
    assert (
        APIClient(REMOTE_ADDR="10.202.0.1").post("/api/v1/auth/token/", right, format="json").status_code
        == 429
    )
    program = APIClient(REMOTE_ADDR="10.202.0.2", HTTP_X_DEVICE_COOKIE=device)
    answer = program.post("/api/v1/auth/token/", right, format="json")
    assert answer.status_code == 200 and answer.json()["token"]
    # Or as the cookie, as a cookie jar sends it back.
    jar = APIClient(REMOTE_ADDR="10.202.0.3")
    jar.cookies[devices.cookie_name()] = device
    assert jar.post("/api/v1/auth/token/", right, format="json").status_code == 200
    # Another account's device value does not help.
    bobs = APIClient(REMOTE_ADDR="10.202.0.4", HTTP_X_DEVICE_COOKIE=device)
    assert (
        bobs.post("/api/v1/auth/token/", {"username": "bob", "password": "x"}, format="json").status_code
        == 400
    )


# ------------------------------------------------------------------ 2. atomic counts


@pytest.fixture
def redis_cache(settings: Any) -> None:
    """The shared cache as in production (Redis), under a key prefix of this test's own (never
    cleared: the server is shared, the keys expire)."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:6379/12",
            "KEY_PREFIX": f"signin-test-{uuid.uuid4().hex}",
        }
    }


def in_parallel(clients: int, each: int, attempt: Callable[[int], int]) -> list[int]:
    start = threading.Barrier(clients)

    def run(c: int) -> list[int]:
        try:
            start.wait()
            return [attempt(c * each + i) for i in range(each)]
        finally:
            connection.close()

    with ThreadPoolExecutor(clients) as pool:
        return [code for codes in pool.map(run, range(clients)) for code in codes]


@pytest.mark.django_db(transaction=True)
def test_parallel_wrong_passwords_never_overrun_the_account_limit(
    rates: None, redis_cache: None, alice: Actor
) -> None:
    def attempt(n: int) -> int:
        browser = Client(REMOTE_ADDR=f"10.99.{n // 256}.{n % 256}")
        return sign_in(browser, "alice", f"wrong-{n}").status_code

    codes = in_parallel(8, 10, attempt)
    assert sorted(codes) == [200] * 20 + [429] * 60, "exactly 20 wrong passwords were checked"


# ------------------------------------------------------------------ 4. passwords end tokens and sessions


def browser_of(actor: Actor) -> Client:
    browser = Client()
    assert browser.login(username=actor.player.user.username, password=PASSWORD)
    return browser


def test_changing_the_password_ends_the_token_and_the_other_sessions(db: None, alice: Actor) -> None:
    here, there = browser_of(alice), browser_of(alice)
    assert alice.get("/api/v1/notifications/").status_code == 200  # the token is cached now
    answer = here.post(
        "/accounts/password_change/",
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert answer.status_code == 302
    assert alice.get("/api/v1/notifications/").status_code == 401, "the token ended, in the cache too"
    assert not Token.objects.filter(user=alice.player.user).exists()
    assert there.get("/accounts/settings/").status_code == 302
    assert here.get("/accounts/settings/").status_code == 200, "the browser that changed it stays"
    assert [r.session_key for r in SessionRecord.objects.all()] == [here.session.session_key]
    # A program gets a new token by signing in again.
    again = APIClient().post(
        "/api/v1/auth/token/", {"username": "alice", "password": NEW_PASSWORD}, format="json"
    )
    assert again.status_code == 200 and again.json()["token"] != alice.token


def test_resetting_the_password_ends_every_token_and_session(db: None, alice: Actor, settings: Any) -> None:
    settings.SITE_URL = "http://testserver"
    verified(alice, "alice@example.org")
    signed_in = browser_of(alice)
    assert alice.get("/api/v1/notifications/").status_code == 200
    browser = Client()
    assert browser.post("/accounts/password_reset/", {"email": "alice@example.org"}).status_code == 302
    link = re.search(
        r"/accounts/reset/[^/\s]+/[^/\s]+/", OutgoingMail.objects.get(key__startswith="reset:").text
    )
    assert link
    form = browser.get(link.group(0), follow=True)
    done = browser.post(
        form.redirect_chain[-1][0], {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    )
    assert done.status_code == 302
    assert alice.get("/api/v1/notifications/").status_code == 401
    assert not Token.objects.filter(user=alice.player.user).exists()
    assert signed_in.get("/accounts/settings/").status_code == 302
    assert not SessionRecord.objects.filter(user=alice.player.user).exists()


def test_a_password_set_in_the_admin_ends_the_token_too(db: None, alice: Actor) -> None:
    boss = get_user_model().objects.create_superuser("boss", password="x-9-long-pw-boss")
    admin = Client()
    admin.force_login(boss)
    assert alice.get("/api/v1/notifications/").status_code == 200
    url = f"/admin/auth/user/{alice.player.user_id}/password/"
    answer = admin.post(
        url, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD, "usable_password": "true"}
    )
    assert answer.status_code == 302, answer.content
    assert alice.get("/api/v1/notifications/").status_code == 401
    # Other saves of the account leave the token alone.
    user = get_user_model().objects.get(pk=alice.player.user_id)
    token = Token.objects.create(user=user)
    user.first_name = "Alice"
    user.save()
    assert Token.objects.filter(key=token.key).exists()


def test_a_reset_from_a_browser_signed_in_to_the_account_signs_it_out_too(
    db: None, alice: Actor, settings: Any
) -> None:
    settings.SITE_URL = "http://testserver"
    verified(alice, "alice@example.org")
    browser, other = browser_of(alice), browser_of(alice)
    assert browser.post("/accounts/password_reset/", {"email": "alice@example.org"}).status_code == 302
    link = re.search(
        r"/accounts/reset/[^/\s]+/[^/\s]+/", OutgoingMail.objects.get(key__startswith="reset:").text
    )
    assert link
    form = browser.get(link.group(0), follow=True)
    done = browser.post(
        form.redirect_chain[-1][0], {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    )
    assert done.status_code == 302
    assert browser.get(done["Location"]).status_code == 200
    assert signed_in_as(browser) is None and other.get("/accounts/settings/").status_code == 302
    assert not SessionRecord.objects.filter(user=alice.player.user).exists()
    assert sign_in(browser, "alice", NEW_PASSWORD).status_code == 302


# ------------------------------------------------------------------ 14. the sessions page


@pytest.fixture
def three_sessions(db: None, alice: Actor) -> Iterator[tuple[Client, Client, Client]]:
    yield browser_of(alice), browser_of(alice), browser_of(alice)


def test_the_sessions_page_shows_no_session_key(three_sessions: tuple[Client, Client, Client]) -> None:
    here = three_sessions[0]
    page = here.get("/accounts/settings/sessions/")
    assert page.status_code == 200 and page.content.count(b"<tr") == 4
    keys = [r.session_key for r in SessionRecord.objects.all()] + [
        b.session.session_key for b in three_sessions
    ]
    assert len(set(keys)) == 3
    for key in keys:
        assert key.encode() not in page.content
    for record in SessionRecord.objects.exclude(session_key=here.session.session_key):
        assert f'value="{record.public_id()}"'.encode() in page.content


def test_a_session_is_logged_out_by_its_opaque_id_and_not_by_its_key(
    three_sessions: tuple[Client, Client, Client],
) -> None:
    here, there, elsewhere = three_sessions
    other = SessionRecord.objects.get(session_key=there.session.session_key)
    third = SessionRecord.objects.get(session_key=elsewhere.session.session_key)
    # The raw key does nothing.
    r = here.post("/accounts/settings/sessions/", {"session": third.session_key}, follow=True)
    assert b"That session had already ended" in r.content
    assert elsewhere.get("/accounts/settings/").status_code == 200
    # The opaque id logs that one session out.
    r = here.post("/accounts/settings/sessions/", {"session": other.public_id()}, follow=True)
    assert b"That session is logged out" in r.content
    assert there.get("/accounts/settings/").status_code == 302
    assert elsewhere.get("/accounts/settings/").status_code == 200
    assert here.get("/accounts/settings/").status_code == 200
    # This browser's own id is refused (log out instead).
    mine = SessionRecord.objects.get(session_key=here.session.session_key).public_id()
    r = here.post("/accounts/settings/sessions/", {"session": mine}, follow=True)
    assert b"That is this browser" in r.content
    assert here.get("/accounts/settings/").status_code == 200
