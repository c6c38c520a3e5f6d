"""The explorer: position keys, the index (each finished table counted once), its reads, the task
sent when a game finishes, the backfill command and the API."""

from __future__ import annotations

import io
import threading
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection

import engine
from analysis import explorer
from analysis.models import ExplorerGame, ExplorerMove
from engine.explorer import keyed_moves, position_key, result_scores
from games import services
from games.models import Move, Table
from tests.games.conftest import Actor, started_table

pytestmark = pytest.mark.django_db


# ------------------------------------------------------------------ the engine's side
def test_a_position_has_one_key_whatever_the_move_order_and_ply() -> None:
    start = engine.new_game("shacru", 2)
    one = start.play("e1-e2").play("a7-b7").play("i3-h3")
    other = start.play("i3-h3").play("a7-b7").play("e1-e2")
    assert one.ply == other.ply == 3 and one == other  # the same position reached two ways
    assert position_key(one) == position_key(other)
    assert position_key(one) != position_key(start.play("e1-e2").play("a7-b7"))
    # The seat to move, the seat count and the game are part of the key.
    assert position_key(engine.new_game("shacru", 2)) != position_key(engine.new_game("azacru", 2))
    assert position_key(engine.new_game("pacru", 3)) != position_key(engine.new_game("pacru", 4))
    assert position_key(engine.new_game("pacru", 2, edition="302")) != position_key(
        engine.new_game("pacru", 2, edition="2011")
    )


def test_keyed_moves_skip_resignations_but_play_them() -> None:
    start = engine.new_game("pacru", 3)
    actions = ["g1-f2(d1)", "resign 2", "a7-b6(a4)"]
    rows = keyed_moves(actions, start=start)
    assert [(move, mover) for _, move, mover in rows] == [("g1-f2(d1)", 1), ("a7-b6(a4)", 3)]
    assert rows[1][0] == position_key(start.play("g1-f2(d1)").eliminate(2, "resign"))
    text = engine.Record("pacru", 3, actions=actions).to_text()
    assert keyed_moves(text) == rows


def test_scores_run_from_first_to_last_and_ties_share() -> None:
    assert result_scores({1: 2, 2: 1}) == {1: 0.0, 2: 1.0}
    assert result_scores({1: 1, 2: 1}) == {1: 0.5, 2: 0.5}
    assert result_scores({1: 1, 2: 2, 3: 3}) == {1: 1.0, 2: 0.5, 3: 0.0}


# ------------------------------------------------------------------ tables
def finished(actors: list[Actor], first: list[str], loser: int, game: str = "shacru") -> Table:
    """A casual table where the seats play ``first`` in turn, then seat ``loser`` resigns (2 seats:
    the other wins)."""
    table = started_table(actors, game=game, rated=False)
    players = {i + 1: a.player for i, a in enumerate(actors)}
    for move in first:
        table = services.move_submit(
            table_id=table.pk, player=players[table.to_move], ply=table.ply, move=move
        ).table
    table = services.game_resign(table_id=table.pk, player=players[loser])
    assert table.status == Table.Status.FINISHED
    return table


START = position_key(engine.new_game("shacru", 2))


def test_a_table_is_indexed_once_under_two_calls(alice: Actor, bob: Actor) -> None:
    table = finished([alice, bob], ["e1-e2", "a7-b7"], loser=2)
    ExplorerGame.objects.all().delete(), ExplorerMove.objects.all().delete()  # as if never indexed
    assert explorer.index_table(table_id=table.pk) is True
    assert explorer.index_table(table_id=table.pk) is False
    rows = {(r.position, r.move): (r.games, r.score) for r in ExplorerMove.objects.all()}
    after = position_key(engine.new_game("shacru", 2).play("e1-e2"))
    assert rows == {(START, "e1-e2"): (1, 1.0), (after, "a7-b7"): (1, 0.0)}
    assert ExplorerGame.objects.filter(table=table).count() == 1


def test_finishing_a_game_sends_the_index_task(
    alice: Actor, bob: Actor, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        table = finished([alice, bob], ["e1-e2"], loser=1)
    assert ExplorerGame.objects.filter(table=table).exists()  # the eager task ran after the commit
    assert ExplorerMove.objects.get(position=START, move="e1-e2").score == 0.0


def test_next_moves_count_and_average_the_movers_results(
    alice: Actor, bob: Actor, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        finished([alice, bob], ["e1-e2", "a7-b7"], loser=2)  # seat 1 wins
        finished([alice, bob], ["e1-e2", "a7-b7"], loser=2)
        finished([alice, bob], ["e1-e2", "e9-e8"], loser=1)  # seat 1 loses
        finished([alice, bob], ["i3-h3"], loser=2)
    moves = explorer.next_moves(game="shacru", players=2, key=START)
    assert explorer.position_games(game="shacru", players=2, key=START) == 4
    assert [(m.move, m.games, round(m.score, 3), m.share) for m in moves] == [
        ("e1-e2", 3, 0.667, 0.75),
        ("i3-h3", 1, 1.0, 0.25),
    ]
    after = position_key(engine.new_game("shacru", 2).play("e1-e2"))
    moves = explorer.next_moves(game="shacru", players=2, key=after, limit=1)
    assert [(m.move, m.games, m.score, m.share) for m in moves] == [("a7-b7", 2, 0.0, 2 / 3)]
    # Other seat counts and games are other positions.
    assert explorer.next_moves(game="shacru", players=3, key=START) == []
    assert explorer.position_games(game="shacru", players=3, key=START) == 0


def test_aborted_and_unfinished_tables_are_not_counted(alice: Actor, bob: Actor) -> None:
    playing = started_table([alice, bob], game="shacru", rated=False)
    assert explorer.index_table(table_id=playing.pk) is False
    table = finished([alice, bob], ["e1-e2"], loser=2)
    result = dict(table.result, aborted=True)
    Table.objects.filter(pk=table.pk).update(result=result)
    assert explorer.index_table(table_id=table.pk) is False
    assert not ExplorerMove.objects.exists() and not ExplorerGame.objects.exists()
    assert explorer.unindexed_tables() == []
    # A move log that no longer replays is left out (and logged), not a failed backfill.
    broken = finished([alice, bob], ["e1-e2"], loser=2)
    Move.objects.filter(table=broken, seq=0).update(notation="e1-e4")
    assert explorer.index_pending() == 0
    assert not ExplorerMove.objects.exists()


def test_the_backfill_indexes_what_is_missing_in_batches(alice: Actor, bob: Actor) -> None:
    tables = [finished([alice, bob], ["e1-e2"], loser=2) for _ in range(3)]
    ExplorerGame.objects.all().delete(), ExplorerMove.objects.all().delete()
    explorer.index_table(table_id=tables[1].pk)
    assert explorer.unindexed_tables() == [tables[0].pk, tables[2].pk]
    out = io.StringIO()
    call_command("explorer_index", batch=1, stdout=out)
    assert out.getvalue().startswith("2 table(s) added")
    assert ExplorerMove.objects.get(position=START, move="e1-e2").games == 3
    assert explorer.index_pending() == 0


# ------------------------------------------------------------------ the API
def test_the_api_by_table_and_action_and_by_key(
    alice: Actor,
    bob: Actor,
    anon: Any,
    django_capture_on_commit_callbacks: Any,
    django_assert_max_num_queries: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        table = finished([alice, bob], ["e1-e2", "a7-b7"], loser=2)
    r = anon.get(f"/api/v1/explorer/?table={table.pk}&action=-1")
    assert r.status_code == 200, r.content
    body = r.json()
    assert body["game"] == "shacru" and body["players"] == 2 and body["position"] == START
    assert body["games"] == 1 and body["moves"] == [{"move": "e1-e2", "games": 1, "score": 1.0, "share": 1.0}]
    r = anon.get(f"/api/v1/explorer/?table={table.pk}&action=0")
    assert [m["move"] for m in r.json()["moves"]] == ["a7-b7"]
    with django_assert_max_num_queries(2):  # two reads of the index, nothing else
        r = anon.get(f"/api/v1/explorer/?game=shacru&players=2&position={START}")
    assert r.status_code == 200 and r.json()["moves"][0]["move"] == "e1-e2"
    # The position after the last action: nothing was played from it.
    r = anon.get(f"/api/v1/explorer/?table={table.pk}&action=2")
    assert r.status_code == 200 and r.json()["moves"] == [] and r.json()["games"] == 0


def test_the_api_refuses_bad_questions_and_a_game_in_plays_current_position(
    alice: Actor, bob: Actor, anon: Any
) -> None:
    playing = started_table([alice, bob], game="shacru", rated=False)
    services.move_submit(table_id=playing.pk, player=alice.player, ply=0, move="e1-e2")
    assert anon.get("/api/v1/explorer/").status_code == 400
    assert anon.get("/api/v1/explorer/?game=shacru&players=2&position=xyz").status_code == 400
    assert anon.get(f"/api/v1/explorer/?table={playing.pk}").status_code == 400
    assert anon.get(f"/api/v1/explorer/?table={playing.pk}&action=5").status_code == 400
    assert anon.get("/api/v1/explorer/?table=999999&action=0").status_code == 404
    r = anon.get(f"/api/v1/explorer/?table={playing.pk}&action=0")
    assert r.status_code == 403 and r.json()["code"] == "explorer_live"
    assert anon.get(f"/api/v1/explorer/?table={playing.pk}&action=-1").status_code == 200  # the past


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_workers_indexing_one_table_at_once_count_it_once(
    alice: Actor, bob: Actor, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = finished([alice, bob], ["e1-e2", "a7-b7"], loser=2)
    ExplorerGame.objects.all().delete(), ExplorerMove.objects.all().delete()
    both_read = threading.Barrier(2, timeout=10)
    counts = explorer.table_counts

    def slow_counts(t: Table) -> Any:
        out = counts(t)
        both_read.wait()  # both have passed the "already indexed?" read before either writes
        return out

    monkeypatch.setattr(explorer, "table_counts", slow_counts)
    results: list[bool] = []

    def work() -> None:
        try:
            results.append(explorer.index_table(table_id=table.pk))
        finally:
            connection.close()

    threads = [threading.Thread(target=work) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=20)
    assert sorted(results) == [False, True]
    assert list(ExplorerMove.objects.values_list("games", flat=True)) == [1, 1]
