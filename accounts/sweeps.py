"""Periodic work of notifications (Celery beat, or ``clock_sweeper`` locally):

* *idle turns*: a human seat on turn for ``NOTIFY_IDLE_SECONDS`` at any table gets "your turn"
  (correspondence tables were told at once; the key is the same, so never twice);
* *low time*: on correspondence tables, 24 hours and 1 hour before the deadline;
* *digests*: the hourly and daily mails that are due;
* *mail*: pending mails that are due (new ones whose task was lost, retries, abandoned claims);
* *retention* (daily, ``retention_sweep``): sent mails are deleted after ``MAIL_KEEP_DAYS``;
  notifications after ``NOTIFY_KEEP_READ_DAYS`` once read, ``NOTIFY_KEEP_UNREAD_DAYS`` unread;
  expired sessions (what ``manage.py clearsessions`` does) and the records of sessions that can
  no longer exist. All batched (``common.retention``): rows past their time and nothing else.
"""

from __future__ import annotations

import logging
import time
from datetime import timedelta
from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.sessions.models import Session
from django.db.models import CharField, Exists, OuterRef, Q, Value
from django.db.models.functions import Cast, Concat
from django.urls import reverse
from django.utils import timezone

from common.retention import delete_in_batches, every
from games.events import TurnStarted
from games.models import Table

from . import outbox
from .models import Notification, SessionRecord
from .notify import notify, send_digests
from .receivers import game_name, turn_notice, when
from .sessions import SEEN_EVERY

log = logging.getLogger(__name__)

#: Time-low warnings on correspondence tables: (hours left, key suffix).
LOW_TIME = ((24, "24h"), (1, "1h"))
#: Turns older than this are not looked at by the idle sweep (they were notified or are stale).
IDLE_HORIZON = timedelta(days=14)


def _turn_key() -> Any:
    return Concat(
        Value("turn:"),
        Cast(OuterRef("pk"), CharField()),
        Value(":"),
        Cast(OuterRef("ply"), CharField()),
        output_field=CharField(),
    )


def idle_turns(now: Any = None, limit: int = 500) -> int:
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=settings.NOTIFY_IDLE_SECONDS)
    tables = (
        Table.objects.filter(
            status=Table.Status.ACTIVE,
            to_move__isnull=False,
            turn_started_at__lte=cutoff,
            turn_started_at__gt=now - IDLE_HORIZON,
        )
        .annotate(told=Exists(Notification.objects.filter(key=_turn_key())))
        .filter(told=False)
        .order_by("turn_started_at")[:limit]
    )
    made = 0
    for table in tables:
        if table.to_move in (table.bot_seats or []):
            continue
        assert table.to_move is not None
        turn_notice(TurnStarted.of(table), idle=True)
        made += 1
    return made


def low_time(now: Any = None, limit: int = 500) -> int:
    """Warn the seat on turn at correspondence tables whose deadline is near."""
    now = now or timezone.now()
    made = 0
    for hours, suffix in LOW_TIME:
        horizon = now + timedelta(hours=hours)
        due = Table.objects.filter(
            status=Table.Status.ACTIVE,
            time_control__kind="correspondence",
            deadline__gt=now,
            deadline__lte=horizon,
        ).order_by("deadline")[:limit]
        for table in due:
            assert table.deadline is not None and table.turn_started_at is not None
            if table.deadline - table.turn_started_at <= timedelta(hours=hours):
                continue  # the turn never had more than this: no "running low"
            seat = table.seats.select_related("player").filter(number=table.to_move).first()
            if seat is None or seat.player.is_bot:
                continue
            n = notify(
                user_id=seat.player.user_id,
                kind="time_low",
                key=f"low:{table.pk}:{table.ply}:{suffix}",
                params={
                    "table": table.pk,
                    "game": game_name(table.game),
                    "seconds": (table.deadline - now).total_seconds(),
                    "deadline": when(table.deadline, seat.player.user_id),
                    "deadline_at": table.deadline.isoformat(),
                },
                url=reverse("table", args=[table.pk]),
            )
            made += n is not None
    return made


def notify_sweep() -> dict[str, int]:
    return {"idle": idle_turns(), "low_time": low_time(), "digests": send_digests()}


def mail_sweep() -> dict[str, int]:
    return outbox.send_due()


def forget_notifications(now: Any = None) -> int:
    """Delete notifications read more than ``NOTIFY_KEEP_READ_DAYS`` ago, and unread ones made
    more than ``NOTIFY_KEEP_UNREAD_DAYS`` ago; those waiting for their digest stay until it goes.
    Their keys ("turn:12:7") are never made again so long after: nothing is notified twice."""
    now = now or timezone.now()
    read = Q(read_at__lt=now - timedelta(days=settings.NOTIFY_KEEP_READ_DAYS))
    unread = Q(read_at__isnull=True, created_at__lt=now - timedelta(days=settings.NOTIFY_KEEP_UNREAD_DAYS))
    old = Notification.objects.filter(read | unread).exclude(mail=Notification.Mail.DIGEST)
    return delete_in_batches(old)


def clear_sessions(now: Any = None) -> dict[str, int]:
    """Delete expired sessions, as ``manage.py clearsessions`` (batched on the database store;
    other stores expire their own), and the sign-in records (``SessionRecord``) of sessions that
    cannot exist any more: not seen for longer than a session lives."""
    now = now or timezone.now()
    engine = import_module(settings.SESSION_ENGINE)
    if settings.SESSION_ENGINE == "django.contrib.sessions.backends.db":
        sessions = delete_in_batches(Session.objects.filter(expire_date__lt=now))
    else:
        engine.SessionStore.clear_expired()
        sessions = 0
    # A session expires SESSION_COOKIE_AGE after its last change, no later than its last request;
    # "last seen" lags that by minutes (SEEN_EVERY). A record must not go while its session may
    # live: "log out everywhere" ends the sessions it finds through the records. A day's margin.
    gone = now - timedelta(seconds=settings.SESSION_COOKIE_AGE) - max(SEEN_EVERY * 2, timedelta(days=1))
    records = delete_in_batches(SessionRecord.objects.filter(last_seen__lt=gone))
    return {"sessions": sessions, "session_records": records}


def retention_sweep(now: Any = None) -> dict[str, int]:
    """The daily retention of this app (Celery beat's "retention"); one log line with the counts."""
    started = time.monotonic()
    counts = {
        "mails": outbox.forget_sent(settings.MAIL_KEEP_DAYS, now=now),
        "notifications": forget_notifications(now),
        **clear_sessions(now),
    }
    log.info(
        "retention: deleted %s in %.1f s",
        ", ".join(f"{n} {what}" for what, n in counts.items()),
        time.monotonic() - started,
        extra={"retention": counts},
    )
    return counts


_next_notify = 0.0


def local_sweep() -> None:
    """One turn of the in-process sweeper (no Redis): mail every turn, the rest every 20 s."""
    global _next_notify
    if time.monotonic() >= _next_notify:
        _next_notify = time.monotonic() + 20
        notify_sweep()
    mail_sweep()


@every(3600)
def local_retention() -> dict[str, int]:
    """The in-process sweeper's retention (``LOCAL_SWEEPS``): hourly, as it has no clock time."""
    return retention_sweep()
