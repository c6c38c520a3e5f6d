"""An arena's table ended: count it in the standings, exactly once, and free its players.

Called for every finished table by ``tournaments.finished.table_finished`` (the
``tournaments.tasks.table_finished`` task and its sweep of lost tasks), and by the arenas' wave
for a table whose task has not come (``tournaments.arena.wave``). Under the arena's row lock, then
the ``ArenaTable``'s and its players': a second call finds the table counted and counts nothing.

A no-show (a seat that lost on time without a move) is paused, as lichess does with a player who
does not play their game: they are not paired again until they come back (``services.arena_resume``).
House bots are never paused so: their turn was lost (a worker restarted), they did not leave.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games import selectors as game_reads
from games.events import send_after_commit
from games.models import Move, Table
from games.results import Ending, GameResult

from ..events import ArenaChanged, arena_changed
from ..models import ArenaPlayer, ArenaTable, Tournament
from ..standings import place_points
from .scoring import ARENA_SCALES, MIN_BERSERK_MOVES, Outcome, Score, performance, score
from .selectors import displayed_ratings

ENDED = (Table.Status.FINISHED, Table.Status.ABORTED)


def table_finished(*, table_id: int, result: GameResult | None, now: datetime | None = None) -> bool:
    """Count the table if it is an arena's, ended, and not counted yet; True when it was counted now.
    An aborted table (no result) counts nothing but frees its players."""
    found = ArenaTable.objects.filter(table_id=table_id).values_list("pk", "tournament_id").first()
    if found is None:
        return False
    moment = now or timezone.now()
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=found[1])
        at = ArenaTable.objects.select_for_update().get(pk=found[0])
        if at.counted or game_reads.table_status(table_id) not in ENDED:
            return False
        result = result or game_reads.game_result(table_id)
        seated = set(result.ranks()) if result is not None else set()
        rows = {
            r.player_id: r
            for r in ArenaPlayer.objects.select_for_update(of=("self",))
            .select_related("player")
            .filter(tournament=t)
            .filter(player_id__in=seated | _sitting(t, table_id))
            .order_by("pk")
        }
        earned = _count(t, at, result, rows) if result is not None else {}
        over = t.status != Tournament.Status.RUNNING or (t.ends_at is not None and moment >= t.ends_at)
        for row in rows.values():
            if row.table_id == table_id:
                row.table_id = None
                row.free_since = None if (row.paused or row.withdrawn or over) else moment
        ArenaPlayer.objects.bulk_update(
            rows.values(),
            [
                "points",
                "games",
                "wins",
                "streak",
                "berserks",
                "perf_sum",
                "perf_count",
                "sheet",
                "last_opponents",
                "paused",
                "table",
                "free_since",
            ],
        )
        at.counted = True
        at.points = {str(p): n for p, n in earned.items()}
        at.save(update_fields=["counted", "points"])
        send_after_commit(arena_changed, arena=ArenaChanged(tournament_id=t.pk, players=tuple(sorted(rows))))
    return True


def _sitting(t: Tournament, table_id: int) -> set[int]:
    return set(
        ArenaPlayer.objects.filter(tournament=t, table_id=table_id).values_list("player_id", flat=True)
    )


def _count(t: Tournament, at: ArenaTable, result: GameResult, rows: dict[int, ArenaPlayer]) -> dict[int, int]:
    """Score every arena player of the table (rows changed in place); their points earned."""
    ranks = result.ranks()
    scale = t.points_scale or ARENA_SCALES[len(ranks)]
    places = place_points(len(ranks), ranks, scale)
    firsts = [p for p, r in ranks.items() if r == 1]
    perf = performance(ranks, displayed_ratings(t.game, ranks))
    moves = _moves_by_seat(at.table_id)
    earned: dict[int, int] = {}
    for seat in result.seats:
        row = rows.get(seat.player_id)
        if row is None:  # not an arena player (the table was changed by hand): nothing to count
            continue
        went = seat.player_id in at.berserk
        outcome = Outcome(
            place_points=places[seat.player_id],
            won=firsts == [seat.player_id],
            berserk=went,
            berserk_counts=went and moves.get(seat.seat, 0) >= MIN_BERSERK_MOVES,
        )
        after, points, mark = score(Score(row.points, row.games, row.wins, row.streak), outcome)
        row.points, row.games, row.wins, row.streak = after.points, after.games, after.wins, after.streak
        row.berserks += 1 if went else 0
        total, count = perf[seat.player_id]
        row.perf_sum += total
        row.perf_count += count
        row.sheet = [*row.sheet, mark]
        row.last_opponents = sorted(p for p in ranks if p != seat.player_id)
        if seat.ending == Ending.NO_SHOW and not (row.withdrawn or row.player.is_house_bot):
            row.paused = True  # absent: not paired again until they come back (a bot's turn lost: not absent)
        earned[seat.player_id] = points
    return earned


def _moves_by_seat(table_id: int) -> dict[int, int]:
    """How many moves each seat made at the table (berserk's bonus needs a few)."""
    out: dict[int, int] = {}
    for seat in Move.objects.filter(table_id=table_id, kind=Move.Kind.MOVE).values_list("seat", flat=True):
        out[seat] = out.get(seat, 0) + 1
    return out
