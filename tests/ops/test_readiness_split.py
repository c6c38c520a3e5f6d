"""Readiness answers what a load balancer needs: can this process serve (its database answers)?
Redis, the clock sweep, overdue tables and stranded bot turns are the operator's business: the
service is then "degraded" (still 200), the privileged clients see which checks, and each such
state has a gauge in ``/metrics`` to alert on. Only the database down answers 503."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families
from rest_framework.test import APIClient

from games import health
from games.models import Heartbeat, Table
from tests.games.conftest import Actor, started_table

from .dead_database import database_down
from .redis_server import free_port
from .test_backstops import age, bot_table

pytestmark = pytest.mark.django_db

READY = "/api/v1/health/ready/"
REMOTE = "203.0.113.7"  # TEST-NET-3: a stranger


@pytest.fixture(autouse=True)
def _sweeps(settings: Any) -> Iterator[None]:
    """A clock sweep ran just now, with the default limits (30 s): each test breaks one thing."""
    settings.CLOCK_SWEEP_SECONDS = 2
    settings.OVERDUE_SECONDS = 30
    settings.BOT_STRANDED_SECONDS = 60
    health.beat(health.CLOCK_SWEEP)
    yield


def local() -> Any:
    """A privileged client: the loopback, not proxied (it sees the checks)."""
    return APIClient(REMOTE_ADDR="127.0.0.1")


def assert_degraded(names: list[str]) -> dict[str, Any]:
    r = local().get(READY)
    assert r.status_code == 200, r.content
    body = r.json()
    assert body["status"] == "degraded" and body["degraded"] == names, body
    assert body["checks"]["database"]["ok"] is True
    for name in names:
        assert body["checks"][name]["ok"] is False
    stranger = APIClient(REMOTE_ADDR=REMOTE).get(READY)
    assert stranger.status_code == 200
    assert stranger.json()["status"] == "ready", "a stranger learns nothing of what is degraded"
    assert not {"checks", "degraded"} & stranger.json().keys()
    return body


def test_all_well_is_ready_with_nothing_degraded() -> None:
    r = local().get(READY)
    assert r.status_code == 200
    assert r.json()["status"] == "ready" and r.json()["degraded"] == []


def test_redis_down_leaves_the_host_in_service_and_names_redis(settings: Any) -> None:
    port = free_port()
    settings.REDIS_URL = f"redis://127.0.0.1:{port}/0"  # nothing listens: the check connects there
    body = assert_degraded(["redis"])
    assert f"127.0.0.1:{port}" in body["checks"]["redis"]["error"]


def test_an_old_clock_sweep_is_degraded_not_unready() -> None:
    health.beat(health.CLOCK_SWEEP, timezone.now() - timedelta(seconds=31))
    body = assert_degraded(["clock_sweep"])
    assert body["checks"]["clock_sweep"]["age_seconds"] >= 31


def test_a_sweep_that_never_ran_is_degraded_not_unready() -> None:
    Heartbeat.objects.all().delete()
    assert_degraded(["clock_sweep"])


def test_a_stuck_bot_turn_is_degraded_not_unready(alice: Actor) -> None:
    age(bot_table(alice), 61)
    body = assert_degraded(["bot_turns"])
    assert body["checks"]["bot_turns"]["stranded"] == 1


def test_an_overdue_table_is_degraded_not_unready(alice: Actor, bob: Actor) -> None:
    table = started_table([alice, bob], time_control={"kind": "fischer", "base": 60, "increment": 0})
    Table.objects.filter(pk=table.pk).update(deadline=timezone.now() - timedelta(seconds=60))
    body = assert_degraded(["overdue_tables"])
    assert body["checks"]["overdue_tables"]["count"] == 1


def test_several_degraded_checks_are_all_named(alice: Actor, settings: Any) -> None:
    settings.REDIS_URL = f"redis://127.0.0.1:{free_port()}/0"
    health.beat(health.CLOCK_SWEEP, timezone.now() - timedelta(seconds=31))
    age(bot_table(alice), 61)
    assert_degraded(["redis", "clock_sweep", "bot_turns"])


def test_the_database_down_takes_the_host_out() -> None:
    with database_down():
        r = local().get(READY)
        stranger = APIClient(REMOTE_ADDR=REMOTE).get(READY)
    assert r.status_code == 503, r.content
    body = r.json()
    assert body["status"] == "unready" and body["checks"]["database"]["ok"] is False
    assert body["checks"]["database"]["error"]
    assert stranger.status_code == 503 and stranger.json()["status"] == "unready"
    assert "checks" not in stranger.json()
    assert local().get(READY).status_code == 200, "back once the database answers"


def gauges() -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    r = local().get("/metrics")
    assert r.status_code == 200
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(r.content.decode())
        for sample in family.samples
    }


def test_every_degraded_state_has_a_gauge_to_alert_on(alice: Actor, bob: Actor, settings: Any) -> None:
    well = gauges()
    assert well[("pacru_sweep_age_seconds", (("sweep", health.CLOCK_SWEEP),))] < 30
    assert well[("pacru_overdue_tables", ())] == 0 and well[("pacru_stranded_bot_turns", ())] == 0

    settings.REDIS_URL = f"redis://127.0.0.1:{free_port()}/0"
    health.beat(health.CLOCK_SWEEP, timezone.now() - timedelta(seconds=31))
    age(bot_table(alice), 61)
    table = started_table([alice, bob], time_control={"kind": "fischer", "base": 60, "increment": 0})
    Table.objects.filter(pk=table.pk).update(deadline=timezone.now() - timedelta(seconds=60))
    assert local().get(READY).json()["degraded"] == ["redis", "clock_sweep", "overdue_tables", "bot_turns"]
    bad = gauges()
    assert bad[("pacru_redis_up", ())] == 0
    assert bad[("pacru_sweep_age_seconds", (("sweep", health.CLOCK_SWEEP),))] >= 31
    assert bad[("pacru_overdue_tables", ())] == 1
    assert bad[("pacru_stranded_bot_turns", ())] == 1


def test_a_sweep_that_never_ran_reads_as_infinitely_old() -> None:
    Heartbeat.objects.all().delete()
    assert gauges()[("pacru_sweep_age_seconds", (("sweep", health.CLOCK_SWEEP),))] == float("inf")


def test_the_schema_documents_degraded() -> None:
    schema = APIClient().get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()
    ready = schema["components"]["schemas"]["ReadyOut"]
    assert "degraded" in ready["properties"]["status"]["description"]
    assert ready["properties"]["degraded"]["type"] == "array"
