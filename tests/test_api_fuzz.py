"""The API fuzzed from its own OpenAPI schema (schemathesis, in-process over WSGI).

Every operation of the schema is called with generated inputs, valid and invalid, anonymously, as
a registered player and as staff; and with valid inputs as an organiser, and as staff, whose path
ids name seeded objects (a league, a started Swiss, a running table, a ladder: the organiser's own,
another organiser's for staff). Every response must be documented: no 5xx, a status code the
schema lists for the operation, the documented content type and body shape. A failure prints the
request to reproduce it. Examples are bounded (``EXAMPLES``) and derandomized, so a run is
repeatable and takes about a minute on SQLite; the suite runs it on PostgreSQL too (NUL
characters, 64-bit columns), where the same must hold.

Random generation hardly ever writes ``²`` (``str.isdigit()`` passes it, ``int()`` refuses it) or
a number one beyond 64 bits, which is what broke parsers before: every query parameter and every
integer body field is also sent each of :data:`ODD_NUMBERS` explicitly.

The streams (``application/x-ndjson``) are in the schema but not fuzzed here: over WSGI they answer
501 (the live ASGI server serves them), and a stream never ends; ``tests/live`` covers them.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
import schemathesis
from django.contrib.auth import get_user_model
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

#: Sent in every query parameter and integer body field (an ``int`` or a list of one) by
#: :func:`test_odd_numbers_in_every_parameter_answer_as_documented`: other scripts' digits
#: (``"²".isdigit()`` is true and ``int("²")`` fails; ``int("٣")`` is 3), numbers one beyond a
#: 64-bit column each way, and one beyond what ``int()`` reads from text (4,300 digits).
ODD_NUMBERS: list[Any] = ["²", "٣", "1²", "９", str(2**63), str(-(2**63) - 1), "9" * 4301]
ODD_NUMBERS += [2**63, -(2**63) - 1]  # in a JSON body: numbers; in a query string: their text


# The schema the project serves (/api/v1/schema/), built in-process; JSON round trip for plain types.
DOCUMENT = json.loads(json.dumps(SchemaGenerator().get_schema(request=None, public=True)))
SCHEMA = schemathesis.openapi.from_dict(DOCUMENT)


def _streams(operation: Any) -> bool:
    """Whether the operation is a stream (see the module docstring: not fuzzed over WSGI)."""
    spec = DOCUMENT["paths"][operation.path][operation.method.lower()]
    return any("application/x-ndjson" in r.get("content", {}) for r in spec.get("responses", {}).values())


OPERATIONS = {
    f"{op.method.upper()} {op.path}": op
    for result in SCHEMA.get_all_operations()
    if (op := result.ok()) and not _streams(op)
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


def _player(username: str, staff: bool = False) -> tuple[Player, dict[str, str]]:
    player = services.player_register(username=username, password="correct-horse-9", display_name=username)
    if staff:
        get_user_model().objects.filter(pk=player.user_id).update(is_staff=True)
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
    post("/api/v1/teams/", {"name": "Fuzz", "league": "fuzz"})  # the team whose slug is fuzz too
    return {
        "slug": "fuzz",
        "tournament_id": swiss["id"],
        "number": 1,
        "table_id": table["id"],
        "ladder_id": ladder["id"],
        "player_id": rival.pk,
        "game": "pacru",
    }


#: The clients: ``organiser`` and ``staff+`` name seeded objects in their paths (the organiser its
#: own, staff another organiser's), with valid input; the others are fuzzed with both kinds.
CLIENTS = ("anonymous", "player", "staff", "organiser", "staff+")
SEEDED = ("organiser", "staff+")


def _client(who: str, operation: Any) -> tuple[dict[str, str], dict[str, Any] | None]:
    """The request headers of the client ``who``, and the path parameters it pins (or ``None``)."""
    if who == "anonymous":
        return {}, None
    player, headers = _player("fuzzer", staff=who.startswith("staff"))
    if who not in SEEDED:
        return headers, None
    # The seeded clients' path parameters name what exists: the requests reach the services.
    owner, owner_headers = (player, headers) if who == "organiser" else _player("owner")
    seed = _seed(owner, owner_headers)
    spec = DOCUMENT["paths"][operation.path][operation.method.lower()]
    names = {p["name"] for p in spec.get("parameters", []) if p["in"] == "path"}
    return headers, {key: value for key, value in seed.items() if key in names} or None


#: (operation, generation mode, client).
RUNS = [
    (name, mode, who)
    for name, mode in CASES
    for who in CLIENTS
    if who not in SEEDED or mode == GenerationMode.POSITIVE
]


@pytest.mark.parametrize(
    ("name", "mode", "who"), RUNS, ids=[f"{name}-{mode.value}-{who}" for name, mode, who in RUNS]
)
def test_every_operation_answers_as_documented(
    server: None, name: str, who: str, mode: GenerationMode
) -> None:
    operation = OPERATIONS[name]
    headers, pinned = _client(who, operation)

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


def _odd_targets(operation: Any) -> list[tuple[str, str, bool]]:
    """Where :data:`ODD_NUMBERS` go in ``operation``: ``("query", name, False)`` for each query
    parameter, ``("body", name, is_list)`` for each integer (or list of integers) field of a JSON
    body."""
    spec = DOCUMENT["paths"][operation.path][operation.method.lower()]
    targets = [("query", p["name"], False) for p in spec.get("parameters", []) if p["in"] == "query"]
    schema = spec.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema", {})
    if "$ref" in schema:
        schema = DOCUMENT["components"]["schemas"][schema["$ref"].rsplit("/", 1)[-1]]
    for field, prop in schema.get("properties", {}).items():
        if prop.get("readOnly"):
            continue
        if prop.get("type") == "integer":
            targets.append(("body", field, False))
        elif prop.get("type") == "array" and prop.get("items", {}).get("type") == "integer":
            targets.append(("body", field, True))
    return targets


ODD_RUNS = [
    (name, who)
    for name, operation in sorted(OPERATIONS.items())
    if _odd_targets(operation)
    for who in CLIENTS
    if who != "staff"  # staff unseeded asks what the player does; staff+ covers staff's powers
]


@pytest.mark.parametrize(("name", "who"), ODD_RUNS, ids=[f"{name}-{who}" for name, who in ODD_RUNS])
def test_odd_numbers_in_every_parameter_answer_as_documented(server: None, name: str, who: str) -> None:
    """A valid request with one query parameter or integer field replaced by each of
    :data:`ODD_NUMBERS`: a documented answer (400, or the filter ignored), never a 5xx."""
    operation = OPERATIONS[name]
    headers, pinned = _client(who, operation)
    targets = _odd_targets(operation)

    @given(case=operation.as_strategy(generation_mode=GenerationMode.POSITIVE, path_parameters=pinned))
    @settings(
        max_examples=1,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    def run(case: Any) -> None:
        for where, field, is_list in targets:
            for value in ODD_NUMBERS:
                odd = [value] if is_list else value
                if where == "query":
                    variant = operation.Case(
                        path_parameters=case.path_parameters,
                        query={**(case.query or {}), field: str(value)},
                        body=case.body,
                        media_type=case.media_type,
                    )
                elif isinstance(case.body, dict):
                    variant = operation.Case(
                        path_parameters=case.path_parameters,
                        query=case.query,
                        body={**case.body, field: odd},
                        media_type="application/json",
                    )
                else:
                    continue
                response = variant.call(app=APP, headers=headers)
                variant.validate_response(response, checks=CHECKS, headers=headers)

    run()


def test_every_operation_is_fuzzed() -> None:
    assert len(OPERATIONS) >= 40, sorted(OPERATIONS)
