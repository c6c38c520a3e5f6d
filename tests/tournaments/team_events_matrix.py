"""The team events API's write operations for ``tests/test_permission_matrix.py`` (its world and
roles; the main matrix runs them). The target is a team event of the world's league (organised
by ``org``) and the team "Rooks" of that league, captained by the ``seated`` player. Statuses in
ROLES order: anon, guest, player, seated, org, other_org, staff."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils import timezone

from tests.games.conftest import Actor
from tournaments.models import LineUp, Team, TeamEntry, TeamEvent, TeamMember, TeamRound
from tournaments.teams import events

ROLES = ["anon", "guest", "player", "seated", "org", "other_org", "staff"]
Case = tuple[str, dict[str, Any], Callable[[], Any]]


def _row(*statuses: int) -> dict[str, int]:
    assert len(statuses) == len(ROLES)
    return dict(zip(ROLES, statuses, strict=True))


#: The team's captain (seated), the event's organisers, staff.
CAPTAIN_OR_ORGANISER = _row(401, 403, 403, 200, 200, 403, 200)
#: The event's organisers and staff.
ORGANISERS = _row(401, 403, 403, 403, 200, 403, 200)


def _state() -> Any:
    return (
        sorted(TeamEvent.objects.values_list("pk", "name", "status", "current_round")),
        sorted(TeamEntry.objects.values_list("event_id", "team_id", "withdrawn", "seed")),
        sorted(TeamRound.objects.values_list("event_id", "number", "status")),
        sorted((lu.round_id, lu.team_id, tuple(lu.players)) for lu in LineUp.objects.all()),
    )


def _team(w: Any, name: str, captain: Any) -> Team:
    team = Team.objects.create(
        league=w.league, name=name, slug=name.lower(), captain=captain, created_by=captain
    )
    TeamMember.objects.create(team=team, player=captain, board=1)
    return team


def _event(w: Any, *, entered: bool = False, both: bool = False) -> tuple[TeamEvent, Team]:
    event = events.team_event_create(
        league=w.league, by=w.org.player, name="Team cup", game="shacru", boards=1
    )
    rooks = _team(w, "Rooks", w.seated.player)
    if entered:
        events.team_event_enter(event_id=event.pk, team_id=rooks.pk, by=w.org.player)
    if both:
        other = _team(w, "Pawns", Actor("pawnscaptain").player)
        events.team_event_enter(event_id=event.pk, team_id=other.pk, by=w.org.player)
    return event, rooks


def case_create(w: Any, role: str) -> Case:
    return "/api/v1/team-events/", {"league": w.league.slug, "name": "Clubs cup", "game": "shacru"}, _state


def case_enter(w: Any, role: str) -> Case:
    event, rooks = _event(w)
    return f"/api/v1/team-events/{event.pk}/enter/", {"team": rooks.pk}, _state


def case_withdraw(w: Any, role: str) -> Case:
    event, rooks = _event(w, entered=True)
    return f"/api/v1/team-events/{event.pk}/withdraw/", {"team": rooks.pk}, _state


def _organiser_action(action: str) -> Callable[[Any, str], Case]:
    def case(w: Any, role: str) -> Case:
        event, _rooks = _event(w, entered=True, both=True)
        return f"/api/v1/team-events/{event.pk}/{action}/", {}, _state

    return case


def case_lineup(w: Any, role: str) -> Case:
    """Round 1 is paired and its line-ups open (it starts ten minutes after the event)."""
    event, rooks = _event(w, entered=True, both=True)
    events.team_event_start(event_id=event.pk, by=w.org.player, now=timezone.now())
    rnd = TeamRound.objects.get(event=event, number=1)
    return f"/api/v1/team-rounds/{rnd.pk}/lineups/{rooks.pk}/", {"players": [w.seated.player.pk]}, _state


TEAM_EVENT_OPERATIONS: list[tuple[str, str, Callable[[Any, str], Case]]] = [
    ("POST /api/v1/team-events/", "", case_create),
    ("POST /api/v1/team-events/{event_id}/enter/", "", case_enter),
    ("POST /api/v1/team-events/{event_id}/withdraw/", "", case_withdraw),
    ("POST /api/v1/team-events/{event_id}/start/", "", _organiser_action("start")),
    ("POST /api/v1/team-events/{event_id}/cancel/", "", _organiser_action("cancel")),
    ("PUT /api/v1/team-rounds/{round_id}/lineups/{team_id}/", "", case_lineup),
]

TEAM_EVENT_MATRIX: dict[str, dict[str, int]] = {
    # the club's organisers (and staff) create its team events
    "POST /api/v1/team-events/": _row(401, 403, 403, 403, 201, 403, 201),
    # a team enters and leaves through its captain (or vice), or an organiser of the event
    "POST /api/v1/team-events/{event_id}/enter/": CAPTAIN_OR_ORGANISER,
    "POST /api/v1/team-events/{event_id}/withdraw/": CAPTAIN_OR_ORGANISER,
    "POST /api/v1/team-events/{event_id}/start/": ORGANISERS,
    "POST /api/v1/team-events/{event_id}/cancel/": ORGANISERS,
    # the captain (or vice) sets the team's line-up; so may the event's organisers and staff
    "PUT /api/v1/team-rounds/{round_id}/lineups/{team_id}/": CAPTAIN_OR_ORGANISER,
}
