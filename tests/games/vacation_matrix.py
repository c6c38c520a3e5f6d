"""The vacation API's write operations for ``tests/test_permission_matrix.py`` (its world and roles;
the main matrix runs them). Each role acts on its own account: starting a vacation is open to every
account but a guest's; ending one needs one running (the case starts it for every role that may
have one). Statuses in ROLES order: anon, guest, player, seated, org, other_org, staff."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games import vacation
from games.models import Player

ROLES = ["anon", "guest", "player", "seated", "org", "other_org", "staff"]
Case = tuple[str, dict[str, Any], Callable[[], Any]]
URL = "/api/v1/account/vacation/"


def _row(*statuses: int) -> dict[str, int]:
    assert len(statuses) == len(ROLES)
    return dict(zip(ROLES, statuses, strict=True))


def _state() -> Any:
    return sorted(Player.objects.values_list("pk", *vacation.FIELDS))


def case_start(w: Any, role: str) -> Case:
    return URL, {"days": 3}, _state


def case_end(w: Any, role: str) -> Case:
    if role not in ("anon", "guest"):
        vacation.vacation_start(player=w.actor(role).player, days=3)
    return URL, {}, _state


VACATION_OPERATIONS: list[tuple[str, str, Callable[[Any, str], Case]]] = [
    (f"POST {URL}", "", case_start),
    (f"DELETE {URL}", "", case_end),
]

VACATION_MATRIX: dict[str, dict[str, int]] = {
    # any account but a guest's takes vacation days (a guest plays casual games without a clock)
    f"POST {URL}": _row(401, 403, 200, 200, 200, 200, 200),
    # ending one's own vacation; a guest never has one to end (409)
    f"DELETE {URL}": _row(401, 409, 204, 204, 204, 204, 204),
}
