"""The typed result that ``game_finished`` carries: how every seat ended, told apart by the log."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from games import services
from games.events import game_finished
from games.results import Ending, GameResult
from games.selectors import game_result, game_results

from .conftest import Actor
from .test_clocks import GRACE, move

FISCHER = {"kind": "fischer", "base": 30, "increment": 0}


def collect(django_capture_on_commit_callbacks: Any, call: Any) -> list[GameResult]:
    sent: list[GameResult] = []

    def on_finish(sender: Any, result: GameResult, **kw: Any) -> None:
        sent.append(result)

    game_finished.connect(on_finish)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            call()
    finally:
        game_finished.disconnect(on_finish)
    return sent


def test_a_player_who_never_moved_is_a_no_show(
    alice: Actor, bob: Actor, django_capture_on_commit_callbacks: Any
) -> None:
    # A tournament table: the absent first player is put out instead of the table being aborted.
    table = services.table_create(
        creator=alice.player, game="pacru", players=2, time_control=FISCHER, no_show="timeout"
    )
    services.seat_join(table_id=table.pk, player=bob.player)
    table.refresh_from_db()
    late = table.deadline + GRACE
    sent = collect(
        django_capture_on_commit_callbacks, lambda: services.clock_timeout_apply(table_id=table.pk, now=late)
    )
    assert len(sent) == 1
    result = sent[0]
    assert [(s.seat, s.player_id, s.rank, s.ending) for s in result.seats] == [
        (1, alice.player.pk, 2, Ending.NO_SHOW),
        (2, bob.player.pk, 1, Ending.FINISHED),
    ]
    assert result.no_shows() == [alice.player.pk] and result.winner_seat == 2
    assert game_result(table.pk) == result, "the stored result reads back the same"


def test_at_three_seats_the_seat_out_on_time_before_its_first_move_is_a_no_show(
    alice: Actor, bob: Actor, carol: Actor, django_capture_on_commit_callbacks: Any
) -> None:
    table = services.table_create(creator=alice.player, game="azacru", players=3, time_control=FISCHER)
    for actor in (bob, carol):
        services.seat_join(table_id=table.pk, player=actor.player)
    table.refresh_from_db()
    t0 = table.started_at
    table = move(table, alice, services.current_state(table).legal_moves()[0], t0)
    table = move(table, bob, services.current_state(table).legal_moves()[0], t0 + timedelta(seconds=1))
    carol_flag = table.deadline + GRACE
    assert services.clock_timeout_apply(table_id=table.pk, now=carol_flag) == "timeout"
    table.refresh_from_db()
    assert table.status == "active", "two players are still in"
    services.game_resign(table_id=table.pk, player=bob.player)
    table.refresh_from_db()
    assert table.status == "finished", "one player left"
    result = game_results([table.pk])[table.pk]
    endings = {s.player_id: s.ending for s in result.seats}
    assert endings[carol.player.pk] == Ending.NO_SHOW, "carol never moved"
    assert endings[bob.player.pk] == Ending.RESIGNED
    assert endings[alice.player.pk] == Ending.FINISHED


def test_timeout_after_moving_is_not_a_no_show(alice: Actor, bob: Actor) -> None:
    table = services.table_create(creator=alice.player, game="pacru", players=2, time_control=FISCHER)
    services.seat_join(table_id=table.pk, player=bob.player)
    table.refresh_from_db()
    t0 = table.started_at
    table = move(table, alice, "e1-e2", t0)
    table = move(table, bob, "e9-e8", t0 + timedelta(seconds=1))
    table = move(table, alice, "e2-e3", t0 + timedelta(seconds=2))
    assert services.clock_timeout_apply(table_id=table.pk, now=table.deadline + GRACE) == "timeout"
    result = game_result(table.pk)
    assert result is not None
    assert [(s.seat, s.ending, s.rank) for s in result.seats] == [
        (1, Ending.FINISHED, 1),
        (2, Ending.TIMEOUT, 2),
    ]
    assert result.no_shows() == []
    assert GameResult.from_dict(result.to_dict()) == result


def test_unfinished_tables_have_no_result(alice: Actor, bob: Actor) -> None:
    table = services.table_create(creator=alice.player, game="shacru", players=2)
    assert game_result(table.pk) is None
    services.seat_join(table_id=table.pk, player=bob.player)
    assert game_result(table.pk) is None
    assert game_results([table.pk, 10**9]) == {}
