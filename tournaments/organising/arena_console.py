"""The organiser's console for an arena (format ``arena``): an arena has no rounds, so instead of
the round's controls and boards the console shows its clock (time left, when it ends), who plays
(joined, paused, withdrawn, at a table, free), its tables (in play, counted) and the top of its
leaderboard (``tournaments.arena.selectors``). Pausing the event pauses the arena's pairing: the
wave (``tournaments.arena.wave``) seats nobody while the event is paused, and the tables in play
finish and count.

The console's round actions (seeds, the next round, pairing a round again, a result entered by
hand) have no meaning for an arena: :func:`round_action_refusal` says why, and the console refuses
them before any service is called.
"""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass, field
from datetime import datetime

from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from common.spreadsheet import csv_text
from games import services as games
from games.models import Table
from games.wording import time_left_text

from ..arena import selectors as arena_selectors
from ..models import ArenaPlayer, ArenaTable, Registration, Tournament

#: The leaderboard's first lines the console shows (the event page has the whole board).
TOP = 10
#: The console's actions that belong to rounds (``console.EVENT_ACTIONS``): refused for an arena.
ROUND_ACTIONS = frozenset({"seeds", "next-round", "repair", "result"})


def is_arena(t: Tournament) -> bool:
    return t.format == Tournament.Format.ARENA


def round_action_refusal(*, t: Tournament, action: str) -> str:
    """Why the console's ``action`` is not for ``t`` ("" when it is): an arena's round actions."""
    if not is_arena(t) or action not in ROUND_ACTIONS:
        return ""
    if action == "seeds":
        return _(
            "%(event)s is an arena: it has no seeds. Its players are paired by points and rating "
            "whenever they are free."
        ) % {"event": t.name}
    if action == "result":
        return _(
            "%(event)s is an arena: each table counts the result played at it, and a result is not "
            "entered or corrected by hand. To stop a player being paired, remove them."
        ) % {"event": t.name}
    return _(
        "%(event)s is an arena: it has no rounds. Its players are paired again as soon as their table "
        "ends, until its time is up; pause the event to stop new tables."
    ) % {"event": t.name}


@dataclass(frozen=True)
class Counts:
    """Who plays in the arena now."""

    joined: int  # in the arena (not withdrawn), paused or not
    paused: int
    withdrawn: int
    at_table: int
    free: int  # waiting for their next table


@dataclass
class ArenaConsole:
    t: Tournament
    not_started: bool
    running: bool
    finished: bool
    #: Running, its time is up: no new table; the tables in play finish and count.
    time_up: bool
    ends_at: datetime | None
    left: str  # the time left in words ("12 min"), "" when not running or time is up
    counts: Counts
    tables_playing: int
    tables_counted: int
    top: list[arena_selectors.Row] = field(default_factory=list)
    #: Players on the leaderboard besides the top shown.
    more: int = 0
    #: The tables being played now: (table, its players' names).
    playing: list[tuple[Table, list[str]]] = field(default_factory=list)


def _counts(t: Tournament, not_started: bool) -> Counts:
    if not_started:  # nobody has an arena row yet: the registrations
        regs = Registration.objects.filter(tournament=t)
        gone = regs.filter(status=Registration.Status.WITHDRAWN).count()
        return Counts(joined=regs.count() - gone, paused=0, withdrawn=gone, at_table=0, free=0)
    rows = list(ArenaPlayer.objects.filter(tournament=t).values_list("paused", "withdrawn", "table_id"))
    staying = [(paused, table) for paused, withdrawn, table in rows if not withdrawn]
    return Counts(
        joined=len(staying),
        paused=sum(1 for paused, _table in staying if paused),
        withdrawn=len(rows) - len(staying),
        at_table=sum(1 for _paused, table in staying if table is not None),
        free=sum(1 for paused, table in staying if not paused and table is None),
    )


def arena_console(*, t: Tournament, now: datetime | None = None) -> ArenaConsole:
    """What the console shows of the arena ``t`` at ``now``."""
    now = now or timezone.now()
    not_started = t.status in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION)
    running = t.status == Tournament.Status.RUNNING
    ends_at = t.ends_at
    time_up = running and ends_at is not None and ends_at <= now
    tables = ArenaTable.objects.filter(tournament=t)
    live = list(
        tables.filter(counted=False, table__status__in=(Table.Status.OPEN, Table.Status.ACTIVE))
        .select_related("table")
        .order_by("pk")
    )
    names: dict[int, list[str]] = {}
    for table_id, name in (
        Table.objects.filter(pk__in=[at.table_id for at in live])
        .order_by("seats__number")
        .values_list("pk", "seats__player__display_name")
    ):
        if name:
            names.setdefault(table_id, []).append(name)
    board = arena_selectors.leaderboard(t)
    return ArenaConsole(
        t=t,
        not_started=not_started,
        running=running,
        finished=t.status == Tournament.Status.FINISHED,
        time_up=time_up,
        ends_at=ends_at,
        left=time_left_text((ends_at - now).total_seconds()) if running and ends_at and not time_up else "",
        counts=_counts(t, not_started),
        tables_playing=len(live),
        tables_counted=tables.filter(counted=True).count(),
        top=board[:TOP],
        more=max(0, len(board) - TOP),
        playing=[(at.table, names.get(at.table_id, [])) for at in live],
    )


# ------------------------------------------------------------ confirmations


def started_words(*, t: Tournament) -> str:
    """The confirmation of an arena's start: how many play, and when it ends."""
    players = ArenaPlayer.objects.filter(tournament=t, withdrawn=False).count()
    words = {"event": t.name, "n": players}
    if t.ends_at is None:
        return _("%(event)s started") % words
    words["when"] = formats.date_format(timezone.localtime(t.ends_at), "DATETIME_FORMAT")
    return (
        ngettext(
            "%(event)s started with %(n)d player: they are paired within seconds, and it ends at %(when)s",
            "%(event)s started with %(n)d players: they are paired within seconds, and it ends at %(when)s",
            players,
        )
        % words
    )


def paused_words(*, t: Tournament) -> str:
    return _(
        "%(event)s paused: the tables being played go on and count, and no new table is paired until "
        "you resume. The arena's clock runs on."
    ) % {"event": t.name}


def resumed_words(*, t: Tournament) -> str:
    return _("%(event)s resumed: its free players are paired again within seconds") % {"event": t.name}


# ------------------------------------------------------------------ exports


def standings_csv(*, t: Tournament) -> str:
    """The leaderboard as CSV: place, player, points, then games, wins, performance and the sheet."""
    header = [
        pgettext("CSV column", "place"),
        pgettext("CSV column", "player"),
        pgettext("CSV column", "points"),
        pgettext("CSV column", "played"),
        pgettext("CSV column", "wins"),
        pgettext("CSV column", "performance"),
        pgettext("CSV column", "tables"),
    ]
    rows = arena_selectors.leaderboard(t)
    return csv_text(
        [header]
        + [
            [
                r.rank,
                r.player.display_name,
                r.points,
                r.games,
                r.wins,
                "" if r.performance is None else r.performance,
                " ".join(r.sheet),
            ]
            for r in rows
        ]
    )


def records_zip(*, t: Tournament) -> bytes:
    """Every arena table's game record, one file per table in the order they were opened, zipped."""
    buffer = io.BytesIO()
    tables = ArenaTable.objects.filter(tournament=t).select_related("table").order_by("pk")
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for n, at in enumerate(tables, start=1):
            archive.writestr(f"table-{n:03d}-{at.table_id}.txt", games.record_text(table=at.table))
    return buffer.getvalue()
