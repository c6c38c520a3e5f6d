"""The team seasons API's write operations for ``tests/test_permission_matrix.py`` (its world and
roles; the main matrix runs them). The target is a team season of the world's league and the team
"Knights" of that league, captained by the ``seated`` player; ``org`` is an organiser of the
league. Statuses in ROLES order: anon, guest, player, seated, org, other_org, staff."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tournaments.competitions import services as clubs
from tournaments.models import Season, TeamSeasonEntry
from tournaments.seasons import services as seasons
from tournaments.teams import seasons as team_seasons
from tournaments.teams import services as teams

ROLES = ["anon", "guest", "player", "seated", "org", "other_org", "staff"]
Case = tuple[str, dict[str, Any], Callable[[], Any]]


def _row(*statuses: int) -> dict[str, int]:
    assert len(statuses) == len(ROLES)
    return dict(zip(ROLES, statuses, strict=True))


#: The team's captain (seated), the season's organisers, staff.
CAPTAIN_OR_ORGANISER = _row(401, 403, 403, 200, 200, 403, 200)


def _state() -> Any:
    return sorted(TeamSeasonEntry.objects.values_list("season_id", "team_id", "withdrawn"))


def _target(w: Any, *, registered: bool) -> tuple[Season, int]:
    season = seasons.season_create(
        league=w.league,
        by=w.org.player,
        name="Team league",
        kind="divisions",
        game="shacru",
        rated=False,
        division_size=4,
        promote=1,
        relegate=1,
        team_boards=2,
    )
    clubs.league_join(league=w.league, player=w.seated.player)
    team = teams.team_create(by=w.seated.player, name="Knights", league=w.league, game="shacru")
    if registered:
        team_seasons.team_season_register(season_id=season.pk, team_id=team.pk, by=w.seated.player)
    return season, team.pk


def case_register(w: Any, role: str) -> Case:
    season, team = _target(w, registered=False)
    return f"/api/v1/seasons/{season.pk}/teams/register/", {"team": team}, _state


def case_withdraw(w: Any, role: str) -> Case:
    season, team = _target(w, registered=True)
    return f"/api/v1/seasons/{season.pk}/teams/withdraw/", {"team": team}, _state


TEAM_SEASON_OPERATIONS: list[tuple[str, str, Callable[[Any, str], Case]]] = [
    ("POST /api/v1/seasons/{season_id}/teams/register/", "", case_register),
    ("POST /api/v1/seasons/{season_id}/teams/withdraw/", "", case_withdraw),
]

TEAM_SEASON_MATRIX: dict[str, dict[str, int]] = {
    "POST /api/v1/seasons/{season_id}/teams/register/": CAPTAIN_OR_ORGANISER,
    "POST /api/v1/seasons/{season_id}/teams/withdraw/": CAPTAIN_OR_ORGANISER,
}
