"""Bot matches: organisers (and staff) start series of tables between house bots.

Any table of house bots only is a bot match, however it was made: a player who opens a table
without taking a seat and fills it by inviting bots (``POST /api/v1/tables/{id}/invite-bot/``) is
asked the same as here (:func:`bot_only_table_allowed`, games' ``BOT_MATCH_GATE``): organisers
only, counted against their daily limit (``tournaments.organising.roles``).
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from common.errors import InvalidInput
from games import services as games
from games.errors import BotMatchRefused
from games.housebots import house_bot
from games.models import Player, Seat, Table
from games.services.tables import BOT_MATCHES_FOR_ORGANISERS

from . import roles


def bot_only_table_allowed(*, player: Player, table: Table) -> None:
    """games' ``BOT_MATCH_GATE``: ``player`` is about to fill ``table`` (locked, open) with house
    bots only. Refuse (403 ``bot_match_organisers_only``) anyone without the organiser role, and an
    organiser past their daily limit (409 ``bot_match_limit``); staff have no limit. The table
    counts as one bot-match table of the day (``roles.bot_tables_started`` counts it already
    when its creator has seated bots there today)."""
    if not roles.may_organise(player=player):
        raise BotMatchRefused(str(BOT_MATCHES_FOR_ORGANISERS))
    counted = (
        table.created_by_id == player.pk
        and table.created_at >= timezone.now() - timedelta(hours=24)
        and Seat.objects.filter(table=table).exists()
    )
    roles.require_bot_tables(player=player, count=0 if counted else 1)


def bot_match_start(
    *, by: Player, game: str, levels: list[str], games_count: int, rated: bool = False
) -> list[int]:
    """Start a series of ``games_count`` tables between bots of ``levels`` (one per seat), seats
    rotated so every bot plays every seat equally; the bot runners play them. Staff and
    organisers only, within the organiser's daily limit (``tournaments.organising.roles``). Returns the
    table ids."""
    roles.require_role(player=by, doing="starting bot matches")
    if not 2 <= len(levels) <= 4:
        raise InvalidInput(_("a bot match needs 2 to 4 seats, not %(n)d") % {"n": len(levels)})
    if not 1 <= games_count <= 100:
        raise InvalidInput(_("play 1 to 100 games, not %(n)d") % {"n": games_count})
    with transaction.atomic():
        roles.require_bot_tables(player=by, count=games_count)
        bots: list[Player] = []
        for level in levels:
            try:
                bots.append(house_bot(level, exclude={b.pk for b in bots}))
            except ValueError as exc:
                raise InvalidInput(str(exc)) from None
        tables = []
        for g in range(games_count):
            order = bots[g % len(bots) :] + bots[: g % len(bots)]
            table = games.table_create(creator=by, game=game, players=len(order), rated=rated, join=False)
            for seat, bot in enumerate(order, start=1):
                games.seat_join(table_id=table.pk, player=bot, seat=seat, event=True)
            tables.append(table.pk)
    return tables
