"""The friends and challenges API's write operations for ``tests/test_permission_matrix.py`` (its
world and roles; the main matrix runs them). The target is the world's ``seated`` player: every
role follows or challenges them (the seated player: themselves), and the challenge declined is
one to the seated player. Statuses in ROLES order: anon, guest, player, seated, org, other_org,
staff."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from community import challenges
from community.models import Follow
from games.models import Seat, Table
from tests.games.conftest import Actor

ROLES = ["anon", "guest", "player", "seated", "org", "other_org", "staff"]
Case = tuple[str, dict[str, Any], Callable[[], Any]]


def _row(*statuses: int) -> dict[str, int]:
    assert len(statuses) == len(ROLES)
    return dict(zip(ROLES, statuses, strict=True))


def _follows() -> Any:
    return sorted(Follow.objects.values_list("player_id", "followed_id"))


def _tables() -> Any:
    return (
        sorted(Table.objects.values_list("pk", "status", "invited_id")),
        sorted(Seat.objects.values_list("table_id", "player_id")),
    )


def case_follow(w: Any, role: str) -> Case:
    """Everyone follows the seated player (the seated player: themselves)."""
    return f"/api/v1/players/{w.seated.player.pk}/follow/", {}, _follows


def case_unfollow(w: Any, role: str) -> Case:
    """Each role with a full account followed the seated player, and stops."""
    actor = w.actor(role)
    if actor is not None and role not in ("seated", "guest"):
        Follow.objects.create(player=actor.player, followed=w.seated.player)
    return f"/api/v1/players/{w.seated.player.pk}/follow/", {}, _follows


def case_challenge(w: Any, role: str) -> Case:
    """Everyone challenges the seated player to an unrated table."""
    return f"/api/v1/players/{w.seated.player.pk}/challenge/", {"game": "shacru"}, _tables


def case_decline(w: Any, role: str) -> Case:
    """A challenge to the seated player: only they may decline it."""
    table = challenges.challenge(by=Actor("challenger").player, to_id=w.seated.player.pk, game="shacru")
    return f"/api/v1/tables/{table.pk}/decline/", {}, _tables


FRIENDS_OPERATIONS: list[tuple[str, str, Callable[[Any, str], Case]]] = [
    ("POST /api/v1/players/{player_id}/follow/", "", case_follow),
    ("DELETE /api/v1/players/{player_id}/follow/", "", case_unfollow),
    ("POST /api/v1/players/{player_id}/challenge/", "", case_challenge),
    ("POST /api/v1/tables/{table_id}/decline/", "", case_decline),
]

FRIENDS_MATRIX: dict[str, dict[str, int]] = {
    # any full account follows anyone but themselves (400); guests neither follow nor are followed
    "POST /api/v1/players/{player_id}/follow/": _row(401, 403, 201, 400, 201, 201, 201),
    "DELETE /api/v1/players/{player_id}/follow/": _row(401, 403, 204, 400, 204, 204, 204),
    # any full account challenges anyone but themselves (400), bots and guests; a guest never
    "POST /api/v1/players/{player_id}/challenge/": _row(401, 403, 201, 400, 201, 201, 201),
    # only the player challenged declines (not even staff answer for them)
    "POST /api/v1/tables/{table_id}/decline/": _row(401, 403, 403, 200, 403, 403, 403),
}
