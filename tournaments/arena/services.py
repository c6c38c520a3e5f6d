"""What an arena's players do: join (before the start or while it runs), pause and come back,
withdraw, and go berserk at a table.

Every write locks the arena's row first (then its players' rows), as the pairing wave and the
counting of finished tables do, so a player is never paired while they pause or leave. A refusal
raises a :class:`common.errors.ServiceError` and changes nothing.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from common.errors import Conflict, Forbidden, NotFound
from games.clocks import SeatClock, TimeControl, time_available
from games.events import send_after_commit
from games.guests import forbid_guest, require_verified_email
from games.models import Move, Player, Seat, Table
from games.services.transitions import announce_change, locked_table, schedule_clock_check

from ..competitions.services.entries import check_entry_rules
from ..competitions.services.setup import _locked
from ..events import ArenaChanged, arena_changed
from ..models import ArenaPlayer, ArenaTable, Registration, Tournament
from ..teams import battles

#: Tables an arena has no berserk under: no clock runs while one thinks.
NO_BERSERK_CLOCKS = ("untimed", "correspondence")


def _arena(tournament_id: int) -> Tournament:
    """Lock the arena ``tournament_id`` (``NotFound`` for no event, ``Conflict`` for another format)."""
    t = _locked(tournament_id)
    if t.format != Tournament.Format.ARENA:
        raise Conflict(_("%(event)s is not an arena") % {"event": t.name})
    return t


def _over(t: Tournament, now: datetime) -> bool:
    ends = t.ends_at
    return t.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED) or (
        ends is not None and now >= ends
    )


def _changed(t: Tournament, *players: int) -> None:
    send_after_commit(arena_changed, arena=ArenaChanged(tournament_id=t.pk, players=players))


def _mine(t: Tournament, player: Player) -> ArenaPlayer:
    """The player's row of the running arena ``t`` (locked)."""
    if t.status != Tournament.Status.RUNNING:
        raise Conflict(
            _("the arena is %(status)s: this is done while it runs") % {"status": t.get_status_display()}
        )
    row = ArenaPlayer.objects.select_for_update().filter(tournament=t, player=player).first()
    if row is None:
        raise Conflict(_("you are not playing in %(event)s: join it first") % {"event": t.name})
    return row


@transaction.atomic
def arena_join(
    *, tournament_id: int, player: Player, now: datetime | None = None, team: int | str | None = None
) -> Registration:
    """Join an arena before its start or while it runs, until its end, with the event's entry
    rules (rating bounds, places; a verified e-mail for a rated arena; before the start, the
    registration window). House bots join unrated arenas only. A player who joins a running arena
    is free at once (the next wave pairs them); one who withdrew may come back, their points kept.
    Their ``Registration`` is kept too, so the event is among their events.

    A team battle: they join for ``team`` (id or slug), a battle team they are on
    (``teams.battles.join_team``); their arena row, made at once even before the start, keeps it."""
    moment = now or timezone.now()
    t = _arena(tournament_id)
    if t.rated:
        require_verified_email(player, "play in tournaments")
    else:
        forbid_guest(player, "play in tournaments")
        if player.is_bot and not player.is_house_bot:
            require_verified_email(player, "play in tournaments")  # outside bot accounts: no events
    if player.is_house_bot and t.rated:
        raise Forbidden(_("house bots play unrated arenas only: this arena is rated"))
    if t.status == Tournament.Status.DRAFT:
        raise Conflict(_("the arena is not open yet: its organisers are still setting it up"))
    if t.status == Tournament.Status.CANCELLED:
        raise Conflict(_("the arena was called off"))
    if _over(t, moment):
        raise Conflict(_("the arena is over: it ended at its time"))
    if t.status == Tournament.Status.REGISTRATION and (
        (t.registration_opens and moment < t.registration_opens)
        or (t.registration_closes and moment > t.registration_closes)
    ):
        raise Conflict(_("registration is closed at this time"))
    reg = Registration.objects.filter(tournament=t, player=player).first()
    row = ArenaPlayer.objects.select_for_update().filter(tournament=t, player=player).first()
    if reg is not None and reg.status != Registration.Status.WITHDRAWN:
        raise Conflict(_("you are in this arena already"))
    check_entry_rules(t=t, player=player)
    playing_for = battles.join_team(t=t, player=player, row=row, team=team)
    status = Registration.Status.CHECKED_IN if player.is_bot else Registration.Status.REGISTERED
    if reg is None:
        reg = Registration.objects.create(tournament=t, player=player, status=status)
    else:
        reg.status = status
        reg.save(update_fields=["status"])
    t.league.members.add(player)
    if t.status == Tournament.Status.RUNNING:
        if row is None:
            row = ArenaPlayer.objects.create(
                tournament=t, player=player, joined=moment, free_since=moment, team=playing_for
            )
        else:  # back after a withdrawal, with their points
            row.withdrawn = False
            row.paused = False
            row.free_since = moment if row.table_id is None else None
            row.team = row.team or playing_for
            row.save(update_fields=["withdrawn", "paused", "free_since", "team"])
    elif playing_for is not None:  # a team battle before its start: the row keeps the team chosen
        if row is None:
            ArenaPlayer.objects.create(tournament=t, player=player, joined=moment, team=playing_for)
        else:
            row.withdrawn = False
            row.team = row.team or playing_for
            row.save(update_fields=["withdrawn", "team"])
    _changed(t, player.pk)
    return reg


@transaction.atomic
def arena_pause(*, tournament_id: int, player: Player) -> ArenaPlayer:
    """Pause: not paired again until :func:`arena_resume` (a table being played goes on and counts)."""
    t = _arena(tournament_id)
    row = _mine(t, player)
    if row.withdrawn:
        raise Conflict(_("you left this arena: join it again to play"))
    if row.paused:
        raise Conflict(_("you are paused already"))
    row.paused = True
    row.free_since = None
    row.save(update_fields=["paused", "free_since"])
    _changed(t, player.pk)
    return row


@transaction.atomic
def arena_resume(*, tournament_id: int, player: Player, now: datetime | None = None) -> ArenaPlayer:
    """Come back after a pause: free now (unless still at a table), paired by the next wave."""
    moment = now or timezone.now()
    t = _arena(tournament_id)
    row = _mine(t, player)
    if row.withdrawn:
        raise Conflict(_("you left this arena: join it again to play"))
    if not row.paused:
        raise Conflict(_("you are not paused"))
    row.paused = False
    row.free_since = moment if row.table_id is None and not _over(t, moment) else None
    row.save(update_fields=["paused", "free_since"])
    _changed(t, player.pk)
    return row


@transaction.atomic
def arena_withdraw(*, tournament_id: int, player: Player) -> ArenaPlayer | None:
    """Leave the arena: never paired again; the points won stay on its leaderboard (as lichess), and
    a table being played goes on and counts. Before the start it is a withdrawal of the entry
    (``None``: no arena row yet)."""
    t = _arena(tournament_id)
    reg = Registration.objects.filter(tournament=t, player=player).first()
    if reg is None or reg.status == Registration.Status.WITHDRAWN:
        raise Conflict(_("you are not in this arena (or left it already)"))
    if t.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        raise Conflict(_("the arena is %(status)s") % {"status": t.get_status_display()})
    reg.status = Registration.Status.WITHDRAWN
    reg.save(update_fields=["status"])
    row = ArenaPlayer.objects.select_for_update().filter(tournament=t, player=player).first()
    if row is not None:
        row.withdrawn = True
        row.free_since = None
        row.save(update_fields=["withdrawn", "free_since"])
    _changed(t, player.pk)
    return row


@transaction.atomic
def berserk(*, table_id: int, player: Player) -> ArenaTable:
    """Go berserk at an arena table: halve your own clock's main time (the delay, increment and
    byo-yomi periods stay), for one point more if you then win (``scoring``). Only in an arena with
    berserk on, at a table under a running clock, before your first move there, once. When it is
    your turn the table's deadline comes nearer with your clock."""
    found = ArenaTable.objects.filter(table_id=table_id).select_related("tournament").first()
    if found is None:
        if not Table.objects.filter(pk=table_id).exists():
            raise NotFound(_("there is no table %(table)s") % {"table": table_id})
        raise Conflict(_("berserk is for arena tables, and table %(table)s is none") % {"table": table_id})
    t = found.tournament
    if not t.berserk:
        raise Conflict(_("berserk is off in %(event)s") % {"event": t.name})
    table = locked_table(table_id=table_id)
    at = ArenaTable.objects.select_for_update().get(pk=found.pk)
    seat = Seat.objects.filter(table=table, player=player).values_list("number", flat=True).first()
    if seat is None:
        raise Forbidden(_("you have no seat at table %(table)s") % {"table": table_id})
    tc = TimeControl.from_dict(table.time_control)
    if tc.kind in NO_BERSERK_CLOCKS or not table.clocks:
        raise Conflict(_("berserk needs a clock that runs while you think, and this table has none"))
    if table.status != Table.Status.ACTIVE:
        raise Conflict(
            _("table %(table)s is %(status)s: berserk is for a table being played")
            % {"table": table_id, "status": table.status_word}
        )
    if player.pk in at.berserk:
        raise Conflict(_("you went berserk at this table already"))
    if Move.objects.filter(table=table, seat=seat, kind=Move.Kind.MOVE).exists():
        raise Conflict(_("berserk is for the start of a table: you have moved here already"))
    clock = SeatClock.from_dict(table.clocks[str(seat)])
    halved = replace(clock, remaining=clock.remaining / 2)
    table.clocks = {**table.clocks, str(seat): halved.to_dict()}
    fields = ["clocks"]
    if table.to_move == seat and table.ply > 0 and table.turn_started_at is not None:
        # Their clock runs now: the flag falls when the halved time is spent (at ply 0 the first
        # move's window runs instead, as for every table).
        table.deadline = table.turn_started_at + timedelta(seconds=time_available(tc, halved))
        fields.append("deadline")
        schedule_clock_check(table=table)
    table.save(update_fields=fields)
    at.berserk = [*at.berserk, player.pk]
    at.save(update_fields=["berserk"])
    announce_change(table_id=table.pk)
    _changed(t, player.pk)
    return at
