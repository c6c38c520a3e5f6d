"""RULES.md §6.3: effects of a Pacru move (R4, R8–R13), in order."""

import pytest

import engine

try:
    from positions import all_cells_except, chevrons, diff, land, load, paint
except ImportError:  # tests/engine collected as a package
    from tests.engine.positions import all_cells_except, chevrons, diff, land, load, paint


# --- Connection change (R8) -------------------------------------------------


@pytest.mark.parametrize("middle", ["-", "2"])
def test_r8_connection_change_colours_intervening_field(middle):
    s = load(
        "pacru",
        2,
        markers=paint(1, "d4 d6") | {"d5": middle},
        chevrons=["d4:1:N", "a9:2:S"],
    )
    assert s.choices("d4-d6").effects == ("*",)
    assert s.choices("d4-d6").moves() == ["d4-d6(*)"]
    after = s.play("d4-d6")  # the only option is filled in
    assert diff(s, after) == {"d5": (middle, "1")}
    assert chevrons(after) == {"d6:1:N", "a9:2:S"}  # the chevron stays (unlike Azacru)


def test_r8_connection_change_colours_every_intervening_field():
    # d1 has power 3 (d1 e1 f1). d1-d4 crosses into e5, so "*" is chosen explicitly.
    s = load(
        "pacru",
        2,
        markers=paint(1, "d1 e1 f1 d4") | paint(2, "d2"),
        chevrons=["d1:1:N", "a9:2:S"],
    )
    after = s.play("d1-d4(*)")
    assert diff(s, after) == {"d2": ("2", "1"), "d3": ("-", "1")}


def test_r8_no_connection_change_for_a_one_field_move():
    s = load("pacru", 2, markers=paint(1, "e5 e6"), chevrons=["e5:1:N", "a9:2:S"])
    assert s.choices("e5-e6").effects == ()
    assert s.choices("e5-e6").moves() == ["e5-e6"]


# --- Connection + border crossing: the choice (R8, R13) --------------------


def _connection_across_border(**overrides):
    # d5 (power 2: d4 d5) to d7 is a connection over d6 into borderland e8,
    # where e7 and e8 are the only neutral fields.
    markers = paint(1, "d4 d5 d7") | paint(2, "d8 d9 e9 f7 f8 f9")
    markers.update(overrides)
    return load("pacru", 2, markers=markers, chevrons=["d5:1:N", "a1:2:NE"])


def test_r13_connection_and_border_crossing_offer_a_choice():
    s = _connection_across_border()
    c = s.choices("d5-d7")
    assert c.move == "d5-d7"
    assert c.effects == ("*", "e7", "e8")
    assert c.moves() == ["d5-d7(*)", "d5-d7(e7)", "d5-d7(e8)"]


def test_r13_choosing_the_connection_change():
    s = _connection_across_border()
    assert diff(s, s.play("d5-d7(*)")) == {"d6": ("-", "1")}


def test_r13_choosing_the_border_effect_instead():
    s = _connection_across_border()
    assert diff(s, s.play("d5-d7(e8)")) == {"e8": ("-", "1")}


def test_r13_omitted_choice_is_illegal_and_names_the_options():
    s = _connection_across_border()
    with pytest.raises(engine.IllegalMove) as err:
        s.play("d5-d7")
    message = str(err.value)
    assert "*" in message and "e7" in message and "e8" in message


def test_r13_never_both_connection_change_and_border_effect():
    s = _connection_across_border()
    for move in ["d5-d7(e8,*)", "d5-d7(*,e8)"]:
        with pytest.raises(engine.IllegalMove):
            s.play(move)


def test_r13_connection_change_forced_when_border_effect_unavailable():
    # e7, the only neutral field of e8, holds a chevron: no border effect.
    s = load(
        "pacru",
        2,
        markers=paint(1, "d4 d5 d7") | paint(2, "d8 d9 e8 e9 f7 f8 f9"),
        chevrons=["d5:1:N", "e7:2:N"],
    )
    assert s.choices("d5-d7").moves() == ["d5-d7(*)"]
    assert diff(s, s.play("d5-d7")) == {"d6": ("-", "1")}


def test_r9_connection_jump_across_border_gets_the_border_effect():
    # d1 (power 3) jumps the chevron on d3 to d4; in e5 only e5 and f4 are neutral.
    s = load(
        "pacru",
        2,
        markers=paint(1, "d1 e1 f1 d4") | paint(2, "d5 d6 e4 e6 f5 f6"),
        chevrons=["d1:1:N", "d3:2:S"],
    )
    c = s.choices("d1-d4")
    assert c.effects == ("e5", "f4")
    assert c.moves() == ["d1-d4(e5)", "d1-d4(f4)"]
    after = s.play("d1-d4(f4)")
    assert diff(s, after) == {"f4": ("-", "1")}  # d2 stays neutral


# --- Border crossing (R4, R10) ---------------------------------------------


def test_r4_first_move_across_border_offers_every_neutral_field():
    s = engine.new_game("pacru", 2)
    c = s.choices("a3-b4")
    assert c.effects == ("a4", "a5", "a6", "b4", "b5", "b6", "c4", "c5", "c6")
    assert c.meetings == {e: () for e in c.effects}
    after = s.play("a3-b4(b5)")
    assert diff(s, after) == {"b5": ("-", "1")}


def test_r4_borderland_change_cell_must_be_in_new_borderland():
    s = engine.new_game("pacru", 2)
    with pytest.raises(engine.IllegalMove):
        s.play("a3-b4(b3)")


def test_r4_borderland_change_excludes_occupied_and_coloured_fields():
    # e8: d8 holds a chevron, e7/f8 are seat 2's, e8 is seat 1's; T = d7 is neutral.
    s = load(
        "pacru",
        2,
        markers=paint(1, "e8") | paint(2, "e7 f8"),
        chevrons=["d6:1:N", "d8:2:E"],
    )
    assert s.choices("d6-d7").effects == ("d7", "d9", "e9", "f7", "f9")
    with pytest.raises(engine.IllegalMove):
        s.play("d6-d7(d8)")


def test_r4_borderland_change_onto_destination_itself():
    # The only neutral field of e8 without a chevron is d7, the destination.
    s = load(
        "pacru",
        2,
        markers=paint(2, "d8 d9 e8 e9 f7 f8 f9"),
        chevrons=["d6:1:N", "e7:2:N"],
    )
    assert s.choices("d6-d7").moves() == ["d6-d7(d7)"]
    after = s.play("d6-d7")  # forced: filled in
    assert diff(s, after) == {"d7": ("-", "1")}
    assert "d7:1:N" in chevrons(after)


def test_r10_no_eligible_neutral_field_no_effect():
    # e7 is neutral but holds a chevron; T (d7) is seat 1's: nothing happens,
    # and no transformation either, although seat 2 fields exist.
    s = load(
        "pacru",
        2,
        markers=paint(1, "d7") | paint(2, "d8 d9 e8 e9 f7 f8 f9"),
        chevrons=["d6:1:N", "e7:2:N"],
    )
    assert s.choices("d6-d7").effects == ()
    assert s.choices("d6-d7").moves() == ["d6-d7"]
    assert diff(s, s.play("d6-d7")) == {}


def test_r10_transformation_when_no_neutral_field_at_all():
    s = load(
        "pacru",
        2,
        markers=paint(1, "d7 e8") | paint(2, "d8 d9 e7 e9 f7 f8 f9"),
        chevrons=["d6:1:N", "e7:2:N"],
    )
    assert s.choices("d6-d7").effects == ("d8", "d9", "e9", "f7", "f8", "f9")
    after = s.play("d6-d7(f9)")
    assert diff(s, after) == {"f9": ("2", "1")}


def test_r10_transformation_never_changes_a_field_with_chevron():
    s = load(
        "pacru",
        2,
        markers=paint(1, "d7 e8") | paint(2, "d8 d9 e7 e9 f7 f8 f9"),
        chevrons=["d6:1:N", "e7:2:N"],
    )
    with pytest.raises(engine.IllegalMove):
        s.play("d6-d7(e7)")


def test_r10_transformation_needs_another_players_field():
    s = load("pacru", 2, markers=paint(1, land("e8")), chevrons=["d6:1:N", "a1:2:NE"])
    assert s.choices("d6-d7").moves() == ["d6-d7"]


# --- Pincer across a border (R11 + R4) --------------------------------------


def test_r11_pincer_across_border_then_borderland_change():
    # c5 (b5) and e4 attack d5; e5 borderland: e5 and f6 stay neutral and free.
    s = load(
        "pacru",
        2,
        markers=paint(2, "d4 d6 e6 f4 f5"),
        chevrons=["c5:1:E", "e4:1:NW", "d5:2:N", "a9:2:S"],
    )
    assert s.choices("c5xd5").effects == ("e5", "f6")
    after = s.play("c5xd5(e5)")
    assert diff(s, after) == {"d5": ("-", "1"), "e5": ("-", "1")}
    assert chevrons(after) == {"d5:1:E", "e4:1:NW", "a9:2:S"}


def test_r11_pincer_border_effect_judged_after_capture():
    # d5 is the only neutral field of e5; once the pincer colours it, the
    # borderland has no neutral field left: transformation.
    s = load(
        "pacru",
        2,
        markers=paint(1, "e4 e5 f4 f5") | paint(2, "d4 d6 e6 f6"),
        chevrons=["c5:1:E", "e4:1:NW", "d5:2:N", "a9:2:S"],
    )
    assert s.choices("c5xd5").effects == ("d4", "d6", "e6", "f6")
    after = s.play("c5xd5(d4)")
    assert diff(s, after) == {"d5": ("-", "1"), "d4": ("2", "1")}


# --- Meeting (R12) ------------------------------------------------------------


def _meeting(partner="e6:1:S", markers=None, **extra):
    # e4 moves N onto e5 (seat 1's); e6 holds seat 1's chevron facing S.
    if markers is None:
        markers = paint(1, "e5 e6")
    return load("pacru", 2, markers=markers, chevrons=["e4:1:N", partner, "a9:2:S"], **extra)


def test_r12_meeting_lets_mover_change_any_field_including_vacated_start():
    c = _meeting().choices("e4-e5")
    assert c.effects == ()
    expected = all_cells_except("e5 e6 a9")
    assert "e4" in expected
    assert c.meetings == {None: expected}
    assert c.moves() == [f"e4-e5({cell})" for cell in expected]


def test_r12_meeting_changes_the_chosen_field():
    s = _meeting(markers=paint(1, "e5 e6") | paint(2, "i1"))
    assert diff(s, s.play("e4-e5(e4)")) == {"e4": ("-", "1")}
    assert diff(s, s.play("e4-e5(i1)")) == {"i1": ("2", "1")}


def test_r12_meeting_cell_must_be_free_and_not_own_colour():
    s = _meeting()
    for move in ["e4-e5(e6)", "e4-e5(a9)", "e4-e5"]:
        with pytest.raises(engine.IllegalMove):
            s.play(move)


@pytest.mark.parametrize(
    "partner, markers",
    [
        ("e6:1:SE", paint(1, "e5 e6")),  # not facing exactly the opposite way
        ("e6:1:S", paint(1, "e5")),  # partner not on a field of the mover's colour
        ("e6:1:S", paint(1, "e6")),  # T is not the mover's colour
        ("e6:2:S", paint(1, "e5 e6")),  # partner is not the mover's chevron
    ],
)
def test_r12_no_meeting_without_every_condition(partner, markers):
    assert _meeting(partner, markers).choices("e4-e5").moves() == ["e4-e5"]


def test_r12_meeting_created_by_borderland_marker_under_moving_chevron():
    # e3-e4 crosses into e5, where e4 (T) and f6 are neutral; e5 holds the partner.
    s = load(
        "pacru",
        2,
        markers=paint(1, "e5") | paint(2, "d4 d5 d6 e6 f4 f5"),
        chevrons=["e3:1:N", "e5:1:S", "a9:2:S"],
    )
    c = s.choices("e3-e4")
    assert c.effects == ("e4", "f6")
    assert c.meetings["f6"] == ()
    assert c.meetings["e4"] == all_cells_except("e4 e5 a9")
    assert "e3" in c.meetings["e4"]
    after = s.play("e3-e4(e4,e3)")
    assert diff(s, after) == {"e4": ("-", "1"), "e3": ("-", "1")}


def _meeting_after_connection_choice():
    # d5-d7: connection over d6 into e8 (neutral e7, e8); partner d8 facing S.
    return load(
        "pacru",
        2,
        markers=paint(1, "d4 d5 d7 d8") | paint(2, "d9 e9 f7 f8 f9"),
        chevrons=["d5:1:N", "d8:1:S", "a1:2:NE"],
    )


def test_r12_meeting_cells_judged_after_the_chosen_effect():
    c = _meeting_after_connection_choice().choices("d5-d7")
    assert c.effects == ("*", "e7", "e8")
    assert c.meetings["*"] == all_cells_except("d4 d5 d6 d7 d8 a1")
    assert c.meetings["e7"] == all_cells_except("d4 d5 d7 d8 e7 a1")


def test_r12_canonical_order_connection_then_meeting_cell():
    s = _meeting_after_connection_choice()
    assert "d5-d7(*,a2)" in s.choices("d5-d7").moves()
    assert diff(s, s.play("d5-d7(*,a2)")) == {"d6": ("-", "1"), "a2": ("-", "1")}
    assert diff(s, s.play("d5-d7(e7,d6)")) == {"e7": ("-", "1"), "d6": ("-", "1")}
    with pytest.raises(engine.IllegalMove):
        s.play("d5-d7(*,d6)")  # d6 is already seat 1's after the connection change


# --- Edition 2011: the meeting threshold -------------------------------------


@pytest.mark.parametrize(
    "opponent_cells, meeting",
    [("a1 b1 c1 d1 e1 f1 g1 h1 i1", True), ("a1 b1 c1 d1 e1 f1 g1 h1", False)],
)
def test_r12_2011_meeting_needs_an_opponent_with_nine_markers(opponent_cells, meeting):
    s = _meeting(markers=paint(1, "e5 e6") | paint(2, opponent_cells), edition="2011")
    assert ("e4-e5(e4)" in s.choices("e4-e5").moves()) is meeting
    if not meeting:
        assert s.choices("e4-e5").moves() == ["e4-e5"]


def test_r12_302_meeting_has_no_threshold():
    s = _meeting(markers=paint(1, "e5 e6") | paint(2, "a1"), edition="302")
    assert "e4-e5(e4)" in s.choices("e4-e5").moves()


def test_r12_2011_markers_of_players_who_are_out_count():
    s = load(
        "pacru",
        3,
        markers=paint(1, "e5 e6") | paint(3, "a1 b1 c1 d1 e1 f1 g1 h1 i1"),
        chevrons=["e4:1:N", "e6:1:S", "a9:2:S"],
        eliminated=[3],
        edition="2011",
    )
    assert "e4-e5(e4)" in s.choices("e4-e5").moves()


@pytest.mark.parametrize(
    "rank1, meeting",
    [("a1 b1 c1 d1 e1 f1 g1 h1", False), ("a1 b1 c1 d1 e1 f1 g1 h1 i1", True)],
)
def test_r12_2011_threshold_counted_after_the_connection_change(rank1, meeting):
    # Seat 2 has d5 plus rank 1; the connection d4-d6 takes d5 away from it.
    s = load(
        "pacru",
        2,
        markers=paint(1, "d4 d6 d7") | paint(2, "d5", rank1),
        chevrons=["d4:1:N", "d7:1:S", "i9:2:S"],
        edition="2011",
    )
    moves = s.choices("d4-d6").moves()
    if meeting:
        assert moves == [f"d4-d6(*,{c})" for c in all_cells_except("d4 d5 d6 d7 i9")]
    else:
        assert moves == ["d4-d6(*)"]
