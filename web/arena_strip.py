"""The arena strip on the table page: at an arena's table, which arena it is, the player's points
and streak, whether they may still go berserk, and — once their table has ended and the arena has
paired them again — their next table (a ``data-go`` link: ``static/js/live.js`` goes there).

A live fragment (``?fragment=arena``) on the player's and the arena's topics."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import timezone

from games.clocks import TimeControl
from games.models import Player, Table
from tournaments.models import ArenaPlayer, ArenaTable, Tournament

#: The clocks berserk can halve (an untimed or correspondence table has no clock to halve).
TIMED = ("fischer", "delay", "byoyomi")


@dataclass
class ArenaStrip:
    tournament_id: int
    name: str
    me: int | None  # the viewer's player id, if they play in the arena
    playing: bool  # the viewer sits at this table
    points: int = 0
    streak: int = 0
    on_fire: bool = False
    #: Their next table, paired by the arena after this one ended.
    next_table_id: int | None = None
    #: The arena's time is up (or it is finished): no next table.
    over: bool = False
    finished: bool = False
    paused: bool = False
    can_berserk: bool = False
    went_berserk: bool = False


def arena_strip(table: Table, viewer: Player | None, my_seat_moved: bool) -> ArenaStrip | None:
    """The strip for ``table`` (None: not an arena's table). ``my_seat_moved``: the viewer has
    made a move at this table already (berserk is only for before the first one)."""
    at = ArenaTable.objects.filter(table=table).select_related("tournament").first()
    if at is None:
        return None
    t = at.tournament
    now = timezone.now()
    ends = t.ends_at
    strip = ArenaStrip(
        tournament_id=t.pk,
        name=t.name,
        me=None,
        playing=False,
        finished=t.status == Tournament.Status.FINISHED,
        over=t.status != Tournament.Status.RUNNING or (ends is not None and ends <= now),
    )
    if viewer is None:
        return strip
    entry = ArenaPlayer.objects.filter(tournament=t, player=viewer).first()
    if entry is None:
        return strip
    strip.me = viewer.pk
    strip.points, strip.streak, strip.paused = entry.points, entry.streak, entry.paused
    strip.on_fire = entry.streak >= 2
    strip.playing = table.seats.filter(player=viewer).exists()
    if entry.table_id and entry.table_id != table.pk:
        live = (Table.Status.OPEN, Table.Status.ACTIVE)
        if Table.objects.filter(pk=entry.table_id, status__in=live).exists():
            strip.next_table_id = entry.table_id
    strip.went_berserk = viewer.pk in (at.berserk or [])
    timed = TimeControl.from_dict(table.time_control).kind in TIMED
    strip.can_berserk = bool(
        t.berserk
        and timed
        and strip.playing
        and not strip.went_berserk
        and not my_seat_moved
        and table.status in (Table.Status.OPEN, Table.Status.ACTIVE)
    )
    return strip
