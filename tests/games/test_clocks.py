"""Time controls through the services, with the time given explicitly (no sleeping)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from django.conf import settings
from django.utils import timezone

from games import services
from games.clocks import DAY
from games.errors import Flagged
from games.models import Move, Table

from .conftest import Actor

GRACE = timedelta(seconds=settings.CLOCK_GRACE_SECONDS)


def timed_table(actors: list[Actor], tc: dict[str, Any], game: str = "pacru") -> Table:
    table = services.table_create(creator=actors[0].player, game=game, players=len(actors), time_control=tc)
    for actor in actors[1:]:
        services.seat_join(table_id=table.pk, player=actor.player)
    table.refresh_from_db()
    return table


def move(table: Table, actor: Actor, text: str, at: datetime) -> Table:
    table.refresh_from_db()
    services.move_submit(table_id=table.pk, player=actor.player, ply=table.ply, move=text, now=at)
    table.refresh_from_db()
    return table


def clock(table: Table, seat: int) -> tuple[float, int]:
    c = table.clocks[str(seat)]
    return c["remaining"], c["periods"]


def test_clocks_start_with_the_table_and_the_first_move_has_an_abort_window(alice: Actor, bob: Actor) -> None:
    table = timed_table([alice, bob], {"kind": "fischer", "base": 300, "increment": 5})
    assert table.time_control == {"kind": "fischer", "base": 300.0, "increment": 5.0}
    assert table.clocks == {"1": {"remaining": 300.0, "periods": 0}, "2": {"remaining": 300.0, "periods": 0}}
    assert table.deadline == table.started_at + timedelta(seconds=settings.FIRST_MOVE_SECONDS)
    late = table.deadline + GRACE + timedelta(seconds=1)
    assert services.clock_timeout_apply(table_id=table.pk, now=late - timedelta(seconds=2)) == "not-due"
    assert services.clock_timeout_apply(table_id=table.pk, now=late) == "aborted"
    table.refresh_from_db()
    assert table.status == "aborted" and table.result is None and table.deadline is None
    with pytest.raises(Exception, match="aborted"):
        services.move_submit(table_id=table.pk, player=alice.player, ply=0, move="e1-e2", now=late)


def test_fischer_charges_the_mover_and_adds_the_increment(alice: Actor, bob: Actor) -> None:
    table = timed_table([alice, bob], {"kind": "fischer", "base": 60, "increment": 2})
    t0 = table.started_at + timedelta(seconds=3)
    table = move(table, alice, "e1-e2", t0)
    assert clock(table, 1) == (60.0, 0), "the first move is not charged"
    assert table.turn_started_at == t0 and table.deadline == t0 + timedelta(seconds=60)
    table = move(table, bob, "e9-e8", t0 + timedelta(seconds=10))
    assert clock(table, 2) == (52.0, 0)
    assert table.deadline == t0 + timedelta(seconds=10 + 60)
    table = move(table, alice, "e2-e3", t0 + timedelta(seconds=10 + 20.5))
    assert clock(table, 1) == (41.5, 0)


def test_a_player_who_does_not_move_loses_on_time_exactly_once(
    alice: Actor, bob: Actor, django_capture_on_commit_callbacks: Any
) -> None:
    table = timed_table([alice, bob], {"kind": "fischer", "base": 30, "increment": 0})
    t0 = table.started_at
    table = move(table, alice, "e1-e2", t0)
    table = move(table, bob, "e9-e8", t0 + timedelta(seconds=1))
    flag = table.deadline + GRACE
    assert services.clock_timeout_apply(table_id=table.pk, now=flag - timedelta(milliseconds=1)) == "not-due"
    with django_capture_on_commit_callbacks(execute=True):
        assert services.clock_timeout_apply(table_id=table.pk, now=flag) == "timeout"
    for _ in range(3):
        assert (
            services.clock_timeout_apply(table_id=table.pk, now=flag + timedelta(seconds=5)) == "not-active"
        )
    table.refresh_from_db()
    assert table.status == "finished" and table.winner_seat == 2 and table.end_reason == "last-standing"
    assert list(Move.objects.filter(table=table, kind="timeout").values_list("seat", flat=True)) == [1]
    seat = table.seats.get(number=1)
    assert seat.state == "out" and seat.elimination_reason == "timeout"
    assert clock(table, 1) == (0.0, 0)


def test_a_move_inside_the_grace_counts_and_one_after_it_flags(alice: Actor, bob: Actor) -> None:
    table = timed_table([alice, bob], {"kind": "fischer", "base": 20, "increment": 3})
    t0 = table.started_at
    table = move(table, alice, "e1-e2", t0)
    inside = table.deadline + GRACE / 2
    table = move(table, bob, "e9-e8", inside)
    assert clock(table, 2) == (3.0, 0), "charged up to the flag, then the increment"
    after = table.deadline + GRACE + timedelta(milliseconds=5)
    with pytest.raises(Flagged, match="you lost on time"):
        services.move_submit(table_id=table.pk, player=alice.player, ply=table.ply, move="e2-e3", now=after)
    table.refresh_from_db()
    assert table.status == "finished" and table.winner_seat == 2
    assert Move.objects.filter(table=table).count() == 3  # two moves and the timeout


def test_three_players_play_on_after_a_timeout(alice: Actor, bob: Actor, carol: Actor) -> None:
    table = timed_table([alice, bob, carol], {"kind": "fischer", "base": 10, "increment": 0})
    t0 = table.started_at
    table = move(table, alice, "g9-g8", t0)
    flag = table.deadline + GRACE
    assert services.clock_timeout_apply(table_id=table.pk, now=flag) == "timeout"
    table.refresh_from_db()
    assert table.status == "active" and table.to_move == 3
    assert table.turn_started_at == flag, "the next clock starts when the timeout is applied"
    assert table.deadline == flag + timedelta(seconds=10)
    assert table.position["eliminated"] == [2]
    table = move(table, carol, "e9-e8", flag + timedelta(seconds=4))
    assert clock(table, 3) == (6.0, 0) and table.to_move == 1


def test_byoyomi_periods_are_consumed(alice: Actor, bob: Actor) -> None:
    table = timed_table([alice, bob], {"kind": "byoyomi", "base": 10, "periods": 3, "period": 5})
    t0 = table.started_at
    table = move(table, alice, "e1-e2", t0)
    assert table.deadline == t0 + timedelta(seconds=10 + 3 * 5)
    table = move(table, bob, "e9-e8", t0 + timedelta(seconds=4))  # within main time
    assert clock(table, 2) == (6.0, 3)
    t1 = t0 + timedelta(seconds=4)
    table = move(table, alice, "e2-e3", t1 + timedelta(seconds=17))  # 7 s into periods: one lost
    assert clock(table, 1) == (0.0, 2)
    t2 = t1 + timedelta(seconds=17)
    table = move(table, bob, "e8-e7", t2 + timedelta(seconds=1))
    t3 = t2 + timedelta(seconds=1)
    table = move(table, alice, "e3-e4(e4)", t3 + timedelta(seconds=4.9))  # inside a period: it is kept
    assert clock(table, 1) == (0.0, 2)
    t4 = t3 + timedelta(seconds=4.9)
    table = move(table, bob, "e7-e6(e6)", t4)
    assert table.deadline == t4 + timedelta(seconds=2 * 5)
    assert services.clock_timeout_apply(table_id=table.pk, now=table.deadline + GRACE) == "timeout"


@pytest.mark.parametrize("bank, expected_days", [(None, 1.0), (3, 1.5)])
def test_correspondence_days_per_move_with_and_without_a_bank(
    alice: Actor, bob: Actor, bank: float | None, expected_days: float
) -> None:
    table = timed_table([alice, bob], {"kind": "correspondence", "days": 1, "bank_days": bank})
    t0 = table.started_at
    assert table.deadline == t0 + timedelta(days=1), "the first-move window is one day's allowance"
    table = move(table, alice, "e1-e2", t0 + timedelta(hours=20))
    t1 = t0 + timedelta(hours=20)
    table = move(table, bob, "e9-e8", t1 + timedelta(hours=12))
    assert clock(table, 2) == (expected_days * DAY, 0)
    # Nobody moves for days: the sweep (no ETA task for such deadlines) applies the timeout.
    assert services.sweep_overdue(now=table.deadline - timedelta(hours=1)) == 0
    assert services.sweep_overdue(now=table.deadline + GRACE) == 1
    table.refresh_from_db()
    assert table.status == "finished" and table.winner_seat == 2


def test_a_check_scheduled_for_an_old_turn_does_nothing(alice: Actor, bob: Actor) -> None:
    table = timed_table([alice, bob], {"kind": "fischer", "base": 30, "increment": 0})
    scheduled_for = table.actions
    table = move(table, alice, "e1-e2", table.started_at)
    result = services.clock_timeout_apply(
        table_id=table.pk, expected_actions=scheduled_for, now=table.deadline + GRACE
    )
    assert result == "moved-on"
    table.refresh_from_db()
    assert table.status == "active"


def test_reading_an_overdue_table_applies_its_timeout(alice: Actor, bob: Actor) -> None:
    table = timed_table([alice, bob], {"kind": "fischer", "base": 30, "increment": 0})
    move(table, alice, "e1-e2", timezone.now())
    Table.objects.filter(pk=table.pk).update(deadline=timezone.now() - GRACE - timedelta(seconds=1))
    body = alice.get(f"/api/v1/tables/{table.pk}/").json()
    assert body["status"] == "finished" and body["winner_seat"] == 1
    assert body["seats"][1]["elimination_reason"] == "timeout"
    assert body["moves"][-1] == "timeout 2"
    assert "server_time" in body and body["clock_grace"] == settings.CLOCK_GRACE_SECONDS


def test_listing_tables_applies_due_timeouts(alice: Actor, bob: Actor) -> None:
    table = timed_table([alice, bob], {"kind": "fischer", "base": 30, "increment": 0})
    Table.objects.filter(pk=table.pk).update(deadline=timezone.now() - GRACE - timedelta(seconds=1))
    listed = alice.get("/api/v1/tables/").json()["results"][0]
    assert listed["status"] == "aborted"


def test_the_api_takes_and_shows_time_controls(alice: Actor, bob: Actor) -> None:
    r = alice.post(
        "/api/v1/tables/",
        {
            "game": "pacru",
            "players": 2,
            "time_control": {"kind": "byoyomi", "base": 600, "periods": 5, "period": 30},
        },
    )
    assert r.status_code == 201, r.json()
    assert r.json()["time_control_text"] == "10 + 5×30s"
    body = bob.post(f"/api/v1/tables/{r.json()['id']}/join/").json()
    assert body["clocks"]["1"] == {"remaining": 600.0, "periods": 5} and body["deadline"]


@pytest.mark.parametrize(
    "tc, words",
    [
        ({"kind": "blitz"}, "kind must be one of"),
        ({"kind": "fischer", "base": -1}, "base must be a number"),
        ({"kind": "fischer", "base": 60, "delay": 3}, "takes"),
        ({"kind": "byoyomi", "base": 60, "periods": 2.5, "period": 10}, "whole number"),
        ({"kind": "correspondence", "days": 3, "bank_days": 1}, "bank_days"),
        ("10+5", "must be an object"),
    ],
)
def test_bad_time_controls_are_refused(alice: Actor, tc: Any, words: str) -> None:
    r = alice.post("/api/v1/tables/", {"game": "pacru", "players": 2, "time_control": tc})
    assert r.status_code == 400 and words in r.json()["detail"], r.json()
    assert not Table.objects.exists()


def test_simple_delay_spends_the_bank_only_after_the_delay(alice: Actor, bob: Actor) -> None:
    table = timed_table([alice, bob], {"kind": "delay", "base": 30, "delay": 5})
    t0 = table.started_at
    table = move(table, alice, "e1-e2", t0)
    assert table.deadline == t0 + timedelta(seconds=35)
    table = move(table, bob, "e9-e8", t0 + timedelta(seconds=4))  # inside the delay: free
    assert clock(table, 2) == (30.0, 0)
    t1 = t0 + timedelta(seconds=4)
    table = move(table, alice, "e2-e3", t1 + timedelta(seconds=12))  # 7 s beyond the delay
    assert clock(table, 1) == (23.0, 0)


def test_an_azacru_timeout_triggers_the_end(alice: Actor, bob: Actor, carol: Actor) -> None:
    table = timed_table([alice, bob, carol], {"kind": "fischer", "base": 10, "increment": 0}, game="azacru")
    t0 = table.started_at
    table = move(table, alice, "g9-g8", t0)
    assert services.clock_timeout_apply(table_id=table.pk, now=table.deadline + GRACE) == "timeout"
    table.refresh_from_db()
    assert table.position["end_triggered_by"] == 2 and table.position["final_turns_left"] == 2
    assert table.status == "active" and table.to_move == 3
