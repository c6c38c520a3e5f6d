"""Tournaments react to finished games through the games app's event."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from common.tasks import send
from games.events import game_finished
from games.results import GameResult

from .task_names import TABLE_FINISHED


@receiver(game_finished, dispatch_uid="tournaments.on_game_finished")
def on_game_finished(sender: Any, result: GameResult, **kwargs: Any) -> None:
    send(TABLE_FINISHED, (result.table_id, result.to_dict()))
