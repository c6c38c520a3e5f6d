"""RULES.md §4: Shacru (S-R1…S-R6)."""

import pytest

import engine

try:
    from positions import chevrons, diff, load, paint, rank, rect
except ImportError:  # tests/engine collected as a package
    from tests.engine.positions import chevrons, diff, load, paint, rank, rect


def test_s_r1_moves_one_field_even_with_many_own_markers():
    # Own markers in the borderland give no power in Shacru: k = 1.
    s = load("shacru", 2, markers=paint(1, "e5 d4 f4 d5"), chevrons=["e5:1:N", "a9:2:S"])
    assert s.base_moves() == ["e5-d6", "e5-e6", "e5-f6"]
    with pytest.raises(engine.IllegalMove):
        s.play("e5-e7^")


def test_s_r2_may_not_enter_another_players_colour():
    s = load("shacru", 2, markers=paint(1, "d4") | paint(2, "e5"), chevrons=["d4:1:NE", "a9:2:S"])
    assert s.base_moves() == ["d4-d5", "d4-e4"]
    with pytest.raises(engine.IllegalMove):
        s.play("d4-e5")


def test_s_r2_may_not_enter_any_chevron():
    # d6 holds the opponent's chevron, f6 an own one; e6 is the opponent's colour.
    s = load(
        "shacru",
        2,
        markers=paint(2, "e6"),
        chevrons=["e5:1:N", "f6:1:S", "d6:2:S", "a9:2:S"],
    )
    assert [m for m in s.base_moves() if m.startswith("e5")] == []
    for move in ["e5-d6", "e5-e6", "e5-f6"]:
        with pytest.raises(engine.IllegalMove):
            s.play(move)


def test_s_r3_arriving_on_neutral_field_places_marker():
    s = load("shacru", 2, chevrons=["e5:1:N", "a9:2:S"])
    after = s.play("e5-e6")
    assert diff(s, after) == {"e6": ("-", "1")}
    assert chevrons(after) == {"e6:1:N", "a9:2:S"}
    assert after.scores == {1: 1, 2: 0}


def test_s_r3_arriving_on_own_colour_changes_nothing():
    s = load("shacru", 2, markers=paint(1, "e5 e6"), chevrons=["e5:1:N", "a9:2:S"])
    after = s.play("e5-e6")
    assert diff(s, after) == {}
    assert after.scores == {1: 2, 2: 0}


def test_s_r4_border_twist_options():
    # c3 (borderland b2) facing NE: c4 (b5), d4 (e5) and d3 (e2) all cross a border.
    s = load("shacru", 2, chevrons=["c3:1:NE", "i9:2:S"])
    assert s.base_moves() == [
        "c3-c4<",
        "c3-c4>",
        "c3-c4^",
        "c3-d3<",
        "c3-d3>",
        "c3-d3^",
        "c3-d4<",
        "c3-d4>",
        "c3-d4^",
    ]
    assert s.choices("c3-d4").twists == ("^", "<", ">")


@pytest.mark.parametrize("move, facing", [("c3-d4^", "NE"), ("c3-d4<", "N"), ("c3-d4>", "E")])
def test_s_r4_border_twist_turns_the_chevron(move, facing):
    s = load("shacru", 2, chevrons=["c3:1:NE", "i9:2:S"])
    after = s.play(move)
    assert chevrons(after) == {f"d4:1:{facing}", "i9:2:S"}
    assert diff(s, after) == {"d4": ("-", "1")}


def test_s_r4_no_twist_without_border_crossing():
    s = load("shacru", 2, chevrons=["b1:1:N", "i9:2:S"])
    assert s.choices("b1-b2").twists == ()
    assert s.choices("b1-b2").moves() == ["b1-b2"]
    with pytest.raises(engine.IllegalMove):
        s.play("b1-b2>")


def test_s_r4_missing_twist_after_border_crossing_is_illegal():
    s = load("shacru", 2, chevrons=["c3:1:NE", "i9:2:S"])
    with pytest.raises(engine.IllegalMove) as err:
        s.play("c3-d4")
    assert "^" in str(err.value)


def test_s_r5_pass_when_no_chevron_can_move():
    # a1 facing SW: every forward direction leaves the board.
    s = load("shacru", 2, markers=paint(1, "a1"), chevrons=["a1:1:SW", "e5:2:N"])
    assert s.base_moves() == ["pass"]
    after = s.play("pass")
    assert (after.to_move, after.ply, after.eliminated, after.is_over) == (2, 1, (), False)
    assert "a1:1:SW" in chevrons(after)


def test_s_r5_pass_is_illegal_when_a_move_exists():
    s = load("shacru", 2, chevrons=["e5:1:N", "a9:2:S"])
    with pytest.raises(engine.IllegalMove):
        s.play("pass")


def test_s_r5_passing_player_may_move_again_later():
    # e5 is boxed in by the opponent's chevron on d6 and colour on e6, f6.
    s = load(
        "shacru",
        2,
        markers=paint(2, "e6 f6"),
        chevrons=["e5:1:N", "d6:2:N"],
    )
    s = s.play("pass").play("d6-d7^")
    assert s.to_move == 1
    assert s.base_moves() == ["e5-d6"]


def test_s_r5_markers_are_unlimited():
    # 45 markers of seat 1 (ranks 1-5) is more than any Pacru supply.
    s = load("shacru", 2, markers=paint(1, rect("a1", "i5")), chevrons=["e5:1:N", "a9:2:S"])
    after = s.play("e5-e6")
    assert after.scores[1] == 46
    assert not after.is_over


def test_s_r6_game_ends_when_no_player_can_move():
    s = load(
        "shacru",
        2,
        markers=paint(1, "a2") | paint(2, "g9 h9 i9"),
        chevrons=["a2:1:S", "i9:2:NE"],
    )
    assert not s.is_over
    after = s.play("a2-a1")  # a1 facing S cannot move; i9 facing NE never could
    assert after.is_over
    assert after.scores == {1: 2, 2: 3}
    assert after.ranking() == {2: 1, 1: 2}
    assert after.winner == 2


def _no_gain_left_position():
    # Seat 1: a1 facing N may still reach the neutral b2, after which it is
    # boxed in by seat 2's colour.  Seat 2: i9 facing S can only wander over
    # i8 and h8 (its colour), every exit is seat 1's colour.
    return load(
        "shacru",
        2,
        markers=paint(1, "a1 a2 b1 i7 h7 g7 g8") | paint(2, "a3 b3 c3 c2 c1 i9 i8 h8"),
        chevrons=["a1:1:N", "i9:2:S"],
    )


def test_s_r6_game_goes_on_while_a_neutral_field_is_reachable():
    s = _no_gain_left_position()
    assert not s.is_over
    assert s.base_moves() == ["a1-a2", "a1-b2"]


def test_s_r6_game_ends_when_no_player_can_gain_a_marker():
    s = _no_gain_left_position().play("a1-b2")
    # Seat 2 could still move (i9-i8), but no neutral field is reachable.
    assert s.is_over


def test_s_r6_result_equal_markers_share_rank_and_no_winner():
    s = _no_gain_left_position().play("a1-b2")
    assert s.scores == {1: 8, 2: 8}
    assert s.ranking() == {1: 1, 2: 1}
    assert s.winner is None


def test_s_r6_no_progress_rule_ends_game_after_20_plies_per_player():
    s = load(
        "shacru",
        2,
        markers=paint(1, "e5 e6") | paint(2, "a9"),
        chevrons=["e5:1:N", "a9:2:S"],
        plies_without_progress=39,
    )
    after = s.play("e5-e6")
    assert after.to_dict()["plies_without_progress"] == 40
    assert after.is_over
    assert after.winner == 1


def test_s_r6_placing_a_marker_resets_no_progress_count():
    s = load("shacru", 2, chevrons=["e5:1:N", "a9:2:S"], plies_without_progress=39)
    after = s.play("e5-e6")
    assert after.to_dict()["plies_without_progress"] == 0
    assert not after.is_over


def test_s_r6_no_progress_limit_counts_only_players_not_out():
    # Seat 3 is out: the limit is 20 x 2 = 40.
    s = load(
        "shacru",
        3,
        markers=paint(1, "e5 e6"),
        chevrons=["e5:1:N", "a9:2:S"],
        eliminated=[3],
        plies_without_progress=39,
    )
    assert s.play("e5-e6").is_over


def test_s_r6_no_progress_limit_with_three_players_is_60():
    s = load(
        "shacru",
        3,
        markers=paint(1, "e5 e6"),
        chevrons=["e5:1:N", "a9:2:S", "i1:3:N"],
        plies_without_progress=58,
    )
    after = s.play("e5-e6")
    assert after.to_dict()["plies_without_progress"] == 59
    assert not after.is_over


def test_s_r6_ranking_out_players_after_players_still_in():
    # Seat 2 resigned earlier with more markers than anybody: it still ranks last.
    s = load(
        "shacru",
        3,
        markers=paint(1, "e5 e6") | paint(2, rank(1)) | paint(3, "a9 b9"),
        chevrons=["e5:1:N", "a9:3:S"],
        eliminated=[2],
        plies_without_progress=39,
    )
    after = s.play("e5-e6")  # no marker placed: the no-progress limit (40) is reached
    assert after.is_over
    assert after.ranking() == {1: 1, 3: 1, 2: 3}
    assert after.winner is None
