"""A scheduled event starts by itself on a real Celery worker and beat (on a Redis of the test's
own), exactly once, with the worker killed (SIGKILL) just before the start time and restarted just
after it: the calendar ticks that queued up meanwhile run at once, two at a time, and still start
the event once (one round 1, each player seated once, one "auto_start" in the audit)."""

from __future__ import annotations

import subprocess
import sys
import time
import uuid
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.models import Seat
from games.services import player_register
from tests.celery_worker import ROOT, Celery, running_celery
from tournaments.competitions import services
from tournaments.models import AuditEntry, OrganiserRole, Registration, Round, RoundTable, Tournament

from ..games.test_clock_worker_pg import wait_for
from .redis_server import RedisServer

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

#: How far ahead the event is scheduled when the worker comes up.
AHEAD = 20.0


def start_worker(celery: Celery) -> None:
    """A worker like ``Celery.start``'s, also on the ``slow`` queue, where beat sends the calendar
    tick (``tournaments.tasks.*``); the Redis is the test's own, so the queue is too."""
    celery.procs["worker"] = subprocess.Popen(
        [
            sys.executable, "-m", "celery", "-A", "config", "worker",
            "-Q", f"{celery.queue},slow", "-c", "2", "--without-mingle", "--without-gossip",
            "-n", f"{celery.queue}@%h", "-l", "WARNING",
        ],
        cwd=ROOT,
        env=celery.env,
        start_new_session=True,
    )  # fmt: skip


def scheduled_event(starts_at: Any, players: int) -> Tournament:
    tag = uuid.uuid4().hex[:6]
    org = player_register(username=f"org{tag}", password="correct-horse-9")
    OrganiserRole.objects.create(player=org)
    league = services.league_create(organiser=org, name=f"Worker Club {tag}")
    t = services.tournament_create(
        organiser=org, league=league, name="Scheduled Swiss", game="shacru", seats=2, rounds=3
    )
    for i in range(players):
        p = player_register(username=f"w{tag}{i}", password="correct-horse-9")
        Registration.objects.create(tournament=t, player=p)
    Tournament.objects.filter(pk=t.pk).update(starts_at=starts_at)
    return t


def test_a_scheduled_event_starts_once_across_a_worker_killed_before_its_time(
    settings: Any, own_redis: RedisServer
) -> None:
    with running_celery(settings, own_redis.url, CALENDAR_TICK_SECONDS="1") as celery:
        start_worker(celery)
        celery.wait_ready()
        celery.start("beat")
        starts_at = timezone.now() + timedelta(seconds=AHEAD)
        t = scheduled_event(starts_at, players=6)
        wait_for(lambda: timezone.now() >= starts_at - timedelta(seconds=3), timeout=AHEAD)
        assert Tournament.objects.get(pk=t.pk).status == "registration", "not before its time"
        celery.kill("worker")  # SIGKILL: beat keeps sending ticks, nobody takes them
        wait_for(lambda: timezone.now() >= starts_at + timedelta(seconds=2), timeout=10)
        assert Tournament.objects.get(pk=t.pk).status == "registration", "no worker, no start"
        start_worker(celery)
        wait_for(lambda: Tournament.objects.get(pk=t.pk).status == "running", timeout=30)
        started = Tournament.objects.get(pk=t.pk).started_at
        assert starts_at <= started < starts_at + timedelta(seconds=30), "on time, once a worker runs"
        time.sleep(3)  # more ticks (and the queued-up ones) run: nothing more happens
    assert list(Round.objects.filter(tournament=t).values_list("number", flat=True)) == [1]
    assert RoundTable.objects.filter(round__tournament=t).count() == 3
    seated = list(
        Seat.objects.filter(table__round_table__round__tournament=t).values_list("player", flat=True)
    )
    assert sorted(seated) == sorted(
        Registration.objects.filter(tournament=t).values_list("player", flat=True)
    )
    audit = list(AuditEntry.objects.filter(tournament=t).order_by("pk").values_list("action", "by"))
    assert audit == [("starts_soon", None), ("auto_start", None)], "reminded once, started once"
