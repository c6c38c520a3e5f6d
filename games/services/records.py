"""Game records: a table's record in the engine's text format, and importing a finished one."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from common.errors import InvalidInput
from common.validation import ascii_int_or_none
from engine.records import Record, RecordError, parse_record

from ..models import Move, Player, Seat, Table
from ..selectors import initial_state, move_history
from .transitions import ELIMINATION_REASONS, finish


def record_text(*, table: Table) -> str:
    """The table's game record in the engine's format, with player names."""
    headers: dict[str, Any] = {"Table": str(table.pk)}
    for seat in table.seats.select_related("player__user").order_by("number"):
        headers[f"Seat{seat.number}"] = seat.player.user.get_username()
    if table.started_at:
        headers["Date"] = table.started_at.date().isoformat()
    record = Record(
        game=table.game,
        players=table.players,
        edition=table.edition or "302",
        ply_limit=table.ply_limit,
        start=table.initial_position,
        headers=headers,
        actions=[m.action for m in move_history(table)],
    )
    return record.to_text()


#: The largest ply limit of an imported table: as of a table made through the API (``TableIn``).
PLY_LIMIT_MAX = 10000


@transaction.atomic
def table_import_record(*, text: str, imported_by: Player, rated: bool = False) -> Table:
    """Create a finished table from a game record (staff only; checked by the caller)."""
    try:
        record = parse_record(text)
        final = record.replay()
    except RecordError as exc:
        # Translators: the error after the colon comes from the rules engine, in English.
        raise InvalidInput(_("the record does not replay: %(error)s") % {"error": exc}) from None
    if not final.is_over:
        raise InvalidInput(_("only finished games can be imported: the record's game is not over"))
    if not 1 <= record.ply_limit <= PLY_LIMIT_MAX:
        # Translators: PlyLimit is a header name of a game record: keep it.
        raise InvalidInput(_("the record's PlyLimit must be between 1 and %(max)d") % {"max": PLY_LIMIT_MAX})
    players: list[Player] = []
    for number in range(1, record.players + 1):
        name = record.headers.get(f"Seat{number}")
        if not name:
            raise InvalidInput(
                # Translators: Seat1, Seat2, … are header names of a game record: keep them.
                _("the record has no Seat%(number)s header naming the player") % {"number": number}
            )
        found = Player.objects.filter(user__username__iexact=name).first()
        if found is None:
            raise InvalidInput(
                _("Seat%(number)s: there is no player with the username %(username)s")
                % {"number": number, "username": repr(name)}
            )
        players.append(found)
    if len({p.pk for p in players}) != len(players):
        raise InvalidInput(_("a player cannot sit at two seats of one table"))
    now = timezone.now()
    table = Table.objects.create(
        game=record.game,
        edition=final.edition,
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
        kind, _space, who = action.partition(" ")
        seat = ascii_int_or_none(who, hi=4) if kind in ("resign", "timeout") else None
        if seat is not None:
            state = state.eliminate(seat, kind)
            moves.append(Move(table=table, seq=seq, seat=seat, kind=kind, notation=""))
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
    fields = ["actions", "position", "ply", "to_move", *finish(table=table, state=state, now=now)]
    table.save(update_fields=fields)
    return table
