"""An official's result: ending a table with given ranks, or correcting a finished table's ranks.

Tournament organisers use these (``tournaments.organising.actions``): the ranks they enter end an
unfinished table as if it had been played out (``game_finished`` is sent after the commit, so the
apps that listen react as for any finished table; a seat already out ranks below every seat still
playing, as in a game played out), or replace the ranks of a finished one (then
nothing is announced: the caller decides what must be recomputed, e.g. ratings).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from common.errors import Conflict, InvalidInput

from ..models import Seat, Table
from ..selectors import current_state
from .transitions import abort_rating_if_unmoved, announce_change, announce_finished, locked_table

#: ``Table.end_reason`` of a table whose result an official entered or corrected.
ADJUDICATED = "adjudicated"


def check_ranks(*, ranks: dict[int, int], seats: list[int]) -> None:
    """``ranks`` (seat -> rank, 1 = best) must rank every seat, as a ranking does: a tie shares a
    rank and skips the next ones (1, 2, 2, 4), so each rank is 1 + the number of seats above it."""
    if sorted(ranks) != sorted(seats):
        missing = sorted(set(seats) - set(ranks))
        raise InvalidInput(
            ngettext(
                "every seat needs a rank: seat(s) %(seats)s missing",
                "every seat needs a rank: seat(s) %(seats)s missing",
                len(missing),
            )
            % {"seats": ", ".join(map(str, missing)) or "?"}
        )
    values = sorted(ranks.values())
    for rank in values:
        if rank != 1 + sum(1 for other in values if other < rank):
            raise InvalidInput(
                _("the ranks %(ranks)s are not a ranking: ties share a place and skip the next (1, 2, 2, 4)")
                % {"ranks": ", ".join(map(str, values))}
            )


def check_out_seats_below(*, table_id: int, ranks: dict[int, int]) -> None:
    """A seat that is out of the game (resigned, lost on time, blocked, captured) must rank below every
    seat still playing, as it would when the game is played out: ending a table cannot revive a seat.
    (Its ``ranks`` have passed :func:`check_ranks`.)"""
    seats = list(Seat.objects.filter(table_id=table_id).select_related("player").order_by("number"))
    playing = [s for s in seats if s.state == Seat.State.PLAYING]
    for seat in seats:
        if seat.state != Seat.State.OUT:
            continue
        above = [s for s in playing if ranks[seat.number] <= ranks[s.number]]
        if above:
            raise InvalidInput(
                _(
                    "%(name)s is out of this game (%(how)s): a seat that is out must rank below every "
                    "seat still playing (%(others)s)"
                )
                % {
                    "name": seat.player.display_name,
                    "how": seat.get_elimination_reason_display() or seat.get_state_display(),
                    "others": ", ".join(s.player.display_name for s in above),
                }
            )


def _apply(table: Table, ranks: dict[int, int], markers: dict[int, int]) -> None:
    winners = [s for s, r in ranks.items() if r == 1]
    table.winner_seat = winners[0] if len(winners) == 1 else None
    table.end_reason = ADJUDICATED
    aborted = {"aborted": True} if (table.result or {}).get("aborted") else {}  # stays aborted
    table.result = {
        "ranking": {str(s): r for s, r in sorted(ranks.items())},
        "scores": {str(s): n for s, n in sorted(markers.items())},
        "winner": table.winner_seat,
        "end": ADJUDICATED,
        **aborted,
    }
    seats = list(Seat.objects.filter(table=table).order_by("number"))
    for seat in seats:
        seat.rank = ranks[seat.number]
        seat.markers = markers.get(seat.number, seat.markers)
    Seat.objects.bulk_update(seats, ["rank", "markers"])


@transaction.atomic
def table_adjudicate(*, table_id: int, ranks: dict[int, int]) -> Table:
    """End a table being played with ``ranks`` (seat -> rank); ``game_finished`` follows the commit."""
    table = locked_table(table_id=table_id)
    if table.status != Table.Status.ACTIVE:
        raise Conflict(
            _("table %(table)s is %(status)s: only a table being played can be ended")
            % {"table": table_id, "status": table.get_status_display()}
        )
    seats = list(Seat.objects.filter(table=table).values_list("number", flat=True))
    check_ranks(ranks=ranks, seats=seats)
    check_out_seats_below(table_id=table_id, ranks=ranks)
    markers = current_state(table).scores
    now = timezone.now()
    table.status = Table.Status.FINISHED
    table.finished_at = now
    table.to_move = None
    table.deadline = None
    _apply(table, ranks, markers)
    fields = ["status", "finished_at", "to_move", "deadline", "winner_seat", "end_reason", "result"]
    # A seat that never moved: the table is aborted, rated for nobody (the event still scores it).
    table.save(update_fields=fields + abort_rating_if_unmoved(table=table))
    announce_finished(table_id=table.pk)
    announce_change(table_id=table.pk)
    return table


@transaction.atomic
def table_correct_result(*, table_id: int, ranks: dict[int, int]) -> Table:
    """Replace the ranks of a finished table (markers stay as played); nothing is announced."""
    table = locked_table(table_id=table_id)
    if table.status != Table.Status.FINISHED:
        raise Conflict(
            _("table %(table)s is %(status)s: only a finished result can be corrected")
            % {"table": table_id, "status": table.get_status_display()}
        )
    seats = dict(Seat.objects.filter(table=table).values_list("number", "markers"))
    check_ranks(ranks=ranks, seats=list(seats))
    _apply(table, ranks, seats)
    table.save(update_fields=["winner_seat", "end_reason", "result"])
    announce_change(table_id=table.pk)
    return table
