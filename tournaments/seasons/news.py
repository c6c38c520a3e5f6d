"""The ``season_changed`` payload (``tournaments.events.SeasonNews``), read from committed rows."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.events import PlayerRef

from ..events import SeasonMove, SeasonNews
from ..models import Season, SeasonEntry, TeamMember, TeamSeasonEntry
from .placement import arrival_level


def division_name(*, level: int, group: str, name: str = "") -> str:
    """A division's name: the one it was given, else "Division 2", "Division 3 A" in the active
    language (divisions are stored without a name, so each reader gets their own words)."""
    if name:
        return name
    if group:
        return _("Division %(level)d %(group)s") % {"level": level, "group": group}
    return _("Division %(level)d") % {"level": level}


def season_news(season_id: int, *, state: str) -> SeasonNews:
    season = Season.objects.select_related("league").get(pk=season_id)
    entries = (
        SeasonEntry.objects.filter(season=season)
        .exclude(status=SeasonEntry.Status.WITHDRAWN if state == "started" else "")
        .select_related("player", "division")
        .order_by("id")
    )
    moves = _team_moves(season, state=state) if season.team_boards else []
    for e in entries:
        level = e.division.level if e.division else 0
        to = 0
        if state == "finished" and level and e.status == SeasonEntry.Status.REGISTERED:
            to = arrival_level(from_level=level, movement=e.movement)
        moves.append(
            SeasonMove(
                player=PlayerRef.of(e.player),
                division=(e.division.name if e.division else ""),
                level=level,
                group=e.division.group if e.division else "",
                place=e.place,
                movement=e.movement if state == "finished" else "",
                to_level=to,
            )
        )
    nxt = Season.objects.filter(previous=season).values_list("pk", flat=True).first()
    return SeasonNews(
        season_id=season.pk,
        season=season.name,
        league=season.league.slug,
        league_name=season.league.name,
        state=state,
        players=tuple(moves),
        next_season_id=nxt,
    )


def _team_moves(season: Season, *, state: str) -> list[SeasonMove]:
    """A season of teams: each member of each registered team is told their team's division, and
    at the end its place and where it takes the team (a player on two teams hears of each)."""
    entries = (
        TeamSeasonEntry.objects.filter(season=season, withdrawn=False)
        .select_related("division")
        .order_by("id")
    )
    members: dict[int, list[TeamMember]] = {}
    for m in TeamMember.objects.filter(team__in=[e.team_id for e in entries]).select_related("player"):
        members.setdefault(m.team_id, []).append(m)
    moves = []
    for e in entries:
        level = e.division.level if e.division else 0
        finished = state == "finished" and bool(level)
        to = arrival_level(from_level=level, movement=e.movement) if finished else 0
        for m in members.get(e.team_id, []):
            moves.append(
                SeasonMove(
                    player=PlayerRef.of(m.player),
                    division=(e.division.name if e.division else ""),
                    level=level,
                    group=e.division.group if e.division else "",
                    place=e.place,
                    movement=e.movement if finished else "",
                    to_level=to,
                )
            )
    return moves
