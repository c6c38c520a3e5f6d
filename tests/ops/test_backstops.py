"""What covers lost background work: the bot lease and sweep, the tournament sweep, task sends that
never fail a committed write, the cache that outlives Redis, and the readiness check."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from common import tasks
from common.cache import FallbackRedisCache
from games import botplay, health, services
from games.models import Move, Table
from tests.celery_worker import conf_get, conf_set, use_broker
from tournaments import finished
from tournaments.models import RoundTable

from ..games.conftest import Actor, as_organiser, started_table
from .redis_server import free_port

pytestmark = pytest.mark.django_db


def bot_table(alice: Actor, level: str = "random") -> Table:
    """Alice (seat 1) against a house bot; alice has moved, the bot is on turn."""
    table = services.table_create(creator=alice.player, game="pacru", players=2, rated=False)
    services.bot_invite(table_id=table.pk, player=alice.player, level=level)
    services.move_submit(table_id=table.pk, player=alice.player, ply=0, move="e1-e2")
    table.refresh_from_db()
    assert table.to_move == 2 and table.bot_seats == [2]
    return table


def age(table: Table, seconds: float) -> None:
    Table.objects.filter(pk=table.pk).update(turn_started_at=timezone.now() - timedelta(seconds=seconds))


def test_an_untimed_table_notes_when_each_turn_began(alice: Actor) -> None:
    table = bot_table(alice)
    assert table.deadline is None and table.turn_started_at is not None


def test_a_bot_turn_is_leased_to_one_worker_until_the_lease_runs_out(alice: Actor, settings: Any) -> None:
    settings.BOT_LEASE_SECONDS = 30
    table = bot_table(alice)
    now = timezone.now()
    assert botplay.claim_turn(table, now)
    assert not botplay.claim_turn(table, now + timedelta(seconds=29)), "held: a second search would start"
    assert botplay.claim_turn(table, now + timedelta(seconds=31)), "expired: the turn may be taken again"
    Table.objects.filter(pk=table.pk).update(actions=table.actions + 1)
    table.refresh_from_db()
    assert botplay.claim_turn(table, now + timedelta(seconds=32)), "a lease holds one turn only"


def test_a_turn_whose_lease_is_held_is_not_played_by_a_second_delivery(alice: Actor) -> None:
    table = bot_table(alice)
    assert botplay.claim_turn(table)
    assert botplay.bot_turn(table_id=table.pk, expected_actions=table.actions) == "leased"
    assert Move.objects.filter(table=table).count() == 1


def test_the_bot_sweep_plays_a_turn_that_waited_and_leaves_fresh_or_leased_ones(
    alice: Actor, bob: Actor, settings: Any
) -> None:
    settings.BOT_SWEEP_AFTER_SECONDS = 10
    waited, fresh, leased = bot_table(alice), bot_table(bob), bot_table(alice)
    age(waited, 11)
    age(leased, 11)
    leased.refresh_from_db()
    assert botplay.claim_turn(leased)
    # Without a broker (tasks in-process) the sweep plays the turn itself.
    assert botplay.sweep_bot_turns() == 1
    assert [Table.objects.get(pk=t.pk).ply for t in (waited, fresh, leased)] == [2, 1, 1]
    assert health.last_beat(health.BOT_SWEEP) is not None
    assert botplay.sweep_bot_turns() == 0, "the human is on turn now: nothing to do"


def test_a_stranded_bot_turn_degrades_readiness(alice: Actor, settings: Any) -> None:
    settings.BOT_STRANDED_SECONDS = 60
    table = bot_table(alice)
    health.beat(health.CLOCK_SWEEP)
    assert health.readiness().ok
    age(table, 61)
    report = health.readiness()
    assert not report.ok and report.checks["bot_turns"] == {"ok": False, "stranded": 1, "after_seconds": 60}
    assert report.ready and report.degraded == ["bot_turns"], "degraded: the host still serves"


@pytest.fixture
def organiser(make_actor: Callable[..., Actor]) -> Actor:
    actor = make_actor("organiser")
    as_organiser(actor.player)
    return actor


def test_the_housekeeping_sweep_counts_a_tournament_table_whose_task_was_lost(
    organiser: Actor, alice: Actor, bob: Actor, settings: Any
) -> None:
    settings.TASK_SWEEP_AFTER_SECONDS = 60
    assert organiser.post("/api/v1/leagues/", {"name": "Club", "slug": "club"}).status_code == 201
    body = {"league": "club", "name": "Cup", "game": "pacru", "seats": 2, "rounds": 1}
    t = organiser.post("/api/v1/tournaments/", body).json()
    for actor in (alice, bob):
        assert actor.post(f"/api/v1/tournaments/{t['id']}/register/").status_code == 200
    assert organiser.post(f"/api/v1/tournaments/{t['id']}/start/").status_code == 200
    rt = RoundTable.objects.get(round__tournament_id=t["id"])
    # The table ends, but its game_finished task never runs (these tests do not run commit hooks).
    services.game_resign(table_id=rt.table_id, player=alice.player)
    assert finished.sweep_unrecorded() == 0, "too fresh: its own task may still be on the way"
    Table.objects.filter(pk=rt.table_id).update(finished_at=timezone.now() - timedelta(seconds=61))
    assert finished.sweep_unrecorded() == 1
    rt.refresh_from_db()
    assert rt.counted
    assert organiser.get(f"/api/v1/tournaments/{t['id']}/").json()["status"] == "finished"
    assert finished.sweep_unrecorded() == 0, "once counted, never again"


@pytest.fixture
def dead_broker() -> Iterator[None]:
    """Celery sends go to a port where nothing listens."""
    saved = conf_get("task_always_eager", "broker_url")
    use_broker(f"redis://127.0.0.1:{free_port()}/0")
    conf_set(task_always_eager=False)
    tasks._down_until = 0.0
    try:
        yield
    finally:
        use_broker(saved["broker_url"])
        conf_set(task_always_eager=saved["task_always_eager"])
        tasks._down_until = 0.0


def test_a_send_the_broker_refuses_is_logged_not_raised_and_later_sends_back_off(
    dead_broker: None, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="common.tasks"):
        assert tasks.send("games.tasks.clock_sweep") is False
        assert tasks.broker_backing_off()
        assert tasks.send("games.tasks.clock_sweep") is False
    assert "not sent (" in caplog.records[0].getMessage()
    assert "failed recently" in caplog.records[1].getMessage()


def test_a_move_whose_clock_check_cannot_be_sent_still_succeeds(
    dead_broker: None, alice: Actor, bob: Actor, django_capture_on_commit_callbacks: Any
) -> None:
    table = services.table_create(
        creator=alice.player,
        game="pacru",
        players=2,
        time_control={"kind": "fischer", "base": 60, "increment": 0},
    )
    with django_capture_on_commit_callbacks(execute=True):
        services.seat_join(table_id=table.pk, player=bob.player)
        r = alice.post(f"/api/v1/tables/{table.pk}/moves/", {"ply": 0, "move": "e1-e2"})
    assert r.status_code == 201, r.json()
    assert Table.objects.get(pk=table.pk).ply == 1


def test_the_cache_carries_on_in_memory_while_redis_does_not_answer(caplog: pytest.LogCaptureFixture) -> None:
    cache = FallbackRedisCache(
        f"redis://127.0.0.1:{free_port()}/0",
        {"OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2}},
    )
    with caplog.at_level(logging.WARNING, logger="common.cache"):
        cache.set("throttle:alice", [1.0, 2.0], 60)
        assert cache.get("throttle:alice") == [1.0, 2.0]
        assert cache.add("token:x", "alice") is True
        assert cache.add("token:x", "bob") is False
        cache.set("count", 1, 60)
        assert cache.incr("count") == 2
    assert cache.redis_down
    assert len(caplog.records) == 1, "one warning per outage, not one per call"


def test_readiness_reports_each_check_and_is_degraded_without_a_recent_clock_sweep(
    anon: Any, settings: Any, alice: Actor, bob: Actor
) -> None:
    settings.CLOCK_SWEEP_SECONDS = 2
    settings.OVERDUE_SECONDS = 30
    r = anon.get("/api/v1/health/ready/")
    assert r.status_code == 200 and r.json()["checks"]["clock_sweep"]["ok"] is False, "never ran"
    assert r.json()["status"] == "degraded" and r.json()["degraded"] == ["clock_sweep"]
    health.beat(health.CLOCK_SWEEP)
    r = anon.get("/api/v1/health/ready/")
    assert r.status_code == 200 and r.json()["status"] == "ready", r.json()
    assert set(r.json()["checks"]) == {"database", "redis", "clock_sweep", "overdue_tables", "bot_turns"}
    health.beat(health.CLOCK_SWEEP, timezone.now() - timedelta(seconds=31))
    assert anon.get("/api/v1/health/ready/").json()["degraded"] == ["clock_sweep"]
    health.beat(health.CLOCK_SWEEP)
    # A table whose timeout is overdue (nobody applied it) degrades readiness; liveness stays 200.
    table = started_table([alice, bob], time_control={"kind": "fischer", "base": 60, "increment": 0})
    Table.objects.filter(pk=table.pk).update(deadline=timezone.now() - timedelta(seconds=60))
    r = anon.get("/api/v1/health/ready/")
    assert r.status_code == 200 and r.json()["checks"]["overdue_tables"]["count"] == 1
    assert r.json()["degraded"] == ["overdue_tables"]
    assert anon.get("/api/v1/health/").status_code == 200


def test_a_sweep_applies_each_timeout_at_its_own_time_not_the_batch_start(alice: Actor, bob: Actor) -> None:
    """Otherwise the next seat's clock would start, and the result be dated, before the timeout
    was written: the last tables of a long batch would lose the time the batch took."""
    tables = []
    for n in range(3):
        table = started_table([alice, bob], time_control={"kind": "fischer", "base": 60, "increment": 0})
        services.move_submit(table_id=table.pk, player=alice.player, ply=0, move="e1-e2")
        Table.objects.filter(pk=table.pk).update(deadline=timezone.now() - timedelta(seconds=10 - n))
        tables.append(table)
    assert services.sweep_overdue() == 3  # in deadline order: tables[0] first
    written = [Move.objects.get(table=t, kind="timeout").played_at for t in tables]
    ended = [Table.objects.get(pk=t.pk).finished_at for t in tables]
    assert ended[1] >= written[0] and ended[2] >= written[1], (ended, written)
