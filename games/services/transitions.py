"""What every write to a table shares: locking it, recording the engine's new state on the table
and its seats, the clock deadline, finishing, and the after-commit work (clock checks, bot
turns, ``game_finished``)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _

import engine
from common.errors import NotFound

from .. import dispatch, rows
from ..clocks import SeatClock, TimeControl, time_available
from ..errors import NotSeated
from ..events import (
    TurnStarted,
    announce_after_commit,
    game_finished,
    send_after_commit,
    table_changed,
    turn_started,
)
from ..models import Move, Player, Seat, Table
from ..selectors import game_result, seated_players

ELIMINATION_REASONS = {
    "blocked": Seat.Reason.BLOCKED,
    "captured": Seat.Reason.CAPTURED,
    "resign": Seat.Reason.RESIGNED,
    "timeout": Seat.Reason.TIMEOUT,
}


def locked_table(*, table_id: int) -> Table:
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist:
        raise NotFound(_("there is no table %(table)s") % {"table": table_id}) from None


def locked_table_and_seat(*, table_id: int, player: Player) -> tuple[Table, int]:
    """Lock the table row and find the player's seat number in the same query."""
    table, number = rows.lock_table_for_player(table_id, player.pk)
    if table is None:
        raise NotFound(_("there is no table %(table)s") % {"table": table_id})
    if number is None:
        raise NotSeated(_("you have no seat at table %(table)s") % {"table": table_id})
    return table, number


def seat_of(*, table: Table, player: Player) -> Seat:
    seat = Seat.objects.filter(table=table, player=player).first()
    if seat is None:
        raise NotSeated(_("you have no seat at table %(table)s") % {"table": table.pk})
    return seat


def grace() -> timedelta:
    """How long past a deadline a move is still accepted (network lag), and timeouts wait."""
    return timedelta(seconds=settings.CLOCK_GRACE_SECONDS)


def _first_move_window(tc: TimeControl) -> timedelta:
    if tc.kind == "correspondence":
        return timedelta(seconds=tc.per_move)
    return timedelta(seconds=settings.FIRST_MOVE_SECONDS)


def set_deadline(*, table: Table, tc: TimeControl, now: datetime) -> list[str]:
    """Start the clock of the seat on turn if the turn changed; recompute the deadline.

    A correspondence turn handed to a player on vacation (``games.vacation``) starts when the
    vacation ends, if the time control lets vacation stop the clock: one query, for those
    tables only (a move at any other table costs what it did)."""
    if not tc.timed or table.status != Table.Status.ACTIVE or table.to_move is None:
        table.deadline = None
        return ["deadline"]
    if tc.stops_for_vacation and table.to_move not in (table.bot_seats or []):
        now = max(now, vacation_until(table=table, seat=table.to_move) or now)
    table.turn_started_at = now
    if table.ply == 0:
        # Nobody has moved yet: the first player's clock does not run, the abort window does.
        table.deadline = now + _first_move_window(tc)
    else:
        clock = SeatClock.from_dict(table.clocks[str(table.to_move)])
        table.deadline = now + timedelta(seconds=time_available(tc, clock))
    return ["turn_started_at", "deadline"]


def vacation_until(*, table: Table, seat: int) -> datetime | None:
    """When the vacation of the player in ``seat`` ends (``None``: none set; it may be past)."""
    return (
        Seat.objects.filter(table_id=table.pk, number=seat)
        .values_list("player__vacation_until", flat=True)
        .first()
    )


def record_transition(*, table: Table, state: engine.State, now: Any) -> list[str]:
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
        fields += finish(table=table, state=state, now=now)
    tc = TimeControl.from_dict(table.time_control)
    if tc.timed and (table.to_move != before or state.is_over or state.last_move is not None):
        fields += set_deadline(table=table, tc=tc, now=now)
    elif not tc.timed and table.to_move is not None:
        # Untimed: no clock runs, but the bot sweep reads how long a turn has waited.
        table.turn_started_at = now
        fields.append("turn_started_at")
    if "deadline" in fields:
        schedule_clock_check(table=table)
    schedule_bot_turn(table=table)
    announce_turn(table=table)
    announce_change(table_id=table.pk)
    return fields


def announce_change(*, table_id: int, players: tuple[int, ...] = ()) -> None:
    """After commit, tell listeners (live pages) that the table may look different now, and
    which players took or left a seat."""
    send_after_commit(table_changed, table_id=table_id, players=players)


def announce_turn(*, table: Table) -> None:
    """After commit, tell listeners (notifications) that a human seat's turn began."""
    active = table.status == Table.Status.ACTIVE and table.to_move is not None
    if active and table.to_move not in (table.bot_seats or []):
        send_after_commit(turn_started, turn=TurnStarted.of(table))


def announce_finished(*, table_id: int) -> None:
    """After commit, announce ``game_finished`` with the table's result and its players."""

    def payload() -> dict[str, object]:
        # A finished table never changes again: its result read after the commit is final.
        result = game_result(table_id)
        assert result is not None, f"table {table_id} committed as finished"
        return {"result": result, "players": seated_players([table_id]).get(table_id, {})}

    announce_after_commit(game_finished, payload, sender=Table)


def schedule_bot_turn(*, table: Table) -> None:
    """After commit, let the bot on turn (if any) play."""
    if table.status == Table.Status.ACTIVE and table.to_move in (table.bot_seats or []):
        dispatch.bot_turn_after_commit(table.pk, table.actions)


def schedule_clock_check(*, table: Table) -> None:
    """After commit, check the clock at the deadline, if it is near enough for an ETA task.

    Long deadlines (correspondence) are left to the periodic sweep: an ETA task
    is held in a worker's memory and would be redelivered by Redis after the
    visibility timeout.
    """
    if table.deadline is None:
        return
    due = table.deadline + grace()
    if (due - timezone.now()).total_seconds() > settings.CLOCK_ETA_HORIZON_SECONDS:
        return
    dispatch.clock_check_after_commit(table.pk, table.actions, due)


def finish(*, table: Table, state: engine.State, now: Any) -> list[str]:
    """The game is over: store the ranking and markers; announce the result after the commit
    (``game_finished`` with the :class:`games.results.GameResult` read back from the tables)."""
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
    seats = list(Seat.objects.filter(table=table).order_by("number"))
    for seat in seats:
        seat.rank = ranking[seat.number]
        seat.markers = scores[seat.number]
    Seat.objects.bulk_update(seats, ["rank", "markers"])
    aborted = abort_rating_if_unmoved(table=table)
    announce_finished(table_id=table.pk)
    return ["status", "finished_at", "end_reason", "winner_seat", "result", *aborted]


def abort_rating_if_unmoved(*, table: Table) -> list[str]:
    """A rated table that ends before every seat has made a move is *aborted*: rated for nobody.

    As on lichess: otherwise two accounts of one person farm a rating by resigning at ply 0
    (issue 29). The ranks stand (a tournament or ladder still scores the table: a no-show's forfeit
    counts in the event), but ``rated`` becomes false and the result says ``"aborted": true``, so
    the ratings never see the table and the API and pages say why it was not rated. Call it once
    the table's ``result`` is set; returns the fields it changed."""
    if not table.rated:
        return []
    moves = Move.objects.filter(table=table, kind=Move.Kind.MOVE).order_by()
    moved = set(moves.values_list("seat", flat=True).distinct())
    if moved >= set(range(1, table.players + 1)):
        return []
    table.rated = False
    table.result = {**(table.result or {}), "aborted": True}
    return ["rated"]
