"""Submitting a move: the hot path of the service, one transaction under the table's row lock."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import engine
from common import metrics
from common.errors import ServiceError
from common.logging import log_context

from .. import rows
from ..clocks import SeatClock, TimeControl, charge, clamp_to_flag
from ..engine_words import refusal, translate_illegal
from ..errors import Flagged, IllegalMoveError, NotYourTurn, StalePly, TableNotActive
from ..models import Move, Player, Table
from ..selectors import current_state
from .timeouts import timeout_if_due
from .transitions import locked_table_and_seat, record_transition

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class MoveOutcome:
    move: Move
    table: Table
    created: bool


def normalize(*, text: str) -> str:
    """The submitted move as compared for retries: lower case, no white space."""
    return "".join(text.split()).lower()


def move_submit(
    *, table_id: int, player: Player, ply: int, move: str, now: datetime | None = None
) -> MoveOutcome:
    """Adjudicate and record one move answering position ``ply``.

    The clock is checked first: a player whose time ran out (past the grace)
    loses on time instead, and gets 409 ``flagged``. A stale ``ply`` is refused
    with 409 and the current ply, unless it is an exact retry of the move this
    player already made at that ply, which returns the recorded move unchanged.

    Counted in ``pacru_moves_adjudicated_total`` (by result: ``accepted``, ``retry`` or the
    refusal's code) and timed. Each outcome is logged with the table and the ply answered at
    DEBUG only (``GAME_LOG_LEVEL=DEBUG``): at hundreds of moves a second a line each would be
    gigabytes a day, and the moves are already recorded (the Move rows) and counted.
    """
    started = time.perf_counter()
    with log_context(table_id=table_id, ply=ply):
        try:
            outcome = _submit(table_id, player, ply, move, now or timezone.now())
        except ServiceError as exc:
            metrics.move_adjudicated(exc.code, time.perf_counter() - started)
            log.debug("move %r refused: %s: %s", move[:80], exc.code, exc.detail)
            raise
        except Exception:
            metrics.move_adjudicated("error", time.perf_counter() - started)
            raise
        result = "accepted" if outcome.created else "retry"
        metrics.move_adjudicated(result, time.perf_counter() - started)
        log.debug(
            "move %s %s: seat %s, table at ply %s",
            outcome.move.notation,
            "accepted" if outcome.created else "repeated (a retry)",
            outcome.move.seat,
            outcome.table.ply,
        )
        return outcome


def _submit(table_id: int, player: Player, ply: int, move: str, now: datetime) -> MoveOutcome:
    with transaction.atomic():
        table, seat = locked_table_and_seat(table_id=table_id, player=player)
        on_turn = table.to_move
        flagged = timeout_if_due(table=table, now=now)
        if not flagged:
            return _adjudicate(table, seat, ply, move, now)
    # The timeout is committed; the move is refused.
    if flagged == "aborted":
        detail = _("the table was aborted: the first move was not made in time")
    elif on_turn == seat:
        detail = _("your time ran out before the move arrived: you lost on time")
    else:
        detail = _("seat %(seat)s lost on time just now: reload the table") % {"seat": on_turn}
    raise Flagged(detail, ply=table.ply)


def _adjudicate(table: Table, seat: int, ply: int, move: str, now: datetime) -> MoveOutcome:
    if ply != table.ply:
        if 0 <= ply < table.ply:
            done = Move.objects.filter(table=table, kind=Move.Kind.MOVE, ply=ply + 1).first()
            text = normalize(text=move)
            if done is not None and done.seat == seat and text in (done.submitted, done.notation):
                return MoveOutcome(done, table, created=False)
        raise StalePly(
            _("you answered ply %(ply)s but the table is at ply %(now)s: reload and try again")
            % {"ply": ply, "now": table.ply},
            ply=table.ply,
        )
    if table.status != Table.Status.ACTIVE:
        raise TableNotActive(
            _("table %(table)s is %(status)s: no moves can be made")
            % {"table": table.pk, "status": table.status_word}
        )
    state = current_state(table)
    if seat in state.eliminated:
        raise NotYourTurn(_("you are out of this game"))
    if table.to_move != seat:
        raise NotYourTurn(
            _("it is seat %(on_turn)s's turn, not yours (seat %(seat)s)")
            % {"on_turn": table.to_move, "seat": seat}
        )
    try:
        after = state.play(move)
    except engine.IllegalMove as exc:
        # The reason alone: the client shows it next to the move it sent (said once, not twice),
        # in the reader's language (said from the refusal's code; the engine speaks English).
        raise IllegalMoveError(translate_illegal(exc, echo=False), refusal=refusal(exc)) from None
    assert after.last_move is not None
    fields = _charge_mover(table, seat, now)
    record = Move(
        table_id=table.pk,
        seq=table.actions,
        ply=after.ply,
        seat=seat,
        kind=Move.Kind.MOVE,
        notation=after.last_move,
        submitted=normalize(text=move)[:80],
    )
    if after.is_over:
        # The game's end reads the moves (was it rated? games.services.transitions): this one first.
        rows.insert_move(record)
        rows.update_fields(table, fields + record_transition(table=table, state=after, now=now))
    else:
        # Any other move: its row and the table's in one statement (games.rows).
        fields += record_transition(table=table, state=after, now=now)
        rows.insert_move_and_update(record, table, fields)
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
