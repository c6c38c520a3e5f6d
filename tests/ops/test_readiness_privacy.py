"""``health/ready/`` for strangers: the status and one word, never which dependency is down or where
it lives; the checks for local clients and for the metrics token (as ``/metrics``); and a rate limit
per address that a load balancer's probes never reach."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from games import health

from .redis_server import free_port

pytestmark = pytest.mark.django_db

READY = "/api/v1/health/ready/"
REMOTE = "203.0.113.7"  # TEST-NET-3: not the loopback


@pytest.fixture
def redis_down(settings: Any) -> str:
    """Redis at a port where nothing listens (the readiness check connects there); its address."""
    port = free_port()
    settings.REDIS_URL = f"redis://127.0.0.1:{port}/0"
    health.beat(health.CLOCK_SWEEP)  # only Redis fails
    return f"127.0.0.1:{port}"


def test_a_remote_client_sees_only_the_status_not_where_the_dependencies_live(redis_down: str) -> None:
    r = APIClient(REMOTE_ADDR=REMOTE).get(READY)
    assert r.status_code == 200, "Redis down degrades the service, the host still serves"
    body = r.json()
    assert body["status"] == "ready" and "checks" not in body and "degraded" not in body
    text = r.content.decode()
    assert redis_down.split(":")[1] not in text and "redis" not in text.lower()


def test_a_proxied_request_from_the_loopback_is_a_stranger_too(redis_down: str) -> None:
    r = APIClient(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=REMOTE).get(READY)
    assert r.status_code == 200 and r.json()["status"] == "ready" and "checks" not in r.json()


def test_the_metrics_token_and_the_loopback_see_the_checks(redis_down: str, settings: Any) -> None:
    settings.METRICS_TOKEN = "s3cret-scrape"
    with_token = APIClient(REMOTE_ADDR=REMOTE, HTTP_AUTHORIZATION="Bearer s3cret-scrape").get(READY)
    assert with_token.status_code == 200 and with_token.json()["status"] == "degraded"
    assert with_token.json()["checks"]["redis"]["ok"] is False
    assert with_token.json()["degraded"] == ["redis"]
    assert redis_down in with_token.json()["checks"]["redis"]["error"]
    wrong = APIClient(REMOTE_ADDR=REMOTE, HTTP_AUTHORIZATION="Bearer guessed").get(READY)
    assert "checks" not in wrong.json() and wrong.json()["status"] == "ready"
    local = APIClient(REMOTE_ADDR="127.0.0.1").get(READY)
    assert redis_down in local.json()["checks"]["redis"]["error"]


def test_readiness_is_throttled_per_address_above_a_load_balancers_rate(monkeypatch: Any) -> None:
    rates = {**SimpleRateThrottle.THROTTLE_RATES, "ready": "3/min"}
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)
    health.beat(health.CLOCK_SWEEP)
    prober = APIClient(REMOTE_ADDR=REMOTE)
    assert [prober.get(READY).status_code for _ in range(3)] == [200, 200, 200]
    r = prober.get(READY)
    assert r.status_code == 429 and r.json()["code"] == "throttled" and "Retry-After" in r
    assert APIClient(REMOTE_ADDR="198.51.100.9").get(READY).status_code == 200, "another address"


def test_the_default_rate_lets_a_load_balancer_probe_every_second(settings: Any) -> None:
    rate = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["ready"]
    number, _, unit = rate.partition("/")
    assert int(number) / {"s": 1, "m": 60, "h": 3600, "d": 86400}[unit[0]] >= 1, rate
