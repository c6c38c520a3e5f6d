"""``/metrics``: the counters move by exactly what was done, the scrape-time gauges are there,
remote clients need the token, and the samples of several processes are added up."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from prometheus_client.parser import text_string_to_metric_families
from rest_framework.test import APIClient

import games.tasks  # noqa: F401  (registers the tasks the eager sends run by name)
import ratings.tasks
import tournaments.tasks  # noqa: F401
from common import metrics
from common.metrics import Readings, ReadingsCollector
from games import services
from games.models import Table
from tests.games.conftest import Actor, every_seat_moves, started_table

ROOT = Path(__file__).resolve().parents[2]
GRACE = timedelta(seconds=settings.CLOCK_GRACE_SECONDS)


def scrape(client: Any = None, **headers: Any) -> str:
    r = (client or APIClient()).get("/metrics", **headers)
    assert r.status_code == 200, r.content
    assert r["Content-Type"] == CONTENT_TYPE_LATEST
    return r.content.decode()


def value(text: str, name: str, **labels: str) -> float:
    """The sample ``name`` with these labels (0 when absent: a labelled counter not yet used)."""
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name and all(sample.labels.get(k) == v for k, v in labels.items()):
                return float(sample.value)
    return 0.0


def names(text: str) -> set[str]:
    return {family.name for family in text_string_to_metric_families(text)}


def post_move(actor: Actor, table: Table, ply: int, move: str) -> Any:
    return actor.post(f"/api/v1/tables/{table.pk}/moves/", {"ply": ply, "move": move})


def test_moves_and_a_timeout_are_counted_exactly(
    alice: Actor, bob: Actor, carol: Actor, django_capture_on_commit_callbacks: Any
) -> None:
    before = scrape()
    table = started_table([alice, bob], "pacru")
    assert post_move(alice, table, 0, "e1-e2").status_code == 201
    assert post_move(bob, table, 1, "e9-e8").status_code == 201
    assert post_move(alice, table, 2, "a3-a4").status_code == 400  # illegal: faces E
    assert post_move(alice, table, 1, "e2-e3").status_code == 409  # stale ply
    assert post_move(alice, table, 2, "e2-e3").status_code == 201

    # A three-player table (a timeout leaves it running): seat 2 lets its clock run out.
    timed = services.table_create(
        creator=alice.player, game="pacru", players=3, time_control={"kind": "fischer", "base": 10}
    )
    for actor in (bob, carol):
        services.seat_join(table_id=timed.pk, player=actor.player)
    timed.refresh_from_db()
    services.move_submit(table_id=timed.pk, player=alice.player, ply=0, move="g9-g8", now=timed.started_at)
    timed.refresh_from_db()
    late = timed.deadline + GRACE + timedelta(seconds=2)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.sweep_overdue(now=late) == 1
    timed.refresh_from_db()
    assert timed.status == Table.Status.ACTIVE and timed.position["eliminated"] == [2]

    after = scrape()

    def delta(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert delta("pacru_moves_adjudicated_total", result="accepted") == 4
    assert delta("pacru_moves_adjudicated_total", result="illegal_move") == 1
    assert delta("pacru_moves_adjudicated_total", result="stale_ply") == 1
    assert delta("pacru_moves_adjudicated_total", result="not_your_turn") == 0
    assert delta("pacru_move_adjudication_seconds_count") == 6
    assert delta("pacru_move_adjudication_seconds_bucket", le="+Inf") == 6
    assert delta("pacru_timeouts_applied_total", kind="timeout") == 1
    assert delta("pacru_timeouts_applied_total", kind="aborted") == 0
    assert delta("pacru_timeout_lag_seconds_count") == 1
    assert delta("pacru_timeout_lag_seconds_sum") == pytest.approx(2.0)
    assert delta("pacru_timeout_lag_seconds_bucket", le="1.0") == 0
    assert delta("pacru_timeout_lag_seconds_bucket", le="2.0") == 1
    # Read at scrape time; no Redis in these tests, so no broker gauges.
    assert value(after, "pacru_overdue_tables") == 0
    assert value(after, "pacru_stranded_bot_turns") == 0
    assert value(after, "pacru_database_up") == 1
    assert "pacru_redis_up" not in names(after)


def test_an_abort_and_a_rating_update_are_counted(
    alice: Actor, bob: Actor, django_capture_on_commit_callbacks: Any
) -> None:
    before = scrape()
    table = services.table_create(
        creator=alice.player, game="pacru", players=2, time_control={"kind": "fischer", "base": 60}
    )
    services.seat_join(table_id=table.pk, player=bob.player)
    table.refresh_from_db()
    late = table.deadline + GRACE + timedelta(seconds=1)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.clock_timeout_apply(table_id=table.pk, now=late) == "aborted"
    # Counted once committed: a timeout applied in a transaction rolled back is not counted.
    middle = scrape()
    finished = every_seat_moves(started_table([alice, bob], "shacru"))  # else aborted, not rated
    services.game_resign(table_id=finished.pk, player=bob.player)
    assert ratings.tasks.rate_pending.apply().get() == 1
    after = scrape()
    assert (
        value(middle, "pacru_timeouts_applied_total", kind="aborted")
        - value(before, "pacru_timeouts_applied_total", kind="aborted")
        == 1
    )
    assert (
        value(after, "pacru_rating_updates_applied_total")
        - value(middle, "pacru_rating_updates_applied_total")
        == 1
    )


def test_task_outcomes_are_counted(db: None) -> None:
    before = scrape()
    assert ratings.tasks.rate_pending.apply().successful()
    assert ratings.tasks.rate_table.apply(args=("not a table",)).failed()
    after = scrape()
    for outcome, task in (("success", "ratings.tasks.rate_pending"), ("failure", "ratings.tasks.rate_table")):
        labels = {"task": task, "outcome": outcome}
        assert (
            value(after, "pacru_celery_tasks_total", **labels)
            - value(before, "pacru_celery_tasks_total", **labels)
            == 1
        ), labels


def test_a_failing_reading_does_not_break_the_scrape(settings: Any) -> None:
    settings.REDIS_URL = "redis://127.0.0.1:1/0"

    def down() -> Any:
        raise ConnectionError("connection refused")

    collector = ReadingsCollector(Readings(queue_depths=down, overdue_tables=down, stranded_bot_turns=down))
    text = generate_latest(metrics.registry([collector])).decode()
    assert value(text, "pacru_redis_up") == 0 and value(text, "pacru_database_up") == 0
    assert "pacru_overdue_tables" not in names(text)

    up = ReadingsCollector(
        Readings(
            queue_depths=lambda: {"clocks": 3, "unacked": 1},
            overdue_tables=lambda: 2,
            stranded_bot_turns=lambda: 1,
        )
    )
    text = generate_latest(metrics.registry([up])).decode()
    assert value(text, "pacru_redis_up") == 1
    assert value(text, "pacru_queue_depth", queue="clocks") == 3
    assert value(text, "pacru_queue_depth", queue="unacked") == 1
    assert value(text, "pacru_overdue_tables") == 2 and value(text, "pacru_stranded_bot_turns") == 1


@pytest.mark.django_db
@pytest.mark.parametrize("address", ["10.1.2.3", "2001:db8::1", "192.168.0.7"])
def test_remote_clients_need_the_token(settings: Any, address: str) -> None:
    client = APIClient(REMOTE_ADDR=address)
    settings.METRICS_TOKEN = ""
    r = client.get("/metrics")
    assert r.status_code == 403 and b"METRICS_TOKEN" in r.content
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer ").status_code == 403

    settings.METRICS_TOKEN = "s3cret-token"
    assert client.get("/metrics").status_code == 403
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer wrong").status_code == 403
    assert client.get("/metrics", HTTP_AUTHORIZATION="Token s3cret-token").status_code == 403
    r = client.get("/metrics", HTTP_AUTHORIZATION="Bearer s3cret-token")
    assert r.status_code == 200 and r["Content-Type"] == CONTENT_TYPE_LATEST
    assert "pacru_moves_adjudicated" in names(r.content.decode())


@pytest.mark.django_db
@pytest.mark.parametrize("address", ["127.0.0.1", "127.3.4.5", "::1", "::ffff:127.0.0.1"])
def test_loopback_clients_need_nothing_unless_proxied(settings: Any, address: str) -> None:
    settings.METRICS_TOKEN = ""
    client = APIClient(REMOTE_ADDR=address)
    assert client.get("/metrics").status_code == 200
    # A proxy on the same machine: its clients are not local, whatever they claim.
    assert client.get("/metrics", HTTP_X_FORWARDED_FOR="127.0.0.1").status_code == 403
    assert client.post("/metrics").status_code == 405


def test_metrics_are_not_in_the_api_schema(db: None) -> None:
    schema = APIClient().get("/api/v1/schema/", HTTP_ACCEPT="application/json")
    assert schema.status_code == 200
    assert not any("metrics" in path for path in schema.json()["paths"])


@pytest.fixture
def shared(tmp_path: Path) -> Iterator[Path]:
    """Two containers' worth of processes, each in a sub-folder of its own, with the same pid
    range; the samples they wrote stay in the files once they have ended."""
    code = (
        "from common import metrics\n"
        "metrics.move_adjudicated('accepted', 0.002)\n"
        "metrics.task_finished('games.tasks.clock_check', 'success')\n"
    )
    for container in ("web-a", "worker-b"):
        folder = tmp_path / container
        folder.mkdir()
        env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(folder)}
        env.pop("PROMETHEUS_MULTIPROC_ROOT", None)
        out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, timeout=60)
        assert out.returncode == 0, out.stderr.decode()
        assert list(folder.glob("*.db"))
    yield tmp_path


def test_the_samples_of_every_process_are_added_up(shared: Path) -> None:
    text = generate_latest(metrics.registry(multiproc_dir=str(shared))).decode()
    assert value(text, "pacru_moves_adjudicated_total", result="accepted") == 2
    assert value(text, "pacru_move_adjudication_seconds_count") == 2
    assert value(text, "pacru_move_adjudication_seconds_bucket", le="0.0025") == 2
    labels = {"task": "games.tasks.clock_check", "outcome": "success"}
    assert value(text, "pacru_celery_tasks_total", **labels) == 2


@pytest.mark.django_db
def test_the_view_serves_the_shared_samples_and_the_gauges_once(
    shared: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_ROOT", str(shared))
    text = scrape()
    assert value(text, "pacru_moves_adjudicated_total", result="accepted") == 2
    assert value(text, "pacru_overdue_tables") == 0
    assert text.count("# TYPE pacru_overdue_tables gauge") == 1
