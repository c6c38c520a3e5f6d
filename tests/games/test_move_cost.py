"""What a move costs the database, pinned: a token's move on a live table is two statements on
PostgreSQL (the locked read of the table with the mover's seat; the insert of the move with the
update of the table, in one ``WITH``), three on SQLite (the insert and the update apart), and its
answer still carries the table's whole state. A change that adds a statement to every move fails
here (bench/move_profile.py says where the time goes). Unlogged, PostgreSQL runs them as prepared
statements."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils.dateparse import parse_datetime

from engine.playout import random_step
from games import services
from games.models import Move, Table

from .conftest import Actor, started_table

pytestmark = pytest.mark.django_db

#: The statements of one move, by their start (after the token is cached).
MOVE_STATEMENTS = {"postgresql": ["SELECT", "WITH"], "sqlite": ["SELECT", "INSERT INTO", "UPDATE"]}


def statements(queries: CaptureQueriesContext) -> list[str]:
    """The SQL run, without the savepoints the test's own transaction adds around a write."""
    return [q["sql"] for q in queries if "SAVEPOINT" not in q["sql"]]


def legal(table: Table) -> str:
    import random

    _, text = random_step(services.current_state(table), random.Random(table.ply))
    return text


@pytest.mark.parametrize(
    "clock",
    [{"kind": "untimed"}, {"kind": "fischer", "base": 600, "increment": 5}],
    ids=["untimed", "fischer"],
)
def test_a_move_is_a_locked_read_and_one_write(
    alice: Actor, bob: Actor, clock: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    table = started_table([alice, bob], "pacru", time_control=clock)
    by_seat = {1: alice, 2: bob}
    for actor in (alice, bob):  # each token is read once, then cached by the process
        assert actor.get(f"/api/v1/tables/{table.pk}/").status_code == 200
    for _ in range(4):  # the first moves (the clock starts) and later ones cost the same
        table.refresh_from_db()
        mover = by_seat[table.to_move]
        move = legal(table)
        with CaptureQueriesContext(connection) as queries, django_capture_on_commit_callbacks(execute=True):
            answer = mover.post(f"/api/v1/tables/{table.pk}/moves/", {"ply": table.ply, "move": move})
        assert answer.status_code == 201, answer.json()
        sql = statements(queries)
        expected = MOVE_STATEMENTS[connection.vendor]
        assert [next((s for s in expected if q.lstrip().startswith(s)), q) for q in sql] == expected, sql
        assert '"games_table"' in sql[0] and '"games_seat"' in sql[0], "the seat is read with the lock"
        if connection.features.has_select_for_update_of:
            assert "FOR UPDATE OF t" in sql[0]
        assert '"games_move"' in sql[1] and '"games_table"' in sql[-1]
        if connection.vendor == "postgresql":
            assert 'INSERT INTO "games_move"' in sql[1] and 'UPDATE "games_table"' in sql[1]


@pytest.mark.postgres
def test_unlogged_moves_run_as_prepared_statements(alice: Actor, bob: Actor) -> None:
    """Outside query logging the move's statements are prepared on the connection, and the moves
    are recorded as ever."""
    table = started_table([alice, bob], "pacru")
    by_seat = {1: alice, 2: bob}
    for _ in range(3):
        table.refresh_from_db()
        answer = by_seat[table.to_move].post(
            f"/api/v1/tables/{table.pk}/moves/", {"ply": table.ply, "move": legal(table)}
        )
        assert answer.status_code == 201, answer.json()
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    assert any("FOR UPDATE OF t" in q for q in prepared), prepared
    assert any(q.startswith("WITH inserted AS (INSERT INTO") for q in prepared), prepared
    table.refresh_from_db()
    assert table.ply == 3 and Move.objects.filter(table=table).count() == 3
    assert [m.seq for m in Move.objects.filter(table=table).order_by("seq")] == [0, 1, 2]


def test_a_moves_answer_carries_the_whole_table_state(alice: Actor, bob: Actor) -> None:
    table = started_table(
        [alice, bob], "pacru", time_control={"kind": "fischer", "base": 600, "increment": 5}
    )
    move = legal(table)
    answer = alice.post(f"/api/v1/tables/{table.pk}/moves/", {"ply": 0, "move": move})
    # A token's request skips the browser's middleware, not the length (clients read by it).
    assert int(answer["Content-Length"]) == len(answer.content)
    body = answer.json()
    table.refresh_from_db()
    recorded = Move.objects.get(table=table, ply=1)
    assert set(body) == {"move", "table"}
    assert body["move"] == {
        "seq": recorded.seq,
        "ply": 1,
        "seat": 1,
        "kind": "move",
        "notation": recorded.notation,
        "played_at": body["move"]["played_at"],
    }
    assert parse_datetime(body["move"]["played_at"]) == recorded.played_at
    state = body["table"]
    assert set(state) == {
        "id",
        "status",
        "ply",
        "to_move",
        "result",
        "clocks",
        "turn_started_at",
        "deadline",
        "server_time",
    }
    assert (state["id"], state["status"], state["ply"], state["to_move"]) == (table.pk, "active", 1, 2)
    assert state["clocks"] == table.clocks and state["result"] == table.result
    assert parse_datetime(state["deadline"]) == table.deadline
    assert parse_datetime(state["turn_started_at"]) == table.turn_started_at
    assert parse_datetime(state["server_time"]) is not None


@pytest.mark.parametrize(
    "data",
    [
        {"ply": "0", "move": "x"},  # a string ply: the serializer's answer
        {"ply": -1, "move": "x"},
        {"ply": 0, "move": ""},
        {"ply": 0, "move": "x" * 81},
        {"ply": 0},
        {"ply": True, "move": "x"},
        {"ply": 0, "move": "a3\x00b4"},
    ],
)
def test_a_moves_input_is_checked_as_the_serializer_checks_it(
    alice: Actor, bob: Actor, data: dict[str, Any]
) -> None:
    """The hand-checked plain case and the serializer agree: anything else gets its answer."""
    from games.serializers import MoveIn

    table = started_table([alice, bob], "pacru")
    answer = alice.post(f"/api/v1/tables/{table.pk}/moves/", data)
    checked = MoveIn(data=data)
    if checked.is_valid():
        assert answer.status_code in (201, 400, 409), answer.json()
        assert answer.json().get("code") != "invalid"
    else:
        assert answer.status_code == 400 and answer.json()["code"] == "invalid", answer.json()
    table.refresh_from_db()
    assert table.ply == 0
