"""Game records: export, import, deterministic replay, and errors that name the ply."""

from __future__ import annotations

import pytest

import engine
from engine.playout import random_game
from engine.records import Record, RecordError, parse_record


def finished_record(game: str = "pacru", players: int = 2, seed: int = 5) -> tuple[Record, engine.State]:
    final, moves = random_game(game, players, seed=seed)
    record = Record(game, players, headers={"Seat1": "alice", "Seat2": "bob"}, actions=moves)
    return record, final


def test_export_then_import_replays_to_the_same_final_position() -> None:
    record, final = finished_record()
    text = record.to_text()
    assert text.startswith("Game: pacru\nEdition: 302\nPlayers: 2\nPlyLimit: 1000\n")
    assert "Seat1: alice" in text
    assert f"End: {final.end_reason}" in text
    back = parse_record(text)
    assert back.actions == record.actions
    assert back.headers["Seat2"] == "bob"
    assert back.replay() == final


@pytest.mark.parametrize("game", engine.GAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_game_round_trips(game: str, players: int) -> None:
    record, final = finished_record(game, players, seed=players)
    assert engine.replay(record.to_text()).to_dict() == final.to_dict()


def test_an_illegal_move_is_reported_with_ply_move_and_reason() -> None:
    text = "Game: pacru\nPlayers: 2\n\n1. a3-b4(b4)\n2. e9-e5\n"
    with pytest.raises(RecordError, match=r"^ply 2: e9-e5: .*power 1"):
        engine.replay(text)


def test_a_wrong_result_header_is_rejected() -> None:
    record, final = finished_record()
    text = record.to_text().replace(f"Winner: {final.winner}", "Winner: 9")
    with pytest.raises(RecordError, match="Winner"):
        engine.replay(text)


def test_move_numbers_must_follow_each_other() -> None:
    with pytest.raises(RecordError, match="line 5: move number 3, expected 2"):
        parse_record("Game: pacru\nPlayers: 2\n\n1. a3-b4(b4)\n3. i7-h8\n")


def test_missing_headers_are_named() -> None:
    with pytest.raises(RecordError, match="no Players"):
        parse_record("Game: pacru\n\n1. a3-b4(b4)\n")


def test_resignations_are_events_between_plies() -> None:
    text = "Game: shacru\nPlayers: 3\n\n1. g9-g8\nresign 2\n2. e9-e8\n"
    state = engine.replay(text)
    assert state.eliminated == (2,)
    assert state.ply == 2
    assert state.to_move == 1


def test_a_record_can_start_from_a_set_up_position() -> None:
    start = engine.new_game("azacru", 2).play("a3-b4^").to_dict()
    record = Record("azacru", 2, start=start, actions=["a7-b7"])
    text = record.to_text()
    assert "Position: {" in text and "2. a7-b7" in text
    assert engine.replay(text).ply == 2


def test_lenient_input_is_accepted_and_comments_ignored() -> None:
    text = "# a game\nGame: Pacru\nPlayers: 2\n\n1. A3 - B4 (B4)   # opening\n2. i7-h8\n"
    assert engine.replay(text).ply == 2
