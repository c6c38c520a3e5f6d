"""What the service's background work is doing: readings for the readiness check and metrics.

Each reading is cheap (an indexed count, one Redis round trip) and never raises: a component
that cannot be read is reported as failing, with the reason.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import redis
from django.conf import settings
from django.db import connection
from django.utils import timezone

from common import redis_url

from .models import Heartbeat, Table

log = logging.getLogger(__name__)

#: The names the background loops record their last run under (Heartbeat rows).
CLOCK_SWEEP = "clock-sweep"
BOT_SWEEP = "bot-sweep"

#: kombu's hash of messages delivered to a worker but not yet acknowledged (ETA checks waiting).
UNACKED = "unacked"


def queues() -> tuple[str, ...]:
    """The Celery queues the service uses (settings.CELERY_TASK_ROUTES)."""
    return (settings.CLOCK_QUEUE, settings.BOT_QUEUE, "default", "slow")


def beat(name: str, at: datetime | None = None) -> None:
    """Record that the loop ``name`` just ran (one row per loop, overwritten)."""
    Heartbeat.objects.update_or_create(name=name, defaults={"at": at or timezone.now()})


def last_beat(name: str) -> datetime | None:
    return Heartbeat.objects.filter(name=name).values_list("at", flat=True).first()


def overdue_after() -> timedelta:
    """A table counts as overdue when its deadline passed this long ago (grace included) and
    no sweep has applied its timeout: several sweep periods, so one slow sweep is not an alarm."""
    return timedelta(seconds=settings.CLOCK_GRACE_SECONDS + _sweep_limit())


def _sweep_limit() -> float:
    """Seconds without a clock sweep (or past a deadline) before readiness reports it degraded."""
    return max(10 * settings.CLOCK_SWEEP_SECONDS, settings.OVERDUE_SECONDS)


def overdue_count(now: datetime | None = None) -> int:
    """Active tables whose timeout should have been applied by now (uses ``table_due_idx``)."""
    moment = now or timezone.now()
    return Table.objects.filter(status=Table.Status.ACTIVE, deadline__lte=moment - overdue_after()).count()


def stranded_bot_turns(now: datetime | None = None) -> int:
    """Active tables where a bot has been on turn longer than ``BOT_STRANDED_SECONDS``."""
    moment = now or timezone.now()
    cutoff = moment - timedelta(seconds=settings.BOT_STRANDED_SECONDS)
    rows = (
        Table.objects.filter(status=Table.Status.ACTIVE, turn_started_at__lte=cutoff)
        .exclude(bot_seats=[])
        .values_list("to_move", "bot_seats")
    )
    return sum(1 for to_move, seats in rows if to_move in (seats or []))


def _redis() -> redis.Redis:
    return redis_url.client(
        settings.REDIS_URL,
        socket_connect_timeout=settings.HEALTH_TIMEOUT_SECONDS,
        socket_timeout=settings.HEALTH_TIMEOUT_SECONDS,
    )


def queue_depths() -> dict[str, int]:
    """Messages waiting in each queue, and ``unacked`` (held by workers). Empty without Redis
    (tasks run in-process); raises the Redis error when Redis does not answer."""
    if not settings.REDIS_URL:
        return {}
    client = _redis()
    try:
        pipe = client.pipeline(transaction=False)
        names = queues()
        for queue in names:
            pipe.llen(queue)
        pipe.hlen(UNACKED)
        counts = pipe.execute()
    finally:
        client.close()
    return dict(zip((*names, UNACKED), (int(n) for n in counts), strict=True))


#: The checks without which this process cannot serve: a load balancer takes the host out (503).
#: Every other check failing (Redis, the clock sweep, overdue tables, stranded bot turns) leaves the
#: service "degraded": it still serves moves and pages, so it stays in (200), and the operator is
#: alerted through the metrics. A Redis blip or one stuck bot must not take out every host at once.
REQUIRED = ("database",)


@dataclass
class Readiness:
    """The readiness report: every check with its reading, whether this process can serve
    (:attr:`ready`) and which of the other checks fail (:attr:`degraded`)."""

    checks: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """Every check passes."""
        return all(check["ok"] for check in self.checks.values())

    @property
    def ready(self) -> bool:
        """The process can serve: the :data:`REQUIRED` checks pass."""
        return all(self.checks.get(name, {"ok": False})["ok"] for name in REQUIRED)

    @property
    def degraded(self) -> list[str]:
        """The failing checks a load balancer need not act on, in the order they were made."""
        return [name for name, check in self.checks.items() if name not in REQUIRED and not check["ok"]]

    @property
    def status(self) -> str:
        """``unready`` (503), ``degraded`` or ``ready``."""
        if not self.ready:
            return "unready"
        return "degraded" if self.degraded else "ready"

    def add(self, name: str, ok: bool, **reading: Any) -> None:
        self.checks[name] = {"ok": ok, **reading}


def readiness(now: datetime | None = None) -> Readiness:
    """Check PostgreSQL (or SQLite): required. Redis with the queue depths, the clock sweep's age,
    overdue tables and stranded bot turns: the service is degraded when one fails. Never raises."""
    moment = now or timezone.now()
    report = Readiness()
    database_up = False
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        database_up = True
        report.add("database", True, vendor=connection.vendor)
    except Exception as exc:  # any failure is the reading
        report.add("database", False, error=_reason(exc))

    if settings.REDIS_URL:
        try:
            depths = queue_depths()
            report.add("redis", True, queues=depths)
        except Exception as exc:
            report.add("redis", False, error=_reason(exc))
    else:
        report.add("redis", True, mode="not used: background work runs in-process (no REDIS_URL)")

    if not database_up:
        return report
    try:
        last = last_beat(CLOCK_SWEEP)
        limit = _sweep_limit()
        age = None if last is None else max(0.0, (moment - last).total_seconds())
        report.add(
            "clock_sweep",
            age is not None and age <= limit,
            last_run=last,
            age_seconds=None if age is None else round(age, 1),
            limit_seconds=limit,
        )
        overdue = overdue_count(moment)
        after = overdue_after().total_seconds()
        report.add("overdue_tables", overdue == 0, count=overdue, after_seconds=after)
        stranded = stranded_bot_turns(moment)
        report.add("bot_turns", stranded == 0, stranded=stranded, after_seconds=settings.BOT_STRANDED_SECONDS)
    except Exception as exc:
        report.add("database", False, error=_reason(exc))
    return report


def sweep_ages(now: datetime | None = None) -> dict[str, float]:
    """Seconds since each background loop last ran (its Heartbeat row), for the metrics. The clock
    sweep is always there: infinitely old when it never ran, so ``> limit`` alerts fire."""
    moment = now or timezone.now()
    ages = {CLOCK_SWEEP: float("inf")}
    for name, at in Heartbeat.objects.values_list("name", "at"):
        ages[name] = max(0.0, (moment - at).total_seconds())
    return ages


class StateLog:
    """The readiness state this process last answered, so that a change is logged once and not
    every probe: a load balancer probing each second through a long Redis outage would otherwise
    write a line a second per web process. Per process (each gunicorn worker notes its own
    changes), starting from "ready"."""

    def __init__(self) -> None:
        self.last: tuple[str, tuple[str, ...]] = ("ready", ())
        self.lock = threading.Lock()

    def note(self, report: Readiness) -> None:
        """Log the report's state if it differs from the last one (status and degraded checks)."""
        state = (report.status, tuple(report.degraded))
        with self.lock:
            if state == self.last:
                return
            before, self.last = self.last, state
        extra = {"readiness": report.status, "degraded": list(report.degraded)}
        if report.status == "unready":
            error = report.checks.get("database", {}).get("error", "")
            log.error("readiness: unready, the database does not answer: %s", error, extra=extra)
        elif report.status == "degraded":
            log.warning("readiness: degraded (still serving): %s", ", ".join(report.degraded), extra=extra)
        else:
            log.info("readiness: recovered (was %s)", before[0], extra=extra)


#: This process's readiness state (games.apis.ReadyApi notes every report).
STATE = StateLog()


def note_state(report: Readiness) -> None:
    """Log the readiness report if its state changed since this process's last one."""
    STATE.note(report)


def _reason(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {text}"[:300]
