"""Tournament tasks (queue ``slow``): idempotent, they only call services."""

from __future__ import annotations

from celery import shared_task

from . import services


@shared_task(name="tournaments.tasks.table_finished", acks_late=True)
def table_finished(table_id: int) -> str:
    """A table finished: when its round is complete, pair the next round (or end the event)."""
    return services.table_finished(table_id=table_id)


@shared_task(name="tournaments.tasks.ladder_housekeeping", acks_late=True)
def ladder_housekeeping() -> dict[str, int]:
    """Periodic: expire unanswered challenges and form tables from the matchmaking queues."""
    from . import ladders

    return ladders.housekeeping()
