"""Ratings react to finished games through the games app's event, never its internals."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from common.tasks import send
from games.events import game_finished
from games.results import GameResult

from .task_names import RATE_TABLE


@receiver(game_finished, dispatch_uid="ratings.on_game_finished")
def on_game_finished(sender: Any, result: GameResult, **kwargs: Any) -> None:
    """A table finished: rate every pending table of its game, in finishing order."""
    send(RATE_TABLE, (result.table_id,))
