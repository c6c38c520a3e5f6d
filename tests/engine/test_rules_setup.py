"""RULES.md §1–§3: board, seats, start positions, movement common to all games."""

import pytest

import engine

try:
    from positions import chevrons, diff, load, paint
except ImportError:  # tests/engine collected as a package
    from tests.engine.positions import chevrons, diff, load, paint

GAMES = ["shacru", "azacru", "pacru"]

START_2 = {"a3:1:E", "e1:1:N", "i3:1:W", "i9:1:SW", "a7:2:E", "e9:2:S", "i7:2:W", "a1:2:NE"}
START_3 = {"g9:1:S", "i5:1:W", "g1:1:N", "c9:2:S", "a5:2:E", "c1:2:N", "e9:3:S", "a7:3:E", "i7:3:W"}
START_4 = START_3 | {"a3:4:E", "i3:4:W", "e1:4:N"}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("players, expected", [(2, START_2), (3, START_3), (4, START_4)])
def test_r2_start_positions(game, players, expected):
    s = engine.new_game(game, players)
    assert chevrons(s) == expected
    d = s.to_dict()
    assert d["tiles"] == "-" * 81
    assert (d["to_move"], d["ply"], d["eliminated"]) == (1, 0, [])
    assert (s.to_move, s.players, s.game, s.ply, s.eliminated) == (1, players, game, 0, ())
    assert not s.is_over and s.winner is None


@pytest.mark.parametrize("players", [2, 3, 4])
def test_r2_start_scores_are_zero_for_every_seat(players):
    s = engine.new_game("pacru", players)
    assert s.scores == {seat: 0 for seat in range(1, players + 1)}


def test_r3_pacru_start_moves_two_players():
    # Power 1 everywhere (no markers): forward and both forward diagonals.
    assert engine.new_game("pacru", 2).base_moves() == [
        "a3-b2",
        "a3-b3",
        "a3-b4",
        "e1-d2",
        "e1-e2",
        "e1-f2",
        "i3-h2",
        "i3-h3",
        "i3-h4",
        "i9-h8",
        "i9-h9",
        "i9-i8",
    ]


@pytest.mark.parametrize("game", ["shacru", "azacru"])
def test_r3_shacru_azacru_start_moves_two_players_with_twists(game):
    # a3-b4 (b2 -> b5) and i3-h4 (h2 -> h5) cross a border.
    assert engine.new_game(game, 2).base_moves() == [
        "a3-b2",
        "a3-b3",
        "a3-b4<",
        "a3-b4>",
        "a3-b4^",
        "e1-d2",
        "e1-e2",
        "e1-f2",
        "i3-h2",
        "i3-h3",
        "i3-h4<",
        "i3-h4>",
        "i3-h4^",
        "i9-h8",
        "i9-h9",
        "i9-i8",
    ]


@pytest.mark.parametrize("players", [3, 4])
def test_r3_pacru_start_moves_three_and_four_players(players):
    assert engine.new_game("pacru", players).base_moves() == [
        "g1-f2",
        "g1-g2",
        "g1-h2",
        "g9-f8",
        "g9-g8",
        "g9-h8",
        "i5-h4",
        "i5-h5",
        "i5-h6",
    ]


def test_r2_seats_move_in_turn_order_and_round_again():
    s = engine.new_game("pacru", 3)
    s = s.play("g1-g2")
    assert s.to_move == 2
    s = s.play("c1-c2")
    assert s.to_move == 3
    s = s.play("e9-e8")
    assert (s.to_move, s.ply) == (1, 3)


def test_r2_eliminated_seat_is_skipped():
    s = load("pacru", 3, chevrons=["e5:1:N", "a9:3:S"], eliminated=[2])
    assert s.play("e5-e6").to_move == 3


def test_r3_chevron_never_moves_sideways_or_backwards():
    s = load("pacru", 2, chevrons=["e5:1:N", "a9:2:S"])
    assert s.base_moves() == ["e5-d6", "e5-e6", "e5-f6"]
    for move in ["e5-d5", "e5-f5", "e5-e4", "e5-d4", "e5-f4"]:
        with pytest.raises(engine.IllegalMove):
            s.play(move)


def test_r3_move_may_not_leave_the_board():
    # a1 facing SW: SW, S and W all point off the board; only e5 can move.
    s = load("pacru", 2, chevrons=["a1:1:SW", "e5:1:N", "a9:2:S"])
    assert [m for m in s.base_moves() if m.startswith("a1")] == []


@pytest.mark.parametrize("move, facing", [("e5-d6", "NW"), ("e5-e6", "N"), ("e5-f6", "NE")])
def test_r3_chevron_faces_the_direction_moved(move, facing):
    s = load("pacru", 2, chevrons=["e5:1:N", "a9:2:S"]).play(move)
    assert chevrons(s) == {f"{move[3:]}:1:{facing}", "a9:2:S"}


def test_r3_long_move_faces_the_direction_moved():
    s = load("pacru", 2, markers=paint(1, "e5 d4 f6"), chevrons=["e5:1:N", "a9:2:S"])
    after = s.play("e5-h8(h8)")
    assert "h8:1:NE" in chevrons(after)


def test_s_r1_play_returns_new_state_and_leaves_old_one_unchanged():
    s = engine.new_game("shacru", 2)
    before = s.to_dict()
    after = s.play("e1-e2")
    assert s.to_dict() == before
    assert diff(s, after) == {"e2": ("-", "1")}
