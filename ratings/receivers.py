"""Ratings react to finished games through the games app's event, never its internals."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from games.events import game_finished
from games.results import GameResult

from .tasks import rate_table


@receiver(game_finished, dispatch_uid="ratings.on_game_finished")
def on_game_finished(sender: Any, result: GameResult, **kwargs: Any) -> None:
    """A table finished: rate every pending table of its game, in finishing order."""
    rate_table.delay(result.table_id)
