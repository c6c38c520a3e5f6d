"""Reads: what the API and the pages show about tables and players."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.db.models import Count, F, IntegerField, Max, OuterRef, Prefetch, QuerySet, Subquery, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _

import engine

from .errors import TableNotActive
from .events import PlayerRef
from .models import Move, Player, Seat, Table
from .results import GameResult, SeatResult, seat_ending


def initial_state(table: Table) -> engine.State:
    """The engine state a table starts from."""
    if table.initial_position is not None:
        return engine.load(table.initial_position)
    return engine.new_game(table.game, table.players, edition=table.edition, ply_limit=table.ply_limit)


def current_state(table: Table) -> engine.State:
    """The engine state of a started table (``TableNotActive`` before the start)."""
    if table.position is None:
        raise TableNotActive(
            _("table %(table)s has not started: it is %(status)s")
            % {"table": table.pk, "status": table.status_word}
        )
    return engine.load(table.position)


class TableRows(QuerySet[Table]):
    """Tables with their seats prefetched; each row also carries ``seats_taken``, counted off the
    prefetched seats (no aggregate: a ``COUNT`` over the joined seats would make the database
    group every matching table of the history before it could sort and take a page)."""

    def _prefetch_related_objects(self) -> None:
        super()._prefetch_related_objects()  # type: ignore[misc]
        for table in self._result_cache or ():
            cache = getattr(table, "_prefetched_objects_cache", {})
            if isinstance(table, Table) and "seats" in cache and not hasattr(table, "seats_taken"):
                table.seats_taken = len(cache["seats"])  # type: ignore[attr-defined]


#: Columns no list shows (``TableOut``): the set-up position of imports and the bots' seats.
#: ``position`` stays: the list's ``scores`` and a game's live markers are read from it.
LIST_DEFERRED = ("initial_position", "bot_seats")


def _seat_count() -> Subquery:
    """The number of seats taken at the outer table: a subquery per row (the seat index), run only
    for the rows a filter or a page reads, never a ``GROUP BY`` over the history."""
    seats = Seat.objects.filter(table=OuterRef("pk")).order_by().values("table")
    return Subquery(seats.annotate(n=Count("*")).values("n"), output_field=IntegerField())


def table_list() -> QuerySet[Table]:
    """Tables with their creator and seats (prefetched; ``seats_taken`` from them), unordered.
    Lists take ``.defer(*LIST_DEFERRED)``."""
    return (
        TableRows(model=Table)
        .select_related("created_by__user")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player__user")))
    )


def tables_with_open_seats(qs: QuerySet[Table]) -> QuerySet[Table]:
    """Open tables with a free seat: the seat count is a subquery over open tables only."""
    return (
        qs.filter(status=Table.Status.OPEN)
        .annotate(seats_taken=Coalesce(_seat_count(), 0))
        .filter(seats_taken__lt=F("players"))
    )


def tables_of_player(qs: QuerySet[Table], player_id: int) -> QuerySet[Table]:
    """The tables of ``qs`` where the player has a seat: a plain join (one seat per player and
    table, so no ``DISTINCT``). Ordered by the table id and cut by a ``LIMIT``, this join lets
    PostgreSQL walk every newer table of everyone before it meets a player whose games are all
    old: a page of it is read off :func:`seats_of_player` instead (the API's list, with
    ``common.pagination.paged_off``; the player page, :func:`player_tables_page`)."""
    return qs.filter(seats__player_id=player_id)


def seats_of_player(player_id: int, among: QuerySet[Table] | None = None) -> QuerySet[Seat]:
    """The player's seats (``seat_player_table_idx``: by player, newest table first); with
    ``among``, only those at one of its tables. Each seat then checks its own table by primary
    key in a scalar subquery, which PostgreSQL runs per seat and never turns into a join (an
    ``EXISTS`` or ``IN`` it would, and walk the tables' index again): the cost grows with the
    player's own seats at most, never with everyone's tables."""
    seats = Seat.objects.filter(player_id=player_id)
    if among is not None and among.query.has_filters():
        table = among.filter(pk=OuterRef("table_id")).order_by().values("pk")[:1]
        seats = seats.filter(table_id=Subquery(table))
    return seats


def table_detail(table_id: int) -> Table:
    """One table with its seats. An archived table (a finished one whose stored position was
    dropped, see ``manage.py archive_tables``) gets its position back from the move log, so it
    reads exactly as before."""
    table = table_list().get(pk=table_id)
    if table.position is None and table.started_at is not None:
        table.position = replayed_state(table).to_dict()
    return table


def replayed_state(table: Table, moves: Iterable[Move] | None = None) -> engine.State:
    """The table's state after its recorded actions, replayed from the start (the move log is
    the source of truth; ``Table.position`` is its cached end)."""
    state = initial_state(table)
    for move in moves if moves is not None else Move.objects.filter(table=table).order_by("seq"):
        state = replay_step(state, move)
    return state


def replay_step(state: engine.State, move: Move) -> engine.State:
    """The state after one recorded action: a move, or a seat eliminated (resignation, timeout)."""
    if move.kind == Move.Kind.MOVE:
        return state.play(move.notation)
    return state.eliminate(move.seat, move.kind)


def move_history(table: Table) -> list[Move]:
    return list(Move.objects.filter(table=table).order_by("seq"))


def legal_for_turn(table: Table, state: engine.State | None = None) -> dict[str, Any]:
    """The moves of the player on turn and the choices each needs.

    Pacru: ``{base: {"effects": [...], "effect_kind": ..., "meetings": {option: [...]}}}``
    with meetings listed only where one follows, and ``reorient``: the turns the player can
    afford and the markers that may pay for them (``null`` when none is affordable);
    Shacru/Azacru: complete moves (twists included), ``["pass"]`` when nothing can move.
    """
    if table.status != Table.Status.ACTIVE or table.position is None:
        return {"base_moves": [], "choices": {}, "reorient": None}
    return (state or engine.load(table.position)).turn_options()


def player_list() -> QuerySet[Player]:
    """Players with ``tables_played``: a subquery per row (``seat_player_table_idx``), so a page
    of players counts its own seats only, not every player's."""
    seats = Seat.objects.filter(player=OuterRef("pk")).order_by().values("player")
    played = Subquery(seats.annotate(n=Count("*")).values("n"), output_field=IntegerField())
    return Player.objects.select_related("user").annotate(tables_played=Coalesce(played, 0))


def player_tables(player: Player, limit: int = 50) -> list[Table]:
    """The player's latest ``limit`` tables, newest first (see :func:`player_tables_page`)."""
    return player_tables_page(player.pk, limit=limit)


def table_version(table_id: int) -> tuple[str, bool] | None:
    """A cheap tag that changes whenever anything a viewer sees of the table changes, and
    whether a timeout is due (so that readers apply it first); ``None`` for no such table.

    Every move, resignation and timeout bumps ``actions``; starting and finishing change
    ``status``; joining and leaving change the seat count; the deadline moves with the clocks.
    One indexed query, no lock: polling readers never queue behind a move.
    """
    row = (
        Table.objects.filter(pk=table_id)
        .annotate(n_seats=Count("seats"))
        .values_list("status", "actions", "ply", "to_move", "deadline", "n_seats")
        .first()
    )
    if row is None:
        return None
    status, actions, ply, to_move, deadline, n_seats = row
    stamp = deadline.timestamp() if deadline else 0
    due = (
        status == Table.Status.ACTIVE
        and deadline is not None
        and timezone.now().timestamp() >= stamp + settings.CLOCK_GRACE_SECONDS
    )
    return f"t{table_id}-{status}-{actions}-{ply}-{to_move}-{n_seats}-{stamp:.3f}", due


def table_positions(table: Table, start: int = 0) -> dict[str, Any]:
    """The start position and the position after each action from ``start`` (replayed with the
    engine), for stepping through a game: ``{"start", "start_powers", "actions": [{"seq", "ply",
    "seat", "action", "position", "powers"}]}`` (powers: the engine's ``State.powers``)."""
    state = initial_state(table)
    first, first_powers = state.to_dict(), state.powers()
    out: list[dict[str, Any]] = []
    for move in Move.objects.filter(table=table).order_by("seq"):
        state = replay_step(state, move)
        if move.seq >= start:
            out.append(
                {"seq": move.seq, "ply": move.ply, "seat": move.seat, "action": move.action,
                 "position": state.to_dict(), "powers": state.powers()}
            )  # fmt: skip
    return {"start": first, "start_powers": first_powers, "actions": out}


def lobby_version(user_id: int | None) -> str:
    """A cheap tag of everything the lobby shows: it changes when a table opens, fills, moves,
    finishes or is aborted. One aggregate over the tables still in play (the status index) and
    the last end read off the end of an index: its cost does not grow with finished history."""
    live = Table.objects.filter(status__in=[Table.Status.OPEN, Table.Status.ACTIVE]).aggregate(
        n=Count("id", distinct=True), seats=Count("seats"), actions=Sum("actions"), newest=Max("id")
    )
    last = (
        Table.objects.filter(finished_at__isnull=False)
        .order_by("-finished_at")
        .values_list("finished_at", flat=True)
        .first()
    )
    stamp = last.timestamp() if last else 0
    return f"lobby-{user_id}-{live['n']}-{live['seats']}-{live['actions']}-{live['newest']}-{stamp:.3f}"


# ------------------------------------------------------------------ results
def game_results(table_ids: Iterable[int]) -> dict[int, GameResult]:
    """The results of those tables that are finished (three queries for any number of tables;
    the move log is read only for tables where a seat lost on time, to tell no-shows)."""
    ids = list(table_ids)
    tables = {
        t["id"]: t
        for t in Table.objects.filter(pk__in=ids, status=Table.Status.FINISHED).values(
            "id", "game", "players", "rated", "finished_at", "end_reason", "winner_seat", "result"
        )
    }
    seats: dict[int, list[tuple[int, int, int | None, int, str]]] = {}
    for row in (
        Seat.objects.filter(table_id__in=tables)
        .order_by("table_id", "number")
        .values_list("table_id", "number", "player_id", "rank", "markers", "elimination_reason")
    ):
        seats.setdefault(row[0], []).append(row[1:])
    timed_out = [t for t, group in seats.items() if any(row[-1] == Seat.Reason.TIMEOUT for row in group)]
    moved: set[tuple[int, int]] = set()
    if timed_out:
        moves = Move.objects.filter(table_id__in=timed_out, kind=Move.Kind.MOVE)
        moved = set(moves.values_list("table_id", "seat").distinct())
    out = {}
    for table_id, meta in tables.items():
        group = seats.get(table_id, [])
        if any(row[2] is None for row in group):
            continue  # not a played result (should not happen for a finished table)
        out[table_id] = GameResult(
            table_id=table_id,
            game=meta["game"],
            players=meta["players"],
            rated=meta["rated"],
            finished_at=meta["finished_at"],
            end_reason=meta["end_reason"],
            winner_seat=meta["winner_seat"],
            aborted=bool(isinstance(meta["result"], dict) and meta["result"].get("aborted")),
            seats=tuple(
                SeatResult(
                    seat=number,
                    player_id=player_id,
                    rank=int(rank),  # type: ignore[arg-type]
                    markers=markers,
                    ending=seat_ending(reason, (table_id, number) in moved),
                )
                for number, player_id, rank, markers, reason in group
            ),
        )
    return out


def game_result(table_id: int) -> GameResult | None:
    """The result of one finished table, or ``None`` while it is not finished."""
    return game_results([table_id]).get(table_id)


def finished_tables(game: str, *, rated: bool | None = None) -> QuerySet[Table]:
    """The finished tables of a game in the order they finished (for ledgers such as ratings)."""
    qs = Table.objects.filter(game=game, status=Table.Status.FINISHED)
    if rated is not None:
        qs = qs.filter(rated=rated)
    return qs.order_by("finished_at", "id")


def table_game(table_id: int) -> str | None:
    return Table.objects.filter(pk=table_id).values_list("game", flat=True).first()


def table_status(table_id: int) -> str | None:
    return Table.objects.filter(pk=table_id).values_list("status", flat=True).first()


def seatings(table_ids: Iterable[int]) -> dict[int, list[int]]:
    """The player ids at each of these tables, in seat order (one query)."""
    out: dict[int, list[int]] = {}
    for table_id, player_id in (
        Seat.objects.filter(table_id__in=list(table_ids))
        .order_by("table_id", "number")
        .values_list("table_id", "player_id")
    ):
        out.setdefault(table_id, []).append(player_id)
    return out


def seated_players(table_ids: Iterable[int]) -> dict[int, dict[int, PlayerRef]]:
    """Per table, seat number → :class:`~games.events.PlayerRef` (one query, for events'
    payloads and their listeners)."""
    out: dict[int, dict[int, PlayerRef]] = {}
    for seat in Seat.objects.filter(table_id__in=list(table_ids)).select_related("player").order_by("number"):
        out.setdefault(seat.table_id, {})[seat.number] = PlayerRef.of(seat.player)
    return out


def player_tables_page(player_id: int, *, before: int | None = None, limit: int = 20) -> list[Table]:
    """A page of the player's tables, newest first, with their seats: those with an id below
    ``before``. The ids are read off ``seat_player_table_idx`` first (keyset paging: any page
    costs what the first does); a join ordered by the table id would let PostgreSQL walk every
    newer table of everyone before it reaches a player whose games are all old."""
    seats = seats_of_player(player_id)
    if before is not None:
        seats = seats.filter(table_id__lt=before)
    ids = list(seats.order_by("-table_id").values_list("table_id", flat=True)[:limit])
    return list(table_list().defer(*LIST_DEFERRED).filter(pk__in=ids).order_by("-id"))
