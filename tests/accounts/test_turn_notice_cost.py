"""What a correspondence move costs after its commit: the "your turn" notification of the seat on
turn (issue 33). The move's own transaction is pinned in ``tests/games/test_moves_api.py``; here
the whole request is counted, its after-commit work run as in production, and the notification,
its mail and its push are checked to happen exactly once."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import Notification, OutgoingMail
from accounts.receivers import turn_notice
from engine.playout import random_step
from games import services as games
from games.events import TurnStarted
from games.models import Table
from tests.games.conftest import Actor, started_table

from .conftest import verified

CORRESPONDENCE = {"kind": "correspondence", "days": 3}

#: The statements a correspondence move runs after its commit, telling the seat on turn (savepoints
#: left out: a test's transaction turns BEGIN/COMMIT into them). The move's own statements are
#: pinned in ``tests/games/test_moves_api.py``. A change here changes the cost of every
#: correspondence move: say why.
NOTICE = [
    "games_seat",  # the seats: who is on turn, the opponents' names
    "accounts_notificationsetting",  # the recipient: user, account, player and mail choice in one
    'UPDATE "accounts_notification"',  # the older "your turn" at this table is read now
    'INSERT INTO "accounts_notification"',
    'INSERT INTO "accounts_outgoingmail"',  # mailed at once (the kind's default)
]
#: At most this many for the request itself (its middleware and the move's transaction).
MOVE_AT_MOST = 6


def statements(captured: list[dict[str, Any]]) -> list[str]:
    return [q["sql"] for q in captured if not q["sql"].upper().startswith(("SAVEPOINT", "RELEASE"))]


def move_and_tell(
    actor: Actor, table: Table, body: dict[str, Any], capture: Any
) -> tuple[list[str], list[str]]:
    """Post the move, then run its after-commit work as production does: the statements of each."""
    with CaptureQueriesContext(connection) as queries, capture(execute=True):
        assert actor.post(f"/api/v1/tables/{table.pk}/moves/", body).status_code == 201
        request = len(queries.captured_queries)  # the callbacks run when ``capture`` exits
    return statements(queries.captured_queries[:request]), statements(queries.captured_queries[request:])


@pytest.fixture
def pushed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    topics: list[str] = []

    def publish(*names: str) -> int:
        topics.extend(names)
        return len(names)

    monkeypatch.setattr("live.receivers.publish", publish)
    return topics


def a_move(table: Table) -> str:
    return random_step(games.current_state(table), random.Random(7))[1]


def test_a_correspondence_move_costs_a_pinned_number_of_statements_and_notifies_once(
    alice: Actor, bob: Actor, pushed: list[str], django_capture_on_commit_callbacks: Any
) -> None:
    verified(alice), verified(bob)
    table = started_table([alice, bob], time_control=CORRESPONDENCE)
    assert table.to_move == 1
    body = {"ply": table.ply, "move": a_move(table)}
    pushed.clear()
    request, after = move_and_tell(alice, table, body, django_capture_on_commit_callbacks)
    assert len(request) <= MOVE_AT_MOST, "\n".join(request)
    assert len(after) == len(NOTICE), "\n".join(after)
    for sql, marker in zip(after, NOTICE, strict=True):
        assert marker in sql, (marker, sql)

    # Bob was told once: the notification, its mail, and a push to his pages.
    (notice,) = Notification.objects.filter(user=bob.player.user, kind="your_turn")
    assert notice.key == f"turn:{table.pk}:1" and notice.read_at is None
    assert notice.params["opponents"] == ["Alice"] and notice.params["deadline_at"]
    assert notice.mail == Notification.Mail.QUEUED
    assert OutgoingMail.objects.filter(key=f"n:{notice.pk}", to="bob@example.org").count() == 1
    assert pushed.count(f"player:{bob.player.pk}") == 1
    assert f"player:{alice.player.pk}" not in pushed

    # The same turn announced again (a repeated event): nothing more is made, mailed or pushed.
    pushed.clear()
    turn_notice(TurnStarted.of(Table.objects.get(pk=table.pk)))
    assert Notification.objects.filter(user=bob.player.user, kind="your_turn").count() == 1
    assert OutgoingMail.objects.filter(user_id=bob.player.user_id).count() == 1
    assert pushed == []


def test_without_a_confirmed_address_nothing_is_mailed_and_the_rest_is_the_same(
    alice: Actor, bob: Actor, pushed: list[str], django_capture_on_commit_callbacks: Any
) -> None:
    """Bob has no confirmed address: no mail, one statement fewer; his push still goes out."""
    verified(alice)
    table = started_table([alice, bob], time_control=CORRESPONDENCE)
    body = {"ply": table.ply, "move": a_move(table)}
    pushed.clear()
    _, after = move_and_tell(alice, table, body, django_capture_on_commit_callbacks)
    assert len(after) == len(NOTICE) - 1, "\n".join(after)
    (notice,) = Notification.objects.filter(user=bob.player.user, kind="your_turn")
    assert notice.mail == Notification.Mail.NONE
    assert sorted(pushed) == sorted([f"table:{table.pk}", "lobby", f"player:{bob.player.pk}"])
