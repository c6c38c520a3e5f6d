"""Every write to tables, seats and moves: one function per action.

Each action is one transaction that locks the table row
(``select_for_update``), asks the engine, writes, and dispatches side effects
only ``on_commit``. A refused action raises a :class:`games.errors.ServiceError`
and changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone

import engine
from engine.records import RecordError, parse_record

from . import rows
from .clocks import SeatClock, TimeControl, charge, clamp_to_flag, time_available
from .errors import (
    Conflict,
    Flagged,
    Forbidden,
    IllegalMoveError,
    InvalidInput,
    NotFound,
    NotSeated,
    NotYourTurn,
    StalePly,
    TableNotActive,
)
from .events import game_finished
from .models import Move, Player, Seat, Table

ELIMINATION_REASONS = {
    "blocked": Seat.Reason.BLOCKED,
    "captured": Seat.Reason.CAPTURED,
    "resign": Seat.Reason.RESIGNED,
    "timeout": Seat.Reason.TIMEOUT,
}


@dataclass(frozen=True)
class MoveOutcome:
    move: Move
    table: Table
    created: bool


def normalize(text: str) -> str:
    """The submitted move as compared for retries: lower case, no white space."""
    return "".join(text.split()).lower()


# --------------------------------------------------------------------- helpers
def _locked_table(table_id: int) -> Table:
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist:
        raise NotFound(f"there is no table {table_id}") from None


def _locked_table_and_seat(table_id: int, player: Player) -> tuple[Table, int]:
    """Lock the table row and find the player's seat number in the same query."""
    table, number = rows.lock_table_for_player(table_id, player.pk)
    if table is None:
        raise NotFound(f"there is no table {table_id}")
    if number is None:
        raise NotSeated(f"you have no seat at table {table_id}")
    return table, number


def _seat_of(table: Table, player: Player) -> Seat:
    seat = Seat.objects.filter(table=table, player=player).first()
    if seat is None:
        raise NotSeated(f"you have no seat at table {table.pk}")
    return seat


def initial_state(table: Table) -> engine.State:
    """The engine state a table starts from."""
    if table.initial_position is not None:
        return engine.load(table.initial_position)
    options: dict[str, Any] = {"ply_limit": table.ply_limit}
    if table.game == "pacru":
        options["edition"] = table.edition
    return engine.new_game(table.game, table.players, **options)


def current_state(table: Table) -> engine.State:
    if table.position is None:
        raise TableNotActive(f"table {table.pk} has not started: it is {table.status}")
    return engine.load(table.position)


def grace() -> timedelta:
    """How long past a deadline a move is still accepted (network lag), and timeouts wait."""
    return timedelta(seconds=settings.CLOCK_GRACE_SECONDS)


def _first_move_window(tc: TimeControl) -> timedelta:
    if tc.kind == "correspondence":
        return timedelta(seconds=tc.per_move)
    return timedelta(seconds=settings.FIRST_MOVE_SECONDS)


def _set_deadline(table: Table, tc: TimeControl, now: datetime) -> list[str]:
    """Start the clock of the seat on turn if the turn changed; recompute the deadline."""
    if not tc.timed or table.status != Table.Status.ACTIVE or table.to_move is None:
        table.deadline = None
        return ["deadline"]
    table.turn_started_at = now
    if table.ply == 0:
        # Nobody has moved yet: the first player's clock does not run, the abort window does.
        table.deadline = now + _first_move_window(tc)
    else:
        clock = SeatClock.from_dict(table.clocks[str(table.to_move)])
        table.deadline = now + timedelta(seconds=time_available(tc, clock))
    return ["turn_started_at", "deadline"]


def _record_transition(table: Table, state: engine.State, now: Any) -> list[str]:
    """Copy the engine's new state onto the table row and its seats; return changed table fields."""
    before = table.to_move
    table.position = state.to_dict()
    table.ply = state.ply
    table.to_move = None if state.is_over else state.to_move
    table.actions += 1
    fields = ["position", "ply", "to_move", "actions"]
    for seat_number, reason in state.last_eliminations:
        Seat.objects.filter(table=table, number=seat_number).update(
            state=Seat.State.OUT,
            eliminated_at_ply=state.ply,
            elimination_reason=ELIMINATION_REASONS[reason],
        )
    if state.is_over:
        fields += _finish(table, state, now)
    tc = TimeControl.from_dict(table.time_control)
    if tc.timed and (table.to_move != before or state.is_over or state.last_move is not None):
        fields += _set_deadline(table, tc, now)
    if "deadline" in fields:
        _schedule_clock_check(table)
    _schedule_bot_turn(table)
    return fields


def _schedule_bot_turn(table: Table) -> None:
    """After commit, queue the bot on turn (queue ``bots``); locally the bot runner does it."""
    from config.celery import app

    if table.status != Table.Status.ACTIVE or table.to_move not in (table.bot_seats or []):
        return
    if app.conf.task_always_eager:
        return
    table_id, actions = table.pk, table.actions

    def send() -> None:
        from .tasks import bot_move

        bot_move.apply_async(args=(table_id, actions))

    transaction.on_commit(send)


def _schedule_clock_check(table: Table) -> None:
    """After commit, queue a check at the deadline, if it is near enough for an ETA task.

    Long deadlines (correspondence) are left to the periodic sweep: an ETA task
    is held in a worker's memory and would be redelivered by Redis after the
    visibility timeout.
    """
    from config.celery import app

    if table.deadline is None or app.conf.task_always_eager:
        return
    due = table.deadline + grace()
    if (due - timezone.now()).total_seconds() > settings.CLOCK_ETA_HORIZON_SECONDS:
        return
    table_id, actions = table.pk, table.actions

    def send() -> None:
        from .tasks import clock_check

        clock_check.apply_async(args=(table_id, actions), eta=due)

    transaction.on_commit(send)


def _finish(table: Table, state: engine.State, now: Any) -> list[str]:
    ranking = state.ranking()
    scores = state.scores
    table.status = Table.Status.FINISHED
    table.finished_at = now
    table.end_reason = state.end_reason or ""
    table.winner_seat = state.winner
    table.result = {
        "ranking": {str(s): r for s, r in ranking.items()},
        "scores": {str(s): n for s, n in scores.items()},
        "winner": state.winner,
        "end": state.end_reason,
    }
    seats = list(Seat.objects.filter(table=table))
    for seat in seats:
        seat.rank = ranking[seat.number]
        seat.markers = scores[seat.number]
    Seat.objects.bulk_update(seats, ["rank", "markers"])
    table_id = table.pk
    transaction.on_commit(lambda: game_finished.send(sender=Table, table_id=table_id))
    return ["status", "finished_at", "end_reason", "winner_seat", "result"]


# --------------------------------------------------------------------- actions
def player_register(*, username: str, password: str, display_name: str = "") -> Player:
    from django.contrib.auth.password_validation import validate_password
    from django.core.exceptions import ValidationError

    User = get_user_model()
    if User.objects.filter(username__iexact=username).exists():
        raise Conflict(f"the username {username!r} is taken")
    user = User(username=username)
    try:
        validate_password(password, user)
    except ValidationError as exc:
        raise InvalidInput("password: " + " ".join(exc.messages)) from None
    with transaction.atomic():
        user.set_password(password)
        try:
            user.save()
        except IntegrityError:
            raise Conflict(f"the username {username!r} is taken") from None
        return Player.objects.create(user=user, display_name=display_name or username)


@transaction.atomic
def table_create(
    *,
    creator: Player,
    game: str,
    players: int,
    edition: str = "302",
    ply_limit: int = 1000,
    rated: bool = True,
    join: bool = True,
    seat: int | None = None,
    time_control: dict[str, Any] | None = None,
    no_show: str = "abort",
) -> Table:
    """Open a table; the creator takes a seat unless ``join`` is false."""
    options: dict[str, Any] = {"ply_limit": ply_limit}
    if game == "pacru":
        options["edition"] = edition
    try:
        engine.new_game(game, players, **options)
        tc = TimeControl.from_dict(time_control)
    except ValueError as exc:
        raise InvalidInput(str(exc)) from None
    table = Table.objects.create(
        game=game,
        edition=edition if game == "pacru" else "",
        players=players,
        ply_limit=ply_limit,
        rated=rated,
        created_by=creator,
        time_control=tc.to_dict(),
        no_show=no_show,
    )
    if join:
        return seat_join(table_id=table.pk, player=creator, seat=seat)
    return table


@transaction.atomic
def seat_join(*, table_id: int, player: Player, seat: int | None = None) -> Table:
    """Take a seat (the lowest free one unless ``seat`` is given); start when full."""
    table = _locked_table(table_id)
    if table.status != Table.Status.OPEN:
        raise TableNotActive(f"table {table_id} is {table.status}: only open tables can be joined")
    taken = dict(Seat.objects.filter(table=table).values_list("number", "player_id"))
    if player.pk in taken.values():
        raise Conflict(f"you already have a seat at table {table_id}", seat=_key_of(taken, player.pk))
    free = [n for n in range(1, table.players + 1) if n not in taken]
    if seat is None:
        seat = free[0]
    elif not 1 <= seat <= table.players:
        raise InvalidInput(f"seat must be 1…{table.players} at this table, not {seat}")
    elif seat in taken:
        raise Conflict(f"seat {seat} at table {table_id} is taken; free seats: {free}")
    Seat.objects.create(table=table, number=seat, player=player, colour=Seat.COLOURS[seat])
    if len(taken) + 1 == table.players:
        _start(table)
    return table


@transaction.atomic
def bot_invite(*, table_id: int, player: Player, level: str, seat: int | None = None) -> Table:
    """Seat a house bot of ``level`` at an open table; only someone seated there, the table's
    creator or staff may invite. The table starts if this fills it."""
    from .botplay import house_bot

    table = _locked_table(table_id)
    if table.status != Table.Status.OPEN:
        raise TableNotActive(f"table {table_id} is {table.status}: bots can be invited only before it starts")
    seated = Seat.objects.filter(table=table, player=player).exists()
    if not (seated or table.created_by_id == player.pk or player.user.is_staff):
        raise Forbidden(f"only the players at table {table_id} or its creator can invite a bot")
    try:
        bot = house_bot(level, not_at_table=table.pk)
    except ValueError as exc:
        raise InvalidInput(str(exc)) from None
    return seat_join(table_id=table.pk, player=bot, seat=seat)


def _key_of(mapping: dict[int, int], value: int) -> int | None:
    return next((k for k, v in mapping.items() if v == value), None)


def _start(table: Table) -> None:
    state = initial_state(table)
    now = timezone.now()
    tc = TimeControl.from_dict(table.time_control)
    table.status = Table.Status.ACTIVE
    table.started_at = now
    table.position = state.to_dict()
    table.ply = state.ply
    table.to_move = state.to_move
    table.bot_seats = list(
        Seat.objects.filter(table=table, player__is_bot=True)
        .order_by("number")
        .values_list("number", flat=True)
    )
    fields = ["status", "started_at", "position", "ply", "to_move", "bot_seats"]
    if tc.timed:
        table.clocks = {str(n): tc.initial_clock().to_dict() for n in range(1, table.players + 1)}
        fields += ["clocks", *_set_deadline(table, tc, now)]
        _schedule_clock_check(table)
    table.save(update_fields=fields)
    _schedule_bot_turn(table)


@transaction.atomic
def seat_leave(*, table_id: int, player: Player) -> Table:
    """Give up a seat before the table starts; an empty table is aborted."""
    table = _locked_table(table_id)
    if table.status != Table.Status.OPEN:
        raise TableNotActive(
            f"table {table_id} is {table.status}: you can leave only before it starts (resign instead)"
        )
    _seat_of(table, player).delete()
    if not Seat.objects.filter(table=table).exists():
        table.status = Table.Status.ABORTED
        table.finished_at = timezone.now()
        table.save(update_fields=["status", "finished_at"])
    return table


def move_submit(
    *, table_id: int, player: Player, ply: int, move: str, now: datetime | None = None
) -> MoveOutcome:
    """Adjudicate and record one move answering position ``ply``.

    The clock is checked first: a player whose time ran out (past the grace)
    loses on time instead, and gets 409 ``flagged``. A stale ``ply`` is refused
    with 409 and the current ply, unless it is an exact retry of the move this
    player already made at that ply, which returns the recorded move unchanged.
    """
    now = now or timezone.now()
    with transaction.atomic():
        table, seat = _locked_table_and_seat(table_id, player)
        on_turn = table.to_move
        flagged = _timeout_if_due(table, now)
        if not flagged:
            return _adjudicate(table, seat, ply, move, now)
    # The timeout is committed; the move is refused.
    if flagged == "aborted":
        detail = "the table was aborted: the first move was not made in time"
    elif on_turn == seat:
        detail = "your time ran out before the move arrived: you lost on time"
    else:
        detail = f"seat {on_turn} lost on time just now: reload the table"
    raise Flagged(detail, ply=table.ply)


def _adjudicate(table: Table, seat: int, ply: int, move: str, now: datetime) -> MoveOutcome:
    if ply != table.ply:
        if 0 <= ply < table.ply:
            done = Move.objects.filter(table=table, kind=Move.Kind.MOVE, ply=ply + 1).first()
            text = normalize(move)
            if done is not None and done.seat == seat and text in (done.submitted, done.notation):
                return MoveOutcome(done, table, created=False)
        raise StalePly(
            f"you answered ply {ply} but the table is at ply {table.ply}: reload and try again",
            ply=table.ply,
        )
    if table.status != Table.Status.ACTIVE:
        raise TableNotActive(f"table {table.pk} is {table.status}: no moves can be made")
    state = current_state(table)
    if seat in state.eliminated:
        raise NotYourTurn("you are out of this game")
    if table.to_move != seat:
        raise NotYourTurn(f"it is seat {table.to_move}'s turn, not yours (seat {seat})")
    try:
        after = state.play(move)
    except engine.IllegalMove as exc:
        raise IllegalMoveError(str(exc)) from None
    assert after.last_move is not None
    fields = _charge_mover(table, seat, now)
    record = rows.insert_move(
        Move(
            table_id=table.pk,
            seq=table.actions,
            ply=after.ply,
            seat=seat,
            kind=Move.Kind.MOVE,
            notation=after.last_move,
            submitted=normalize(move)[:80],
        )
    )
    rows.update_fields(table, fields + _record_transition(table, after, now))
    return MoveOutcome(record, table, created=True)


def _charge_mover(table: Table, seat: int, now: datetime) -> list[str]:
    """Take the time of this turn off the mover's clock (not before the first move)."""
    tc = TimeControl.from_dict(table.time_control)
    if not tc.timed or table.ply == 0 or table.turn_started_at is None or not table.clocks:
        return []
    clock = SeatClock.from_dict(table.clocks[str(seat)])
    elapsed = clamp_to_flag(tc, clock, (now - table.turn_started_at).total_seconds())
    after = charge(tc, clock, elapsed)
    assert after is not None, "a move within the grace is charged up to the flag"
    table.clocks = {**table.clocks, str(seat): after.to_dict()}
    return ["clocks"]


def _timeout_if_due(table: Table, now: datetime) -> str:
    """Apply the due timeout or first-move abort of a locked table; say which ('' if none)."""
    if table.status != Table.Status.ACTIVE or table.deadline is None or now < table.deadline + grace():
        return ""
    if table.ply == 0 and table.no_show == "abort":
        table.status = Table.Status.ABORTED
        table.finished_at = now
        table.to_move = None
        table.deadline = None
        table.end_reason = "aborted"
        rows.update_fields(table, ["status", "finished_at", "to_move", "deadline", "end_reason"])
        return "aborted"
    seat = table.to_move
    assert seat is not None
    state = current_state(table).eliminate(seat, "timeout")
    fields = []
    if table.clocks:
        table.clocks = {**table.clocks, str(seat): SeatClock(0.0).to_dict()}
        fields.append("clocks")
    rows.insert_move(
        Move(table_id=table.pk, seq=table.actions, seat=seat, kind=Move.Kind.TIMEOUT, notation="")
    )
    rows.update_fields(table, fields + _record_transition(table, state, now))
    return "timeout"


def clock_timeout_apply(
    *,
    table_id: int,
    expected_actions: int | None = None,
    skip_locked: bool = False,
    now: datetime | None = None,
) -> str:
    """Apply a table's timeout or abort if it is due; safe to call any number of times.

    Every path that enforces clocks (the ETA task, the sweeper, reads of the
    table, moves) ends here or in ``_timeout_if_due`` under the table's row lock,
    so a timeout is applied exactly once. Returns what happened: ``timeout``,
    ``aborted``, ``not-due``, ``moved-on`` (the table changed since the check
    was scheduled), ``not-active`` or ``busy`` (locked by someone else, skipped).
    """
    now = now or timezone.now()
    with transaction.atomic():
        table = (
            Table.objects.select_for_update(skip_locked=skip_locked)
            .filter(pk=table_id)
            .only(*rows.MOVE_FIELDS)
            .first()
        )
        if table is None:
            return "busy" if skip_locked and Table.objects.filter(pk=table_id).exists() else "missing"
        if table.status != Table.Status.ACTIVE:
            return "not-active"
        if expected_actions is not None and table.actions != expected_actions:
            return "moved-on"
        return _timeout_if_due(table, now) or "not-due"


def apply_due_timeouts(*, limit: int = 50) -> int:
    """On reads: apply the timeouts already past their grace (normally none; one indexed query)."""
    now = timezone.now()
    due = Table.objects.filter(status=Table.Status.ACTIVE, deadline__lte=now - grace()).values_list(
        "pk", flat=True
    )[:limit]
    return sum(
        clock_timeout_apply(table_id=t, skip_locked=True, now=now) in ("timeout", "aborted") for t in due
    )


def sweep_overdue(*, now: datetime | None = None, batch: int = 200, budget_seconds: float = 20.0) -> int:
    """Apply every overdue timeout (the backstop of the ETA tasks); return how many were applied.

    Overlapping sweeps are safe: each table is handled in its own transaction
    with ``SKIP LOCKED``, and re-checked under the lock.
    """
    started = timezone.now()
    applied = 0
    seen: set[int] = set()
    while (timezone.now() - started).total_seconds() < budget_seconds:
        moment = now or timezone.now()
        due = list(
            Table.objects.filter(status=Table.Status.ACTIVE, deadline__lte=moment - grace())
            .exclude(pk__in=seen)
            .order_by("deadline")
            .values_list("pk", flat=True)[:batch]
        )
        if not due:
            break
        for table_id in due:
            seen.add(table_id)
            if clock_timeout_apply(table_id=table_id, skip_locked=True, now=moment) in ("timeout", "aborted"):
                applied += 1
                seen.discard(table_id)  # the next seat may be overdue too (a late sweep)
    return applied


@transaction.atomic
def game_resign(*, table_id: int, player: Player) -> Table:
    """Resign: the player is out (RULES 6.5), the others play on."""
    table = _locked_table(table_id)
    seat = _seat_of(table, player)
    if _timeout_if_due(table, timezone.now()):
        table.refresh_from_db()
        seat.refresh_from_db()
    return _eliminate(table, seat, "resign")


def _eliminate(table: Table, seat: Seat, reason: str) -> Table:
    if table.status != Table.Status.ACTIVE:
        raise TableNotActive(f"table {table.pk} is {table.status}")
    if seat.state != Seat.State.PLAYING:
        raise Conflict(f"seat {seat.number} is already out of the game")
    try:
        after = current_state(table).eliminate(seat.number, reason)
    except engine.IllegalMove as exc:
        raise Conflict(str(exc)) from None
    now = timezone.now()
    Move.objects.create(table=table, seq=table.actions, ply=None, seat=seat.number, kind=reason, notation="")
    fields = _record_transition(table, after, now)
    table.save(update_fields=fields)
    return table


@transaction.atomic
def table_import_record(*, text: str, imported_by: Player, rated: bool = False) -> Table:
    """Create a finished table from a game record (staff only; checked by the caller)."""
    try:
        record = parse_record(text)
        final = record.replay()
    except RecordError as exc:
        raise InvalidInput(f"the record does not replay: {exc}") from None
    if not final.is_over:
        raise InvalidInput("only finished games can be imported: the record's game is not over")
    players: list[Player] = []
    for number in range(1, record.players + 1):
        name = record.headers.get(f"Seat{number}")
        if not name:
            raise InvalidInput(f"the record has no Seat{number} header naming the player")
        found = Player.objects.filter(user__username__iexact=name).first()
        if found is None:
            raise InvalidInput(f"Seat{number}: there is no player with the username {name!r}")
        players.append(found)
    if len({p.pk for p in players}) != len(players):
        raise InvalidInput("a player cannot sit at two seats of one table")
    now = timezone.now()
    table = Table.objects.create(
        game=record.game,
        edition=record.edition if record.game == "pacru" else "",
        players=record.players,
        ply_limit=record.ply_limit,
        rated=rated,
        created_by=imported_by,
        status=Table.Status.ACTIVE,
        started_at=now,
        initial_position=record.start,
    )
    Seat.objects.bulk_create(
        Seat(table=table, number=n, player=p, colour=Seat.COLOURS[n]) for n, p in enumerate(players, 1)
    )
    state = initial_state(table)
    moves = []
    for seq, action in enumerate(record.actions):
        kind, _, who = action.partition(" ")
        if kind in ("resign", "timeout") and who.isdigit():
            state = state.eliminate(int(who), kind)
            moves.append(Move(table=table, seq=seq, seat=int(who), kind=kind, notation=""))
        else:
            seat_number = state.to_move
            state = state.play(action)
            assert state.last_move is not None
            moves.append(
                Move(table=table, seq=seq, ply=state.ply, seat=seat_number, notation=state.last_move)
            )
        for number, reason in state.last_eliminations:
            Seat.objects.filter(table=table, number=number).update(
                state=Seat.State.OUT,
                eliminated_at_ply=state.ply,
                elimination_reason=ELIMINATION_REASONS[reason],
            )
    Move.objects.bulk_create(moves)
    table.actions = len(moves)
    table.position = state.to_dict()
    table.ply = state.ply
    table.to_move = None
    fields = ["actions", "position", "ply", "to_move", *_finish(table, state, now)]
    table.save(update_fields=fields)
    return table


def require_staff(player: Player) -> None:
    if not player.user.is_staff:
        raise Forbidden("only staff may do this")
