"""What the event page shows of an arena (format ``arena``): the time left, the live leaderboard
with each player's sheet, the viewer's own row (their streak, their table or how many wait with
them) and what they may do (join, pause, resume, withdraw); once it is over, the podium.

Read from ``tournaments.arena.selectors`` (the leaderboard and the viewer's part); the page's
actions post to :mod:`.arena_pages`, which call ``tournaments.arena.services``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.models import Player, Table
from games.wording import ordinal, time_left_text

from ..arena import selectors as arena_selectors
from ..models import ArenaPlayer, Registration, Team, Tournament
from ..teams import battles

#: A sheet's mark: the points, then what made them ("4s": doubled on a streak, "3b": berserk).
MARK = re.compile(r"^(?P<points>-?\d+)(?P<flags>[a-z]*)$")


@dataclass(frozen=True)
class SheetMark:
    points: str
    streak: bool  # doubled: the player was on fire
    berserk: bool  # won berserk: a point more
    title: str


@dataclass
class LeaderRow:
    rank: int
    player: int
    name: str
    points: int
    games: int
    wins: int
    streak: int
    on_fire: bool
    performance: str  # "1620", or "–" before a game
    sheet: list[SheetMark]
    table_id: int | None
    paused: bool
    withdrawn: bool = False  # left the arena (their points stay on the board)
    mine: bool = False
    place: str = ""  # "1st" (the podium)
    team: str = ""  # a team battle: the team they play for


@dataclass
class ArenaView:
    t: Tournament
    running: bool
    finished: bool
    ends_at: datetime | None
    left: str  # the time left in words ("12 min"), "" when not running
    #: Running, but its time is up: no new table; the tables in play finish and count.
    time_up: bool
    rows: list[LeaderRow]
    #: Before the start: who joined (the leaderboard is made at the start).
    entrants: list[str] = field(default_factory=list)
    podium: list[LeaderRow] = field(default_factory=list)
    #: The viewer's own part (None: anonymous or not in the arena).
    me: LeaderRow | None = None
    joined: bool = False
    paused: bool = False
    withdrawn: bool = False
    #: The viewer's table being played now, and whether it has started.
    my_table_id: int | None = None
    waiting: bool = False  # free, waiting for the next table
    waiting_words: str = ""  # "3 players are free: your next table is paired within seconds."
    can_join: bool = False
    join_label: str = ""
    anonymous: bool = True
    # A team battle (``tournaments.teams.battles``): its team leaderboard and the viewer's team.
    team_battle: bool = False
    top: int = 0
    teams: list[battles.TeamBattleRow] = field(default_factory=list)
    team_names: str = ""  # the battle's teams, for a sentence
    my_team: str = ""  # the team the viewer plays for
    join_teams: list[Team] = field(default_factory=list)  # the viewer's battle teams (a choice when several)
    team_refusal: str = ""  # why the viewer cannot join (on none of the teams)
    winning_team: str = ""  # once finished: the first team (teams sharing first place, together)


def sheet_marks(sheet: list[str]) -> list[SheetMark]:
    """The sheet's marks as the page shows them ("4s" → 4, on a streak)."""
    out = []
    for item in sheet or []:
        m = MARK.match(str(item))
        if m is None:
            out.append(SheetMark(str(item), False, False, ""))
            continue
        flags = m["flags"]
        streak, berserk = "s" in flags, "b" in flags
        points = int(m["points"])
        if streak and berserk:
            title = ngettext(
                "%(n)d point: doubled on a streak, and a point more for winning berserk",
                "%(n)d points: doubled on a streak, and a point more for winning berserk",
                points,
            )
        elif streak:
            title = ngettext("%(n)d point: doubled on a streak", "%(n)d points: doubled on a streak", points)
        elif berserk:
            title = ngettext(
                "%(n)d point: a point more for winning berserk",
                "%(n)d points: a point more for winning berserk",
                points,
            )
        else:
            title = ngettext("%(n)d point", "%(n)d points", points)
        out.append(SheetMark(m["points"], streak, berserk, title % {"n": points}))
    return out


def _leader_rows(t: Tournament, me: int | None) -> list[LeaderRow]:
    return [
        LeaderRow(
            rank=r.rank,
            player=r.player.pk,
            name=r.player.display_name,
            points=r.points,
            games=r.games,
            wins=r.wins,
            streak=r.streak,
            on_fire=r.on_fire,
            performance=str(r.performance) if r.performance is not None else "–",
            sheet=sheet_marks(r.sheet),
            table_id=r.table_id,
            paused=r.paused,
            withdrawn=r.withdrawn,
            mine=r.player.pk == me,
            team=r.team_name,
        )
        for r in arena_selectors.leaderboard(t)
    ]


def _waiting_words(t: Tournament) -> str:
    free = ArenaPlayer.objects.filter(
        tournament=t, free_since__isnull=False, paused=False, withdrawn=False
    ).count()
    return ngettext(
        "You are waiting for your next table: %(n)d player is free, you included. "
        "You are paired as soon as there are enough.",
        "You are waiting for your next table: %(n)d players are free, you included. "
        "You are paired as soon as there are enough.",
        free,
    ) % {"n": free}


def arena_view(t: Tournament, viewer: Player | None, now: datetime | None = None) -> ArenaView:
    """The arena part of the event page for ``viewer`` (None: a visitor)."""
    now = now or timezone.now()
    me = viewer.pk if viewer else None
    rows = _leader_rows(t, me)
    running = t.status == Tournament.Status.RUNNING
    finished = t.status == Tournament.Status.FINISHED
    ends_at = t.ends_at
    time_up = running and ends_at is not None and ends_at <= now
    left = time_left_text((ends_at - now).total_seconds()) if running and ends_at and not time_up else ""
    view = ArenaView(
        t=t,
        running=running,
        finished=finished,
        ends_at=ends_at,
        left=left,
        time_up=time_up,
        rows=rows,
        anonymous=viewer is None,
    )
    if battles.is_team_battle(t):
        view.team_battle, view.top = True, t.team_battle_top or 0
        view.teams = battles.team_leaderboard(tournament=t)
        view.team_names = battles.team_names(t.battle_teams.order_by("name", "pk"))
        if finished and any(line.points for line in view.teams):
            view.winning_team = battles.team_names(line.team for line in view.teams if line.place == 1)
    if finished:
        view.podium = [r for r in rows if r.games][:3]
        for r in view.podium:
            r.place = ordinal(r.rank)
    if t.status in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION):
        view.entrants = list(
            Registration.objects.filter(tournament=t)
            .exclude(status=Registration.Status.WITHDRAWN)
            .order_by("registered_at", "pk")
            .values_list("player__display_name", flat=True)
        )
    if viewer is None:
        return view
    mine = arena_selectors.my_arena(t, viewer)
    view.me = next((r for r in rows if r.mine), None)
    if view.me is not None and finished:
        view.me.place = ordinal(view.me.rank)
    open_for_entry = t.status in (Tournament.Status.REGISTRATION, Tournament.Status.RUNNING)
    if view.team_battle:
        team_id = (
            ArenaPlayer.objects.filter(tournament=t, player=viewer).values_list("team", flat=True).first()
        )
        view.my_team = next((line.team.name for line in view.teams if line.team.pk == team_id), "")
        view.join_teams = [] if view.my_team else battles.member_teams(tournament=t, player=viewer)
    if not mine.entered:
        view.withdrawn = mine.row is not None or _withdrew(t, viewer)
        view.can_join = open_for_entry and not time_up
        if view.team_battle and not (view.my_team or view.join_teams):
            view.can_join = False
            view.team_refusal = _("This arena is a team battle: only members of %(teams)s can join.") % {
                "teams": view.team_names
            }
        view.join_label = _("Join again") if view.withdrawn else _("Join the arena")
        return view
    view.joined = True
    view.paused = bool(mine.row and mine.row.paused)
    if mine.table_id is not None:
        live = (Table.Status.OPEN, Table.Status.ACTIVE)
        if Table.objects.filter(pk=mine.table_id, status__in=live).exists():
            view.my_table_id = mine.table_id
    if running and not time_up and mine.waiting_since is not None and view.my_table_id is None:
        view.waiting = True
        view.waiting_words = _waiting_words(t)
    return view


def _withdrew(t: Tournament, viewer: Player) -> bool:
    return Registration.objects.filter(
        tournament=t, player=viewer, status=Registration.Status.WITHDRAWN
    ).exists()
