"""The API's request throttles (common.throttles): a sliding count per client and scope, one
integer per window in the cache, whatever the rate. The scopes, idents and the 429 answer are tested in
test_throttling.py; here, on a fake clock: the window, Retry-After, what the cache holds, and
that the cost of a request does not grow with the rate."""

from __future__ import annotations

import pickle
import threading
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.test import APIClient, APIRequestFactory
from rest_framework.throttling import SimpleRateThrottle

from common import throttles
from common.throttles import AnonThrottle, ScopedThrottle, UserThrottle

from .conftest import Actor

MINUTE = 60
#: 10 s into a window (window number 100000 of a minute).
START = 100_000 * MINUTE + 10.0


class Clock:
    """The throttles' ``timer``: a callable instance (not a function, which would become a method)."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    fake = Clock(START)
    monkeypatch.setattr(SimpleRateThrottle, "timer", fake)
    return fake


@pytest.fixture
def rates(monkeypatch: pytest.MonkeyPatch, db: None) -> Iterator[dict[str, str | None]]:
    """Tiny rates. The throttles read them from a class attribute bound when DRF was imported."""
    low: dict[str, str | None] = {"anon": "2/min", "user": "3/min", "watch": "2/min"}
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", low)
    cache.clear()
    yield low
    cache.clear()


def window(at: float) -> int:
    return int(at // MINUTE)


def drf_request(user: Any = None, address: str = "127.0.0.1") -> Request:
    request = Request(APIRequestFactory().get("/api/v1/tables/", REMOTE_ADDR=address))
    request.user = user or AnonymousUser()
    return request


def test_the_api_uses_the_counting_throttles() -> None:
    assert [AnonThrottle, UserThrottle] == api_settings.DEFAULT_THROTTLE_CLASSES


def test_the_next_request_past_the_rate_is_refused_until_retry_after(
    rates: Any, clock: Clock, alice: Actor
) -> None:
    assert [alice.get("/api/v1/tables/").status_code for _ in range(3)] == [200] * 3
    refused = alice.get("/api/v1/tables/")
    assert refused.status_code == 429 and refused.json()["code"] == "throttled"
    # 3 requests 10 s into the window: the estimate admits one more when 0 + 1 + 3 x (the share
    # of the previous window still inside the last minute) <= 3, 20 s into the next window.
    assert refused["Retry-After"] == "70"
    clock.now += 69
    assert alice.get("/api/v1/tables/").status_code == 429, "Retry-After is not too early"
    clock.now += 1
    assert alice.get("/api/v1/tables/").status_code == 200, "nor too late"
    # Now 1 + 3 x 40/60 = 3 are in the sliding minute: the next one fits when the previous
    # window's share has fallen to 1, 20 s later.
    again = alice.get("/api/v1/tables/")
    assert again.status_code == 429 and again["Retry-After"] == "20"
    clock.now += 19
    assert alice.get("/api/v1/tables/").status_code == 429
    clock.now += 1
    assert alice.get("/api/v1/tables/").status_code == 200
    # Two windows on, the previous one is empty: the whole rate again.
    clock.now += 2 * MINUTE
    assert [alice.get("/api/v1/tables/").status_code for _ in range(4)] == [200] * 3 + [429]


def test_a_window_boundary_does_not_double_the_rate(rates: Any, clock: Clock, alice: Actor) -> None:
    clock.now = (window(START) + 1) * MINUTE - 0.5  # half a second before a window ends
    assert [alice.get("/api/v1/tables/").status_code for _ in range(3)] == [200] * 3
    clock.now += 1  # half a second into the next
    assert alice.get("/api/v1/tables/").status_code == 429


def test_the_counts_are_per_user_and_per_address(rates: Any, clock: Clock, alice: Actor, bob: Actor) -> None:
    for _ in range(3):
        alice.get("/api/v1/tables/")
    assert alice.get("/api/v1/tables/").status_code == 429
    assert bob.get("/api/v1/tables/").status_code == 200, "same address, another user"
    here = APIClient(REMOTE_ADDR="10.0.0.1")
    assert [here.get("/api/v1/tables/").status_code for _ in range(3)] == [200, 200, 429]
    assert APIClient(REMOTE_ADDR="10.0.0.2").get("/api/v1/tables/").status_code == 200


def test_the_cache_holds_one_integer_per_client_scope_and_window(
    rates: Any, clock: Clock, alice: Actor, settings: Any
) -> None:
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    for _ in range(3):
        alice.get("/api/v1/tables/")
    alice.get("/api/v1/tables/")  # refused: not counted
    proxy = APIClient(REMOTE_ADDR="10.0.0.9")
    for _ in range(2):
        proxy.get("/api/v1/tables/", HTTP_X_FORWARDED_FOR="1.2.3.4, 198.51.100.7")
    w = window(START)
    # Anonymous requests count against both the anon and the user rate (DRF's rules), per the
    # address the trusted proxy saw.
    expected = {
        f"throttle:user:{alice.player.user_id}:{w}": 3,
        f"throttle:anon:198.51.100.7:{w}": 2,
        f"throttle:user:198.51.100.7:{w}": 2,
    }
    assert cache.get_many(list(expected)) == expected
    assert all(type(v) is int for v in cache.get_many(list(expected)).values())
    # The next window's key also carries the previous window's count (above 32 bits), read once
    # by the request that made it.
    clock.now += 70  # the Retry-After of the refused request
    assert alice.get("/api/v1/tables/").status_code == 200
    assert cache.get(f"throttle:user:{alice.player.user_id}:{w + 1}") == (3 << 32) + 1


class CountingCache:
    """The real cache, with the calls a throttle makes written down."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def __getattr__(self, name: str) -> Any:
        value = getattr(cache, name)  # a method the cache does not have is not a call
        self.calls.append(name)
        return value


@pytest.mark.parametrize("rate", ["5/min", "100000/min"])
def test_a_requests_cost_does_not_grow_with_the_rate_or_the_count(
    rates: dict[str, Any], clock: Clock, rate: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    rates["anon"] = rate
    counting = CountingCache()
    monkeypatch.setattr(throttles, "cache", counting)
    request = drf_request(address="10.1.1.1")
    calls = []
    for _ in range(5):
        counting.calls.clear()
        assert AnonThrottle().allow_request(request, None)
        calls.append(list(counting.calls))
        clock.now += 0.001
    key = f"throttle:anon:10.1.1.1:{window(START)}"
    assert cache.get(key) == 5 and len(pickle.dumps(cache.get(key))) < 16
    # The window's first request makes the count (a failed increment, a read of the previous
    # window's count, add); every other one is one increment.
    assert calls[0] == ["incr", "get", "add"]
    assert calls[1:] == [["incr"]] * 4


def test_a_refused_request_is_not_counted(rates: Any, clock: Clock, monkeypatch: pytest.MonkeyPatch) -> None:
    request = drf_request(address="10.1.1.2")
    for _ in range(2):
        assert AnonThrottle().allow_request(request, None)
    counting = CountingCache()
    monkeypatch.setattr(throttles, "cache", counting)
    throttle = AnonThrottle()
    assert not throttle.allow_request(request, None)
    assert counting.calls == ["incr", "decr"], "counted, then given back"
    assert cache.get(f"throttle:anon:10.1.1.2:{window(START)}") == 2
    assert throttle.wait() == 60 - 10 + 60 * (1 - 1 / 2)


def admitted_in_parallel(address: str, requests: int = 12) -> int:
    """How many of ``requests`` requests from ``address``, sent at once from as many threads, the
    user throttle admits."""
    request = drf_request(address=address)
    start = threading.Barrier(requests)
    admitted: list[bool] = []

    def one() -> None:
        start.wait()
        admitted.append(UserThrottle().allow_request(request, None))

    threads = [threading.Thread(target=one) for _ in range(requests)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return admitted.count(True)


def test_parallel_requests_do_not_overrun_the_rate(rates: Any, clock: Clock) -> None:
    assert admitted_in_parallel("10.1.1.3") == 3
    assert cache.get(f"throttle:user:10.1.1.3:{window(START)}") == 3


def test_a_scope_without_a_rate_is_not_counted(rates: dict[str, Any], clock: Clock) -> None:
    # THROTTLE_OFF sets every rate to None (and lists no default throttle).
    rates["user"] = None
    assert all(UserThrottle().allow_request(drf_request(address="10.1.1.4"), None) for _ in range(10))
    assert cache.get(f"throttle:user:10.1.1.4:{window(START)}") is None


def test_a_views_scope_is_counted_per_user(rates: Any, clock: Clock, alice: Actor) -> None:
    class View:
        throttle_scope = "watch"

    user = alice.player.user
    assert [ScopedThrottle().allow_request(drf_request(user), View()) for _ in range(3)] == [
        True,
        True,
        False,
    ]
    assert ScopedThrottle().allow_request(drf_request(), View()), "another client"
    assert cache.get(f"throttle:watch:{user.pk}:{window(START)}") == 2
    assert ScopedThrottle().allow_request(drf_request(user), object()), "a view without a scope"


# ------------------------------------------------------------------ on Redis


@pytest.fixture
def redis_cache(settings: Any) -> str:
    """The production cache (``common.cache.FallbackRedisCache``) on the shared Redis, under a key
    prefix of this test's own (never cleared: the server is shared, the keys expire)."""
    prefix = f"throttle-test-{uuid.uuid4().hex}"
    settings.CACHES = {
        "default": {
            "BACKEND": "common.cache.FallbackRedisCache",
            "LOCATION": "redis://127.0.0.1:6379/12",
            "KEY_PREFIX": prefix,
        }
    }
    return prefix


def test_on_redis_a_request_is_one_script_and_the_counts_are_the_same(
    rates: Any, clock: Clock, redis_cache: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    counting = CountingCache()
    monkeypatch.setattr(throttles, "cache", counting)
    request = drf_request(address="10.2.2.1")
    admitted = []
    for _ in range(3):
        counting.calls.clear()
        admitted.append(AnonThrottle().allow_request(request, None))
        assert counting.calls[0] == "run_script", "one round trip, however the count stands"
    assert admitted == [True, True, False]
    assert counting.calls == ["run_script", "decr"], "the refused one is given back"
    w = window(START)
    key = f"throttle:anon:10.2.2.1:{w}"
    assert cache.get(key) == 2
    # The key expires with its window's successor (two windows), as the memory cache's does.
    raw = cache._cache.get_client()  # type: ignore[attr-defined]
    assert 60 < raw.ttl(cache.make_key(key)) <= 120
    # The next window's first request carries this window's count above 32 bits (50 s into it,
    # the estimate is 2 * 10/60 + 1: admitted).
    clock.now += 100
    assert AnonThrottle().allow_request(request, None)
    assert cache.get(f"throttle:anon:10.2.2.1:{w + 1}") == (2 << 32) + 1


@pytest.mark.django_db(transaction=True)
def test_on_redis_parallel_requests_do_not_overrun_the_rate(
    rates: Any, clock: Clock, redis_cache: str
) -> None:
    assert admitted_in_parallel("10.2.2.2") == 3
    assert cache.get(f"throttle:user:10.2.2.2:{window(START)}") == 3


def test_while_redis_is_away_the_counts_go_on_in_memory(rates: Any, clock: Clock, settings: Any) -> None:
    # Nothing listens on port 1: the script cannot run, and the cache's plain calls count in
    # this process's memory meanwhile.
    settings.CACHES = {
        "default": {"BACKEND": "common.cache.FallbackRedisCache", "LOCATION": "redis://127.0.0.1:1/0"}
    }
    request = drf_request(address="10.2.2.3")
    assert [AnonThrottle().allow_request(request, None) for _ in range(3)] == [True, True, False]
    assert cache.redis_down  # type: ignore[attr-defined]
    assert cache.get(f"throttle:anon:10.2.2.3:{window(START)}") == 2
