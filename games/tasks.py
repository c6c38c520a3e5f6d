"""Celery tasks: thin, idempotent, each loads by id and calls a service."""

from __future__ import annotations

from celery import shared_task

from common import metrics_files

from . import botplay, guests, retention, services, task_names
from .services import abandoned


@shared_task(name=task_names.CLOCK_CHECK, acks_late=True)
def clock_check(table_id: int, actions: int) -> str:
    """At a deadline: apply the timeout if the table is still where it was when scheduled."""
    return services.clock_timeout_apply(table_id=table_id, expected_actions=actions)


@shared_task(name=task_names.CLOCK_SWEEP, acks_late=True)
def clock_sweep() -> int:
    """Periodic backstop: apply every overdue timeout (lost, late or revoked checks)."""
    return services.sweep_overdue()


@shared_task(name=task_names.BOT_MOVE, acks_late=True)
def bot_move(table_id: int, actions: int) -> str:
    """A bot is on turn: compute and submit its move (nothing if the table moved on)."""
    return botplay.bot_turn(table_id=table_id, expected_actions=actions)


@shared_task(name=task_names.BOT_SWEEP, acks_late=True)
def bot_sweep() -> int:
    """Periodic backstop: send again every bot turn that has waited too long (lost with a worker,
    or never sent while the broker was down); a lease keeps a slow search from running twice."""
    return botplay.sweep_bot_turns()


@shared_task(name=task_names.GUEST_CLEANUP, acks_late=True)
def guest_cleanup() -> dict[str, int]:
    """Hourly: delete guests idle longer than GUEST_TTL_HOURS with their casual bot games."""
    return guests.cleanup_guests()


@shared_task(name=task_names.END_ABANDONED_GUEST_TABLES, acks_late=True)
def end_abandoned_guest_tables() -> int:
    """Hourly: end (abort, unrated) guest-vs-bot tables with no move for
    ABANDONED_GUEST_TABLE_HOURS, so they leave the lobby's games in play."""
    return abandoned.end_abandoned_guest_tables()


@shared_task(name=task_names.ARCHIVE_POSITIONS, acks_late=True)
def archive_positions() -> int:
    """Daily: drop the stored positions of tables that ended ARCHIVE_AFTER_DAYS ago."""
    return retention.archive_positions()


@shared_task(name=task_names.COMPACT_METRICS)
def compact_metrics() -> dict[str, int]:
    """Hourly: merge the metrics files of the ended processes where this worker runs
    (``common.metrics_files.compact``; each process does so when it starts, too)."""
    return metrics_files.compact()
