"""Ratings react to finished games through the games app's event, never its internals."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from games.events import game_finished


@receiver(game_finished, dispatch_uid="ratings.on_game_finished")
def on_game_finished(sender: Any, table_id: int, **kwargs: Any) -> None:
    from .tasks import rate_table

    rate_table.delay(table_id)
