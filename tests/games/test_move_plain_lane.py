"""The move's plain lane (``TableMovesApi.plain_lane``): the usual token-signed move is answered
without DRF's request wrapper, and must answer exactly what DRF's dispatch answers: the same
status, body and headers for accepted moves, retries and every refusal, throttled requests
counted once. Anything else goes through DRF's dispatch.

Each case is played twice on twin tables: once as the plain lane takes it (``Content-Type:
application/json``) and once as DRF takes it (the same body sent with ``; charset=utf-8``, which
the plain lane leaves alone)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from engine.playout import random_step
from games import services
from games.apis import TableMovesApi
from games.models import Table

from .conftest import Actor, started_table

pytestmark = pytest.mark.django_db

PLAIN = "application/json"
VIA_DRF = "application/json; charset=utf-8"
#: Fields that differ between twin tables or from one moment to the next.
VARYING = {"id", "played_at", "server_time", "turn_started_at", "deadline"}


@pytest.fixture
def lanes(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Which lane answered each move request: DRF's dispatch runs ``initial``, the plain lane not."""
    taken: list[str] = []
    real_dispatch, real_initial = TableMovesApi.dispatch, TableMovesApi.initial

    def dispatch(self: Any, request: Any, *args: Any, **kwargs: Any) -> Any:
        taken.append("plain")
        return real_dispatch(self, request, *args, **kwargs)

    def initial(self: Any, request: Any, *args: Any, **kwargs: Any) -> Any:
        taken[-1] = "drf"
        return real_initial(self, request, *args, **kwargs)

    monkeypatch.setattr(TableMovesApi, "dispatch", dispatch)
    monkeypatch.setattr(TableMovesApi, "initial", initial)
    return taken


def send(actor: Actor, table: Table, body: Any, content_type: str, **headers: Any) -> Any:
    raw = body if isinstance(body, str) else json.dumps(body)
    return actor.client.post(f"/api/v1/tables/{table.pk}/moves/", raw, content_type=content_type, **headers)


def answer(response: Any) -> tuple[int, dict[str, str], Any]:
    """Status, the headers a client reads, and the body without what differs between twins."""

    def scrub(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: ("…" if k in VARYING else scrub(v)) for k, v in value.items()}
        return value

    headers = {
        k: response.get(k) for k in ("Content-Type", "Allow", "Vary", "Retry-After", "Content-Language")
    }
    return response.status_code, headers, scrub(json.loads(response.content))


def twins(alice: Actor, bob: Actor) -> tuple[Table, Table]:
    return started_table([alice, bob], "pacru"), started_table([alice, bob], "pacru")


def test_moves_and_refusals_are_answered_as_drf_answers_them(
    alice: Actor, bob: Actor, lanes: list[str]
) -> None:
    plain, drf = twins(alice, bob)
    by_seat = {1: alice, 2: bob}
    rng = random.Random(5)
    state = services.current_state(plain)
    cases, seen = 0, set()
    for _ in range(6):
        after, move = random_step(state, rng)
        mover, other = by_seat[state.to_move], by_seat[3 - state.to_move]
        requests: list[tuple[Actor, Any]] = [
            (other, {"ply": state.ply, "move": move}),  # not their turn
            (mover, {"ply": state.ply + 5, "move": move}),  # a ply from the future
            (mover, {"ply": state.ply, "move": "z9-z9"}),  # not a move
            (mover, {"ply": state.ply, "move": move}),  # accepted
            (mover, {"ply": state.ply, "move": move}),  # the same again: a retry, 200
            (mover, {"ply": state.ply, "move": "a1-a2"}),  # a different move at a stale ply
        ]
        for actor, body in requests:
            lanes.clear()
            first = answer(send(actor, plain, body, PLAIN))
            second = answer(send(actor, drf, body, VIA_DRF))
            assert lanes == ["plain", "drf"]
            assert first == second, body
            seen.add(first[0])
            cases += 1
        state = after
    plain.refresh_from_db()
    drf.refresh_from_db()
    assert (plain.ply, plain.position) == (drf.ply, drf.position) == (state.ply, state.to_dict())
    assert cases == 36 and {200, 201, 400, 409} <= seen, seen


def test_a_move_to_a_table_that_is_not_there_or_not_started(
    alice: Actor, bob: Actor, lanes: list[str]
) -> None:
    waiting = services.table_create(creator=alice.player, game="pacru", players=2)
    for table_id in (waiting.pk, 999_999):
        table = Table(pk=table_id)
        first = answer(send(alice, table, {"ply": 0, "move": "a1-a2"}, PLAIN))
        second = answer(send(alice, table, {"ply": 0, "move": "a1-a2"}, VIA_DRF))
        assert first == second and first[0] in (404, 409), first
    assert lanes == ["plain", "drf"] * 2


@pytest.fixture
def low_rate(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", {"anon": "100/min", "user": "3/min"})
    monkeypatch.setattr(SimpleRateThrottle, "timer", lambda self: 6_000_000.0)  # 0 s into a window
    cache.clear()
    yield
    cache.clear()


def test_a_throttled_move_is_counted_once_and_refused_as_drf_refuses_it(
    alice: Actor, bob: Actor, low_rate: None, lanes: list[str]
) -> None:
    plain, drf = twins(alice, bob)
    window = 6_000_000 // 60
    body = {"ply": 0, "move": "z9-z9"}
    by_lane = {}
    for table, content_type in ((plain, PLAIN), (drf, VIA_DRF)):
        cache.clear()
        by_lane[content_type] = [answer(send(alice, table, body, content_type)) for _ in range(4)]
        # Three requests counted (the fourth refused and given back), each once.
        assert cache.get(f"throttle:user:{alice.player.user_id}:{window}") == 3
    assert by_lane[PLAIN] == by_lane[VIA_DRF]
    assert [status for status, _, _ in by_lane[PLAIN]] == [400, 400, 400, 429]
    assert int(by_lane[PLAIN][3][1]["Retry-After"]) > 0
    assert lanes == ["plain"] * 4 + ["drf"] * 4


def test_anything_but_the_plain_case_goes_through_drf(alice: Actor, bob: Actor, lanes: list[str]) -> None:
    table = started_table([alice, bob], "pacru")
    state = services.current_state(table)
    _, move = random_step(state, random.Random(1))
    mover = alice if state.to_move == 1 else bob
    odd = [
        ({"ply": 0, "move": move, "extra": 1}, PLAIN, {}),  # a key too many (the serializer ignores it)
        ({"ply": "0", "move": move}, PLAIN, {}),  # ply as text (read as a number): a retry
        ({"ply": 0, "move": f" {move} "}, PLAIN, {}),  # spaces around the move (trimmed): a retry
        ('{"ply": 0, "move": ', PLAIN, {}),  # not JSON
        ({"ply": 0, "move": move}, PLAIN, {"HTTP_ACCEPT": "text/html"}),  # another renderer asked for
        ({"ply": 0, "move": move}, PLAIN, {"HTTP_ACCEPT": "application/json; indent=2"}),
        ({"ply": 0, "move": "x" * 300}, PLAIN, {}),  # a body over the lane's size
    ]
    codes = []
    for body, content_type, headers in odd:
        lanes.clear()
        codes.append(send(mover, table, body, content_type, **headers).status_code)
        assert lanes == ["drf"], body
    assert codes == [201, 200, 200, 400, 200, 200, 400]  # text/html: the browsable API's page
    # A bad token, and no credentials at all: DRF refuses them (401), the lane never answers.
    for client in (APIClient(HTTP_AUTHORIZATION="Token not-a-token"), APIClient()):
        lanes.clear()
        response = client.post(
            f"/api/v1/tables/{table.pk}/moves/", json.dumps({"ply": 0, "move": move}), content_type=PLAIN
        )
        assert response.status_code == 401 and lanes == ["drf"]
    table.refresh_from_db()
    assert table.ply == 1
