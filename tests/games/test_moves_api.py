"""Submitting moves: adjudication, every refusal, retries, and an unchanged table on error."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Move, Table

from .conftest import Actor, started_table


def snapshot(table: Table) -> tuple[Any, ...]:
    table.refresh_from_db()
    return (table.ply, table.position, table.status, table.actions, Move.objects.filter(table=table).count())


@pytest.fixture
def table(alice: Actor, bob: Actor) -> Table:
    return started_table([alice, bob], "pacru")


def url(table: Table) -> str:
    return f"/api/v1/tables/{table.pk}/moves/"


def test_a_legal_move_is_recorded_in_canonical_form(alice: Actor, table: Table) -> None:
    r = alice.post(url(table), {"ply": 0, "move": " A3-B4 ( B4 ) "})
    assert r.status_code == 201, r.json()
    body = r.json()
    assert body["move"]["notation"] == "a3-b4(b4)" and body["move"]["ply"] == 1 and body["move"]["seat"] == 1
    summary = {k: body["table"][k] for k in ("id", "status", "ply", "to_move", "result", "deadline")}
    assert summary == {
        "id": table.pk,
        "status": "active",
        "ply": 1,
        "to_move": 2,
        "result": None,
        "deadline": None,
    }
    table.refresh_from_db()
    assert table.position["tiles"].count("1") == 1 and table.to_move == 2
    detail = alice.get(f"/api/v1/tables/{table.pk}/").json()
    assert detail["moves"] == ["a3-b4(b4)"] and detail["scores"] == {"1": 1, "2": 0}
    assert "a7-b6" in detail["base_moves"]
    assert detail["choices"]["a7-b6"]["effect_kind"] == "change"
    assert "b6" in detail["choices"]["a7-b6"]["effects"]


def test_forced_choices_are_filled_in(alice: Actor, bob: Actor, table: Table) -> None:
    alice.post(url(table), {"ply": 0, "move": "e1-e2"})
    r = bob.post(url(table), {"ply": 1, "move": "e9-e8"})
    assert r.status_code == 201 and r.json()["move"]["notation"] == "e9-e8"


@pytest.mark.parametrize(
    "move, code, words",
    [
        ("a3-b4", "illegal_move", "choose a neutral field"),
        ("a3-a4", "illegal_move", "faces E"),
        ("e1-e5", "illegal_move", "power 1"),
        ("a7-b7", "illegal_move", "belongs to seat 2"),
        ("z9-a1", "illegal_move", "is not a move"),
        ("a3-b4(j9)", "illegal_move", "neither a field"),
        ("e5<(a1,b2)", "illegal_move", "no chevron of yours on e5"),
        ("pass", "illegal_move", "no passing"),
        ("", "invalid", "move"),
    ],
)
def test_bad_moves_are_refused_with_the_reason_and_change_nothing(
    alice: Actor, table: Table, move: str, code: str, words: str
) -> None:
    before = snapshot(table)
    r = alice.post(url(table), {"ply": 0, "move": move})
    assert r.status_code == 400
    assert r.json()["code"] == code and words in r.json()["detail"], r.json()
    assert snapshot(table) == before


@pytest.mark.parametrize(
    "body", [{"move": "e1-e2"}, {"ply": -1, "move": "e1-e2"}, {"ply": "x", "move": "e1-e2"}, []]
)
def test_malformed_bodies_are_refused(alice: Actor, table: Table, body: Any) -> None:
    before = snapshot(table)
    r = alice.post(url(table), body)
    assert r.status_code == 400 and r.json()["code"] == "invalid"
    assert snapshot(table) == before


def test_not_your_turn(bob: Actor, table: Table) -> None:
    before = snapshot(table)
    r = bob.post(url(table), {"ply": 0, "move": "a7-b7"})
    assert r.status_code == 409 and r.json()["code"] == "not_your_turn"
    assert "seat 1's turn" in r.json()["detail"]
    assert snapshot(table) == before


def test_not_seated(carol: Actor, table: Table) -> None:
    r = carol.post(url(table), {"ply": 0, "move": "e1-e2"})
    assert r.status_code == 403 and r.json()["code"] == "not_seated"


def test_anonymous_cannot_move(anon: Any, table: Table) -> None:
    r = anon.post(url(table), {"ply": 0, "move": "e1-e2"}, format="json")
    assert r.status_code == 401


def test_a_stale_ply_gets_409_with_the_current_ply(alice: Actor, bob: Actor, table: Table) -> None:
    alice.post(url(table), {"ply": 0, "move": "e1-e2"})
    bob.post(url(table), {"ply": 1, "move": "e9-e8"})
    before = snapshot(table)
    r = alice.post(url(table), {"ply": 1, "move": "e2-e3"})
    assert r.status_code == 409 and r.json() == {
        "detail": "you answered ply 1 but the table is at ply 2: reload and try again",
        "code": "stale_ply",
        "ply": 2,
    }
    ahead = alice.post(url(table), {"ply": 7, "move": "e2-e3"})
    assert ahead.status_code == 409 and ahead.json()["ply"] == 2
    assert snapshot(table) == before


def test_a_retry_returns_the_recorded_move_without_a_duplicate(
    alice: Actor, bob: Actor, table: Table
) -> None:
    first = alice.post(url(table), {"ply": 0, "move": "A3-B4(B4)"})
    assert first.status_code == 201
    retry = alice.post(url(table), {"ply": 0, "move": "a3-b4(b4)"})
    assert retry.status_code == 200
    assert retry.json()["move"] == first.json()["move"]
    lenient_retry = alice.post(url(table), {"ply": 0, "move": "A3-B4(B4)"})
    assert lenient_retry.status_code == 200
    assert Move.objects.filter(table=table).count() == 1
    # A different move for that ply is not a retry, and neither is bob sending alice's move.
    assert alice.post(url(table), {"ply": 0, "move": "e1-e2"}).status_code == 409
    assert bob.post(url(table), {"ply": 0, "move": "a3-b4(b4)"}).status_code == 409


def test_a_move_after_the_end_is_refused(alice: Actor, bob: Actor, table: Table) -> None:
    alice.post(f"/api/v1/tables/{table.pk}/resign/")
    before = snapshot(table)
    assert before[2] == "finished"
    r = bob.post(url(table), {"ply": 0, "move": "a7-b6(b6)"})
    assert r.status_code == 409 and r.json()["code"] == "table_not_active"
    assert snapshot(table) == before


def test_an_oversized_body_is_refused_before_anything_happens(alice: Actor, table: Table) -> None:
    before = snapshot(table)
    r = alice.post(url(table), {"ply": 0, "move": "e1-e2", "padding": "x" * 300_000})
    assert r.status_code == 413 and r.json()["code"] == "body_too_large"
    assert snapshot(table) == before


def test_an_overlong_move_text_is_refused(alice: Actor, table: Table) -> None:
    r = alice.post(url(table), {"ply": 0, "move": "e1-e2(" + "a1," * 40 + "a1)"})
    assert r.status_code == 400 and "move" in r.json()["detail"]


def test_moves_list_and_record(alice: Actor, bob: Actor, table: Table) -> None:
    alice.post(url(table), {"ply": 0, "move": "a3-b4(b4)"})
    bob.post(url(table), {"ply": 1, "move": "i7-h8"})
    moves = alice.get(url(table)).json()
    assert [(m["seq"], m["ply"], m["seat"], m["notation"]) for m in moves] == [
        (0, 1, 1, "a3-b4(b4)"),
        (1, 2, 2, "i7-h8"),
    ]
    record = alice.get(f"/api/v1/tables/{table.pk}/record/")
    assert record.status_code == 200 and record["Content-Type"].startswith("text/plain")
    text = record.content.decode()
    assert "Seat1: alice\nSeat2: bob" in text and text.endswith("1. a3-b4(b4)\n2. i7-h8\n")
    import engine

    assert engine.replay(text).to_dict() == Table.objects.get(pk=table.pk).position


def test_submitting_a_move_costs_a_handful_of_queries(alice: Actor, table: Table) -> None:
    with CaptureQueriesContext(connection) as queries:
        assert alice.post(url(table), {"ply": 0, "move": "e1-e2"}).status_code == 201
    # token+user+player, table FOR UPDATE, seat, insert move, update table (+ savepoints on some backends)
    statements = [
        q["sql"]
        for q in queries.captured_queries
        if not q["sql"].upper().startswith(("SAVEPOINT", "RELEASE"))
    ]
    assert len(statements) <= 6, statements
