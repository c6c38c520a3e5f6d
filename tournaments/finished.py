"""A finished table, as tournaments see it: a ladder challenge's outcome and a round's progress."""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from games import selectors as game_reads
from games.events import send_after_commit
from games.models import Table
from games.results import GameResult

from . import ladders
from .arena import finished as arena
from .competitions import services
from .events import ResultRecorded, result_recorded
from .models import ArenaTable, Challenge, QueueTable, RoundTable
from .teams import finished as teams

log = logging.getLogger(__name__)


def table_finished(*, table_id: int, result: GameResult | None = None) -> str:
    """Record a challenge's outcome (a position ladder may move places), then count the table in its
    tournament round (no-shows, the next round). Idempotent; ``result`` is read when not given."""
    result = result or game_reads.game_result(table_id)
    if result is not None:
        ladders.challenge_table_finished(result=result)
    outcome = services.table_finished(table_id=table_id, result=result)
    if arena.table_finished(table_id=table_id, result=result):
        outcome = "arena"
    if teams.board_finished(table_id=table_id, result=result):
        outcome = "team"
    recorded = _recorded(table_id)
    if recorded is not None:  # its event's and ladder's pages show the result counted
        send_after_commit(result_recorded, recorded=recorded)
    return outcome


def _recorded(table_id: int) -> ResultRecorded | None:
    """Where a finished table counts: its event, its ladder (a challenge's or the queue's); None
    for a table neither seated."""
    board = RoundTable.objects.filter(table_id=table_id)
    event = board.values_list("round__tournament_id", flat=True).first() or (
        ArenaTable.objects.filter(table_id=table_id).values_list("tournament_id", flat=True).first()
    )
    ladder = (
        Challenge.objects.filter(table_id=table_id).values_list("ladder_id", flat=True).first()
        or QueueTable.objects.filter(table_id=table_id).values_list("ladder_id", flat=True).first()
    )
    if event is None and ladder is None:
        return None
    return ResultRecorded(table_id=table_id, tournament_id=event, ladder_id=ladder)


def sweep_unrecorded(*, limit: int = 200) -> int:
    """The backstop of the ``game_finished`` task: count every finished tournament table and record
    every finished challenge that its task missed (the broker was down when the table ended, or
    the task was lost with its worker). Tables are left alone for ``TASK_SWEEP_AFTER_SECONDS``
    after they end, while their own task is normally on its way. Returns how many were handled."""
    moment = timezone.now()
    settled = moment - timedelta(seconds=settings.TASK_SWEEP_AFTER_SECONDS)
    ended = (Table.Status.FINISHED, Table.Status.ABORTED)
    tables = set(
        RoundTable.objects.filter(
            counted=False, table__status__in=ended, table__finished_at__lte=settled
        ).values_list("table_id", flat=True)[:limit]
    )
    tables |= set(
        Challenge.objects.filter(
            outcome="",
            table__status=Table.Status.FINISHED,
            table__finished_at__lte=settled,
            table__finished_at__gte=moment - timedelta(days=1),
        ).values_list("table_id", flat=True)[:limit]
    )
    tables |= teams.unrecorded(settled=settled, limit=limit)
    for table_id in sorted(tables):
        log.warning("table %s ended without its tournament task: recording it now", table_id)
        table_finished(table_id=table_id)
    return len(tables)


def housekeeping() -> dict[str, int]:
    """The periodic work of leagues: expire challenges, form queue tables (``ladders``), and record
    finished tables whose own task was lost."""
    return {**ladders.housekeeping(), "recorded": sweep_unrecorded()}
