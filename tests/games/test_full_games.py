"""Whole games played through the HTTP API, from start to finish."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.core.management import call_command

import engine
from engine.playout import random_game
from games.events import game_finished
from games.models import Seat, Table
from games.results import GameResult
from games.selectors import game_result

from .conftest import Actor


def play_through_api(actors: list[Actor], game: str, seed: int) -> tuple[dict[str, Any], engine.State]:
    """Replay an engine-generated random game move by move through the API."""
    final, moves = random_game(game, len(actors), seed=seed)
    table_id = actors[0].post("/api/v1/tables/", {"game": game, "players": len(actors)}).json()["id"]
    for actor in actors[1:]:
        assert actor.post(f"/api/v1/tables/{table_id}/join/").status_code == 200
    state = engine.new_game(game, len(actors))
    for ply, move in enumerate(moves):
        actor = actors[state.to_move - 1]
        r = actor.post(f"/api/v1/tables/{table_id}/moves/", {"ply": ply, "move": move})
        assert r.status_code == 201, (ply, move, r.json())
        assert r.json()["move"]["notation"] == move
        state = state.play(move)
    return actors[0].get(f"/api/v1/tables/{table_id}/").json(), final


@pytest.mark.parametrize("players, seed", [(2, 11), (4, 12)])
def test_a_full_pacru_game_through_the_api(
    make_actor: Callable[..., Actor], players: int, seed: int, django_capture_on_commit_callbacks: Any
) -> None:
    actors = [make_actor(f"p{i}") for i in range(players)]
    events: list[GameResult] = []

    def on_finish(sender: Any, result: GameResult, **kw: Any) -> None:
        events.append(result)

    game_finished.connect(on_finish)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            detail, final = play_through_api(actors, "pacru", seed)
    finally:
        game_finished.disconnect(on_finish)
    assert detail["status"] == "finished" and detail["ply"] == final.ply
    assert detail["position"] == final.to_dict()
    ranking = final.ranking()
    assert detail["result"]["ranking"] == {str(s): r for s, r in ranking.items()}
    assert detail["winner_seat"] == final.winner and detail["end_reason"] == final.end_reason
    for seat in detail["seats"]:
        assert seat["rank"] == ranking[seat["number"]]
        assert seat["markers"] == final.scores[seat["number"]]
        assert (seat["state"] == "out") == (seat["number"] in final.eliminated)
    assert detail["base_moves"] == [] and detail["to_move"] is None
    # game_finished carried the typed result, once, after the commit.
    assert [e.table_id for e in events] == [detail["id"]]
    result = events[0]
    assert result.game == "pacru" and result.players == players and result.rated
    by_player = {a.player.pk: n for n, a in enumerate(actors, start=1)}
    assert [s.seat for s in result.seats] == list(range(1, players + 1))
    for s in result.seats:
        assert by_player[s.player_id] == s.seat
        assert s.rank == ranking[s.seat] and s.markers == final.scores[s.seat]
        if s.seat in final.eliminated:  # nobody resigned or ran out of time in these games
            assert s.ending in ("blocked", "captured")
        else:
            assert s.ending == "finished"
    assert GameResult.from_dict(result.to_dict()) == result
    assert game_result(detail["id"]) == result


@pytest.mark.parametrize("game", ["shacru", "azacru"])
def test_a_full_game_of_each_other_kind(make_actor: Callable[..., Actor], game: str) -> None:
    actors = [make_actor(f"q{i}") for i in range(3)]
    detail, final = play_through_api(actors, game, seed=5)
    assert detail["status"] == "finished" and detail["position"] == final.to_dict()
    call_command("verify_games")


def test_eliminations_are_recorded_on_the_seats(make_actor: Callable[..., Actor]) -> None:
    actors = [make_actor(f"r{i}") for i in range(4)]
    detail, final = play_through_api(actors, "pacru", seed=12)
    out = Seat.objects.filter(table_id=detail["id"], state=Seat.State.OUT)
    assert sorted(s.number for s in out) == sorted(final.eliminated)
    assert all(s.elimination_reason in ("blocked", "captured") for s in out)
    assert all(s.eliminated_at_ply is not None for s in out)
    assert Table.objects.get(pk=detail["id"]).finished_at is not None
