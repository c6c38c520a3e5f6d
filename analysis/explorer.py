"""The explorer: the moves played from a position in finished games, from an index.

For each game, seat count and position (``engine.explorer.position_key``: the board, the seats out
and the seat to move), :class:`~analysis.models.ExplorerMove` counts the finished games in which
each move was played from it and sums the mover's results (1 for first place, 0 for last). Reads
(:func:`next_moves`) take the rows of one position off the unique index, which leads with game,
players and position: the cost does not grow with the history.

A table is counted once (:func:`index_table`): its :class:`~analysis.models.ExplorerGame` row is
inserted in the same transaction that adds its counts, and a second call (a task sent twice, the
backfill meeting the task) finds it and adds nothing. The work runs on the slow queue after the
game finished (``analysis.tasks.explorer_index``, sent by ``analysis.receivers``), never on the
move path; ``manage.py explorer_index`` backfills tables finished before the index existed (or
while the broker was away). Aborted tables and finished ones rated for nobody because they ended
before every seat moved are left out: they say nothing about the moves.

In one game a position that comes back with the same move counts that move once.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import connection, transaction
from django.db.models import Sum
from django.utils.translation import gettext as _

import engine
from common.errors import Forbidden, InvalidInput, NotFound
from common.logging import table_task
from engine.explorer import keyed_moves, position_key, result_scores
from games.models import Move, Table
from games.selectors import game_result, initial_state, replay_step

from .models import ExplorerGame, ExplorerMove

log = logging.getLogger(__name__)

#: The Celery task that indexes a finished table (``analysis.tasks.explorer_index``, slow queue).
EXPLORER_INDEX = table_task("analysis.tasks.explorer_index")
#: The most moves one answer lists.
MAX_MOVES = 50
#: Rows per ``INSERT … ON CONFLICT`` statement, and the columns it writes.
_CHUNK = 500
_FIELDS = ("game", "players", "position", "move", "games", "score")


class ExplorerLive(Forbidden):
    """The current position of a game in play: the explorer shows it only once it is past."""

    code = "explorer_live"


@dataclass(frozen=True)
class NextMove:
    """A move played from a position: in how many finished games, the mover's average score
    (0 … 1) over them, and its share of the games that reached the position and went on."""

    move: str
    games: int
    score: float
    share: float


@dataclass(frozen=True)
class Position:
    """A position as the explorer keys it."""

    game: str
    players: int
    key: str


# ------------------------------------------------------------------ writing the index
def table_counts(table: Table) -> dict[tuple[str, str], float] | None:
    """``(position, move) -> the mover's score`` for a finished table's moves, or ``None`` when
    the table is not to be counted (not finished, aborted, or a move log that does not replay)."""
    if table.status != Table.Status.FINISHED:
        return None
    result = game_result(table.pk)
    if result is None or result.aborted:
        return None
    scores = result_scores({s.seat: s.rank for s in result.seats})
    actions = Move.objects.filter(table=table).order_by("seq").values_list("kind", "seat", "notation")
    lines = [notation if kind == Move.Kind.MOVE else f"{kind} {seat}" for kind, seat, notation in actions]
    try:
        keyed = keyed_moves(lines, start=initial_state(table))
    except (engine.IllegalMove, engine.InvalidPosition):
        # The move log no longer replays (``manage.py verify_games`` reports such tables): leave
        # the table out rather than stop a backfill.
        log.exception("table %s does not replay: left out of the explorer", table.pk)
        return None
    counts: dict[tuple[str, str], float] = {}
    for key, move, mover in keyed:
        counts.setdefault((key, move), scores[mover])
    return counts


def index_table(*, table_id: int) -> bool:
    """Add a finished table's moves to the explorer, once; whether this call added them.

    The game is replayed before the transaction; the transaction inserts the table's
    :class:`ExplorerGame` row first (a concurrent call waits on it, then finds it and stops) and
    adds 1 and the mover's score to each of its moves' rows."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None or ExplorerGame.objects.filter(table_id=table_id).exists():
        return False
    counts = table_counts(table)
    if counts is None:
        return False
    with transaction.atomic():
        _, created = ExplorerGame.objects.get_or_create(table_id=table_id)
        if not created:
            return False
        _add(table.game, table.players, counts)
    return True


def _add(game: str, players: int, counts: dict[tuple[str, str], float]) -> None:
    """Add one game to each ``(position, move)`` row (made when missing), in key order, so that
    two tables indexed at once lock the rows they share in the same order."""
    meta = ExplorerMove._meta
    columns = ", ".join(connection.ops.quote_name(meta.get_field(f).column) for f in _FIELDS)
    name = connection.ops.quote_name(meta.db_table)
    rows = sorted(counts.items())
    for start in range(0, len(rows), _CHUNK):
        chunk = rows[start : start + _CHUNK]
        values = ", ".join(["(%s, %s, %s, %s, 1, %s)"] * len(chunk))
        params: list[object] = []
        for (key, move), score in chunk:
            params += [game, players, key, move, score]
        sql = (
            f"INSERT INTO {name} ({columns}) VALUES {values} "
            "ON CONFLICT (game, players, position, move) DO UPDATE SET "
            f"games = {name}.games + EXCLUDED.games, score = {name}.score + EXCLUDED.score"
        )
        with connection.cursor() as cursor:
            cursor.execute(sql, params)


def unindexed_tables(*, after: int = 0, limit: int = 200) -> list[int]:
    """Ids of finished tables above ``after`` not yet in the explorer (aborted ones left out),
    lowest first: a page for the backfill, whose next page starts after the last id of this one."""
    done = ExplorerGame.objects.filter(table_id__gt=after).values("table_id")
    return list(
        Table.objects.filter(status=Table.Status.FINISHED, pk__gt=after)
        .exclude(pk__in=done)
        .exclude(result__has_key="aborted")  # written only as "aborted": true
        .order_by("pk")
        .values_list("pk", flat=True)[:limit]
    )


def index_pending(*, batch: int = 200, limit: int | None = None) -> int:
    """Index every finished table not yet counted (``limit``: at most that many), in batches of
    ``batch``, each table in its own transaction; how many were added."""
    added, after = 0, 0
    while limit is None or added < limit:
        ids = unindexed_tables(after=after, limit=batch)
        if not ids:
            break
        for table_id in ids:
            if limit is not None and added >= limit:
                break
            added += index_table(table_id=table_id)
        after = ids[-1]
    return added


# ------------------------------------------------------------------ reading it
def position_games(*, game: str, players: int, key: str) -> int:
    """How many finished games went on from a position (a game counts once for each move played
    from it): one read of an index range."""
    rows = ExplorerMove.objects.filter(game=game, players=players, position=key)
    return rows.aggregate(n=Sum("games"))["n"] or 0


def next_moves(
    *, game: str, players: int, key: str, limit: int = 20, total: int | None = None
) -> list[NextMove]:
    """The ``limit`` moves played most from a position, most played first, each with its count,
    the mover's average score and its share of ``total`` (:func:`position_games`, read when not
    given): reads of one index range, whatever the history's size."""
    if total is None:
        total = position_games(game=game, players=players, key=key)
    rows = (
        ExplorerMove.objects.filter(game=game, players=players, position=key)
        .order_by("-games", "move")
        .values_list("move", "games", "score")[: max(1, min(limit, MAX_MOVES))]
    )
    return [
        NextMove(move=move, games=games, score=score / games if games else 0.0, share=games / total)
        for move, games, score in rows
    ]


def table_position(*, table_id: int, action: int) -> Position:
    """The position after action ``action`` of a table (``-1``: its start), keyed.

    A game still being played shows its past only: its current position is refused (code
    ``explorer_live``), so that the explorer is no help for the move on the board."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise NotFound(_("there is no table %(id)s") % {"id": table_id})
    if table.started_at is None:
        raise InvalidInput(_("table %(id)s has not started: it has no positions yet") % {"id": table_id})
    if not -1 <= action < table.actions:
        raise InvalidInput(
            _("action: table %(id)s has actions 0 to %(last)s (or -1 for the start)")
            % {"id": table_id, "last": table.actions - 1}
        )
    if table.status == Table.Status.ACTIVE and action >= table.actions - 1:
        raise ExplorerLive(_("the explorer shows a game in play only before its current position"))
    state = initial_state(table)
    for move in Move.objects.filter(table=table, seq__lte=action).order_by("seq"):
        state = replay_step(state, move)
    return Position(game=table.game, players=table.players, key=position_key(state))


def indexed(table_ids: Iterable[int]) -> set[int]:
    """Which of these tables are in the explorer's counts."""
    return set(ExplorerGame.objects.filter(table_id__in=list(table_ids)).values_list("table_id", flat=True))
