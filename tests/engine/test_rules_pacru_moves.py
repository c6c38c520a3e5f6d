"""RULES.md §6.1–§6.2: Pacru turn and legal moves (R2, R3, R5–R7, R9, R11)."""

import pytest

import engine

try:
    from positions import chevrons, diff, load, paint
except ImportError:  # tests/engine collected as a package
    from tests.engine.positions import chevrons, diff, load, paint


def test_r2_no_passing_in_pacru():
    with pytest.raises(engine.IllegalMove):
        engine.new_game("pacru", 2).play("pass")


def test_r3_arriving_on_neutral_field_places_nothing():
    # Decision 1: markers come only from the effects of 6.3.
    s = engine.new_game("pacru", 2)
    after = s.play("e1-e2")
    assert diff(s, after) == {}
    assert "e2:1:N" in chevrons(after)
    assert (after.to_move, after.ply) == (2, 1)
    assert after.last_eliminations == ()


def test_r5_power_counts_own_markers_in_start_borderland():
    # Borderland e5: e5, d4, f6 are seat 1's (power 3); d5, e4 are seat 2's; b2 is outside.
    s = load(
        "pacru",
        2,
        markers=paint(1, "e5 d4 f6 b2") | paint(2, "d5 e4"),
        chevrons=["e5:1:N", "a1:2:NE"],
    )
    assert s.base_moves() == [
        "e5-b8",
        "e5-c7",
        "e5-d6",
        "e5-e6",
        "e5-e7",
        "e5-e8",
        "e5-f6",
        "e5-g7",
        "e5-h8",
    ]


def test_r5_power_minimum_one_and_opponent_markers_do_not_count():
    s = load("pacru", 2, markers=paint(2, "d4 e4 f4 d5"), chevrons=["e5:1:N", "a9:2:S"])
    assert s.base_moves() == ["e5-d6", "e5-e6", "e5-f6"]


def test_r5_field_under_the_chevron_counts_for_power():
    s = load("pacru", 2, markers=paint(1, "e5"), chevrons=["e5:1:N", "a9:2:S"])
    assert s.base_moves() == ["e5-d6", "e5-e6", "e5-f6"]
    s = load("pacru", 2, markers=paint(1, "e5 f4"), chevrons=["e5:1:N", "a9:2:S"])
    assert "e5-e7" in s.base_moves()


def test_r6_ordinary_move_blocked_by_opponent_colour_and_intervening_chevron():
    # Power 3. NW: d6 holds a seat-2 chevron (only one attacker: no pincer), so
    # c7 and b8 are behind it. N: e7 is seat 2's colour, e8 may be reached across it.
    s = load(
        "pacru",
        2,
        markers=paint(1, "e5 d4 f4") | paint(2, "e7"),
        chevrons=["e5:1:N", "d6:2:S"],
    )
    assert s.base_moves() == ["e5-e6", "e5-e8", "e5-f6", "e5-g7", "e5-h8"]


def test_r7_move_onto_own_colour_is_legal():
    s = load("pacru", 2, markers=paint(1, "e6"), chevrons=["e5:1:N", "a9:2:S"])
    after = s.play("e5-e6")
    assert diff(s, after) == {}
    assert "e6:1:N" in chevrons(after)


def test_r7_move_onto_own_chevron_is_illegal():
    s = load("pacru", 2, chevrons=["e5:1:N", "e6:1:S", "a9:2:S"])
    assert not any(m.startswith("e5-e6") for m in s.base_moves())
    with pytest.raises(engine.IllegalMove):
        s.play("e5-e6")


def test_r9_connection_jump_over_chevron():
    s = load("pacru", 2, markers=paint(1, "d4 d6"), chevrons=["d4:1:N", "d5:2:S", "a9:2:S"])
    assert "d4-d6" in s.base_moves()
    assert s.choices("d4-d6").moves() == ["d4-d6"]
    after = s.play("d4-d6")
    assert diff(s, after) == {}
    assert chevrons(after) == {"d6:1:N", "d5:2:S", "a9:2:S"}


def test_r9_jump_over_chevron_needs_a_connection():
    # d6 is neutral: not a connection, so the chevron on d5 blocks.
    s = load("pacru", 2, markers=paint(1, "d4 e4"), chevrons=["d4:1:N", "d5:2:S", "a9:2:S"])
    assert "d4-d6" not in s.base_moves()
    with pytest.raises(engine.IllegalMove):
        s.play("d4-d6")


def test_r9_connection_needs_unoccupied_destination():
    s = load("pacru", 2, markers=paint(1, "d4 d6"), chevrons=["d4:1:N", "d6:1:S", "a9:2:S"])
    assert "d4-d6" not in s.base_moves()


def _pincer_position(second_attacker, markers=None):
    # Seat 2's chevron on e5; seat 1's e4 facing N attacks it from the south.
    return load(
        "pacru",
        2,
        markers=markers or {},
        chevrons=["e5:2:S", "a9:2:S", "e4:1:N", second_attacker],
    )


def test_r11_pincer_with_two_attackers_either_may_capture():
    s = _pincer_position("d6:1:SE")  # d6 facing SE attacks e5 too
    assert s.base_moves() == ["d6-d5", "d6-e6", "d6xe5", "e4-d5", "e4-f5", "e4xe5"]


def test_r11_pincer_removes_chevron_and_colours_the_field():
    s = _pincer_position("d6:1:SE")
    after = s.play("e4xe5")
    assert diff(s, after) == {"e5": ("-", "1")}
    assert chevrons(after) == {"e5:1:N", "a9:2:S", "d6:1:SE"}


def test_r11_pincer_needs_two_attackers_at_turn_start():
    s = _pincer_position("d6:1:N")  # d6 facing N does not attack e5
    assert s.base_moves() == ["d6-c7", "d6-d7", "d6-e7", "e4-d5", "e4-f5"]
    with pytest.raises(engine.IllegalMove) as err:
        s.play("e4xe5")
    message = str(err.value).lower()
    assert "pincer" in message or "attack" in message


def test_r11_occupied_field_cannot_be_entered_with_a_dash():
    s = _pincer_position("d6:1:N")
    with pytest.raises(engine.IllegalMove):
        s.play("e4-e5")


@pytest.mark.parametrize(
    "markers, legal",
    [
        (paint(1, "c5"), False),  # c5 has power 1: e5 is two fields away
        (paint(1, "c5 b5"), True),  # power 2: c5 attacks e5 over d5
    ],
)
def test_r11_attack_must_be_within_power(markers, legal):
    s = _pincer_position("c5:1:E", markers)
    assert ("e4xe5" in s.base_moves()) is legal
    assert ("c5xe5" in s.base_moves()) is legal


def test_r11_attack_line_blocked_by_chevron_does_not_count():
    s = load(
        "pacru",
        2,
        markers=paint(1, "c5 b5"),
        chevrons=["e5:2:S", "d5:2:N", "e4:1:N", "c5:1:E"],
    )
    assert "e4xe5" not in s.base_moves()


def test_r11_pincer_on_opponents_own_colour():
    s = _pincer_position("d6:1:SE", paint(2, "e5"))
    after = s.play("e4xe5")
    assert diff(s, after) == {"e5": ("2", "1")}


def test_r11_pincer_of_own_chevron_is_illegal():
    s = load("pacru", 2, chevrons=["e5:1:S", "e4:1:N", "d6:1:SE", "a9:2:S"])
    assert not any("xe5" in m for m in s.base_moves())
    with pytest.raises(engine.IllegalMove):
        s.play("e4xe5")


def test_r11_pincer_path_must_be_free_of_chevrons():
    # e3 (power 2) attacks e5 only over e4; a seat-2 chevron on e4 blocks it.
    s = load(
        "pacru",
        2,
        markers=paint(1, "e3 d3"),
        chevrons=["e5:2:S", "e4:2:N", "e3:1:N", "d6:1:SE", "f6:1:SW"],
    )
    assert "e3xe5" not in s.base_moves()
    assert {"d6xe5", "f6xe5"} <= set(s.base_moves())
