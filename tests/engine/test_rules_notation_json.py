"""RULES.md §8 (notation) and §9 (position interchange format)."""

import pytest

import engine

try:
    from positions import load, paint, position, tiles
except ImportError:  # tests/engine collected as a package
    from tests.engine.positions import load, paint, position, tiles


# --- §8 Notation ----------------------------------------------------------------


def test_8_errors_are_value_errors():
    assert issubclass(engine.IllegalMove, ValueError)
    assert issubclass(engine.InvalidPosition, ValueError)


@pytest.mark.parametrize("text", ["E1-E2", "e1 - e2", " E1 -E2 "])
def test_8_parser_accepts_upper_case_and_spaces(text):
    s = engine.new_game("pacru", 2)
    assert s.play(text).to_dict() == s.play("e1-e2").to_dict()


def test_8_parser_accepts_upper_case_effects():
    s = engine.new_game("pacru", 2)
    assert s.play("A3-B4 ( B5 )").to_dict() == s.play("a3-b4(b5)").to_dict()


def test_8_parser_accepts_upper_case_twist_move():
    s = engine.new_game("shacru", 2)
    assert s.play("A3 - B4 >").to_dict() == s.play("a3-b4>").to_dict()


def test_8_parser_accepts_upper_case_pincer():
    s = load("pacru", 2, chevrons=["e5:2:S", "a9:2:S", "e4:1:N", "d6:1:SE"])
    assert s.play("E4XE5").to_dict() == s.play("e4xe5").to_dict()


def test_8_parser_accepts_reorientation_cells_in_any_order_and_case():
    s = load("pacru", 2, markers=paint(1, "e5 a1 b2 c3 d4"), chevrons=["e5:1:N", "a9:2:S"])
    assert s.play("E5 << (D4, C3, B2, A1)").to_dict() == s.play("e5<<(a1,b2,c3,d4)").to_dict()


def test_8_choices_print_canonical_move():
    s = engine.new_game("pacru", 2)
    c = s.choices("A3 - B4")
    assert c.move == "a3-b4"
    assert c.moves()[0] == "a3-b4(a4)"
    assert c.twists == ()


def test_8_choices_of_a_move_without_effects():
    c = engine.new_game("pacru", 2).choices("e1-e2")
    assert (c.move, c.effects, c.moves()) == ("e1-e2", (), ["e1-e2"])


def test_8_shacru_choices_list_twisted_moves():
    c = engine.new_game("shacru", 2).choices("a3-b4")
    assert sorted(c.moves()) == ["a3-b4<", "a3-b4>", "a3-b4^"]


def test_8_effect_on_a_move_without_effects_is_illegal():
    # e1-e2 stays inside borderland e2: no border crossing, nothing to choose.
    with pytest.raises(engine.IllegalMove):
        engine.new_game("pacru", 2).play("e1-e2(e2)")


def test_8_omitted_border_cell_names_the_choices():
    with pytest.raises(engine.IllegalMove) as err:
        engine.new_game("pacru", 2).play("a3-b4")
    message = str(err.value)
    assert "a4" in message and "c6" in message


@pytest.mark.parametrize("text", ["", "hello", "z9-a1", "e1-e", "e1e2", "e1-e2-e3"])
def test_8_garbage_is_illegal(text):
    with pytest.raises(engine.IllegalMove):
        engine.new_game("pacru", 2).play(text)


def test_8_move_of_opponents_chevron_is_illegal():
    with pytest.raises(engine.IllegalMove):
        engine.new_game("pacru", 2).play("e9-e8")


def test_8_choices_of_illegal_move_raise():
    with pytest.raises(engine.IllegalMove):
        engine.new_game("pacru", 2).choices("e1-e4")


# --- §9 Position interchange format -----------------------------------------------


ROUND_TRIP = {
    "pacru": position(
        "pacru",
        3,
        markers=paint(1, "e5 e6") | paint(2, "g7 a1") | paint(3, "i9 h9"),
        chevrons=["c4:1:N", "e5:1:NE", "g7:2:S"],
        to_move=2,
        eliminated=[3],
        ply=17,
        edition="2011",
        ply_limit=500,
    ),
    "shacru": position(
        "shacru",
        2,
        markers=paint(1, "e5 e6") | paint(2, "g7 a1"),
        chevrons=["c4:1:N", "e5:1:NE", "g7:2:S"],
        to_move=2,
        ply=8,
        ply_limit=1000,
        plies_without_progress=3,
    ),
    "azacru": position(
        "azacru",
        2,
        markers=paint(1, "e5 e6") | paint(2, "g7 a1"),
        chevrons=["c4:1:N", "e5:1:NE", "g7:2:S"],
        to_move=1,
        ply=9,
        ply_limit=1000,
        plies_without_progress=0,
        end_triggered_by=2,
        final_turns_left=1,
    ),
}


@pytest.mark.parametrize("game", ["shacru", "azacru", "pacru"])
def test_9_load_then_dump_gives_equal_document(game):
    doc = ROUND_TRIP[game]
    assert engine.load(doc).to_dict() == doc


@pytest.mark.parametrize("game", ["shacru", "azacru", "pacru"])
def test_9_dumped_chevrons_are_sorted(game):
    # (Chosen so that sorting by cell name and by seat, then field, agree.)
    doc = dict(ROUND_TRIP[game], chevrons=["g7:2:S", "e5:1:NE", "c4:1:N"])
    assert engine.load(doc).to_dict()["chevrons"] == ["c4:1:N", "e5:1:NE", "g7:2:S"]


@pytest.mark.parametrize("game, players", [("shacru", 2), ("azacru", 3), ("pacru", 4)])
def test_9_new_game_round_trip(game, players):
    d = engine.new_game(game, players).to_dict()
    assert engine.load(d).to_dict() == d


def test_9_missing_optional_keys_take_defaults_pacru():
    doc = position("pacru", 2, chevrons=["e5:1:N", "a9:2:S"])
    del doc["edition"]
    d = engine.load(doc).to_dict()
    assert d["edition"] == "302"
    assert d["ply_limit"] == 1000


def test_9_missing_optional_keys_take_defaults_azacru():
    d = engine.load(position("azacru", 2, chevrons=["e5:1:N", "a9:2:S"])).to_dict()
    assert d["ply_limit"] == 1000
    assert d["plies_without_progress"] == 0
    assert d["end_triggered_by"] is None
    assert d["final_turns_left"] == 0


def test_9_edition_only_for_pacru():
    assert "edition" not in engine.new_game("shacru", 2).to_dict()
    assert engine.new_game("pacru", 2, edition="2011").to_dict()["edition"] == "2011"


def test_9_tiles_rank_9_first():
    s = load("pacru", 2, markers=paint(1, "a9") | paint(2, "i1"), chevrons=["e5:1:N", "a9:2:S"])
    t = s.to_dict()["tiles"]
    assert t[0] == "1" and t[80] == "2"
    assert s.scores == {1: 1, 2: 1}


VALID = position("pacru", 2, chevrons=["e5:1:N", "a9:2:S"])


@pytest.mark.parametrize(
    "change",
    [
        {"tiles": "-" * 80},  # wrong tile count
        {"tiles": "-" * 82},
        {"tiles": "x" + "-" * 80},  # bad character
        {"tiles": tiles(paint(3, "a1"))},  # seat 3 in a 2-player game
        {"chevrons": ["e5:1:N", "e5:2:S"]},  # two chevrons on a field
        {"chevrons": ["e5:1:N", "a9:3:S"]},  # unknown seat
        {"chevrons": ["e5:1:N", "a9:2:Q"]},  # bad facing
        {"chevrons": ["e5:1:N", "j9:2:S"]},  # not a field
        {"game": "chess"},
        {"players": 5},
        {"to_move": 3},
    ],
)
def test_9_bad_documents_raise_invalid_position(change):
    with pytest.raises(engine.InvalidPosition):
        engine.load(dict(VALID, **change))
