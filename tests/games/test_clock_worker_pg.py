"""Clocks enforced by a real Celery worker (and beat) on Redis, with the faults they must survive.

These tests start their own worker and beat processes against the shared Redis
(their own database number and queue name) and the PostgreSQL test database,
so the worker sees what the test commits.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection

from games import services
from games.models import Move, Player, Table
from games.tasks import clock_check
from tests.celery_worker import GRACE, Celery

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def players(n: int) -> list[Player]:
    return [
        services.player_register(username=f"w{uuid.uuid4().hex[:6]}", password="correct-horse-9")
        for _ in range(n)
    ]


def timed_table(people: list[Player], tc: dict[str, Any]) -> Table:
    table = services.table_create(creator=people[0], game="pacru", players=len(people), time_control=tc)
    for p in people[1:]:
        services.seat_join(table_id=table.pk, player=p)
    table.refresh_from_db()
    return table


def play(table: Table, player: Player, text: str) -> Table:
    table.refresh_from_db()
    services.move_submit(table_id=table.pk, player=player, ply=table.ply, move=text)
    table.refresh_from_db()
    return table


def wait_for(check: Callable[[], bool], timeout: float) -> float:
    """Poll until ``check()`` holds; return when it did (time.time())."""
    end = time.time() + timeout
    while time.time() < end:
        if check():
            return time.time()
        time.sleep(0.05)
    raise AssertionError("condition not reached in time")


def timeouts(table: Table) -> list[int]:
    return list(
        Move.objects.filter(table=table, kind="timeout").order_by("seq").values_list("seat", flat=True)
    )


def test_a_fischer_timeout_is_adjudicated_by_the_worker_after_the_grace(celery: Celery) -> None:
    celery.start()
    celery.wait_ready()
    a, b = players(2)
    table = timed_table([a, b], {"kind": "fischer", "base": 1.5, "increment": 0})
    table = play(table, a, "e1-e2")  # b's clock now runs: 1.5 s
    deadline = table.deadline.timestamp()
    # Nobody reads the table through the service meanwhile: only the worker can apply the timeout.
    # (How soon after the deadline is measured by bench/clock_timeouts.py; 30 s guards a hang.)
    wait_for(lambda: Table.objects.get(pk=table.pk).status == "finished", timeout=30)
    table.refresh_from_db()
    assert table.winner_seat == 1 and timeouts(table) == [2]
    assert table.finished_at.timestamp() >= deadline + GRACE, "never before the grace has passed"


def test_three_players_continue_after_a_worker_timeout_and_byoyomi_runs_out(celery: Celery) -> None:
    celery.start()
    celery.wait_ready()
    a, b, c = players(3)
    table = timed_table([a, b, c], {"kind": "byoyomi", "base": 0.4, "periods": 2, "period": 0.4})
    table = play(table, a, "g9-g8")
    # b never moves: main time and both periods run out (1.2 s), then c is on turn.
    wait_for(lambda: timeouts(table) == [2], timeout=10)
    table.refresh_from_db()
    assert table.status == "active" and table.to_move == 3 and table.position["eliminated"] == [2]
    table = play(table, c, "e9-e8")
    assert table.to_move == 1 and table.clocks["3"]["periods"] == 2


def test_a_killed_worker_loses_its_eta_task_and_the_sweep_recovers(celery: Celery) -> None:
    celery.start()
    celery.wait_ready()
    a, b = players(2)
    table = timed_table([a, b], {"kind": "fischer", "base": 1.0, "increment": 0})
    table = play(table, a, "e1-e2")
    time.sleep(0.3)  # the worker has reserved the ETA task (unacknowledged until it runs)
    celery.kill("worker")
    time.sleep(table.deadline.timestamp() + GRACE + 0.5 - time.time())
    assert Table.objects.get(pk=table.pk).status == "active", "nobody was there to apply it"
    # Redis would redeliver the lost task only after its visibility timeout (an hour):
    # the sweep, scheduled by beat, applies the timeout as soon as a worker is back.
    celery.start("worker")
    celery.start("beat")
    wait_for(lambda: Table.objects.get(pk=table.pk).status == "finished", timeout=15)
    time.sleep(1.5)  # more sweeps run: still exactly one timeout
    assert timeouts(table) == [2]


def test_the_same_check_delivered_twice_applies_one_timeout(celery: Celery) -> None:
    a, b = players(2)
    table = timed_table([a, b], {"kind": "fischer", "base": 0.5, "increment": 0})
    table = play(table, a, "e1-e2")
    time.sleep(table.deadline.timestamp() + GRACE + 0.1 - time.time())
    for _ in range(3):  # duplicates, as a redelivery would make them; the worker is not up yet
        clock_check.apply_async(args=(table.pk, table.actions))
    celery.start()
    wait_for(lambda: Table.objects.get(pk=table.pk).status == "finished", timeout=15)
    time.sleep(1.0)
    assert timeouts(table) == [2]
    assert Move.objects.filter(table=table).count() == 2


def test_a_move_racing_the_timeout_at_the_deadline_has_one_outcome(settings: Any) -> None:
    settings.CLOCK_GRACE_SECONDS = 0
    outcomes = {"move": 0, "timeout": 0}
    for _ in range(15):
        a, b = players(2)
        table = timed_table([a, b], {"kind": "fischer", "base": 30, "increment": 1})
        table = play(table, a, "e1-e2")
        at = table.deadline - timedelta(milliseconds=1)  # the move arrives a millisecond early
        barrier = threading.Barrier(2)
        result: dict[str, Any] = {}

        def submit(
            table: Table = table, b: Player = b, at: Any = at, barrier: Any = barrier, result: Any = result
        ) -> None:
            barrier.wait()
            try:
                services.move_submit(table_id=table.pk, player=b, ply=1, move="e9-e8", now=at)
                result["move"] = "recorded"
            except Exception as exc:  # the refusal is what the test inspects
                result["move"] = type(exc).__name__
            finally:
                connection.close()

        def flag(table: Table = table, at: Any = at, barrier: Any = barrier, result: Any = result) -> None:
            barrier.wait()
            try:
                result["timeout"] = services.clock_timeout_apply(
                    table_id=table.pk, now=at + timedelta(milliseconds=1)
                )
            finally:
                connection.close()

        threads = [threading.Thread(target=submit), threading.Thread(target=flag)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        table.refresh_from_db()
        moved = Move.objects.filter(table=table, kind="move").count() == 2
        timed_out = timeouts(table) == [2]
        assert moved != timed_out, (result, moved, timed_out)
        if moved:
            # The move won; the timeout found it not due any more (the clock moved on).
            assert result == {"move": "recorded", "timeout": "not-due"}
            assert table.status == "active" and table.clocks["2"]["remaining"] == pytest.approx(1.001)
            outcomes["move"] += 1
        else:
            # The timeout took the lock first: the move then finds the game over.
            assert result == {"move": "TableNotActive", "timeout": "timeout"}
            assert table.status == "finished" and table.winner_seat == 1
            outcomes["timeout"] += 1
    assert sum(outcomes.values()) == 15


def test_a_bot_table_plays_to_the_end_on_the_worker(celery: Celery) -> None:
    from games.housebots import bot_accounts

    celery.start()
    celery.wait_ready()
    bots = bot_accounts()
    table = services.table_create(creator=bots["random-bot"], game="shacru", players=2, join=False)
    services.seat_join(table_id=table.pk, player=bots["random-bot"], seat=1)
    services.seat_join(table_id=table.pk, player=bots["greedy-bot"], seat=2)
    wait_for(lambda: Table.objects.get(pk=table.pk).status == "finished", timeout=60)
    table.refresh_from_db()
    moves = list(Move.objects.filter(table=table, kind="move").values_list("ply", flat=True))
    assert moves == list(range(1, table.ply + 1)), "one move per ply, none twice"
