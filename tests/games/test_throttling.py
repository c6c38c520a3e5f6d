"""Rate limits: anonymous and per-user reads, and the separate "auth" scope for accounts and tokens."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from .conftest import Actor

RATES = {"anon": "3/min", "user": "5/min", "auth": "2/min", "login_account": "3/min"}


@pytest.fixture
def low_limits(settings: Any, monkeypatch: pytest.MonkeyPatch, db: None) -> Iterator[None]:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": dict(RATES),
    }
    # The throttles read their rates from a class attribute bound when DRF was imported.
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", dict(RATES))
    cache.clear()
    yield
    cache.clear()


def assert_throttled(response: Any) -> None:
    assert response.status_code == 429
    body = response.json()
    assert set(body) == {"detail", "code"}, body
    assert body["code"] == "throttled"
    assert isinstance(body["detail"], str) and "throttled" in body["detail"].lower()
    assert int(response["Retry-After"]) > 0


def test_anonymous_reads_get_429_after_the_anonymous_limit(low_limits: None) -> None:
    client = APIClient()
    codes = [client.get("/api/v1/tables/").status_code for _ in range(3)]
    assert codes == [200, 200, 200]
    assert_throttled(client.get("/api/v1/tables/"))
    # The count is per client address, and every throttled endpoint shares it.
    assert_throttled(client.get("/api/v1/players/"))
    other = APIClient(REMOTE_ADDR="10.1.2.3")
    assert other.get("/api/v1/tables/").status_code == 200


def test_the_health_check_is_never_throttled(low_limits: None) -> None:
    client = APIClient()
    for _ in range(4):
        client.get("/api/v1/tables/")
    assert client.get("/api/v1/tables/").status_code == 429
    assert all(client.get("/api/v1/health/").status_code == 200 for _ in range(5))


def test_a_logged_in_player_has_the_user_limit_not_the_anonymous_one(low_limits: None, alice: Actor) -> None:
    anon = APIClient()
    for _ in range(3):
        assert anon.get("/api/v1/tables/").status_code == 200
    assert anon.get("/api/v1/tables/").status_code == 429
    # Same address, but authenticated: counted against alice's own (higher) limit.
    codes = [alice.get("/api/v1/tables/").status_code for _ in range(5)]
    assert codes == [200] * 5
    assert_throttled(alice.get("/api/v1/tables/"))


def test_the_auth_endpoints_have_their_own_scope(low_limits: None) -> None:
    client = APIClient()
    # Exhaust the anonymous read limit: the auth endpoints do not count against it...
    for _ in range(3):
        client.get("/api/v1/tables/")
    assert client.get("/api/v1/tables/").status_code == 429
    r = client.post(
        "/api/v1/auth/register/", {"username": "dora", "password": "correct-horse-9"}, format="json"
    )
    assert r.status_code == 201, r.json()
    r = client.post("/api/v1/auth/token/", {"username": "dora", "password": "correct-horse-9"}, format="json")
    assert r.status_code == 200 and r.json()["token"]
    # ...but have a limit of their own, shared by registration and token requests.
    assert_throttled(
        client.post("/api/v1/auth/token/", {"username": "dora", "password": "correct-horse-9"}, format="json")
    )
    assert_throttled(
        client.post(
            "/api/v1/auth/register/", {"username": "eve", "password": "correct-horse-9"}, format="json"
        )
    )
    assert not get_user_model().objects.filter(username="eve").exists(), "a throttled request does nothing"


def test_failed_logins_use_up_the_auth_limit(low_limits: None) -> None:
    client = APIClient()
    bad = {"username": "nobody", "password": "wrong-password"}
    codes = [client.post("/api/v1/auth/token/", bad, format="json").status_code for _ in range(2)]
    assert codes == [400, 400]
    assert_throttled(client.post("/api/v1/auth/token/", bad, format="json"))
    # The anonymous read budget is untouched.
    assert [client.get("/api/v1/tables/").status_code for _ in range(3)] == [200, 200, 200]
    # Another address still may try.
    other = APIClient(REMOTE_ADDR="10.9.8.7")
    assert other.post("/api/v1/auth/token/", bad, format="json").status_code == 400


def test_the_limits_reset_with_the_cache(low_limits: None) -> None:
    client = APIClient()
    for _ in range(3):
        client.get("/api/v1/tables/")
    assert client.get("/api/v1/tables/").status_code == 429
    cache.clear()
    assert client.get("/api/v1/tables/").status_code == 200


# ------------------------------------------------------------------ who the client is


def test_a_made_up_forwarded_for_header_does_not_give_a_new_identity(low_limits: None) -> None:
    client = APIClient()
    codes = [
        client.get("/api/v1/tables/", HTTP_X_FORWARDED_FOR=f"203.0.113.{i}").status_code for i in range(4)
    ]
    assert codes == [200, 200, 200, 429], "with no trusted proxy the header is ignored"
    bad = {"username": "nobody", "password": "wrong-password"}
    tries = [
        client.post("/api/v1/auth/token/", bad, format="json", HTTP_X_FORWARDED_FOR=f"198.51.100.{i}")
        for i in range(3)
    ]
    assert [r.status_code for r in tries] == [400, 400, 429]


def test_behind_a_trusted_proxy_the_address_it_saw_is_the_client(low_limits: None, settings: Any) -> None:
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    proxy = APIClient(REMOTE_ADDR="10.0.0.2")  # every request arrives from the proxy
    # A client puts fake entries first; the proxy appends the address it saw (the last entry).
    codes = [
        proxy.get("/api/v1/tables/", HTTP_X_FORWARDED_FOR=f"1.2.3.{i}, 198.51.100.7").status_code
        for i in range(4)
    ]
    assert codes == [200, 200, 200, 429]
    # Another client behind the same proxy has its own count.
    assert proxy.get("/api/v1/tables/", HTTP_X_FORWARDED_FOR="198.51.100.8").status_code == 200


# ------------------------------------------------------------------ signing in, per account


def test_failed_sign_ins_are_limited_per_account_from_any_address(low_limits: None, alice: Actor) -> None:
    wrong = {"username": "ALICE", "password": "not-her-password"}  # names are compared case-folded
    for i in range(3):
        r = APIClient(REMOTE_ADDR=f"10.7.0.{i}").post("/api/v1/auth/token/", wrong, format="json")
        assert r.status_code == 400
    fresh = APIClient(REMOTE_ADDR="10.7.1.1")
    right = {"username": "alice", "password": "correct-horse-9"}
    blocked = fresh.post("/api/v1/auth/token/", right, format="json")
    assert_throttled(blocked)
    assert "account" in blocked.json()["detail"]
    # Other accounts are not affected.
    other = APIClient(REMOTE_ADDR="10.7.1.2")
    assert (
        other.post("/api/v1/auth/token/", {"username": "bob", "password": "x"}, format="json").status_code
        == 400
    )
    cache.clear()
    assert fresh.post("/api/v1/auth/token/", right, format="json").status_code == 200


def test_signing_in_right_is_never_counted_against_the_account(low_limits: None, alice: Actor) -> None:
    right = {"username": "alice", "password": "correct-horse-9"}
    codes = [
        APIClient(REMOTE_ADDR=f"10.8.0.{i}").post("/api/v1/auth/token/", right, format="json").status_code
        for i in range(6)
    ]
    assert codes == [200] * 6


def test_the_sign_in_page_has_the_same_limits(low_limits: None, alice: Actor) -> None:
    from django.test import Client

    wrong = {"username": "alice", "password": "nope-nope-nope"}
    for i in range(3):
        page = Client(REMOTE_ADDR=f"10.9.0.{i}")
        assert page.post("/accounts/login/", wrong).status_code == 200  # the form again, with its error
    page = Client(REMOTE_ADDR="10.9.1.1")
    r = page.post("/accounts/login/", {"username": "alice", "password": "correct-horse-9"})
    assert r.status_code == 429 and b"Too many sign-in attempts" in r.content
    assert "_auth_user_id" not in page.session
    # Per address too: two attempts (the "auth" rate) from one address, whatever the account.
    cache.clear()
    one = Client(REMOTE_ADDR="10.9.2.2")
    assert one.post("/accounts/login/", {"username": "x", "password": "y"}).status_code == 200
    assert one.post("/accounts/login/", {"username": "z", "password": "y"}).status_code == 200
    assert one.post("/accounts/login/", {"username": "w", "password": "y"}).status_code == 429
