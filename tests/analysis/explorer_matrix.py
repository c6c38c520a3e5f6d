"""The hint API's write operation for ``tests/test_permission_matrix.py`` (its world and roles; the
main matrix runs it). Target: a casual table of the ``seated`` player against a house bot, on their
turn. Only they get a hint; it changes nothing. Statuses in ROLES order: anon, guest, player,
seated, org, other_org, staff."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games import services as games
from games.models import Move

ROLES = ["anon", "guest", "player", "seated", "org", "other_org", "staff"]
Case = tuple[str, dict[str, Any], Callable[[], Any]]


def _row(*statuses: int) -> dict[str, int]:
    assert len(statuses) == len(ROLES)
    return dict(zip(ROLES, statuses, strict=True))


def _state() -> Any:
    return sorted(Move.objects.values_list("table_id", "seq", "notation"))


def case_hint(w: Any, role: str) -> Case:
    table = games.table_create(creator=w.seated.player, game="shacru", players=2, bot="random")
    return f"/api/v1/tables/{table.pk}/hint/", {}, _state


EXPLORER_OPERATIONS: list[tuple[str, str, Callable[[Any, str], Case]]] = [
    ("POST /api/v1/tables/{table_id}/hint/", "", case_hint),
]

EXPLORER_MATRIX: dict[str, dict[str, int]] = {
    # the seated player alone (a hint reads the position; it changes nothing): others are not seated
    "POST /api/v1/tables/{table_id}/hint/": _row(401, 403, 403, 200, 403, 403, 403),
}
