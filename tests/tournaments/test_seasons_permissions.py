"""Who may call each write operation of the seasons API, role by role, as
``tests/test_permission_matrix.py`` does for the rest (its world and roles): the status each role
gets, and nothing changed by a refused call."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.test_permission_matrix import ELSEWHERE, ORGANISERS_ONLY, ROLES, World, _row, make_world
from tournaments.models import Season, SeasonEntry
from tournaments.seasons import services

from .seasons_helpers import PAST

Case = tuple[str, str, dict[str, Any], Callable[[], Any]]


def _state(league_id: int) -> Callable[[], Any]:
    return lambda: (
        sorted(Season.objects.filter(league_id=league_id).values_list("pk", "status", "division_size")),
        sorted(
            SeasonEntry.objects.filter(season__league_id=league_id).values_list(
                "player_id", "status", "unavailable"
            )
        ),
    )


def _season(w: World, kind: str = "divisions", status: str = "registration") -> Season:
    extra = {"game": "shacru", "rated": False, "division_size": 4, "promote": 1, "relegate": 1}
    season = services.season_create(
        league=w.league, by=w.org.player, name="Matrix", kind=kind, round_times=PAST[:5], **extra
    )
    services.season_register(season_id=season.pk, player=w.seated.player)
    if status == "running":
        services.season_start(season_id=season.pk, by=w.org.player)
    return season


def case_create(w: World) -> Case:
    body = {
        "name": "New",
        "kind": "divisions",
        "game": "shacru",
        "division_size": 4,
        "promote": 1,
        "relegate": 1,
    }
    return "post", f"/api/v1/leagues/{w.league.slug}/seasons/", body, _state(w.league.pk)


def case_update(w: World) -> Case:
    return "patch", f"/api/v1/seasons/{_season(w).pk}/", {"division_size": 6}, _state(w.league.pk)


def case_register(w: World) -> Case:
    return "post", f"/api/v1/seasons/{_season(w).pk}/register/", {}, _state(w.league.pk)


def case_withdraw(w: World) -> Case:
    return "post", f"/api/v1/seasons/{_season(w).pk}/withdraw/", {}, _state(w.league.pk)


def case_unavailable(w: World) -> Case:
    return "post", f"/api/v1/seasons/{_season(w).pk}/unavailable/", {"rounds": [2]}, _state(w.league.pk)


def case_start(w: World) -> Case:
    season = _season(w)
    services.season_register(season_id=season.pk, player=w.player.player)
    return "post", f"/api/v1/seasons/{season.pk}/start/", {}, _state(w.league.pk)


def case_close(w: World) -> Case:
    season = _season(w, kind="series", status="running")  # no events: nothing left to finish
    return "post", f"/api/v1/seasons/{season.pk}/close/", {}, _state(w.league.pk)


SEATED_ONLY = _row(401, 409, 409, 200, 409, 409, 409)  # the registered player (seated) only
MATRIX: dict[str, tuple[Callable[[World], Case], dict[str, int]]] = {
    "create": (case_create, _row(401, 403, 403, 403, 201, 403, 201)),
    "update": (case_update, ORGANISERS_ONLY),
    # any account but a guest; the seated player is registered already
    "register": (case_register, _row(401, 403, 200, 409, 200, 200, 200)),
    "withdraw": (case_withdraw, SEATED_ONLY),
    "unavailable": (case_unavailable, SEATED_ONLY),
    "start": (case_start, ORGANISERS_ONLY),
    "close": (case_close, ORGANISERS_ONLY),
}


#: The operation (as the schema names it) each entry of MATRIX calls.
OPERATION_OF = {
    "create": "POST /api/v1/leagues/{slug}/seasons/",
    "update": "PATCH /api/v1/seasons/{season_id}/",
    "register": "POST /api/v1/seasons/{season_id}/register/",
    "withdraw": "POST /api/v1/seasons/{season_id}/withdraw/",
    "unavailable": "POST /api/v1/seasons/{season_id}/unavailable/",
    "start": "POST /api/v1/seasons/{season_id}/start/",
    "close": "POST /api/v1/seasons/{season_id}/close/",
}


def test_this_matrix_covers_the_operations_the_main_matrix_leaves_to_it() -> None:
    assert set(OPERATION_OF) == set(MATRIX)
    assert set(OPERATION_OF.values()) == ELSEWHERE


@pytest.fixture(autouse=True)
def _no_throttles(settings: Any) -> None:
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_CLASSES": []}


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("op", sorted(MATRIX))
def test_permission(db: None, op: str, role: str) -> None:
    w = make_world()
    build, expected = MATRIX[op]
    method, url, body, snapshot = build(w)
    before = snapshot()
    client = APIClient()
    actor = w.actor(role)
    if actor is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {actor.token}")
    response = getattr(client, method)(url, body, format="json")
    assert response.status_code == expected[role], response.content
    if response.status_code >= 400:
        assert snapshot() == before
    else:
        assert snapshot() != before
