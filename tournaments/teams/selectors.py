"""Reading teams: the board order (by rating or the captain's), the rating average, a team's
match results, team lists, and pending invitations.

Ratings are the displayed ones (``ratings.display.rating``: 60 × mu, 1500 for a player not yet
rated in the game)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Q, QuerySet
from django.utils.translation import gettext as _

from common.errors import NotFound
from games.models import Player
from ratings import display as rating_display
from ratings.environment import MU
from ratings.models import Rating

from ..models import League, Team, TeamInvitation, TeamMatchSide, TeamMember

NEWCOMER = rating_display.rating(MU)


def ratings(*, game: str, player_ids: list[int]) -> dict[int, int]:
    """The displayed rating of each player in ``game`` (a newcomer's where there is none)."""
    found = dict(Rating.objects.filter(game=game, player_id__in=player_ids).values_list("player_id", "mu"))
    return {pid: rating_display.rating(found[pid]) if pid in found else NEWCOMER for pid in player_ids}


def board_order(*, team: Team, game: str | None = None) -> list[TeamMember]:
    """The members in board order: the regulars, then the alternates. By rating (``game``'s, else
    the team's game): highest first, then player id; as the captain sets it: by board (unplaced
    last), then by rating. Each member carries ``rating`` (displayed)."""
    members = list(TeamMember.objects.filter(team=team).select_related("player"))
    rated = ratings(game=game or team.game, player_ids=[m.player_id for m in members])
    for m in members:
        m.rating = rated[m.player_id]  # type: ignore[attr-defined]

    def key(m: TeamMember) -> tuple[Any, ...]:
        by_rating = (-rated[m.player_id], m.player_id)
        if team.board_order == Team.BoardOrder.CAPTAIN:
            return (m.alternate, m.board is None, m.board or 0, *by_rating)
        return (m.alternate, *by_rating)

    return sorted(members, key=key)


def rating_average(*, team: Team, game: str | None = None) -> float | None:
    """The mean displayed rating of the team's regulars (None: no regulars)."""
    regulars = [m for m in board_order(team=team, game=game) if not m.alternate]
    if not regulars:
        return None
    return round(sum(m.rating for m in regulars) / len(regulars), 1)  # type: ignore[attr-defined]


@dataclass(frozen=True)
class Opponent:
    team_id: int
    name: str
    slug: str
    order: int
    game_points: float
    place: int | None
    match_points: float | None


@dataclass(frozen=True)
class TeamResult:
    """One match of the team: the event and round, its side, and the other sides."""

    match_id: int
    event_id: int
    event: str
    round: int
    status: str  # pending, playing, finished
    order: int
    game_points: float
    place: int | None
    match_points: float | None
    opponents: list[Opponent] = field(default_factory=list)


def team_results(*, team: Team) -> list[TeamResult]:
    """The team's matches, newest round first (empty until team events run)."""
    sides = (
        TeamMatchSide.objects.filter(team=team)
        .select_related("match__round__event")
        .order_by("-match__round__event__created", "-match__round__number", "-match_id")
    )
    sides = list(sides)
    others: dict[int, list[Opponent]] = {}
    rows = TeamMatchSide.objects.filter(match_id__in=[s.match_id for s in sides]).exclude(team=team)
    for o in rows.select_related("team").order_by("order"):
        others.setdefault(o.match_id, []).append(
            Opponent(
                team_id=o.team_id,
                name=o.team.name,
                slug=o.team.slug,
                order=o.order,
                game_points=o.game_points,
                place=o.place,
                match_points=o.match_points,
            )
        )
    return [
        TeamResult(
            match_id=s.match_id,
            event_id=s.match.round.event_id,
            event=s.match.round.event.name,
            round=s.match.round.number,
            status=s.match.status,
            order=s.order,
            game_points=s.game_points,
            place=s.place,
            match_points=s.match_points,
            opponents=others.get(s.match_id, []),
        )
        for s in sides
    ]


# ------------------------------------------------------------------ lists
def team_list(*, league: League | None = None, search: str = "") -> QuerySet[Team]:
    """Teams by name (of one club, with ``league``), with ``members`` counted; ``search``: a part
    of the name."""
    teams = Team.objects.select_related("league", "captain").annotate(member_count=Count("members"))
    if league is not None:
        teams = teams.filter(league=league)
    if search.strip():
        teams = teams.filter(name__icontains=search.strip())
    return teams.order_by("name", "id")


def league_teams(*, league: League) -> QuerySet[Team]:
    return team_list(league=league)


def player_teams(*, player: Player) -> QuerySet[Team]:
    """The teams ``player`` is on."""
    return team_list().filter(members__player=player)


def team(*, slug: str) -> Team:
    found = Team.objects.select_related("league", "captain", "vice_captain").filter(slug=slug).first()
    if found is None:
        raise NotFound(_("there is no team %(slug)s") % {"slug": repr(slug)})
    return found


def pending_invitations(*, team: Team) -> QuerySet[TeamInvitation]:
    """The team's invitations and requests waiting for an answer, oldest first."""
    return (
        TeamInvitation.objects.filter(team=team, status=TeamInvitation.Status.PENDING)
        .select_related("team", "player", "by")
        .order_by("created", "id")
    )


def my_invitations(*, player: Player) -> QuerySet[TeamInvitation]:
    """Pending invitations ``player`` is part of: invitations to them, their requests to join,
    and requests to join the teams they captain or vice-captain."""
    managed = Q(team__captain=player) | Q(team__vice_captain=player)
    mine = Q(player=player) | (managed & Q(kind=TeamInvitation.Kind.REQUEST))
    return (
        TeamInvitation.objects.filter(mine, status=TeamInvitation.Status.PENDING)
        .select_related("team", "player", "by")
        .order_by("-created", "-id")
    )


def my_invitation(*, team: Team, player: Player | None) -> TeamInvitation | None:
    """``player``'s own pending invitation or request for ``team``."""
    if player is None:
        return None
    return (
        TeamInvitation.objects.filter(team=team, player=player, status=TeamInvitation.Status.PENDING)
        .select_related("team", "player", "by")
        .first()
    )
