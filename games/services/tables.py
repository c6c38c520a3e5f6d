"""Tables: opening one, taking and leaving seats, inviting bots, starting, resigning."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.module_loading import import_string
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

import engine
from common.errors import Conflict, Forbidden, InvalidInput

from .. import blocks, rated_pairs
from ..clocks import TimeControl
from ..engine_words import refusal, translate_illegal
from ..errors import BotMatchRefused, TableNotActive
from ..guests import require_verified_email
from ..housebots import bots_levels, house_bot
from ..models import Move, Player, Seat, Table
from ..selectors import current_state, initial_state
from .timeouts import timeout_if_due
from .transitions import (
    announce_change,
    announce_turn,
    locked_table,
    record_transition,
    schedule_bot_turn,
    schedule_clock_check,
    seat_of,
    set_deadline,
)


@transaction.atomic
def table_create(
    *,
    creator: Player,
    game: str,
    players: int,
    edition: str = "302",
    ply_limit: int = 1000,
    rated: bool | None = None,
    join: bool = True,
    seat: int | None = None,
    time_control: dict[str, Any] | None = None,
    no_show: str = "abort",
    bot: str = "",
    bots: int = 1,
) -> Table:
    """Open a table; the creator takes a seat unless ``join`` is false; with ``bot`` (a level),
    ``bots`` house bots of that level are invited too. All of it or nothing: one transaction,
    every option checked before anything is written. ``rated`` defaults to rated, unrated when
    bots are invited (house bots play unrated tables only: ``BOTS_UNRATED``)."""
    if rated is None:
        rated = not bot
    if rated and join:  # who opens a table for others (an event's organiser) need not play rated
        require_verified_email(creator, "play rated games")
    try:
        edition = engine.variant(game).edition_for(edition)
        engine.new_game(game, players, edition=edition, ply_limit=ply_limit)
        tc = TimeControl.from_dict(time_control)
    except ValueError as exc:
        raise InvalidInput(str(exc)) from None
    if bot:
        if rated:
            raise InvalidInput(str(BOTS_UNRATED))
        if bot not in bots_levels():
            raise InvalidInput(
                _("unknown bot level %(level)s: choose one of %(levels)s")
                % {"level": repr(bot), "levels": ", ".join(bots_levels())}
            )
        if not 1 <= bots <= players - (1 if join else 0):
            values = {"bots": bots, "players": players}
            if join:
                raise InvalidInput(
                    ngettext(
                        "%(bots)d bot(s) do not fit a table of %(players)s with you seated: leave a seat "
                        "for yourself",
                        "%(bots)d bot(s) do not fit a table of %(players)s with you seated: leave a seat "
                        "for yourself",
                        bots,
                    )
                    % values
                )
            raise InvalidInput(
                ngettext(
                    "%(bots)d bot(s) do not fit a table of %(players)s",
                    "%(bots)d bot(s) do not fit a table of %(players)s",
                    bots,
                )
                % values
            )
    table = Table.objects.create(
        game=game,
        edition=edition,
        players=players,
        ply_limit=ply_limit,
        rated=rated,
        created_by=creator,
        time_control=tc.to_dict(),
        no_show=no_show,
    )
    if join:
        table = seat_join(table_id=table.pk, player=creator, seat=seat)
    for _bot in range(bots if bot else 0):
        table = bot_invite(table_id=table.pk, player=creator, level=bot)
    announce_change(table_id=table.pk)
    return table


@transaction.atomic
def seat_join(*, table_id: int, player: Player, seat: int | None = None, event: bool = False) -> Table:
    """Take a seat (the lowest free one unless ``seat`` is given); start when full.

    At a rated table the same two players may not meet more than ``RATED_GAMES_SAME_PLAYERS_PER_DAY``
    times a day (``games.rated_pairs``), and nobody joins a table where a block stands between
    them and a seated player (``games.blocks``), unless ``event``: an organised event (tournament
    round, ladder challenge) seats its pairings, which its organisers chose. A table with a
    challenged player (``Table.invited``) keeps a seat for them."""
    table = locked_table(table_id=table_id)
    if table.status != Table.Status.OPEN:
        raise TableNotActive(
            _("table %(table)s is %(status)s: only open tables can be joined")
            % {"table": table_id, "status": table.status_word}
        )
    if table.rated:
        require_verified_email(player, "play rated games")
    taken = dict(Seat.objects.filter(table=table).values_list("number", "player_id"))
    if player.pk in taken.values():
        raise Conflict(
            _("you already have a seat at table %(table)s") % {"table": table_id},
            seat=_key_of(taken, player.pk),
        )
    free = [n for n in range(1, table.players + 1) if n not in taken]
    if seat is None:
        seat = free[0]
    elif not 1 <= seat <= table.players:
        raise InvalidInput(
            _("seat must be 1…%(players)s at this table, not %(seat)s")
            % {"players": table.players, "seat": seat}
        )
    elif seat in taken:
        raise Conflict(
            _("seat %(seat)s at table %(table)s is taken; free seats: %(free)s")
            % {"seat": seat, "table": table_id, "free": free}
        )
    if not event:
        rated_pairs.require_room(table, player)
        _require_no_block(table, player, taken)
    _require_invited_seat_free(table, player, taken, free)
    Seat.objects.create(table=table, number=seat, player=player, colour=Seat.COLOURS[seat])
    if len(taken) + 1 == table.players:
        _start(table)
    announce_change(table_id=table.pk, players=(player.pk,))
    return table


def _require_no_block(table: Table, player: Player, taken: dict[int, int]) -> None:
    """Refuse ``player`` at a table where a seated player blocked them, or where they blocked a
    seated player (``games.blocks``). The refusal does not say who blocked whom: nobody is told
    they were blocked. Events (``event=True``) seat their pairings whatever the blocks."""
    if taken and any(player.pk in pair for pair in blocks.blocked_pairs([player.pk, *taken.values()])):
        raise Forbidden(
            _("you cannot join table %(table)s: choose another table, or open one yourself")
            % {"table": table.pk}
        )


def _require_invited_seat_free(table: Table, player: Player, taken: dict[int, int], free: list[int]) -> None:
    """A challenge to a table (``Table.invited``: ``community.challenges``) keeps one free seat
    for the player challenged until they take it: others may take the other free seats, never
    the last one."""
    if table.invited_id is None or player.pk == table.invited_id or table.invited_id in taken.values():
        return
    if len(free) <= 1:
        raise Conflict(
            _(
                "the last free seat at table %(table)s is kept for the player who was challenged "
                "to it: choose another table"
            )
            % {"table": table.pk}
        )


#: The rating policy for house bots (docs/operators/security.md): a person's ratings move only against people,
#: or against bots that an organiser entered into a rated event.
BOTS_UNRATED = gettext_lazy(
    "house bots play unrated tables only (a rated event's organiser can enter bots into it): "
    "make the table unrated to play a bot"
)


def _table_for_a_bot(table_id: int, player: Player) -> Table:
    """Lock the table a bot is invited to: open, unrated, and ``player`` may invite (seated
    there, its creator, or staff)."""
    table = locked_table(table_id=table_id)
    if table.status != Table.Status.OPEN:
        raise TableNotActive(
            _("table %(table)s is %(status)s: bots can be invited only before it starts")
            % {"table": table_id, "status": table.status_word}
        )
    seated = Seat.objects.filter(table=table, player=player).exists()
    if not (seated or table.created_by_id == player.pk or player.user.is_staff):
        raise Forbidden(
            _("only the players at table %(table)s or its creator can invite a bot") % {"table": table_id}
        )
    if table.rated:
        raise Conflict(str(BOTS_UNRATED))
    return table


@transaction.atomic
def bot_invite(*, table_id: int, player: Player, level: str, seat: int | None = None) -> Table:
    """Seat a house bot of ``level`` at an open table; only someone seated there, the table's
    creator or staff may invite. The table starts if this fills it."""
    table = _table_for_a_bot(table_id, player)
    try:
        bot = house_bot(level, not_at_table=table.pk)
    except ValueError as exc:
        raise InvalidInput(str(exc)) from None
    if _fills_with_house_bots_only(table):
        _bot_match_gate()(player=player, table=table)
    return seat_join(table_id=table.pk, player=bot, seat=seat)


def _fills_with_house_bots_only(table: Table) -> bool:
    """Would one more house bot fill ``table`` (locked) with house bots only: a bot match, every
    move of it played by the bot workers? A person or an outside bot account (a program its owner
    runs through the API) at the table makes it a game against the bots instead."""
    seated = list(Seat.objects.filter(table=table).values_list("player__is_bot", "player__bot_level"))
    return len(seated) + 1 == table.players and all(is_bot and level for is_bot, level in seated)


def _bot_match_gate() -> Any:
    """Who may start a bot match (``BOT_MATCH_GATE``, called with ``player`` and the locked
    ``table``; it raises to refuse). The rule and the organisers' daily limit live in
    ``tournaments`` (organisers, ``tournaments.organising.botmatches``), which games must not import; without
    the setting only staff may."""
    path = getattr(settings, "BOT_MATCH_GATE", "")
    return import_string(path) if path else _staff_only


def _staff_only(*, player: Player, table: Table) -> None:
    if not player.user.is_staff:
        raise BotMatchRefused(str(BOT_MATCHES_FOR_ORGANISERS))


#: Why a table cannot be filled with house bots only (the gate's refusal for everyone but organisers).
BOT_MATCHES_FOR_ORGANISERS = gettext_lazy(
    "a table of house bots only is a bot match, and bot matches are for organisers: take a seat "
    "yourself, or ask staff for the organiser role at /organiser/request/"
)


@transaction.atomic
def bot_invite_account(*, table_id: int, player: Player, bot_id: int, seat: int | None = None) -> Table:
    """Challenge an outside bot account to an open, unrated table: the bot is seated at once (it
    learns of the game from its event stream, and may leave before the start to decline). The
    same people as for house bots may invite."""
    table = _table_for_a_bot(table_id, player)
    bot = Player.objects.filter(pk=bot_id).first()
    if bot is None or not bot.is_outside_bot:
        raise InvalidInput(_("player %(player)s is not an outside bot account") % {"player": bot_id})
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
    # House bots only: an outside bot account (no engine level) plays through the API itself.
    table.bot_seats = list(
        Seat.objects.filter(table=table, player__is_bot=True)
        .exclude(player__bot_level="")
        .order_by("number")
        .values_list("number", flat=True)
    )
    fields = ["status", "started_at", "position", "ply", "to_move", "bot_seats"]
    if tc.timed:
        table.clocks = {str(n): tc.initial_clock().to_dict() for n in range(1, table.players + 1)}
        fields += ["clocks", *set_deadline(table=table, tc=tc, now=now)]
        schedule_clock_check(table=table)
    else:
        table.turn_started_at = now  # when the turn began (the bot sweep reads it)
        fields.append("turn_started_at")
    table.save(update_fields=fields)
    schedule_bot_turn(table=table)
    announce_turn(table=table)


@transaction.atomic
def seat_leave(*, table_id: int, player: Player) -> Table:
    """Give up a seat before the table starts; an empty table is aborted."""
    table = locked_table(table_id=table_id)
    if table.status != Table.Status.OPEN:
        raise TableNotActive(
            _("table %(table)s is %(status)s: you can leave only before it starts (resign instead)")
            % {"table": table_id, "status": table.status_word}
        )
    seat_of(table=table, player=player).delete()
    if not Seat.objects.filter(table=table).exists():
        table.status = Table.Status.ABORTED
        table.finished_at = timezone.now()
        table.save(update_fields=["status", "finished_at"])
    announce_change(table_id=table.pk, players=(player.pk,))
    return table


@transaction.atomic
def game_resign(*, table_id: int, player: Player) -> Table:
    """Resign: the player is out (RULES 6.5), the others play on."""
    table = locked_table(table_id=table_id)
    seat = seat_of(table=table, player=player)
    if timeout_if_due(table=table, now=timezone.now()):
        table.refresh_from_db()
        seat.refresh_from_db()
    return _eliminate(table, seat, "resign")


def _eliminate(table: Table, seat: Seat, reason: str) -> Table:
    if table.status != Table.Status.ACTIVE:
        raise TableNotActive(
            _("table %(table)s is %(status)s") % {"table": table.pk, "status": table.status_word}
        )
    if seat.state != Seat.State.PLAYING:
        raise Conflict(_("seat %(seat)s is already out of the game") % {"seat": seat.number})
    try:
        after = current_state(table).eliminate(seat.number, reason)
    except engine.IllegalMove as exc:
        raise Conflict(translate_illegal(exc), refusal=refusal(exc)) from None
    now = timezone.now()
    Move.objects.create(table=table, seq=table.actions, ply=None, seat=seat.number, kind=reason, notation="")
    fields = record_transition(table=table, state=after, now=now)
    table.save(update_fields=fields)
    return table
