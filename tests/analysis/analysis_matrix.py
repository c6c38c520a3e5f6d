"""The analysis API's write operations for ``tests/test_permission_matrix.py`` (its world and
roles; the main matrix runs them). Targets: a finished table the ``seated`` player played, and
round 1 of an event of the world's league (organised by ``org``) with that table. Statuses in
ROLES order: anon, guest, player, seated, org, other_org, staff. Tasks are not run (no commit in
these tests), so an accepted request answers 202."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from analysis.models import Analysis
from games import services as games
from games.models import Table
from tests.games.conftest import Actor
from tournaments.competitions import services as clubs
from tournaments.models import Round, RoundTable

ROLES = ["anon", "guest", "player", "seated", "org", "other_org", "staff"]
Case = tuple[str, dict[str, Any], Callable[[], Any]]


def _row(*statuses: int) -> dict[str, int]:
    assert len(statuses) == len(ROLES)
    return dict(zip(ROLES, statuses, strict=True))


def _state() -> Any:
    return sorted(Analysis.objects.values_list("table_id", "depth", "status"))


def _finished(w: Any) -> Table:
    filler = Actor("filler").player
    text = (
        f"Game: shacru\nPlayers: 2\nSeat1: {w.seated.player.user.username}\n"
        f"Seat2: {filler.user.username}\n\ne1-e2\nresign 2\n"
    )
    return games.table_import_record(text=text, imported_by=w.seated.player)


def case_table_analysis(w: Any, role: str) -> Case:
    return f"/api/v1/tables/{_finished(w).pk}/analysis/", {"depth": 3}, _state


def case_round_analysis(w: Any, role: str) -> Case:
    event = clubs.tournament_create(
        organiser=w.org.player, league=w.league, name="Cup", game="shacru", seats=2, rounds=3
    )
    round_ = Round.objects.create(tournament=event, number=1)
    RoundTable.objects.create(round=round_, table=_finished(w), number=1)
    return f"/api/v1/tournaments/{event.pk}/rounds/1/analysis/", {"depth": 3}, _state


ANALYSIS_OPERATIONS: list[tuple[str, str, Callable[[Any, str], Case]]] = [
    ("POST /api/v1/tables/{table_id}/analysis/", "", case_table_analysis),
    ("POST /api/v1/tournaments/{tournament_id}/rounds/{number}/analysis/", "", case_round_analysis),
]

ANALYSIS_MATRIX: dict[str, dict[str, int]] = {
    # any signed-in account, guests too: every finished table can be watched and analysed
    "POST /api/v1/tables/{table_id}/analysis/": _row(401, 202, 202, 202, 202, 202, 202),
    # a round: the event's organisers and staff
    "POST /api/v1/tournaments/{tournament_id}/rounds/{number}/analysis/": _row(
        401, 403, 403, 403, 202, 403, 202
    ),
}
