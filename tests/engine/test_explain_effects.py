"""What a played move did, in words (engine.explain.effects), and refusals said once."""

import pickle

import pytest

import engine
from engine.explain import described, effects, move_effects, without_move_echo

try:
    from positions import land, load, paint, rank
except ImportError:  # tests/engine collected as a package
    from tests.engine.positions import land, load, paint, rank

NAMES = {1: "Alice", 2: "Bob", 3: "Carol", 4: "Dave"}


def said(state, move):
    return move_effects(state, move, NAMES)


# --- Pacru: travel and border effects ----------------------------------------


def test_a_move_inside_its_borderland_only_travels():
    assert said(engine.new_game("pacru", 2), "e1-e2") == ["e1-e2: moves 1 field N"]


def test_a_border_crossing_with_a_borderland_change():
    assert said(engine.new_game("pacru", 2), "a3-b4(c5)") == [
        "a3-b4: moves 1 field NE, crossing into borderland b5",
        "borderland change in b5: marker on c5",
    ]


def test_a_borderland_transformation_names_the_old_colour():
    s = load(
        "pacru",
        2,
        markers=paint(1, "d7 e8") | paint(2, "d8 d9 e7 e9 f7 f8 f9"),
        chevrons=["d6:1:N", "e7:2:N"],
    )
    assert said(s, "d6-d7(f9)") == [
        "d6-d7: moves 1 field N, crossing into borderland e8",
        "borderland transformation in e8: f9 changes from Bob's colour to Alice's",
    ]


def test_a_crossing_into_a_borderland_with_nothing_to_change_says_so():
    s = load("pacru", 2, markers=paint(1, land("e8")), chevrons=["d6:1:N", "a1:2:NE"])
    assert said(s, "d6-d7") == [
        "d6-d7: moves 1 field N, crossing into borderland e8",
        "borderland e8 has no field to change",
    ]


# --- Pacru: connections ------------------------------------------------------


@pytest.mark.parametrize("middle", ["-", "2"])
def test_a_connection_change_lists_the_fields_it_colours(middle):
    s = load("pacru", 2, markers=paint(1, "d4 d6") | {"d5": middle}, chevrons=["d4:1:N", "a9:2:S"])
    assert said(s, "d4-d6") == ["d4-d6: moves 2 fields N", "connection d4–d6 colours d5"]


def test_the_connection_or_border_choice_is_explained_both_ways():
    # RULES 6.3, example (choice): g9-e7 is a connection over f8 crossing into e8.
    s = load("pacru", 2, markers=paint(1, "g9 h8 e7"), chevrons=["g9:1:SW", "a1:2:NE"])
    assert said(s, "g9-e7(*)") == [
        "g9-e7: moves 2 fields SW, crossing into borderland e8",
        "connection g9–e7 colours f8, taken instead of the border marker",
    ]
    assert said(s, "g9-e7(d8)") == [
        "g9-e7: moves 2 fields SW, crossing into borderland e8",
        "connection g9–e7 not taken: the border marker is chosen instead",
        "borderland change in e8: marker on d8",
    ]


def test_a_connection_jump_keeps_the_fields_between():
    s = load("pacru", 2, markers=paint(1, "g9 h8 e7"), chevrons=["g9:1:SW", "f8:2:S", "a1:2:NE"])
    assert said(s, "g9-e7(d8)") == [
        "g9-e7: moves 2 fields SW, crossing into borderland e8",
        "connection jump over the chevron on f8: the fields between keep their colours",
        "borderland change in e8: marker on d8",
    ]


# --- Pacru: pincer, meeting, reorientation -----------------------------------


def test_a_pincer_removes_the_chevron_and_colours_the_field():
    # RULES 6.2/6.3 example: e3 and c5 both attack e5.
    s = load(
        "pacru",
        2,
        markers=paint(1, "e3 d2 c5 b4"),
        chevrons=["e3:1:N", "c5:1:E", "e5:2:S", "a9:2:S"],
    )
    assert said(s, "e3xe5(d6)") == [
        "e3xe5: moves 2 fields N, crossing into borderland e5",
        "pincer on e5: Bob's chevron is removed and e5 takes Alice's colour",
        "borderland change in e5: marker on d6",
    ]


def test_a_pincer_on_the_last_chevron_puts_its_owner_out_and_ends_the_game():
    s = load("pacru", 2, markers=paint(1, "e3 d2 c5 b4"), chevrons=["e3:1:N", "c5:1:E", "e5:2:S"])
    words = said(s, "e3xe5(d6)")
    assert words[-2:] == [
        "Bob has lost the last chevron to the pincer and is out",
        "only Alice is left in: the game ends, Alice wins",
    ]


def test_a_meeting_names_the_field_it_changes():
    # RULES 6.3, example (meeting).
    s = load("pacru", 2, markers=paint(1, "e5 e6"), chevrons=["e4:1:N", "e6:1:S", "a9:2:S"])
    assert said(s, "e4-e5(e4)") == [
        "e4-e5: moves 1 field N",
        "meeting on e5 with the chevron on e6: e4 changes to Alice's colour",
    ]


@pytest.mark.parametrize(
    "move, words",
    [
        (
            "e5<<(a1,b2,c3,d4)",
            "e5: reorients 90° counter-clockwise to face W, paying 4 markers (a1, b2, c3, d4)",
        ),
        ("e5>(a1,b2)", "e5: reorients 45° clockwise to face NE, paying 2 markers (a1, b2)"),
    ],
)
def test_a_reorientation_says_the_turn_the_new_facing_and_the_price(move, words):
    # RULES 6.4, example.
    s = load("pacru", 2, markers=paint(1, "a1 b2 c3 d4 e5"), chevrons=["e5:1:N", "a9:2:S"])
    assert said(s, move) == [words]


# --- Pacru: players out and the end ------------------------------------------


def test_a_move_that_blocks_the_opponent():
    s = load("pacru", 2, markers=paint(1, "a2 b1"), chevrons=["c3:1:SW", "a1:2:NE"])
    assert said(s, "c3-b2") == [
        "c3-b2: moves 1 field SW",
        "Bob is blocked and out",
        "only Alice is left in: the game ends, Alice wins",
    ]


def test_blocked_players_in_cascade_are_each_named():
    s = load("pacru", 4, chevrons=["e5:1:N", "a1:2:SW", "i9:3:NE", "e1:4:N"])
    assert said(s, "e5-e6")[1:] == ["Bob is blocked and out", "Carol is blocked and out"]


def test_reaching_the_target_when_the_supply_runs_short():
    # RULES 6.6, example: 40 markers, a1-a5(*) colours a2 and a3 only.
    markers = paint(1, "a1 b1 c1 b2 c2 b3 c3 a5 e6 f6 g6 h6 i6", rank(7), rank(8), rank(9))
    s = load("pacru", 2, markers=markers, chevrons=["a1:1:N", "i9:2:S"])
    assert s.counts[1] == 40
    assert said(s, "a1-a5(*)") == [
        "a1-a5: moves 4 fields N, crossing into borderland b5",
        "connection a1–a5 colours a2, a3, taken instead of the border marker; "
        "a4 unchanged: the supply of markers ran out",
        "Alice reaches the marker target of 42: the game ends, Alice wins",
    ]


def test_the_ply_limit_ends_the_game_without_a_winner():
    s = load("pacru", 2, chevrons=["e5:1:N", "a9:2:S"], ply=9, ply_limit=10)
    assert said(s, "e5-e6")[-1] == "the ply limit of 10 is reached: the game ends without a single winner"


def test_a_resignation_is_described_from_the_states():
    s = engine.new_game("pacru", 3)
    after = s.eliminate(2, "resign")
    assert effects(s, after, NAMES) == ["Bob resigns and is out; the markers stay on the board"]
    assert effects(after, after.eliminate(3, "timeout"), NAMES) == [
        "Carol runs out of time and is out; the markers stay on the board",
        "only Alice is left in: the game ends, Alice wins",
    ]


def test_seats_without_a_name_are_called_by_number():
    s = load("pacru", 2, markers=paint(1, "a2 b1"), chevrons=["c3:1:SW", "a1:2:NE"])
    assert move_effects(s, "c3-b2")[1:] == [
        "seat 2 is blocked and out",
        "only seat 1 is left in: the game ends, seat 1 wins",
    ]


def test_explaining_changes_neither_state():
    s = load("pacru", 2, markers=paint(1, "g9 h8 e7"), chevrons=["g9:1:SW", "a1:2:NE"])
    after = s.play("g9-e7(*)")
    copies = (s.to_dict(), after.to_dict())
    effects(s, after, NAMES)
    assert (s.to_dict(), after.to_dict()) == copies


# --- Shacru and Azacru -------------------------------------------------------


@pytest.mark.parametrize(
    "move, words",
    [
        ("a3-b3", ["a3-b3: moves 1 field E", "marker on b3"]),
        ("a3-b4<", ["a3-b4: moves 1 field NE, crossing into borderland b5", "marker on b4", "twist to N"]),
        ("a3-b4>", ["a3-b4: moves 1 field NE, crossing into borderland b5", "marker on b4", "twist to E"]),
        (
            "a3-b4^",
            [
                "a3-b4: moves 1 field NE, crossing into borderland b5",
                "marker on b4",
                "no twist: keeps facing NE",
            ],
        ),
    ],
)
def test_shacru_markers_and_twists(move, words):
    assert said(engine.new_game("shacru", 2), move) == words


def test_landing_on_your_own_colour_places_nothing():
    s = load("shacru", 2, markers=paint(1, "e5 e6"), chevrons=["e5:1:N", "a9:2:S"])
    assert said(s, "e5-e6") == ["e5-e6: moves 1 field N"]


def test_a_pass():
    s = load("shacru", 2, markers=paint(1, "a1"), chevrons=["a1:1:SW", "e5:2:N"])
    assert said(s, "pass") == ["Alice passes: no chevron can move"]


def test_shacru_ends_when_nobody_can_move():
    # After a2-a1 Alice's chevron faces S in the corner and Bob's faces NE in the other one.
    s = load("shacru", 2, markers=paint(2, "h9 i8"), chevrons=["a2:1:SW", "i9:2:NE"])
    assert said(s, "a2-a1") == [
        "a2-a1: moves 1 field S",
        "marker on a1",
        "nobody can move: the game ends, Bob wins on markers",
    ]


def test_an_azacru_connection_over_another_colour_costs_the_chevron():
    # RULES §5, example.
    s = load("azacru", 2, markers=paint(1, "a1 c3 e3") | paint(2, "d3"), chevrons=["c3:1:E", "i9:2:S"])
    assert said(s, "c3-e3") == [
        "c3-e3: moves 2 fields E, crossing into borderland e2",
        "connection c3–e3 colours d3",
        "the chevron leaves the board: the connection passed over Bob's colour",
    ]


def test_an_azacru_pass_triggers_the_end_and_the_last_turn_ends_it():
    s = load(
        "azacru", 2, markers=paint(1, "e6") | paint(2, "a1 b1 c1"), chevrons=["e6:1:N", "a1:2:SW"], to_move=2
    )
    assert said(s, "pass") == [
        "Bob passes: no chevron can move",
        "the end is triggered: every other player still in has one last turn",
    ]
    last = s.play("pass")
    assert said(last, "e6-e7^") == [
        "e6-e7: moves 1 field N, crossing into borderland e8",
        "marker on e7",
        "no twist: keeps facing N",
        "the final turns are played: the game ends, Bob wins on markers",
    ]


# --- refusals: the move said once ---------------------------------------------


@pytest.mark.parametrize(
    "move, reason",
    [
        ("e9-e5", "the chevron on e9 belongs to seat 2, and seat 1 is on turn"),
        ("E9-E5 ", "the chevron on e9 belongs to seat 2, and seat 1 is on turn"),
        ("e5-e6", "there is no chevron on e5"),
        ("a3-b4", "the move crosses into borderland b5: choose a neutral field for your marker"),
        ("z9-a1", "this is not a move: write F-T"),
        ("pass", "there is no passing in Pacru"),
        ("e1-e2(e3)", "unexpected e3 in the parentheses"),
    ],
)
def test_a_refusal_without_the_move_says_the_reason_once(move, reason):
    with pytest.raises(engine.IllegalMove) as err:
        engine.new_game("pacru", 2).play(move)
    message = str(err.value)
    short = without_move_echo(message, move)
    assert short.startswith(reason), short
    assert move.strip().lower() not in short.lower()[: len(move) + 2]


def test_a_message_that_does_not_repeat_the_move_is_kept():
    assert without_move_echo("you may pass only when none of your chevrons can move", "pass") == (
        "you may pass only when none of your chevrons can move"
    )


# --- codes: every refusal and effect also said as a code with params ----------


@pytest.mark.parametrize(
    "move, code, params",
    [
        ("e9-e5", "not_your_chevron", {"move": "e9-e5", "field": "e9", "owner": 2, "seat": 1}),
        ("e1-e5", "power_too_low", {"move": "e1-e5", "field": "e1", "power": 1, "distance": 4}),
        ("pass", "no_passing", {}),
        ("e1-e2(e3)", "no_choice_to_make", {"move": "e1-e2(e3)", "tokens": ["e3"]}),
        (
            "a3-b4(e9)",
            "not_a_valid_choice",
            {
                "move": "a3-b4",
                "land": "b5",
                "options": ["a4", "a5", "a6", "b4", "b5", "b6", "c4", "c5", "c6"],
                "choice": "e9",
                "prompt": "choose_border_marker",
            },
        ),
    ],
)
def test_a_refusal_has_a_code_and_params_beside_its_words(move, code, params):
    with pytest.raises(engine.IllegalMove) as err:
        engine.new_game("pacru", 2).play(move)
    assert (err.value.code, err.value.params) == (code, params)


def test_a_refusal_keeps_its_code_through_pickling():
    with pytest.raises(engine.IllegalMove) as err:
        engine.new_game("shacru", 2).play("e5<")
    again = pickle.loads(pickle.dumps(err.value))
    assert (str(again), again.code, again.params) == (str(err.value), "no_reorientation", err.value.params)


def test_each_effect_has_a_code_and_params_beside_its_words():
    before = engine.new_game("pacru", 2)
    after = before.play("a3-b4(c5)")
    said = described(before, after, NAMES)
    assert [e.text for e in said] == effects(before, after, NAMES)
    assert [(e.code, e.params) for e in said] == [
        ("move", {"move": "a3-b4", "from": "a3", "to": "b4", "distance": 1, "direction": "NE", "land": "b5"}),
        ("border_marker", {"land": "b5", "field": "c5", "seat": 1, "supply_ran_out": False}),
    ]
