"""A team board's table ended: count the board in its match, exactly once, and move the match,
the round and the event on (``rounds``).

Called for every finished table by ``tournaments.finished.table_finished`` (the task on a game's
end, and its sweep of lost tasks: ``unrecorded``). Under the event's row lock, then the board's:
a second call finds the board counted and counts nothing.

The board's points (``scoring.board_points``) come from the ranks at its table for the players
present; a player who never moved and lost on time (a no-show) counts as missing: their team
forfeits the board (0). An aborted table (no result) is forfeited by every team on it (0 each).
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games import selectors as game_reads
from games.models import Table
from games.results import GameResult

from ..models import TeamBoard, TeamEvent, TeamMatch, TeamMatchSide, TeamRound
from . import rounds

ENDED = (Table.Status.FINISHED, Table.Status.ABORTED)


def _ranks(board: TeamBoard, teams: list[int], result: GameResult | None) -> dict[int, int]:
    """Team id -> rank at the table among the players present (no-shows left out), ranked again
    from 1 (a shared rank stays shared)."""
    if result is None:
        return {}
    team_of = {p: t for t, p in zip(teams, board.players, strict=False) if p is not None}
    absent = set(result.no_shows())
    played = {team_of[p]: r for p, r in result.ranks().items() if p in team_of and p not in absent}
    return {t: 1 + sum(1 for other in played.values() if other < r) for t, r in played.items()}


def board_finished(*, table_id: int, result: GameResult | None = None, now: datetime | None = None) -> bool:
    """Count the table's board if it is a team board, ended and not counted yet; True when it was
    counted now."""
    found = TeamBoard.objects.filter(table_id=table_id).values_list("pk", "match__round__event_id").first()
    if found is None:
        return False
    moment = now or timezone.now()
    with transaction.atomic():
        event = TeamEvent.objects.select_for_update().get(pk=found[1])
        board = TeamBoard.objects.select_for_update().get(pk=found[0])
        status = game_reads.table_status(table_id)
        if board.counted or status not in ENDED:
            return False
        # An aborted table has no result: no game, every team forfeits the board.
        result = (result or game_reads.game_result(table_id)) if status == Table.Status.FINISHED else None
        match = TeamMatch.objects.select_for_update().get(pk=board.match_id)
        sides = list(TeamMatchSide.objects.select_for_update().filter(match=match).order_by("order"))
        teams = [s.team_id for s in sides]
        rounds.count_board(event=event, board=board, sides=sides, ranks=_ranks(board, teams, result))
        rnd = TeamRound.objects.select_for_update().get(pk=match.round_id)
        rounds.announce(event=event, state="counted", round_id=rnd.pk)
        if not TeamBoard.objects.filter(match=match, counted=False).exists():
            rounds.settle_match(event=event, match=match, now=moment)
            if rnd.status == TeamRound.Status.PLAYING:
                rounds.finish_round_if_done(event=event, rnd=rnd, now=moment)
    return True


def unrecorded(*, settled: datetime, limit: int = 200) -> set[int]:
    """The ended tables of team boards not counted yet (their task was lost), ended before ``settled``."""
    return set(
        TeamBoard.objects.filter(
            counted=False, table__status__in=ENDED, table__finished_at__lte=settled
        ).values_list("table_id", flat=True)[:limit]
    )
