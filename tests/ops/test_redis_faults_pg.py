"""Faults of Redis and of the worker, on a Redis and worker of the test's own (never the shared ones):
a Redis restart while the worker holds ETA checks, Redis down while players move, a worker killed
in the middle of a bot's turn, and two beats at once."""

from __future__ import annotations

import signal
import time
from typing import Any

import pytest

from common import tasks
from games import services
from games.models import Move, Player, Table
from tests.celery_worker import running_celery

from ..games.conftest import Actor, started_table
from ..games.test_clock_worker_pg import play, players, timed_table, timeouts, wait_for
from .redis_server import RedisServer

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _no_backoff_left_over() -> Any:
    tasks._down_until = 0.0
    yield
    tasks._down_until = 0.0


def finished(table: Table) -> bool:
    return Table.objects.get(pk=table.pk).status == "finished"


def test_a_redis_restart_leaves_the_worker_running_and_every_timeout_applied_once(
    settings: Any, own_redis: RedisServer
) -> None:
    with running_celery(settings, own_redis.url) as celery:
        celery.start()
        celery.wait_ready()
        celery.start("beat")
        tables = []
        for _ in range(3):
            a, b = players(2)
            tables.append(
                play(timed_table([a, b], {"kind": "fischer", "base": 3, "increment": 0}), a, "e1-e2")
            )
        time.sleep(0.5)  # the worker holds the ETA checks (unacknowledged until their time)
        own_redis.kill()
        time.sleep(1.5)
        own_redis.start()  # empty: Redis here keeps nothing on disk, the checks are gone
        for table in tables:
            wait_for(lambda t=table: finished(t) or not celery.alive("worker"), timeout=30)
        # Celery/kombu 5.7 exit here (kombu's restore_unacked_once: "'NoneType' object has no
        # attribute 'hostname'"); pyproject.toml pins the 5.6 line, which reconnects.
        assert celery.alive("worker"), "the worker must reconnect, not exit"
        time.sleep(1.5)  # more sweeps: still one timeout each
        assert [timeouts(t) for t in tables] == [[2], [2], [2]]


def test_while_redis_is_down_players_move_readiness_degrades_and_timeouts_follow_its_return(
    settings: Any, own_redis: RedisServer, alice: Actor, bob: Actor, anon: Any
) -> None:
    settings.REDIS_URL = own_redis.url
    settings.CACHES = {
        "default": {
            "BACKEND": "common.cache.FallbackRedisCache",
            "LOCATION": own_redis.url,
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
    with running_celery(settings, own_redis.url) as celery:
        celery.start()
        celery.wait_ready()
        celery.start("beat")
        wait_for(lambda: anon.get("/api/v1/health/ready/").json()["status"] == "ready", timeout=20)
        table = started_table([alice, bob], time_control={"kind": "fischer", "base": 6, "increment": 0})
        own_redis.kill()
        statuses = []
        for ply, (actor, move) in enumerate([(alice, "e1-e2"), (bob, "e9-e8"), (alice, "e2-e3")]):
            statuses.append(
                actor.post(f"/api/v1/tables/{table.pk}/moves/", {"ply": ply, "move": move}).status_code
            )
        assert statuses == [201, 201, 201], "a move is adjudicated with or without Redis"
        assert anon.get(f"/api/v1/tables/{table.pk}/").status_code == 200
        assert anon.get("/api/v1/health/").status_code == 200, "liveness: the process answers"
        ready = anon.get("/api/v1/health/ready/")
        assert ready.status_code == 200, "the host keeps serving: it stays behind the load balancer"
        assert ready.json()["status"] == "degraded" and ready.json()["checks"]["redis"]["ok"] is False
        own_redis.start()
        # Bob's clock check was never sent (the broker was down): the sweep applies it.
        wait_for(lambda: finished(table), timeout=30)
        time.sleep(1.5)
        assert timeouts(table) == [2]
        wait_for(lambda: anon.get("/api/v1/health/ready/").json()["status"] == "ready", timeout=20)


def test_a_worker_killed_mid_bot_turn_the_bot_still_moves_and_only_once(settings: Any) -> None:
    env = {"BOT_LEASE_SECONDS": "3", "BOT_SWEEP_AFTER_SECONDS": "1", "BOT_SWEEP_SECONDS": "0.5"}
    with running_celery(settings, **env) as celery:
        celery.start()
        celery.wait_ready()
        (human,) = players(1)
        table = services.table_create(creator=human, game="pacru", players=2, rated=False)
        table = services.bot_invite(table_id=table.pk, player=human, level="search")
        Player.objects.filter(is_bot=True, bot_level="search").update(bot_budget=8.0)  # a long think
        table = play(table, human, "e1-e2")
        # The worker takes the turn (its lease is the sign) and thinks: kill it mid-search.
        wait_for(lambda: Table.objects.get(pk=table.pk).bot_lease_actions == table.actions, timeout=15)
        celery.kill("worker", signal.SIGKILL)
        assert Move.objects.filter(table=table).count() == 1
        # The task is lost with the worker (Redis would redeliver it only after an hour):
        # once the lease runs out, the bot sweep sends the turn again.
        Player.objects.filter(is_bot=True, bot_level="search").update(bot_budget=0.5)
        celery.start("worker")
        celery.start("beat")
        wait_for(lambda: Table.objects.get(pk=table.pk).ply == 2, timeout=30)
        time.sleep(2)  # more sweeps: the human is on turn, nothing more happens
        assert list(Move.objects.filter(table=table).order_by("seq").values_list("seat", flat=True)) == [1, 2]


def test_two_beats_never_apply_a_timeout_twice(settings: Any) -> None:
    # No ETA checks: every timeout is the sweeps' work, which two beats schedule twice over.
    settings.CLOCK_ETA_HORIZON_SECONDS = 0
    with running_celery(settings) as celery:
        celery.start()
        celery.wait_ready()
        celery.start("beat")
        celery.start("beat-2")
        tables = []
        for n in (2, 2, 3, 3):
            people = players(n)
            tc = {"kind": "fischer", "base": 1, "increment": 0}
            tables.append(play(timed_table(people, tc), people[0], "e1-e2" if n == 2 else "g9-g8"))
        for table in tables:
            wait_for(lambda t=table: finished(t), timeout=30)
        time.sleep(1.5)
        assert [timeouts(t) for t in tables] == [[2], [2], [2, 3], [2, 3]]
