"""A rematch: the same game and settings at a new table, every player moved one seat on."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from common.errors import Forbidden, NotFound

from ..models import Player, Seat, Table
from .tables import bot_invite, seat_join, table_create


def rotated(*, seat: int, players: int) -> int:
    """The seat a player takes in a rematch: the next one round the table."""
    return seat % players + 1


#: The reverse links an event round (``RoundTable``), a ladder challenge (``Challenge``) and a
#: ladder's matchmaking queue (``QueueTable``) keep to their table, named by lookup so that this
#: app imports nothing of ``tournaments``.
ORGANISED_LINKS = ("round_table", "challenge", "queue_table")


def _organised(table: Table) -> bool:
    """Whether an event or ladder pairs this table's games: a rematch there would be a game
    outside its pairings (and its standings), so there is none; the page links back instead."""
    linked = Q()
    for link in ORGANISED_LINKS:
        linked |= Q(**{f"{link}__isnull": False})
    return Table.objects.filter(linked, pk=table.pk).exists()


@transaction.atomic
def table_rematch(*, table_id: int, player: Player) -> Table:
    """Open the rematch of a finished table, or return the one already opened; a player of the old
    table who is not seated at it yet takes their rotated seat (or the lowest free one). The old
    table's row is locked, so two players asking at once get one rematch."""
    table = Table.objects.select_for_update().filter(pk=table_id).first()
    if table is None:
        raise NotFound(_("there is no table %(table)s") % {"table": table_id})
    seats = list(Seat.objects.filter(table=table).select_related("player").order_by("number"))
    mine = next((s for s in seats if s.player_id == player.pk), None)
    if table.status != Table.Status.FINISHED or mine is None:
        raise Forbidden(
            _("only the players of table %(table)s can ask for a rematch once it has ended")
            % {"table": table_id}
        )
    if _organised(table):
        raise Forbidden(
            _(
                "table %(table)s was played for an event or a ladder, which pairs its own games: "
                "there is no rematch; go back to the event or the ladder"
            )
            % {"table": table_id}
        )
    seat = rotated(seat=mine.number, players=table.players)
    other = Table.objects.filter(rematch_of=table).first()
    if other is None:
        other = table_create(
            creator=player,
            game=table.game,
            players=table.players,
            edition=table.edition or "302",
            ply_limit=table.ply_limit,
            # An aborted rated table (a seat never moved) is no longer rated; its rematch is, as it was.
            rated=table.rated or bool((table.result or {}).get("aborted")),
            seat=seat,
            time_control=table.time_control,
            no_show=table.no_show,
        )
        other.rematch_of = table
        other.save(update_fields=["rematch_of"])
        for s in seats:  # the house bots come back at their rotated seats
            if s.player.is_bot and s.player.bot_level:
                bot_invite(
                    table_id=other.pk,
                    player=player,
                    level=s.player.bot_level,
                    seat=rotated(seat=s.number, players=table.players),
                )
    elif other.status == Table.Status.OPEN and not other.seats.filter(player=player).exists():
        taken = other.seats.filter(number=seat).exists()
        seat_join(table_id=other.pk, player=player, seat=None if taken else seat)
    other.refresh_from_db()
    return other
