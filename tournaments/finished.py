"""A finished table, as tournaments see it: a ladder challenge's outcome and a round's progress."""

from __future__ import annotations

from games import selectors as game_reads
from games.results import GameResult

from . import ladders, services


def table_finished(*, table_id: int, result: GameResult | None = None) -> str:
    """Record a challenge's outcome (a position ladder may move places), then count the table in its
    tournament round (no-shows, the next round). Idempotent; ``result`` is read when not given."""
    result = result or game_reads.game_result(table_id)
    if result is not None:
        ladders.challenge_table_finished(result)
    return services.table_finished(table_id=table_id, result=result)
