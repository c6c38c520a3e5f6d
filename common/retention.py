"""Deleting what is past its retention in small batches (docs/operators/backups.md).

The retention jobs (``accounts.sweeps.retention_sweep``, ``games.retention.archive_positions``,
guest cleanup) run while the service serves: one ``DELETE`` of a year's notifications would hold
its locks and its transaction for as long as it takes. Here each batch of at most
``RETENTION_BATCH`` rows, chosen by primary key, is its own short transaction; a job stopped
half-way has done part of its work and the next run does the rest (every job is idempotent).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet

log = logging.getLogger(__name__)


def batch_size(batch: int | None = None) -> int:
    return max(1, int(batch or settings.RETENTION_BATCH))


def _in_batches(queryset: QuerySet[Any], batch: int | None, act: Callable[[QuerySet[Any]], int]) -> int:
    """Apply ``act`` to the rows of ``queryset`` a batch at a time (by primary key), each batch in
    a short transaction of its own; the sum of what ``act`` returned."""
    size = batch_size(batch)
    manager = queryset.model._default_manager
    done = 0
    while True:
        with transaction.atomic():
            pks = list(queryset.order_by("pk").values_list("pk", flat=True)[:size])
            if not pks:
                return done
            done += act(manager.filter(pk__in=pks))
        if len(pks) < size:
            return done


def delete_in_batches(queryset: QuerySet[Any], batch: int | None = None) -> int:
    """Delete the rows of ``queryset`` a batch at a time (by primary key); the number deleted,
    not counting rows deleted by cascade."""
    label = queryset.model._meta.label
    return _in_batches(queryset, batch, lambda rows: rows.delete()[1].get(label, 0))


def update_in_batches(queryset: QuerySet[Any], batch: int | None = None, **values: Any) -> int:
    """``queryset.update(**values)`` a batch at a time; ``queryset`` must no longer match an
    updated row (``position__isnull=False`` with ``position=None``), or this would not end."""
    return _in_batches(queryset, batch, lambda rows: rows.update(**values))


def every(seconds: float) -> Callable[[Callable[[], Any]], Callable[[], Any]]:
    """For the in-process sweeper (``LOCAL_SWEEPS``, called every second): run the decorated
    job at most once per ``seconds`` (the first call runs it; ``reset()`` makes it due again)."""

    def wrap(job: Callable[[], Any]) -> Callable[[], Any]:
        due = [0.0]

        def run() -> Any:
            if time.monotonic() < due[0]:
                return None
            due[0] = time.monotonic() + seconds
            return job()

        run.__doc__ = job.__doc__
        run.__name__ = job.__name__
        run.reset = lambda: due.__setitem__(0, 0.0)  # type: ignore[attr-defined]  (tests: due now)
        return run

    return wrap


def run_parts(
    name: str, parts: Mapping[str, Callable[..., Mapping[str, int]]], *, now: datetime
) -> dict[str, int]:
    """Run each part of a periodic job once at ``now`` (``part(now=now)`` returns its counts), as
    ``{"part.what": count}``; a part that fails is logged and the others still run."""
    done: dict[str, int] = {}
    for part_name, part in parts.items():
        try:
            for what, count in part(now=now).items():
                done[f"{part_name}.{what}"] = count
        except Exception:
            log.exception("%s: %s failed", name, part_name)
    return done
