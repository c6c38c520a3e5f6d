"""Correspondence vacation: days off during which a player's correspondence clocks stop.

A player takes whole days from a yearly allowance (``settings.VACATION_DAYS_PER_YEAR``, counted per
calendar year in UTC: the year the vacation starts in). While ``Player.vacation_until`` is in the
future their correspondence clocks do not run, at every table whose time control lets vacation
stop the clock (``TimeControl.stops_for_vacation``; an event or ladder may say
``"vacation": false``). Nothing ticks in the background: a turn's clock is where it starts.

* Starting: at each active table where the player is on turn, the time already spent this turn
  is charged to their clock, and the turn starts again at ``vacation_until`` (the deadline is
  ``vacation_until`` plus what is left, exact to the microsecond).
* A turn handed to them during the vacation starts at ``vacation_until``
  (``games.services.transitions.set_deadline``).
* A move made during the vacation is charged nothing: its turn has not started yet.
* Ending early: the turns waiting for the vacation to end start now (their deadlines come
  forward by as much), and the whole days not used are given back.
* A vacation that simply runs out needs nothing: the turns started at its end run from then.

Both services lock the player row, then every table the player sits at whose time control is
correspondence (in id order), and decide under those locks: a move that hands the player a
turn at the same moment either committed first (the vacation then sees the turn and stops its
clock) or waits for the vacation's commit (and then reads the vacation in ``set_deadline``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from common.errors import Conflict, Forbidden, InvalidInput

from . import rows
from .clocks import SeatClock, TimeControl
from .models import Player, Seat, Table
from .services.transitions import announce_change, schedule_clock_check

DAY = timedelta(days=1)
#: The player fields a vacation changes.
FIELDS = ["vacation_started", "vacation_until", "vacation_year", "vacation_days_used"]


class OnVacation(Conflict):
    code = "on_vacation"


class NotOnVacation(Conflict):
    code = "not_on_vacation"


def on_vacation(player: Player, now: datetime | None = None) -> bool:
    """The player's correspondence clocks are stopped at ``now`` (default: the present)."""
    now = now or timezone.now()
    return player.vacation_until is not None and player.vacation_until > now


def days_left(player: Player, now: datetime | None = None) -> int:
    """Vacation days the player may still take in the calendar year (UTC) of ``now``."""
    now = now or timezone.now()
    used = player.vacation_days_used if player.vacation_year == now.astimezone(UTC).year else 0
    return max(0, settings.VACATION_DAYS_PER_YEAR - used)


@dataclass(frozen=True)
class Vacation:
    """A player's vacation as the API and the settings page show it."""

    on_vacation: bool
    started: datetime | None
    until: datetime | None
    days_left: int
    days_per_year: int
    #: Guests and bots take no vacation.
    may_take: bool


def vacation_of(*, player: Player, now: datetime | None = None) -> Vacation:
    """The player's vacation, read from its row (the request's player may be a cached copy)."""
    now = now or timezone.now()
    row = Player.objects.only("is_guest", "is_bot", *FIELDS).get(pk=player.pk)
    away = on_vacation(row, now)
    return Vacation(
        on_vacation=away,
        started=row.vacation_started if away else None,
        until=row.vacation_until if away else None,
        days_left=days_left(row, now),
        days_per_year=settings.VACATION_DAYS_PER_YEAR,
        may_take=not (row.is_guest or row.is_bot),
    )


def seat_notes(*, table: Table, now: datetime | None = None) -> dict[int, str]:
    """The words "on vacation until …" for each seat of an open or active table whose player is
    away and whose time control lets vacation stop the clock. Reads the seats as prefetched (with their
    players, as ``games.selectors.table_detail`` has them): no query of its own."""
    now = now or timezone.now()
    if table.status not in (Table.Status.OPEN, Table.Status.ACTIVE):
        return {}
    if not TimeControl.from_dict(table.time_control).stops_for_vacation:
        return {}
    return {
        seat.number: _("on vacation until %(until)s") % {"until": until_text(seat.player.vacation_until)}
        for seat in table.seats.all()
        if seat.player.vacation_until is not None and seat.player.vacation_until > now
    }


def until_text(when: datetime) -> str:
    """A vacation's end as people read it, in the active time zone."""
    return formats.date_format(timezone.localtime(when), "DATETIME_FORMAT")


@transaction.atomic
def vacation_start(*, player: Player, days: int, now: datetime | None = None) -> Player:
    """Start a vacation of ``days`` whole days (1 to the days left this year) now; stop the
    player's correspondence clocks until it ends. Returns the player as saved (``player`` is
    brought up to date too)."""
    now = now or timezone.now()
    locked = _locked_player(player)
    if locked.is_guest:
        raise Forbidden(
            _("guests can play casual games against bots; create an account to take vacation days")
        )
    if locked.is_bot:
        raise Forbidden(_("a bot account takes no vacation: its program answers whenever it is its turn"))
    if on_vacation(locked, now):
        assert locked.vacation_until is not None
        raise OnVacation(
            _("you are on vacation until %(until)s already: end it first to start another")
            % {"until": until_text(locked.vacation_until)}
        )
    left = days_left(locked, now)
    if left == 0:
        raise InvalidInput(
            _(
                "you have used all %(allowance)s vacation days of this year: the allowance starts "
                "again on 1 January"
            )
            % {"allowance": settings.VACATION_DAYS_PER_YEAR}
        )
    if isinstance(days, bool) or not isinstance(days, int) or not 1 <= days <= left:
        raise InvalidInput(
            # Translators: "days" is the name of the field the API reads: keep it.
            ngettext(
                "days must be a whole number from 1 to %(left)s (you have %(left)s vacation day left this "
                "year), not %(days)s",
                "days must be a whole number from 1 to %(left)s (you have %(left)s vacation days left this "
                "year), not %(days)s",
                left,
            )
            % {"left": left, "days": repr(days)}
        )
    year = now.astimezone(UTC).year
    used = locked.vacation_days_used if locked.vacation_year == year else 0
    locked.vacation_started = now
    locked.vacation_until = now + days * DAY
    locked.vacation_year = year
    locked.vacation_days_used = used + days
    locked.save(update_fields=FIELDS)
    for table, seat in _locked_tables(locked):
        _stop_clock(table, seat, now, locked.vacation_until)
    return _copy(locked, player)


@transaction.atomic
def vacation_end(*, player: Player, now: datetime | None = None) -> Player:
    """End the vacation now: the turns waiting for it start now, and the whole days not used are
    given back to this year's allowance."""
    now = now or timezone.now()
    locked = _locked_player(player)
    if not on_vacation(locked, now):
        raise NotOnVacation(_("you are not on vacation: there is nothing to end"))
    assert locked.vacation_until is not None
    unused = int((locked.vacation_until - now) / DAY)
    if locked.vacation_year == now.astimezone(UTC).year:
        locked.vacation_days_used = max(0, locked.vacation_days_used - unused)
    locked.vacation_started = None
    locked.vacation_until = None
    locked.save(update_fields=FIELDS)
    for table, seat in _locked_tables(locked):
        _restart_clock(table, seat, now)
    return _copy(locked, player)


def _locked_player(player: Player) -> Player:
    return Player.objects.select_for_update().get(pk=player.pk)


def _copy(saved: Player, player: Player) -> Player:
    for name in FIELDS:
        setattr(player, name, getattr(saved, name))
    return saved


def _locked_tables(player: Player) -> list[tuple[Table, int]]:
    """The open and active correspondence tables where ``player`` sits, locked in id order, each
    with the player's seat. Open ones are locked too: one starting meanwhile either started
    before (and is seen active) or starts after the commit (and reads the vacation)."""
    seats = dict(
        Seat.objects.filter(
            player=player,
            table__status__in=[Table.Status.OPEN, Table.Status.ACTIVE],
            table__time_control__kind="correspondence",
        ).values_list("table_id", "number")
    )
    if not seats:
        return []
    tables = (
        Table.objects.select_for_update()
        .filter(pk__in=seats, status__in=[Table.Status.OPEN, Table.Status.ACTIVE])
        .only(*rows.MOVE_FIELDS)
        .order_by("pk")
    )
    return [(table, seats[table.pk]) for table in tables]


def _on_turn(table: Table, seat: int) -> bool:
    """``seat`` is on turn at the active table, and its time control lets vacation stop the clock."""
    if table.status != Table.Status.ACTIVE or table.to_move != seat:
        return False
    return TimeControl.from_dict(table.time_control).stops_for_vacation


def _stop_clock(table: Table, seat: int, now: datetime, until: datetime) -> None:
    """Charge the turn's time so far and start the turn again at ``until``. A clock already run
    out (the flag fell, the grace or the sweep decides) is left alone."""
    if not _on_turn(table, seat) or table.deadline is None or table.turn_started_at is None:
        return
    if now >= table.deadline or table.turn_started_at >= until:
        return
    fields = ["turn_started_at", "deadline"]
    if table.ply == 0 or not table.clocks:
        # The first move's window, not the clock, runs before anyone has moved: it is kept whole.
        left = table.deadline - max(now, table.turn_started_at)
    else:
        clock = SeatClock.from_dict(table.clocks[str(seat)])
        spent = max(timedelta(0), now - table.turn_started_at)
        remaining = clock.remaining - spent.total_seconds()
        table.clocks = {**table.clocks, str(seat): SeatClock(remaining, clock.periods).to_dict()}
        fields.append("clocks")
        left = timedelta(seconds=remaining)
    table.turn_started_at = until
    table.deadline = until + left
    rows.update_fields(table, fields)
    schedule_clock_check(table=table)
    announce_change(table_id=table.pk)


def _restart_clock(table: Table, seat: int, now: datetime) -> None:
    """A turn waiting for the vacation's end starts now: its deadline comes forward as much."""
    if not _on_turn(table, seat) or table.turn_started_at is None or table.deadline is None:
        return
    if table.turn_started_at <= now:
        return
    early = table.turn_started_at - now
    table.turn_started_at = now
    table.deadline = table.deadline - early
    rows.update_fields(table, ["turn_started_at", "deadline"])
    schedule_clock_check(table=table)
    announce_change(table_id=table.pk)
