"""The teams API's write operations for ``tests/test_permission_matrix.py`` (its world and roles;
the main matrix runs them). The target is a team of the world's league, captained by another
player: ``seated`` is a plain member of it (for answering, the invited player, or the player who
asked to join), ``org`` an organiser of its league. Statuses in ROLES order: anon, guest, player,
seated, org, other_org, staff."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.games.conftest import Actor
from tournaments.competitions import services as clubs
from tournaments.models import Team, TeamInvitation, TeamMember
from tournaments.teams import services

ROLES = ["anon", "guest", "player", "seated", "org", "other_org", "staff"]
Case = tuple[str, dict[str, Any], Callable[[], Any]]


def _row(*statuses: int) -> dict[str, int]:
    assert len(statuses) == len(ROLES)
    return dict(zip(ROLES, statuses, strict=True))


MANAGERS = _row(401, 403, 403, 403, 200, 403, 200)  # the captain's side: org of the league, staff
ANSWERER = _row(401, 403, 403, 200, 403, 403, 403)  # the invited player (seated) only


def _state() -> Any:
    return (
        sorted(
            Team.objects.values_list(
                "pk", "name", "description", "board_order", "captain_id", "vice_captain_id"
            )
        ),
        sorted(TeamMember.objects.values_list("team_id", "player_id", "board", "alternate")),
        sorted(TeamInvitation.objects.values_list("pk", "player_id", "kind", "status")),
    )


def _team(w: Any, *, seated_member: bool = True) -> Team:
    """The league's team "Knights": its captain, and the seated player as a plain member."""
    captain = Actor("captain").player
    clubs.league_join(league=w.league, player=captain)
    team = services.team_create(by=captain, name="Knights", league=w.league)
    if seated_member:
        TeamMember.objects.create(team=team, player=w.seated.player)
    return team


def case_create(w: Any, role: str) -> Case:
    """A club team: members and organisers of the club (and staff); the seated player is a member."""
    clubs.league_join(league=w.league, player=w.seated.player)
    return "/api/v1/teams/", {"name": f"Team {role}", "league": w.league.slug}, _state


def case_update(w: Any, role: str) -> Case:
    return f"/api/v1/teams/{_team(w).slug}/", {"description": "Changed"}, _state


def case_invite(w: Any, role: str) -> Case:
    return f"/api/v1/teams/{_team(w).slug}/invite/", {"player": Actor("newcomer").player.pk}, _state


def _suffix(suffix: str, body: Callable[[Any], dict[str, Any]] | None = None) -> Callable[[Any, str], Case]:
    def case(w: Any, role: str) -> Case:
        return f"/api/v1/teams/{_team(w).slug}/{suffix}/", body(w) if body else {}, _state

    return case


def case_remove(w: Any, role: str) -> Case:
    return f"/api/v1/teams/{_team(w).slug}/members/{w.seated.player.pk}/", {}, _state


def _answer(action: str, kind: str) -> Callable[[Any, str], Case]:
    """An invitation to the seated player (``invite``), or their request to join (``request``)."""

    def case(w: Any, role: str) -> Case:
        team = _team(w, seated_member=False)
        if kind == "invite":
            invitation = services.invite(team_id=team.pk, by=team.captain, player_id=w.seated.player.pk)
        else:
            invitation = services.request_join(team_id=team.pk, by=w.seated.player)
        return f"/api/v1/team-invitations/{invitation.pk}/{action}/", {}, _state

    return case


TEAM_OPERATIONS: list[tuple[str, str, Callable[[Any, str], Case]]] = [
    ("POST /api/v1/teams/", "", case_create),
    ("PATCH /api/v1/teams/{slug}/", "", case_update),
    ("POST /api/v1/teams/{slug}/invite/", "", case_invite),
    ("POST /api/v1/teams/{slug}/join/", "", _suffix("join")),
    ("POST /api/v1/teams/{slug}/leave/", "", _suffix("leave")),
    ("DELETE /api/v1/teams/{slug}/members/{player_id}/", "", case_remove),
    (
        "POST /api/v1/teams/{slug}/roles/",
        "",
        _suffix("roles", lambda w: {"vice_captain": w.seated.player.pk}),
    ),
    (
        "POST /api/v1/teams/{slug}/board-order/",
        "",
        _suffix("board-order", lambda w: {"order": [w.seated.player.pk], "alternates": []}),
    ),
    ("POST /api/v1/team-invitations/{invitation_id}/{action}/", "accept", _answer("accept", "invite")),
    ("POST /api/v1/team-invitations/{invitation_id}/{action}/", "decline", _answer("decline", "invite")),
    ("POST /api/v1/team-invitations/{invitation_id}/{action}/", "cancel", _answer("cancel", "request")),
    (
        "POST /api/v1/team-invitations/{invitation_id}/{action}/",
        "accept request",
        _answer("accept", "request"),
    ),
    (
        "POST /api/v1/team-invitations/{invitation_id}/{action}/",
        "cancel invitation",
        _answer("cancel", "invite"),
    ),
]

TEAM_MATRIX: dict[str, dict[str, int]] = {
    # a club team: members (the seated player joined the club) and organisers of the club, staff
    "POST /api/v1/teams/": _row(401, 403, 403, 201, 201, 403, 201),
    # the captain and vice-captain (neither is a role here), the club's organisers, staff
    "PATCH /api/v1/teams/{slug}/": MANAGERS,
    "POST /api/v1/teams/{slug}/invite/": _row(401, 403, 403, 403, 201, 403, 201),
    # anyone with a person's account asks to join (guests never); the member is on the team already
    "POST /api/v1/teams/{slug}/join/": _row(401, 403, 201, 409, 201, 201, 201),
    # one's own place on the team: whoever is not on it has nothing to leave (409)
    "POST /api/v1/teams/{slug}/leave/": _row(401, 409, 409, 200, 409, 409, 409),
    # managers take members off; a plain member leaves instead
    "DELETE /api/v1/teams/{slug}/members/{player_id}/": _row(401, 403, 403, 403, 204, 403, 204),
    "POST /api/v1/teams/{slug}/roles/": MANAGERS,
    "POST /api/v1/teams/{slug}/board-order/": MANAGERS,
    # an invitation is answered by the invited player only: no organiser answers for them
    "POST /api/v1/team-invitations/{invitation_id}/{action}/ accept": ANSWERER,
    "POST /api/v1/team-invitations/{invitation_id}/{action}/ decline": ANSWERER,
    # a request to join is withdrawn by the player who asked (the managers decline it instead)
    "POST /api/v1/team-invitations/{invitation_id}/{action}/ cancel": ANSWERER,
    # a request to join is answered by the team's managers
    "POST /api/v1/team-invitations/{invitation_id}/{action}/ accept request": MANAGERS,
    # an invitation is withdrawn by the team's managers (the invited player declines instead)
    "POST /api/v1/team-invitations/{invitation_id}/{action}/ cancel invitation": MANAGERS,
}
