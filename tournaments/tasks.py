"""Tournament tasks (queue ``slow``): idempotent, they only call services."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from games.results import GameResult

from . import finished, play_now, task_names
from .calendar.tick import tick


@shared_task(name=task_names.TABLE_FINISHED, acks_late=True)
def table_finished(table_id: int, result: dict[str, Any] | None = None) -> str:
    """A table finished: a tournament counts its no-shows and, when its round is complete, pairs
    the next round (or ends); a ladder challenge records its outcome (and moves places)."""
    typed = GameResult.from_dict(result) if result else None
    return finished.table_finished(table_id=table_id, result=typed)


@shared_task(name=task_names.LADDER_HOUSEKEEPING, acks_late=True)
def ladder_housekeeping() -> dict[str, int]:
    """Periodic: expire unanswered challenges, form tables from the matchmaking queues, and record
    finished tables whose own task was lost (the broker was down)."""
    return finished.housekeeping()


@shared_task(name=task_names.CALENDAR_TICK, acks_late=True)
def calendar_tick() -> dict[str, int]:
    """Periodic: open registrations, start (or call off) scheduled events, pair rounds due at
    their time, settle round deadlines, create recurring events' next occurrences, and send the
    calendar's reminders (``tournaments.calendar.tick``)."""
    return tick()


@shared_task(name=task_names.PLAY_NOW_WAVE, acks_late=True)
def play_now_wave() -> dict[str, int]:
    """Periodic: seat the players waiting in quick pairing pools, pair arenas' free players and
    end arenas whose time is up (``tournaments.play_now``)."""
    return play_now.wave()
