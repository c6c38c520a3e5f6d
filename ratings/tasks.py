"""Rating tasks (queue ``slow``): idempotent, they only call services."""

from __future__ import annotations

from celery import shared_task

from . import services, task_names


@shared_task(name=task_names.RATE_TABLE, acks_late=True)
def rate_table(table_id: int) -> int:
    """A table finished: apply every pending update of its game, in finishing order."""
    return services.rate_table(table_id=table_id)


@shared_task(name=task_names.RATE_PENDING, acks_late=True)
def rate_pending() -> int:
    """Periodic backstop for lost tasks: apply every pending update, in finishing order."""
    return services.rate_pending()


@shared_task(name=task_names.RECOMPUTE_GAME, acks_late=True)
def recompute_game(game: str) -> int:
    """Rebuild a game's ratings from its tables (after an organiser corrected a result); running it
    twice gives the same ratings."""
    return services.recompute(games=[game])[game]
