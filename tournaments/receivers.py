"""Tournaments react to finished games through the games app's event."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from games.events import game_finished


@receiver(game_finished, dispatch_uid="tournaments.on_game_finished")
def on_game_finished(sender: Any, table_id: int, **kwargs: Any) -> None:
    from .tasks import table_finished

    table_finished.delay(table_id)
