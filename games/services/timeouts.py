"""Clocks running out: the one place a timeout or a first-move abort is applied.

Every path that enforces clocks (the ETA task, the sweeper, reads of the table, moves,
resignations) ends in :func:`timeout_if_due` under the table's row lock, which re-checks that
the timeout is still due, so it is applied exactly once however many paths fire.
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from common import metrics
from common.logging import log_context

from .. import health, rows
from ..clocks import SeatClock
from ..models import Move, Table
from ..selectors import current_state
from .transitions import grace, record_transition

log = logging.getLogger(__name__)


def timeout_if_due(*, table: Table, now: datetime) -> str:
    """Apply the due timeout or first-move abort of a locked table; say which ('' if none)."""
    if table.status != Table.Status.ACTIVE or table.deadline is None or now < table.deadline + grace():
        return ""
    lag = (now - (table.deadline + grace())).total_seconds()
    with log_context(table_id=table.pk, ply=table.ply):
        kind = _apply_timeout(table, now)
        log.info("%s applied, %.3f s after the deadline and grace", kind, lag)
    # Counted once committed (pacru_timeouts_applied_total, pacru_timeout_lag_seconds).
    transaction.on_commit(lambda: metrics.timeout_applied(kind, lag), robust=True)
    return kind


def _apply_timeout(table: Table, now: datetime) -> str:
    if table.ply == 0 and table.no_show == "abort":
        table.status = Table.Status.ABORTED
        table.finished_at = now
        table.to_move = None
        table.deadline = None
        table.end_reason = "aborted"
        rows.update_fields(table, ["status", "finished_at", "to_move", "deadline", "end_reason"])
        return "aborted"
    seat = table.to_move
    assert seat is not None
    state = current_state(table).eliminate(seat, "timeout")
    fields = []
    if table.clocks:
        table.clocks = {**table.clocks, str(seat): SeatClock(0.0).to_dict()}
        fields.append("clocks")
    rows.insert_move(
        Move(table_id=table.pk, seq=table.actions, seat=seat, kind=Move.Kind.TIMEOUT, notation="")
    )
    rows.update_fields(table, fields + record_transition(table=table, state=state, now=now))
    return "timeout"


def clock_timeout_apply(
    *,
    table_id: int,
    expected_actions: int | None = None,
    skip_locked: bool = False,
    now: datetime | None = None,
) -> str:
    """Apply a table's timeout or abort if it is due; safe to call any number of times.

    Returns what happened: ``timeout``, ``aborted``, ``not-due``, ``moved-on`` (the table
    changed since the check was scheduled), ``not-active`` or ``busy`` (locked by someone
    else, skipped).
    """
    now = now or timezone.now()
    with log_context(table_id=table_id), transaction.atomic():
        table = (
            Table.objects.select_for_update(skip_locked=skip_locked)
            .filter(pk=table_id)
            .only(*rows.MOVE_FIELDS)
            .first()
        )
        if table is None:
            return "busy" if skip_locked and Table.objects.filter(pk=table_id).exists() else "missing"
        if table.status != Table.Status.ACTIVE:
            return "not-active"
        if expected_actions is not None and table.actions != expected_actions:
            return "moved-on"
        with log_context(ply=table.ply):
            return timeout_if_due(table=table, now=now) or "not-due"


def apply_due_timeouts(*, limit: int = 50) -> int:
    """On reads: apply the timeouts already past their grace (normally none; one indexed query)."""
    now = timezone.now()
    due = Table.objects.filter(status=Table.Status.ACTIVE, deadline__lte=now - grace()).values_list(
        "pk", flat=True
    )[:limit]
    return sum(
        clock_timeout_apply(table_id=t, skip_locked=True, now=now) in ("timeout", "aborted") for t in due
    )


def sweep_overdue(*, now: datetime | None = None, batch: int = 200, budget_seconds: float = 20.0) -> int:
    """Apply every overdue timeout (the backstop of the ETA tasks); return how many were applied.

    Overlapping sweeps are safe: each table is handled in its own transaction
    with ``SKIP LOCKED``, and re-checked under the lock.
    """
    started = timezone.now()
    applied = 0
    seen: set[int] = set()
    while (timezone.now() - started).total_seconds() < budget_seconds:
        # ``moment`` picks the overdue tables; each is then applied at its own "now", so the next
        # seat's clock starts when the timeout is written, not when the batch began.
        moment = now or timezone.now()
        due = list(
            Table.objects.filter(status=Table.Status.ACTIVE, deadline__lte=moment - grace())
            .exclude(pk__in=seen)
            .order_by("deadline")
            .values_list("pk", flat=True)[:batch]
        )
        if not due:
            break
        for table_id in due:
            seen.add(table_id)
            if clock_timeout_apply(table_id=table_id, skip_locked=True, now=now) in ("timeout", "aborted"):
                applied += 1
                seen.discard(table_id)  # the next seat may be overdue too (a late sweep)
    health.beat(health.CLOCK_SWEEP)  # readiness reads how long ago a sweep last ran
    return applied
