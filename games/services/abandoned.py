"""Abandoned guest tables: a guest who walks away from a game against the house bots leaves a
table "in play" in the lobby for ever (nobody else may move for the guest, and an untimed table
never times out). :func:`end_abandoned_guest_tables` (Celery beat "abandoned-guest-tables", the
in-process sweeper hourly) ends every such table that has had no move for
``ABANDONED_GUEST_TABLE_HOURS``: it is aborted (``end_reason`` "abandoned") and rated for nobody.

Only tables whose humans are all guests are touched: a registered player's game is never ended
for them. Each table is ended in a transaction of its own under its row lock, and checked again
once locked, so a move made meanwhile (or a second sweep running at once) leaves it alone.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q, QuerySet
from django.db.models.functions import Coalesce
from django.utils import timezone

from common.retention import every

from ..models import Seat, Table
from .transitions import announce_change

log = logging.getLogger(__name__)

#: The ``end_reason`` of a table ended this way (its status is "aborted").
ABANDONED = "abandoned"


def abandoned_guest_tables(*, now: datetime | None = None, hours: float | None = None) -> QuerySet[Table]:
    """Active tables with a guest seated, no registered human seated, and no move (nor start)
    for ``hours`` (default ``ABANDONED_GUEST_TABLE_HOURS``)."""
    hours = settings.ABANDONED_GUEST_TABLE_HOURS if hours is None else hours
    cutoff = (now or timezone.now()) - timedelta(hours=hours)
    registered = Seat.objects.filter(player__is_guest=False, player__is_bot=False).values("table_id")
    guest = Seat.objects.filter(player__is_guest=True).values("table_id")
    return (
        Table.objects.filter(status=Table.Status.ACTIVE, pk__in=guest)
        .exclude(pk__in=registered)
        .annotate(idle_since=Coalesce("turn_started_at", "started_at", "created_at"))
        .filter(Q(idle_since__lt=cutoff))
    )


def _end_one(table_id: int, now: datetime, hours: float | None) -> bool:
    """End one table under its row lock, if it is still abandoned; whether it was ended."""
    with transaction.atomic():
        table = (
            abandoned_guest_tables(now=now, hours=hours)
            .select_for_update(of=("self",))
            .filter(pk=table_id)
            .first()
        )
        if table is None:
            return False
        table.status = Table.Status.ABORTED
        table.end_reason = ABANDONED
        table.rated = False
        table.finished_at = now
        table.to_move = None
        table.deadline = None
        table.bot_lease_actions = None
        table.bot_lease_until = None
        table.save(
            update_fields=[
                "status",
                "end_reason",
                "rated",
                "finished_at",
                "to_move",
                "deadline",
                "bot_lease_actions",
                "bot_lease_until",
            ]
        )
        announce_change(table_id=table.pk)
    return True


def end_abandoned_guest_tables(
    *, now: datetime | None = None, hours: float | None = None, limit: int = 500
) -> int:
    """End (abort, unrated) the abandoned guest tables, at most ``limit`` per run; how many."""
    now = now or timezone.now()
    hours = settings.ABANDONED_GUEST_TABLE_HOURS if hours is None else hours
    ids = list(
        abandoned_guest_tables(now=now, hours=hours).order_by("pk").values_list("pk", flat=True)[:limit]
    )
    ended = sum(_end_one(pk, now, hours) for pk in ids)
    if ended:
        log.info("abandoned guest tables: %d ended after %s h without a move", ended, hours)
    return ended


@every(3600)
def local_end_abandoned() -> int:
    """The in-process sweeper's run (``LOCAL_SWEEPS``): hourly."""
    return end_abandoned_guest_tables()
