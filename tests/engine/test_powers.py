"""A chevron's power and a reorientation's suggested payment, asked of the engine (issue 32, item
2): pages show these instead of counting them by a rule of their own."""

import pytest

import engine
from engine.board import CELL_INDEX

try:
    from positions import load, paint
except ImportError:  # tests/engine collected as a package
    from tests.engine.positions import load, paint

# Seat 1 has three markers in the borderland d4-f6 and one in a1-c3; seat 2 one in d4-f6.
MARKERS = paint(1, "d4 e5 f6 b2") | paint(2, "d5")
CHEVRONS = ["e4:1:N", "a1:1:NE", "c9:1:S", "f4:2:N"]


@pytest.mark.parametrize(
    ("game", "expected"),
    [
        ("shacru", {"e4": 1, "a1": 1, "c9": 1, "f4": 1}),  # one field a move, whatever the markers
        ("azacru", {"e4": 3, "a1": 1, "c9": 1, "f4": 1}),  # own markers in the borderland, at least 1
        ("pacru", {"e4": 3, "a1": 1, "c9": 1, "f4": 1}),
    ],
)
def test_each_game_counts_a_chevrons_power_its_own_way(game: str, expected: dict[str, int]) -> None:
    state = load(game, 2, markers=MARKERS, chevrons=CHEVRONS)
    assert state.powers() == expected
    assert all(state.power(CELL_INDEX[cell], 1) == p for cell, p in expected.items() if cell != "f4")
    # The power the refusals quote is the same count.
    if game != "shacru":
        with pytest.raises(engine.IllegalMove) as refused:
            state.play("a1-d4")
        assert refused.value.code == "power_too_low" and refused.value.params["power"] == 1


def test_the_rules_a_page_needs_come_from_the_registry() -> None:
    assert engine.variant("pacru").rules == {
        "reorientation": True,
        "twist": False,
        "notation_examples": ["a3-b4(c5)"],
    }
    for name in ("shacru", "azacru"):
        assert engine.variant(name).rules == {
            "reorientation": False,
            "twist": True,
            "notation_examples": ["a3-b4>", "e1-e2"],
        }


def test_the_suggested_payment_costs_the_least_power() -> None:
    # Seat 1's chevron e4 stands where three of its markers are (d4 e5 f6): each of those paid
    # costs it one field. Paying with b2 costs a1 nothing (1 marker or none: power 1 either way),
    # nor do g7 and h8 (no chevron of seat 1 there).
    state = load("pacru", 2, markers=MARKERS | paint(1, "g7 h8"), chevrons=["e4:1:N", "a1:1:NE", "f4:2:N"])
    removable = state.reorientations("e4").removable
    assert set(removable) >= {"b2", "g7", "h8", "d4", "e5", "f6"}
    assert state.cheapest_payment(removable, 2) == ["g7", "h8"]  # free; a tie goes to the first found
    four = state.cheapest_payment(removable, 4)
    assert sorted(four) == ["b2", "d4", "g7", "h8"]  # the three free ones and one that costs e4 a field
    paid = load("pacru", 2, markers={c: s for c, s in (MARKERS | paint(1, "g7 h8")).items() if c not in four},
                chevrons=["e4:1:N", "a1:1:NE", "f4:2:N"])  # fmt: skip
    assert paid.powers()["e4"] == state.powers()["e4"] - 1 == 2
    assert state.cheapest_payment(("b2",), 2) == []  # too few to pay
    options = state.turn_options()["reorient"]
    assert options["payments"] == {t: state.cheapest_payment(removable, 2 * len(t)) for t in options["turns"]}
