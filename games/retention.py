"""Archiving: the stored positions of tables that ended ``ARCHIVE_AFTER_DAYS`` ago are dropped.

Nothing a reader sees changes: the table's page and API rebuild the position from the move log,
which is kept forever (docs/operators/backups.md). Celery beat runs :func:`archive_positions`
daily ("archive-positions"), ``manage.py archive_tables`` by hand, the in-process sweeper
(``LOCAL_SWEEPS``) hourly.
"""

from __future__ import annotations

import logging
import time
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db.models import QuerySet
from django.utils import timezone

from common.retention import every, update_in_batches

from .models import Table

log = logging.getLogger(__name__)


def archivable(days: float | None = None, now: Any = None) -> QuerySet[Table]:
    """The tables that ended more than ``days`` (default ``ARCHIVE_AFTER_DAYS``) ago and still
    hold a stored position."""
    days = settings.ARCHIVE_AFTER_DAYS if days is None else days
    cutoff = (now or timezone.now()) - timedelta(days=days)
    return Table.objects.filter(
        status__in=[Table.Status.FINISHED, Table.Status.ABORTED],
        finished_at__lt=cutoff,
        position__isnull=False,
    )


def archive_positions(days: float | None = None, now: Any = None, batch: int | None = None) -> int:
    """Drop the stored positions of :func:`archivable` tables, ``batch`` tables per transaction
    (default ``RETENTION_BATCH``); the number archived, logged as one line."""
    started = time.monotonic()
    done = update_in_batches(archivable(days, now), batch, position=None)
    log.info(
        "retention: archived %d table position(s) in %.1f s",
        done,
        time.monotonic() - started,
        extra={"retention": {"positions": done}},
    )
    return done


@every(3600)
def local_archive() -> int:
    """The in-process sweeper's archiving (``LOCAL_SWEEPS``): hourly."""
    return archive_positions()
