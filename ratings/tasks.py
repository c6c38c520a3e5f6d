"""Rating tasks (queue ``slow``): idempotent, they only call services."""

from __future__ import annotations

from celery import shared_task

from . import services


@shared_task(name="ratings.tasks.rate_table", acks_late=True)
def rate_table(table_id: int) -> int:
    """A table finished: apply every pending update of its game, in finishing order."""
    return services.rate_table(table_id=table_id)


@shared_task(name="ratings.tasks.rate_pending", acks_late=True)
def rate_pending() -> int:
    """Periodic backstop for lost tasks: apply every pending update, in finishing order."""
    return services.rate_pending()


@shared_task(name="ratings.tasks.recompute_game", acks_late=True)
def recompute_game(game: str) -> int:
    """Rebuild a game's ratings from its tables (after an organiser corrected a result); running it
    twice gives the same ratings."""
    return services.recompute([game])[game]
