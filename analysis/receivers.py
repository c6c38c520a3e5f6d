"""Signal receivers of the analysis app (connected in ``AnalysisConfig.ready``)."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from common.tasks import send
from games.events import game_finished
from games.results import GameResult

from .explorer import EXPLORER_INDEX


@receiver(game_finished, dispatch_uid="analysis.explorer.on_game_finished")
def explorer_on_game_finished(sender: Any, result: GameResult, **kwargs: Any) -> None:
    """A table finished: add its moves to the explorer on the slow queue (sent after the commit
    that finished it; nothing on the move path). An aborted table is left out."""
    if not result.aborted:
        send(EXPLORER_INDEX, (result.table_id,))
