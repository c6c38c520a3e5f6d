"""The API fuzzed from its own OpenAPI schema (schemathesis, in-process over WSGI).

Every operation of the schema is called with generated inputs, valid and invalid, anonymously and
as a registered player, and with valid inputs as an organiser whose path ids name seeded objects (a
league, a started Swiss, a running table, a ladder). Every response must be documented: no 5xx, a
status code the schema lists for the operation, the documented content type and body shape. A
failure prints the request to reproduce it. Examples are bounded (``EXAMPLES``) and derandomized,
so a run is repeatable and takes well under a minute and a half on SQLite; the suite runs it on
PostgreSQL too (NUL characters, 64-bit columns), where the same must hold.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from django.db.backends.base.base import BaseDatabaseWrapper
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient
from rest_framework.views import APIView
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from games import health, services
from games.models import Player
from tests.games.conftest import as_organiser

#: Generated requests per operation, per generation mode (valid, invalid) and per client.
EXAMPLES = 8

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


# The schema the project serves (/api/v1/schema/), built in-process; JSON round trip for plain types.
DOCUMENT = json.loads(json.dumps(SchemaGenerator().get_schema(request=None, public=True)))
SCHEMA = schemathesis.openapi.from_dict(DOCUMENT)
OPERATIONS = {
    f"{op.method.upper()} {op.path}": op for result in SCHEMA.get_all_operations() if (op := result.ok())
}


def _can_be_invalid(operation: Any) -> bool:
    """Whether an operation takes anything that can be invalid: a body, a query parameter or a
    non-string path parameter (any text is a valid slug or action: nothing to negate there)."""
    spec = DOCUMENT["paths"][operation.path][operation.method.lower()]
    params = spec.get("parameters", [])
    return "requestBody" in spec or any(
        p["in"] == "query" or p.get("schema", {}).get("type") != "string" for p in params
    )


CASES = [
    (name, mode)
    for name, operation in sorted(OPERATIONS.items())
    for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)
    if mode == GenerationMode.POSITIVE or _can_be_invalid(operation)
]
APP = get_wsgi_application()


@pytest.fixture
def server(db: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """The WSGI app inside the test's transaction, unthrottled (the rate limits have tests of their own)."""
    # A WSGI request ends with close_old_connections(), which would close the test's connection (it
    # is in a transaction); Django's test client disconnects it, the WSGI app cannot.
    monkeypatch.setattr(BaseDatabaseWrapper, "close_if_unusable_or_obsolete", lambda self: None)
    monkeypatch.setattr(APIView, "check_throttles", lambda self, request: None)
    # A service whose clock sweep runs: readiness answers 200 (its 503 has tests of its own).
    health.beat(health.CLOCK_SWEEP)


def _player(username: str) -> tuple[Player, dict[str, str]]:
    player = services.player_register(username=username, password="correct-horse-9", display_name=username)
    return player, {"Authorization": f"Token {Token.objects.create(user=player.user).key}"}


def _seed(organiser: Player, headers: dict[str, str]) -> dict[str, Any]:
    """A league, a started Swiss, a running table and a ladder run by ``organiser``: the path ids
    the organiser's requests name (generated ids hardly ever name anything that exists)."""
    as_organiser(organiser)
    rival, rival_headers = _player("rival")
    api = APIClient()

    def post(url: str, body: dict[str, Any], who: dict[str, str] = headers) -> Any:
        response = api.post(url, body, format="json", HTTP_AUTHORIZATION=who["Authorization"])
        assert response.status_code in (200, 201), (url, response.content)
        return response.json()

    post("/api/v1/leagues/", {"name": "Fuzz", "slug": "fuzz"})
    swiss = post("/api/v1/tournaments/", {"league": "fuzz", "name": "S", "game": "pacru", "seats": 2})
    for who in (headers, rival_headers):
        post(f"/api/v1/tournaments/{swiss['id']}/register/", {}, who)
    post(f"/api/v1/tournaments/{swiss['id']}/start/", {})
    table = post("/api/v1/tables/", {"game": "shacru", "players": 2})
    post(f"/api/v1/tables/{table['id']}/join/", {}, rival_headers)
    ladder = post("/api/v1/ladders/", {"league": "fuzz", "game": "azacru"})
    return {
        "slug": "fuzz",
        "tournament_id": swiss["id"],
        "number": 1,
        "table_id": table["id"],
        "ladder_id": ladder["id"],
        "player_id": rival.pk,
        "game": "pacru",
    }


#: (operation, generation mode, client): the organiser's requests name seeded objects, with valid input.
RUNS = [
    (name, mode, who)
    for name, mode in CASES
    for who in ("anonymous", "player", "organiser")
    if who != "organiser" or mode == GenerationMode.POSITIVE
]


@pytest.mark.parametrize(
    ("name", "mode", "who"), RUNS, ids=[f"{name}-{mode.value}-{who}" for name, mode, who in RUNS]
)
def test_every_operation_answers_as_documented(
    server: None, name: str, who: str, mode: GenerationMode
) -> None:
    operation = OPERATIONS[name]
    headers: dict[str, str] = {}
    pinned: dict[str, Any] | None = None
    if who != "anonymous":
        player, headers = _player("fuzzer")
    if who == "organiser":
        # The organiser's path parameters name what exists: the requests reach the services.
        seed = _seed(player, headers)
        spec = DOCUMENT["paths"][operation.path][operation.method.lower()]
        names = {p["name"] for p in spec.get("parameters", []) if p["in"] == "path"}
        pinned = {key: value for key, value in seed.items() if key in names} or None

    @given(case=operation.as_strategy(generation_mode=mode, path_parameters=pinned))
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    def run(case: Any) -> None:
        response = case.call(app=APP, headers=headers)
        case.validate_response(response, checks=CHECKS, headers=headers)

    try:
        run()
    except Unsatisfiable:
        if mode != GenerationMode.NEGATIVE:
            raise
        pytest.skip("the schema leaves no room for invalid input to this operation")


def test_every_operation_is_fuzzed() -> None:
    assert len(OPERATIONS) >= 40, sorted(OPERATIONS)
