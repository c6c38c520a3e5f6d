"""Game analysis: the engine's judgement of a game (a planted blunder marked, the engine's move
suggested; forced moves and resignations not judged), the services (one analysis per table and
depth, computed exactly once under duplicate requests and tasks, a lost worker's analysis taken
over), the API (404, 202 then 200) and who may ask (any signed-in player for a table; a round's
organisers for a round)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

import engine
from analysis import analyse
from analysis.models import Analysis
from engine.analysis import (
    analyse_game,
    is_forced,
    mark_for,
    result_values,
    summary,
)
from engine.analysis import work as analysis_work
from engine.pacru import generate
from engine.state import PINCER
from games import services
from games.models import Table
from tests.games.conftest import Actor, as_organiser, started_table
from tournaments.competitions import services as clubs
from tournaments.models import Round, RoundTable

#: A Pacru game (greedy bots, seed 3) up to a position where seat 1 has 11 markers to 11, no
#: chevron of either side can be taken, and one move, c7-b8, walks a chevron into a pincer.
PREFIX = [
    "i3-h4(h6)", "a7-b6(b4)", "a3-b2", "i7-h8", "i9-h9", "h8-g8", "h9-g9", "g8-f7(f9)",
    "g9-f8(e8)", "f7-e6(e4)", "e1-d2", "e9-d8", "d2-c3(a2)", "d8-c8(c8)", "c3-c4(c5)", "a1-b1",
    "c4-d5(e5)", "b6-c6", "d5-e5", "c6-d5(f4)", "e5-f5", "e6-c6(a4)", "f5-g6(i6)", "c6-b7(a9)",
    "h4-f6(f5)", "d5-f3(e3)", "f6-e7(d7)", "f3-g2(i1)", "f8-f6(f6)", "b1-c2", "f6-c3(c3)",
    "c2-d3(d2)", "e7-c7(b9)", "d3-d5(d4)",
]  # fmt: skip
BLUNDER = "c7-b8"


def pincers(state: engine.State) -> int:
    """How many pincers the player on turn could make."""
    if state.is_over:
        return 0
    return sum(1 for m in generate(state.tiles, state.occ, state.to_move) if m[4] == PINCER)


def before_blunder() -> engine.State:
    state = engine.new_game("pacru", 2)
    for move in PREFIX:
        state = state.play(move)
    return state


# ------------------------------------------------------------------ the engine's judgement
def test_the_planted_position_is_what_it_claims() -> None:
    state = before_blunder()
    assert state.to_move == 1 and pincers(state) == 0
    assert pincers(state.play(BLUNDER)) > 0  # the opponent may now take a chevron
    safe = [m for m in engine.bots.base.candidates(state) if pincers(state.play(m)) == 0]
    assert len(safe) > 40  # almost every other move keeps every chevron safe


@pytest.mark.parametrize("depth", [3, 4])
def test_a_planted_blunder_is_marked_and_the_engine_move_suggested(depth: int) -> None:
    state = before_blunder()
    plies = analyse_game([BLUNDER], start=state, iterations=analysis_work(depth, "pacru"), seed=11)
    (ply,) = plies
    assert ply.judged and ply.seat == 1 and ply.action == BLUNDER
    assert ply.loss >= 0.10 and ply.mark in ("mistake", "blunder")
    assert (
        ply.before is not None and ply.after is not None and ply.before - ply.after == pytest.approx(ply.loss)
    )
    # The engine's move is legal, is not the blunder, and leaves nothing to be taken.
    assert ply.best is not None and ply.best != BLUNDER
    assert pincers(state.play(ply.best)) == 0
    assert ply.line[0] == ply.best and len(ply.line) <= 6
    replay = state
    for move in ply.line:  # the line is a legal sequence from the position
        replay = replay.play(move)


def test_the_whole_game_judges_every_move_and_marks_the_blunder() -> None:
    plies = analyse_game([*PREFIX, BLUNDER, "resign 1"], game="pacru", players=2, iterations=40, seed=5)
    assert [p.seq for p in plies] == list(range(len(PREFIX) + 2))
    blunder, resign = plies[-2], plies[-1]
    assert blunder.mark in ("mistake", "blunder")
    # A resignation is no choice of play: recorded with its seat, never judged; the game's result
    # gives the last values (seat 1 resigned: seat 2 is first).
    assert resign.kind == "resign" and resign.seat == 1 and not resign.judged and resign.mark is None
    assert resign.values == [0.0, 0.0, 1.0]
    for p in plies[:-1]:
        assert p.kind == "move" and p.seat == (1 if p.seq % 2 == 0 else 2)
        assert len(p.values) == 3 and all(0.0 <= v <= 1.0 for v in p.values[1:])
        assert p.loss >= 0.0 and (p.mark is None) == (p.best is None)
    counts = summary(plies, 2)
    assert counts["1"]["moves"] == 18 and counts["2"]["moves"] == 17
    assert counts["1"]["blunders"] + counts["1"]["mistakes"] >= 1
    marked = sum(counts[s][k] for s in ("1", "2") for k in ("inaccuracies", "mistakes", "blunders"))
    assert marked == sum(1 for p in plies if p.mark)


def test_the_same_seed_gives_the_same_analysis() -> None:
    one = analyse_game(PREFIX[:6], game="pacru", players=2, iterations=30, seed=2)
    two = analyse_game(PREFIX[:6], game="pacru", players=2, iterations=30, seed=2)
    assert [p.to_dict() for p in one] == [p.to_dict() for p in two]


def test_a_forced_move_is_not_searched_and_takes_the_next_positions_value() -> None:
    calls: list[int] = []

    class Judged:
        def __init__(self, state: engine.State) -> None:
            self.best = engine.bots.base.candidates(state)[0]
            self.values = [0.0] + [0.1 * state.ply + 0.1 * s for s in state.seats]
            self.moves = {self.best: self.values[state.to_move]}
            self.line = [self.best]

    def searcher(state: engine.State, iterations: int, seed: int) -> Any:
        calls.append(seed)
        return Judged(state)

    # Shacru: seat 1's only chevron stands in a corner facing off the board: it must pass.
    start = engine.load(
        {"game": "shacru", "players": 2, "to_move": 1, "tiles": "-" * 81, "chevrons": ["a1:1:S", "e5:2:N"],
         "eliminated": [], "ply": 0}
    )  # fmt: skip
    assert is_forced(start) and start.legal_moves() == ["pass"]
    plies = analyse_game(["pass", "e5-e6"], start=start, iterations=10, seed=100, searcher=searcher)
    assert calls == [101, 102]  # positions 1 and 2 (seed + position); the forced one is not searched
    forced, judged = plies
    assert forced.forced and not forced.judged and forced.loss == 0.0 and forced.mark is None
    assert forced.values == [0.0, 0.2, 0.3]  # the value of the position after it
    assert forced.before == forced.after == 0.2
    assert judged.judged and not judged.forced and judged.seat == 2


def test_marks_follow_the_thresholds() -> None:
    assert [mark_for(x) for x in (0.0, 0.049, 0.05, 0.099, 0.10, 0.199, 0.20, 0.9)] == [
        None, None, "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder", "blunder",
    ]  # fmt: skip


def test_a_finished_games_values_are_its_result_ties_shared() -> None:
    state = engine.new_game("pacru", 3).eliminate(2, "resign").eliminate(3, "timeout")
    assert state.is_over
    assert result_values(state) == [0.0, 1.0, 0.0, 0.5]  # seat 3 went out last: second place


# ------------------------------------------------------------------ services
def finished_table(creator: Actor, other: Actor, actions: list[str], game: str = "pacru") -> Table:
    lines = "\n".join(actions)
    seats = f"Seat1: {creator.player.user.username}\nSeat2: {other.player.user.username}"
    text = f"Game: {game}\nPlayers: 2\n{seats}\n\n{lines}\n"
    return services.table_import_record(text=text, imported_by=creator.player)


@pytest.fixture
def computed(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The tables whose analysis was computed, in order (the real computation runs)."""
    done: list[int] = []
    real = analyse.compute

    def counting(table: Table, depth: int, **kw: Any) -> Any:
        done.append(table.pk)
        return real(table, depth, **kw)

    monkeypatch.setattr(analyse, "compute", counting)
    yield done


@pytest.mark.django_db
def test_duplicate_requests_share_one_analysis_and_duplicate_tasks_compute_once(
    alice: Actor, bob: Actor, computed: list[int]
) -> None:
    table = finished_table(alice, bob, ["a3-b4(b4)", "a7-b7", "resign 2"])
    one = analyse.request_analysis(table_id=table.pk, user=alice.player.user, depth=3)
    two = analyse.request_analysis(table_id=table.pk, user=bob.player.user, depth=3)
    assert one.pk == two.pk and Analysis.objects.count() == 1 and one.status == "queued"
    assert analyse.run_analysis(analysis_id=one.pk) is True
    assert analyse.run_analysis(analysis_id=one.pk) is False  # a duplicate task: done already
    assert computed == [table.pk]
    row = Analysis.objects.get(pk=one.pk)
    assert row.status == "done" and row.attempts == 1 and row.finished_at is not None
    assert [p["action"] for p in row.plies] == ["a3-b4(b4)", "a7-b7", "resign 2"]
    assert set(row.summary["seats"]) == {"1", "2"} and row.summary["work"] == analysis_work(3, "pacru")
    # Another depth is another analysis.
    deeper = analyse.request_analysis(table_id=table.pk, user=alice.player.user, depth=4)
    assert deeper.pk != one.pk and Analysis.objects.count() == 2


@pytest.mark.django_db
def test_a_lost_workers_analysis_is_taken_over_and_the_late_worker_stores_nothing(
    alice: Actor, bob: Actor, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = finished_table(alice, bob, ["a3-b4(b4)", "resign 1"])
    analysis = analyse.request_analysis(table_id=table.pk, user=alice.player.user, depth=3)
    real = analyse.compute
    seen: list[int] = []

    def slow_then_overtaken(t: Table, depth: int, **kw: Any) -> Any:
        seen.append(len(seen))
        if len(seen) == 1:
            # While the first worker computes, its lease runs out and a second worker takes over.
            Analysis.objects.filter(pk=analysis.pk).update(started_at=timezone.now() - analyse.LEASE * 2)
            assert analyse.run_analysis(analysis_id=analysis.pk) is True
            _plies, summary = real(t, depth, **kw)
            return [], summary  # what the late first worker would store: must not land
        return real(t, depth, **kw)

    monkeypatch.setattr(analyse, "compute", slow_then_overtaken)
    assert analyse.run_analysis(analysis_id=analysis.pk) is False
    row = Analysis.objects.get(pk=analysis.pk)
    assert row.status == "done" and row.attempts == 2 and len(row.plies) == 2


@pytest.mark.django_db
def test_a_running_analysis_within_its_lease_is_left_alone(
    alice: Actor, bob: Actor, computed: list[int]
) -> None:
    table = finished_table(alice, bob, ["resign 2"])
    analysis = analyse.request_analysis(table_id=table.pk, user=alice.player.user, depth=3)
    Analysis.objects.filter(pk=analysis.pk).update(status="running", started_at=timezone.now(), attempts=1)
    assert analyse.run_analysis(analysis_id=analysis.pk) is False and computed == []
    # Lost on every attempt: given up as failed; asked again, it is queued afresh.
    Analysis.objects.filter(pk=analysis.pk).update(
        started_at=timezone.now() - analyse.LEASE - timedelta(seconds=1), attempts=analyse.MAX_ATTEMPTS
    )
    assert analyse.run_analysis(analysis_id=analysis.pk) is False and computed == []
    assert Analysis.objects.get(pk=analysis.pk).status == "failed"
    again = analyse.request_analysis(table_id=table.pk, user=bob.player.user, depth=3)
    assert again.pk == analysis.pk and again.status == "queued" and again.attempts == 0
    assert analyse.run_analysis(analysis_id=analysis.pk) is True and computed == [table.pk]


@pytest.mark.django_db
def test_the_task_runs_once_the_request_is_committed(
    alice: Actor, bob: Actor, django_capture_on_commit_callbacks: Callable[..., Any], computed: list[int]
) -> None:
    table = finished_table(alice, bob, ["a3-b4(b4)", "resign 2"])
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        analysis = analyse.request_analysis(table_id=table.pk, user=alice.player.user, depth=3)
    assert len(callbacks) == 1 and computed == [table.pk]
    assert Analysis.objects.get(pk=analysis.pk).status == "done"
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        analyse.request_analysis(table_id=table.pk, user=bob.player.user, depth=3)
    assert callbacks == [] and computed == [table.pk]  # done: nothing sent, nothing computed


@pytest.mark.django_db
def test_the_sweep_sends_lost_analyses_again_and_they_are_computed_once(
    alice: Actor, bob: Actor, django_capture_on_commit_callbacks: Callable[..., Any], computed: list[int]
) -> None:
    """A queued analysis whose task the broker lost, and a running one whose worker was lost, are
    sent again by the sweep (not before :data:`RESEND_AFTER` / the lease); each is computed once."""
    queued_table = finished_table(alice, bob, ["a3-b4(b4)", "resign 2"])
    running_table = finished_table(alice, bob, ["resign 1"])
    queued = analyse.request_analysis(table_id=queued_table.pk, user=alice.player.user, depth=3)
    running = analyse.request_analysis(table_id=running_table.pk, user=bob.player.user, depth=3)
    now = timezone.now()
    Analysis.objects.filter(pk=running.pk).update(status="running", started_at=now, attempts=1)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        assert analyse.resend_lost(now=now + analyse.RESEND_AFTER - timedelta(seconds=5)) == 0
    assert callbacks == [] and computed == []
    # Past the resend delay the queued one goes; the running one waits for its lease to run out.
    later = now + analyse.RESEND_AFTER + timedelta(seconds=5)
    with django_capture_on_commit_callbacks(execute=True):
        assert analyse.resend_lost(now=later) == 1
    assert computed == [queued_table.pk] and Analysis.objects.get(pk=queued.pk).status == "done"
    Analysis.objects.filter(pk=running.pk).update(started_at=now - analyse.LEASE - timedelta(seconds=1))
    with django_capture_on_commit_callbacks(execute=True):
        assert analyse.resend_lost(now=later) == 1
    row = Analysis.objects.get(pk=running.pk)
    assert row.status == "done" and row.attempts == 2 and computed == [queued_table.pk, running_table.pk]
    # Done: later sweeps send nothing, and a duplicate of a resent task computes nothing.
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        assert analyse.resend_lost(now=later + analyse.LEASE * 2) == 0
    assert callbacks == []
    assert analyse.run_analysis(analysis_id=queued.pk) is False and len(computed) == 2


@pytest.mark.django_db
def test_only_finished_tables_and_known_depths(alice: Actor, bob: Actor) -> None:
    active = started_table([alice, bob])
    with pytest.raises(analyse.TableNotFinished):
        analyse.request_analysis(table_id=active.pk, user=alice.player.user, depth=5)
    table = finished_table(alice, bob, ["resign 2"])
    for depth in (2, 9):
        with pytest.raises(analyse.InvalidInput):
            analyse.request_analysis(table_id=table.pk, user=alice.player.user, depth=depth)


@pytest.mark.django_db
def test_a_player_has_at_most_three_analyses_waiting(alice: Actor, bob: Actor) -> None:
    tables = [finished_table(alice, bob, [f"resign {1 + i % 2}"]) for i in range(4)]
    for table in tables[:3]:
        analyse.request_analysis(table_id=table.pk, user=alice.player.user, depth=3)
    with pytest.raises(analyse.TooManyAnalyses):
        analyse.request_analysis(table_id=tables[3].pk, user=alice.player.user, depth=3)
    # Asking for one that exists is no new work; another player may ask for the fourth.
    analyse.request_analysis(table_id=tables[0].pk, user=alice.player.user, depth=3)
    analyse.request_analysis(table_id=tables[3].pk, user=bob.player.user, depth=3)


# ------------------------------------------------------------------ the API
@pytest.mark.django_db
def test_the_api_answers_404_then_202_then_200(alice: Actor, bob: Actor, carol: Actor, anon: Any) -> None:
    table = finished_table(alice, bob, [*PREFIX[:4], "resign 2"])
    url = f"/api/v1/tables/{table.pk}/analysis/"
    r = anon.get(url)
    assert r.status_code == 404 and r.json()["code"] == "not_requested"
    assert anon.post(url, {"depth": 3}, format="json").status_code == 401
    r = carol.post(url, {"depth": 3})  # a spectator may ask: tasks are not run (no commit in a test)
    assert r.status_code == 202 and r.json() == {
        "status": "queued",
        "table": table.pk,
        "depth": 3,
        "progress": None,
    }
    assert anon.get(url + "?depth=3").status_code == 202
    analysis = Analysis.objects.get()
    analyse.run_analysis(analysis_id=analysis.pk)
    body = anon.get(url).json()  # without a depth: the deepest done
    assert body["status"] == "done" and body["depth"] == 3 and body["players"] == 2
    assert body["thresholds"] == {"inaccuracy": 0.05, "mistake": 0.1, "blunder": 0.2}
    assert len(body["start"]) == 2 and len(body["plies"]) == 5
    for ply in body["plies"]:
        assert len(ply["values"]) == 2
        if ply["mark"]:
            assert ply["symbol"] in ("?!", "?", "??") and ply["best"] and ply["best_words"]
            assert ply["line"][0] == {"move": ply["best"], "seat": ply["seat"]}
    assert body["plies"][-1]["kind"] == "resign" and body["plies"][-1]["values"] == [1.0, 0.0]
    assert set(body["summary"]) == {"1", "2"}
    r = bob.post(url, {"depth": 3})
    assert r.status_code == 200 and r.json()["plies"] == body["plies"]
    assert anon.get(url + "?depth=4").status_code == 404
    assert alice.post(url, {"depth": 12}).status_code == 400
    assert alice.post("/api/v1/tables/999999/analysis/", {"depth": 3}).status_code == 404
    active = started_table([alice, carol])
    r = alice.post(f"/api/v1/tables/{active.pk}/analysis/", {})
    assert r.status_code == 409 and r.json()["code"] == "table_not_finished"


@pytest.mark.django_db
def test_a_round_is_analysed_on_its_organisers_request(alice: Actor, bob: Actor, carol: Actor) -> None:
    org = Actor("organiser")
    league = clubs.league_create(organiser=as_organiser(org.player), name="Analysis Club")
    event = clubs.tournament_create(
        organiser=org.player, league=league, name="Cup", game="pacru", seats=2, rounds=3
    )
    round_ = Round.objects.create(tournament=event, number=1)
    done = finished_table(alice, bob, ["a3-b4(b4)", "resign 1"])
    playing = started_table([carol, bob])
    RoundTable.objects.create(round=round_, table=done, number=1)
    RoundTable.objects.create(round=round_, table=playing, number=2)
    url = f"/api/v1/tournaments/{event.pk}/rounds/1/analysis/"
    r = alice.post(url, {"depth": 3})
    assert r.status_code == 403 and Analysis.objects.count() == 0
    r = org.post(url, {"depth": 3})
    assert r.status_code == 202
    assert r.json() == {"depth": 3, "tables": [{"table": done.pk, "status": "queued"}]}
    assert org.post(url, {"depth": 3}).json()["tables"] == [{"table": done.pk, "status": "queued"}]
    assert Analysis.objects.count() == 1
    assert org.post(f"/api/v1/tournaments/{event.pk}/rounds/7/analysis/", {}).status_code == 404


# ------------------------------------------------------------------ the game page
@pytest.mark.django_db
def test_the_game_page_offers_analysis_on_tables_that_started(alice: Actor, bob: Actor) -> None:
    from django.test import Client

    table = finished_table(alice, bob, ["resign 2"])
    page = Client().get(f"/tables/{table.pk}/").content.decode()
    assert 'id="analysis"' in page and f'data-api="/api/v1/tables/{table.pk}/analysis/"' in page
    assert 'id="analysis-request"' not in page and "analysis.js" in page  # a visitor: log in first
    signed_in = Client()
    signed_in.force_login(alice.player.user)
    assert 'id="analysis-request"' in signed_in.get(f"/tables/{table.pk}/").content.decode()
    waiting = services.table_create(creator=alice.player, game="pacru", players=2)
    assert 'id="analysis"' not in Client().get(f"/tables/{waiting.pk}/").content.decode()
