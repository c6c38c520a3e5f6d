"""RULES.md §5: Azacru (A-R1…A-R10)."""

import pytest

import engine

try:
    from positions import chevrons, diff, load, paint
except ImportError:  # tests/engine collected as a package
    from tests.engine.positions import chevrons, diff, load, paint


def test_a_r4_power_counts_own_markers_in_start_borderland():
    # Borderland e5 holds d4, d5 of seat 1 (power 2); c4 is outside it; f4, f5 are seat 2's.
    s = load(
        "azacru",
        2,
        markers=paint(1, "d4 d5 c4") | paint(2, "f4 f5"),
        chevrons=["d4:1:NE", "a9:2:S"],
    )
    assert s.base_moves() == ["d4-d5", "d4-d6", "d4-e4", "d4-e5", "d4-f6"]


def test_a_r4_power_minimum_one_and_opponent_markers_do_not_count():
    s = load("azacru", 2, markers=paint(2, "d4 e4 f4 d5"), chevrons=["e5:1:N", "a9:2:S"])
    assert s.base_moves() == ["e5-d6", "e5-e6", "e5-f6"]


def test_a_r4_move_longer_than_power_is_illegal():
    s = load("azacru", 2, markers=paint(1, "d4 e4"), chevrons=["d4:1:N", "a9:2:S"])
    with pytest.raises(engine.IllegalMove):
        s.play("d4-d7^")


def test_a_r5_long_move_may_cross_other_players_markers():
    s = load("azacru", 2, markers=paint(1, "d4 e4") | paint(2, "d5"), chevrons=["d4:1:N", "a9:2:S"])
    after = s.play("d4-d6")
    assert diff(s, after) == {"d6": ("-", "1")}
    assert chevrons(after) == {"d6:1:N", "a9:2:S"}


def test_a_r5_long_move_blocked_by_intervening_chevron():
    s = load("azacru", 2, markers=paint(1, "d4 e4"), chevrons=["d4:1:N", "d5:2:S", "a9:2:S"])
    assert "d4-d6" not in s.base_moves()
    with pytest.raises(engine.IllegalMove):
        s.play("d4-d6")


def test_a_r7_connection_change_fills_intervening_field():
    s = load("azacru", 2, markers=paint(1, "d4 d6"), chevrons=["d4:1:N", "a9:2:S"])
    after = s.play("d4-d6")
    assert diff(s, after) == {"d5": ("-", "1")}
    assert chevrons(after) == {"d6:1:N", "a9:2:S"}


def test_a_r7_connection_change_converting_opponent_removes_chevron():
    s = load("azacru", 2, markers=paint(1, "d4 d6") | paint(2, "d5"), chevrons=["d4:1:N", "a9:2:S"])
    after = s.play("d4-d6")
    assert diff(s, after) == {"d5": ("2", "1")}
    assert chevrons(after) == {"a9:2:S"}
    assert after.scores == {1: 3, 2: 0}


def test_a_r7_removed_chevron_move_across_border_has_no_twist_suffix():
    # d5-d7 is a connection (d5, d7 seat 1) over d6 (seat 2) into borderland e8.
    s = load(
        "azacru",
        2,
        markers=paint(1, "d4 d5 d7") | paint(2, "d6"),
        chevrons=["d5:1:N", "i1:2:N"],
    )
    assert s.base_moves() == [
        "d5-b7<",
        "d5-b7>",
        "d5-b7^",
        "d5-c6<",
        "d5-c6>",
        "d5-c6^",
        "d5-d7",
        "d5-e6",
        "d5-f7<",
        "d5-f7>",
        "d5-f7^",
    ]
    assert s.choices("d5-d7").twists == ()
    after = s.play("d5-d7")
    assert diff(s, after) == {"d6": ("2", "1")}
    assert chevrons(after) == {"i1:2:N"}


def test_a_r7_connection_change_across_border_keeps_chevron_and_twist():
    s = load("azacru", 2, markers=paint(1, "d4 d5 d7"), chevrons=["d5:1:N", "i1:2:N"])
    assert s.choices("d5-d7").twists == ("^", "<", ">")
    after = s.play("d5-d7>")
    assert diff(s, after) == {"d6": ("-", "1")}
    assert chevrons(after) == {"d7:1:NE", "i1:2:N"}


def test_a_r5_connection_jump_over_chevron():
    s = load("azacru", 2, markers=paint(1, "d4 d6"), chevrons=["d4:1:N", "d5:2:S", "a9:2:S"])
    after = s.play("d4-d6")
    assert diff(s, after) == {}
    assert chevrons(after) == {"d6:1:N", "d5:2:S", "a9:2:S"}


@pytest.mark.parametrize("jumped", [["d3:2:S"], ["d2:2:S", "d3:2:S"]])
def test_a_r5_connection_jump_leaves_intervening_fields_unchanged(jumped):
    # d1 has power 3 (d1 e1 f1); d4 is seat 1's colour; d2 is seat 2's colour.
    s = load(
        "azacru",
        2,
        markers=paint(1, "d1 e1 f1 d4") | paint(2, "d2"),
        chevrons=["d1:1:N", *jumped],
    )
    after = s.play("d1-d4^")
    assert diff(s, after) == {}
    assert "d4:1:N" in chevrons(after)


def test_a_json_end_not_triggered_defaults():
    d = engine.new_game("azacru", 2).to_dict()
    assert d["end_triggered_by"] is None
    assert d["final_turns_left"] == 0


def _stuck_seat_2_position():
    return load(
        "azacru",
        2,
        markers=paint(1, "e6") | paint(2, "a1 b1 c1"),
        chevrons=["e6:1:N", "a1:2:SW"],
        to_move=2,
    )


def test_a_r10_player_unable_to_move_passes_and_triggers_end():
    s = _stuck_seat_2_position()
    assert s.base_moves() == ["pass"]
    after = s.play("pass")
    d = after.to_dict()
    assert (d["end_triggered_by"], d["final_turns_left"]) == (2, 1)
    assert after.to_move == 1
    assert not after.is_over
    assert after.eliminated == ()


def test_a_r10_twists_available_in_final_turn_then_game_ends():
    s = _stuck_seat_2_position().play("pass")
    assert {"e6-e7^", "e6-e7<", "e6-e7>"} <= set(s.base_moves())
    after = s.play("e6-e7<")
    assert after.is_over
    assert "e7:1:NW" in chevrons(after)


def test_a_r10_result_by_markers_after_end():
    after = _stuck_seat_2_position().play("pass").play("e6-e7^")
    assert after.scores == {1: 2, 2: 3}
    assert after.ranking() == {2: 1, 1: 2}
    assert after.winner == 2


def test_a_r10_every_other_player_gets_exactly_one_more_turn():
    s = load(
        "azacru",
        3,
        chevrons=["e5:1:N", "a1:2:SW", "h2:3:N"],
        to_move=2,
    )
    s = s.play("pass")
    assert (s.to_move, s.to_dict()["final_turns_left"], s.to_dict()["end_triggered_by"]) == (3, 2, 2)
    s = s.play("h2-h3")
    assert (s.to_move, s.to_dict()["final_turns_left"], s.is_over) == (1, 1, False)
    s = s.play("e5-e6")
    assert s.is_over


def test_a_r10_player_without_chevrons_passes_and_triggers_end():
    s = load("azacru", 2, markers=paint(1, "e5"), chevrons=["a9:2:S"])
    assert s.base_moves() == ["pass"]
    after = s.play("pass")
    d = after.to_dict()
    assert (d["end_triggered_by"], d["final_turns_left"], after.to_move) == (1, 1, 2)


def test_a_r10_no_progress_rule_applies():
    s = load(
        "azacru",
        2,
        markers=paint(1, "e5 e6"),
        chevrons=["e5:1:N", "a9:2:S"],
        plies_without_progress=39,
    )
    assert s.play("e5-e6").is_over


def test_a_r10_resignation_triggers_the_end():
    s = load("azacru", 3, chevrons=["e5:1:N", "a9:2:S", "i1:3:N"])
    s = s.eliminate(3)
    d = s.to_dict()
    assert s.last_eliminations == ((3, "resign"),)
    assert (d["end_triggered_by"], d["final_turns_left"], s.to_move, s.is_over) == (3, 2, 1, False)
    assert chevrons(s) == {"e5:1:N", "a9:2:S"}
    s = s.play("e5-e6").play("a9-a8")
    assert s.is_over
