"""The variant registry (engine.variants), State.turn_options() and engine.position_scores()."""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine
from engine import variants
from engine.board import CELL_NAMES
from engine.pacru import SUPPLY, PacruState
from engine.playout import random_game, random_step
from engine.stepgames import AzacruState, ShacruState

try:
    from positions import load, paint
except ImportError:  # tests/engine collected as a package
    from tests.engine.positions import load, paint

SETUPS = [(g, n) for g in engine.GAMES for n in (2, 3, 4)]
OVER = {"base_moves": [], "choices": {}, "reorient": None}


def reference_turn_options(state: engine.State) -> dict[str, Any]:
    """What the web service computed before State.turn_options() existed, game name tests included."""
    if state.is_over:
        return {"base_moves": [], "choices": {}, "reorient": None}
    bases = state.base_moves()
    choices: dict[str, Any] = {}
    if state.game == "pacru":
        for base in bases:
            c = state.choices(base)
            entry: dict[str, Any] = {"effects": list(c.effects), "effect_kind": c.effect_kind}
            meetings = {str(k): list(v) for k, v in c.meetings.items() if v}
            if meetings:
                entry["meetings"] = meetings
            choices[base] = entry
    reorient = None
    if state.game == "pacru":
        cells = [CELL_NAMES[cell] for cell, _, _ in state.chevrons(state.to_move)]
        if cells:
            options = state.reorientations(cells[0])
            if options.turns:
                reorient = {
                    "cells": cells,
                    "turns": list(options.turns),
                    "removable": list(options.removable),
                    "payments": {
                        t: state.cheapest_payment(options.removable, 2 * len(t)) for t in options.turns
                    },
                }
    return {"base_moves": bases, "choices": choices, "reorient": reorient}


def random_positions(game: str, players: int, seed: int, count: int = 30) -> list[engine.State]:
    """States along random games (started again whenever one ends), the finished ones included."""
    rng = random.Random(seed)
    out: list[engine.State] = []
    state = engine.new_game(game, players)
    while len(out) < count:
        for _ in range(rng.randint(1, 12)):
            if state.is_over:
                break
            state, _ = random_step(state, rng)
        out.append(state)
        if state.is_over:
            state = engine.new_game(game, players)
    return out


# --- The registry ---------------------------------------------------------------


def test_three_variants_in_order():
    assert list(engine.VARIANTS) == ["shacru", "azacru", "pacru"]
    assert engine.GAMES == ("shacru", "azacru", "pacru")
    assert [v.label for v in engine.VARIANTS.values()] == ["Shacru", "Azacru", "Pacru"]
    assert all(engine.variant(name) is v and v.name == name for name, v in engine.VARIANTS.items())


def test_state_classes():
    assert engine.variant("pacru").state_class is PacruState
    assert engine.variant("shacru").state_class is ShacruState
    assert engine.variant("azacru").state_class is AzacruState
    for name, v in engine.VARIANTS.items():
        assert v.state_class.game == name
        assert type(engine.new_game(name, 2)) is v.state_class


def test_editions():
    pacru = engine.variant("pacru")
    assert pacru.editions == ("302", "2011")
    assert pacru.default_edition == "302"
    assert pacru.has_editions
    for name in ("shacru", "azacru"):
        v = engine.variant(name)
        assert v.editions == ()
        assert v.default_edition == ""
        assert not v.has_editions


@pytest.mark.parametrize("game", ["shacru", "azacru", "pacru"])
def test_has_editions_agrees_with_the_state(game):
    v = engine.variant(game)
    state = engine.new_game(game, 2)
    assert v.has_editions == type(state).has_editions == state.has_editions == bool(v.editions)
    assert ("edition" in state.to_dict()) == v.has_editions


@pytest.mark.parametrize("given, stored", [(None, "302"), ("", "302"), ("302", "302"), ("2011", "2011")])
def test_edition_for_pacru(given, stored):
    assert engine.variant("pacru").edition_for(given) == stored


@pytest.mark.parametrize("given", ["1999", "2012", "302 ", "pacru"])
def test_edition_for_pacru_rejects_unknown_editions(given):
    with pytest.raises(ValueError) as caught:
        engine.variant("pacru").edition_for(given)
    assert isinstance(caught.value, engine.InvalidPosition)
    message = str(caught.value)
    assert "'302'" in message and "'2011'" in message and repr(given) in message


@pytest.mark.parametrize("game", ["shacru", "azacru"])
@pytest.mark.parametrize("given", [None, "", "302", "2011", "anything"])
def test_edition_for_games_without_editions_is_empty(game, given):
    assert engine.variant(game).edition_for(given) == ""


def test_edition_for_is_accepted_by_new_game():
    for game in engine.GAMES:
        v = engine.variant(game)
        for given in (None, *v.editions):
            state = engine.new_game(game, 2, edition=v.edition_for(given))
            assert state.edition == v.edition_for(given)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_target(players):
    assert engine.variant("pacru").target(players) == SUPPLY[players]
    assert engine.variant("shacru").target(players) is None
    assert engine.variant("azacru").target(players) is None


@pytest.mark.parametrize("game, players", SETUPS)
def test_state_target_agrees_with_the_variant(game, players):
    state = engine.new_game(game, players)
    assert state.target == engine.variant(game).target(players)
    assert type(state).target_for(players) == state.target


@pytest.mark.parametrize("name", ["chess", "Pacru", "", " pacru"])
def test_unknown_variant(name):
    with pytest.raises(ValueError) as caught:
        engine.variant(name)
    assert isinstance(caught.value, engine.InvalidPosition)
    message = str(caught.value)
    assert repr(name) in message
    assert all(game in message for game in ("shacru", "azacru", "pacru"))


@pytest.mark.parametrize("name", [None, 3, ["pacru"]])
def test_variant_of_a_non_string_is_unknown(name):
    with pytest.raises(engine.InvalidPosition, match="unknown game"):
        engine.variant(name)


def test_variant_is_frozen():
    with pytest.raises(AttributeError):
        engine.variant("pacru").label = "Other"


@pytest.mark.parametrize("game", ["shacru", "azacru"])
def test_new_game_ignores_the_edition_outside_pacru(game):
    assert engine.new_game(game, 2, edition="2011") == engine.new_game(game, 2)
    assert engine.new_game(game, 2, edition="nonsense").edition == ""


# --- turn_options() ---------------------------------------------------------------


def test_turn_options_pacru_start():
    s = engine.new_game("pacru", 2)
    options = s.turn_options()
    assert options == reference_turn_options(s)
    assert list(options) == ["base_moves", "choices", "reorient"]
    assert options["base_moves"] == s.base_moves()
    assert list(options["choices"]) == s.base_moves()
    assert options["reorient"] is None  # no markers on the board yet
    entry = options["choices"]["a3-b4"]
    assert entry == {"effects": list(s.choices("a3-b4").effects), "effect_kind": "change"}
    assert "b4" in entry["effects"]  # no meeting at the start, so no "meetings" key


def test_turn_options_pacru_mid_game_with_meeting_and_reorientation():
    # e4 moves N onto e5 (seat 1's) and meets the chevron on e6; seat 1 has five free markers.
    s = load(
        "pacru",
        2,
        markers=paint(1, "e5 e6 a1 b2 c3 d4") | paint(2, "i9"),
        chevrons=["e4:1:N", "e6:1:S", "a9:2:S"],
    )
    options = s.turn_options()
    assert options == reference_turn_options(s)
    entry = options["choices"]["e4-e5"]
    assert entry["effects"] == [] and entry["effect_kind"] is None
    assert entry["meetings"] == {"None": list(s.choices("e4-e5").meetings[None])}
    assert options["reorient"] == {
        "cells": ["e4", "e6"],
        "turns": ["<", ">", "<<", ">>"],
        "removable": ["a1", "b2", "c3", "d4", "e5"],
        # The cheapest in power: a1, b2 and c3 lie where seat 1 has no chevron; then d4 (e4 and
        # e6 each lose one) before e5 (the same loss, later in field order).
        "payments": {
            "<": ["a1", "b2"],
            ">": ["a1", "b2"],
            "<<": ["a1", "b2", "c3", "d4"],
            ">>": ["a1", "b2", "c3", "d4"],
        },
    }
    # Direct computation from choices() and reorientations().
    for base in options["base_moves"]:
        c = s.choices(base)
        assert options["choices"][base]["effects"] == list(c.effects)
        assert options["choices"][base]["effect_kind"] == c.effect_kind
        meetings = {str(k): list(v) for k, v in c.meetings.items() if v}
        assert options["choices"][base].get("meetings", {}) == meetings
    r = s.reorientations("e6")
    assert options["reorient"]["turns"] == list(r.turns)
    assert options["reorient"]["removable"] == list(r.removable)


def test_turn_options_pacru_reorientation_not_affordable():
    s = load("pacru", 2, markers=paint(1, "e5 a1") | paint(2, "i9"), chevrons=["e5:1:N", "a9:2:S"])
    assert s.reorientations("e5").turns == ()
    assert s.turn_options()["reorient"] is None
    assert s.turn_options() == reference_turn_options(s)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("edition", ["302", "2011"])
def test_turn_options_pacru_random_positions(players, edition):
    rng = random.Random(players * 10 + len(edition))
    state = engine.new_game("pacru", players, edition=edition)
    seen_reorient = False
    for _ in range(120):
        if state.is_over:
            state = engine.new_game("pacru", players, edition=edition)
        options = state.turn_options()
        assert options == reference_turn_options(state)
        seen_reorient |= options["reorient"] is not None
        state, _ = random_step(state, rng)
    assert seen_reorient


@pytest.mark.parametrize("game", ["shacru", "azacru"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_turn_options_step_games(game, players):
    for state in random_positions(game, players, seed=players):
        options = state.turn_options()
        assert options == reference_turn_options(state)
        if not state.is_over:
            assert options == {"base_moves": state.base_moves(), "choices": {}, "reorient": None}


def test_turn_options_step_game_pass():
    s = load("shacru", 2, markers=paint(2, "e6 d6 f6"), chevrons=["e5:1:N", "a1:2:N"])
    assert not s.is_over
    assert s.turn_options() == {"base_moves": ["pass"], "choices": {}, "reorient": None}


@pytest.mark.parametrize("game, players", SETUPS)
def test_turn_options_finished_game(game, players):
    state, _ = random_game(game, players, seed=3)
    assert state.is_over
    assert state.turn_options() == OVER


def test_turn_options_after_resignation_ends_the_game():
    s = engine.new_game("pacru", 2).play("a3-b4(b4)").eliminate(2)
    assert s.is_over
    assert s.turn_options() == OVER


# --- position_scores() ----------------------------------------------------------


@pytest.mark.parametrize("game, players", SETUPS)
def test_position_scores_equals_loaded_scores(game, players):
    for state in random_positions(game, players, seed=40 + players):
        doc = state.to_dict()
        assert engine.position_scores(doc) == engine.load(doc).scores == state.scores


def test_position_scores_of_a_start_position():
    assert engine.position_scores(engine.new_game("azacru", 4).to_dict()) == {1: 0, 2: 0, 3: 0, 4: 0}


# --- Public names -----------------------------------------------------------------


def test_public_names():
    for name in ("Variant", "VARIANTS", "variant", "position_scores", "GAMES", "new_game", "load", "State"):
        assert name in engine.__all__
        assert hasattr(engine, name)
    assert engine.new_game is variants.new_game and engine.load is variants.load
