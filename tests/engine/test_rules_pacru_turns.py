"""RULES.md §6.4–§6.6: reorientation (R14), elimination (R15), supply and winning (R1, R16)."""

import pytest

import engine

try:
    from positions import cells, chevrons, diff, load, paint, rank
except ImportError:  # tests/engine collected as a package
    from tests.engine.positions import cells, chevrons, diff, load, paint, rank


# --- Reorientation (R14) ------------------------------------------------------


def _reorient(own="e5 a1 b2 c3 d4", extra_chevrons=()):
    return load(
        "pacru",
        2,
        markers=paint(1, own) | paint(2, "i9"),
        chevrons=["e5:1:N", "a9:2:S", *extra_chevrons],
    )


def test_r14_reorientation_options_with_four_free_markers():
    r = _reorient().reorientations("e5")
    assert set(r.turns) == {"<", "<<", ">", ">>"}
    assert r.removable == ("a1", "b2", "c3", "d4")  # e5 holds the chevron


@pytest.mark.parametrize(
    "move, facing",
    [
        ("e5<(a1,b2)", "NW"),
        ("e5>(a1,b2)", "NE"),
        ("e5<<(a1,b2,c3,d4)", "W"),
        ("e5>>(a1,b2,c3,d4)", "E"),
    ],
)
def test_r14_reorientation_turns_chevron_in_place(move, facing):
    s = _reorient()
    after = s.play(move)
    assert chevrons(after) == {f"e5:1:{facing}", "a9:2:S"}
    assert (after.to_move, after.ply) == (2, 1)


def test_r14_reorientation_45_costs_two_markers_and_nothing_else():
    s = _reorient()
    after = s.play("e5>(a1,b2)")
    assert diff(s, after) == {"a1": ("1", "-"), "b2": ("1", "-")}
    assert after.scores == {1: 3, 2: 1}


def test_r14_reorientation_90_costs_four_markers():
    s = _reorient()
    after = s.play("e5<<(a1,b2,c3,d4)")
    assert diff(s, after) == {c: ("1", "-") for c in ["a1", "b2", "c3", "d4"]}


def test_r14_three_free_markers_afford_only_45_degrees():
    s = _reorient(own="e5 a1 b2 c3")
    assert set(s.reorientations("e5").turns) == {"<", ">"}
    with pytest.raises(engine.IllegalMove):
        s.play("e5<<(a1,b2,c3,e5)")


def test_r14_markers_under_chevrons_cannot_be_removed():
    s = _reorient(extra_chevrons=["c3:1:N"])
    r = s.reorientations("e5")
    assert r.removable == ("a1", "b2", "d4")
    assert set(r.turns) == {"<", ">"}
    for move in ["e5>(a1,e5)", "e5>(a1,c3)"]:
        with pytest.raises(engine.IllegalMove):
            s.play(move)


def test_r14_not_enough_markers_is_illegal():
    s = _reorient(own="e5 a1")
    assert s.reorientations("e5").turns == ()
    with pytest.raises(engine.IllegalMove) as err:
        s.play("e5>(a1)")
    assert "marker" in str(err.value).lower()


@pytest.mark.parametrize(
    "move",
    [
        "e5>(a1,i9)",  # an opponent's marker
        "e5>(a1)",  # too few
        "e5>(a1,b2,c3)",  # too many for 45 degrees
        "e5>>(a1,b2)",  # too few for 90 degrees
        "e5>(a1,a1)",  # the same marker twice
        "e5>(a1,e7)",  # a neutral field
        "a9>(a1,b2)",  # the opponent's chevron
        "d4>(a1,b2)",  # no chevron there
    ],
)
def test_r14_bad_reorientations_are_illegal(move):
    with pytest.raises(engine.IllegalMove):
        _reorient().play(move)


# --- Elimination (R15) ----------------------------------------------------------


def test_r15_pincer_taking_last_chevron_puts_player_out():
    s = load("pacru", 2, chevrons=["e5:2:S", "e4:1:N", "d6:1:SE"])
    after = s.play("e4xe5")
    assert after.last_eliminations == ((2, "captured"),)
    assert after.eliminated == (2,)
    assert after.is_over and after.winner == 1
    assert after.ranking() == {1: 1, 2: 2}


def test_r15_capture_out_in_three_player_game_play_continues():
    s = load("pacru", 3, chevrons=["e5:2:S", "e4:1:N", "d6:1:SE", "a9:3:S"])
    after = s.play("e4xe5")
    assert (after.eliminated, after.to_move, after.is_over) == ((2,), 3, False)


def test_r15_blocked_player_on_turn_is_out_at_load():
    # Decision 7. a1 facing SW cannot move; seat 2 could afford a reorientation
    # (b1, c1) but only moves count.
    s = load(
        "pacru",
        3,
        markers=paint(2, "b1 c1"),
        chevrons=["e5:1:N", "a1:2:SW", "a9:3:S"],
        to_move=2,
    )
    assert s.eliminated == (2,)
    assert s.last_eliminations == ((2, "blocked"),)
    assert s.to_move == 3
    assert chevrons(s) == {"e5:1:N", "a9:3:S"}
    assert s.scores == {1: 0, 2: 2, 3: 0}  # the markers stay and count


def test_r15_player_with_one_movable_chevron_is_not_blocked():
    s = load("pacru", 2, chevrons=["e5:1:N", "a1:2:SW", "e9:2:S"], to_move=2)
    assert s.eliminated == ()
    assert s.base_moves() == ["e9-d8", "e9-e8", "e9-f8"]


def test_r15_move_that_blocks_the_opponent_eliminates_it():
    # After c3-b2, a1 facing NE has a2 and b1 of seat 1's colour and b2 occupied.
    s = load("pacru", 2, markers=paint(1, "a2 b1"), chevrons=["c3:1:SW", "a1:2:NE"])
    after = s.play("c3-b2")
    assert after.last_eliminations == ((2, "blocked"),)
    assert after.is_over and after.winner == 1


def test_r15_blocked_players_eliminated_in_cascade():
    s = load("pacru", 4, chevrons=["e5:1:N", "a1:2:SW", "i9:3:NE", "e1:4:N"])
    after = s.play("e5-e6")
    assert after.last_eliminations == ((2, "blocked"), (3, "blocked"))
    assert after.eliminated == (2, 3)
    assert (after.to_move, after.ply, after.is_over) == (4, 1, False)


def test_r15_cascade_leaves_last_player_standing_who_wins():
    s = load("pacru", 3, markers=paint(2, "b1 c1 d1"), chevrons=["e5:1:N", "a1:2:SW", "i9:3:NE"])
    after = s.play("e5-e6")
    assert after.eliminated == (2, 3)
    assert after.is_over and after.winner == 1
    # Out players: the later-eliminated (3) above the earlier (2), markers regardless.
    assert after.ranking() == {1: 1, 3: 2, 2: 3}


def test_r15_out_player_markers_stay_on_the_board():
    s = load("pacru", 3, markers=paint(2, "b1 c1 d1"), chevrons=["e5:1:N", "a1:2:SW", "i9:3:S"])
    after = s.play("e5-e6")
    assert after.eliminated == (2,)
    assert after.scores[2] == 3
    assert diff(s, after) == {}


# --- Supply and winning (R1, R16) -----------------------------------------------

# 41 of seat 1's markers, leaving e5's borderland and d2, d3 free.
FORTY_ONE = rank(7) + rank(8) + rank(9) + cells("a4 b4 c4 g4 h4 i4 a5 b5 c5 g5", "d1 e1 f1 d4")


def test_r16_supply_cap_on_winning_connection_change():
    assert len(FORTY_ONE) == 41
    s = load("pacru", 2, markers=paint(1, FORTY_ONE), chevrons=["d1:1:N", "i1:2:NW"])
    assert "d1-d4(*)" in s.choices("d1-d4").moves()
    after = s.play("d1-d4(*)")
    # The connection fills from F towards T: only d2 gets the 42nd marker.
    assert diff(s, after) == {"d2": ("-", "1")}
    assert after.scores[1] == 42
    assert after.is_over and after.winner == 1
    assert after.ranking() == {1: 1, 2: 2}


def test_r16_supply_cap_border_cell_before_meeting_cell():
    own = rank(7) + rank(8) + rank(9) + cells("a1 b1 c1 d1 f1 g1 h1 i1", "a4 b4 c4 g4 h4 e5")
    assert len(own) == 41
    s = load(
        "pacru",
        2,
        markers=paint(1, own) | paint(2, "d4 d5 d6 e6 f4 f5"),
        chevrons=["e3:1:N", "e5:1:S", "i5:2:W"],
    )
    # The meeting is still written (judged as if markers were unlimited) ...
    assert "e3-e4(e4,e3)" in s.choices("e3-e4").moves()
    after = s.play("e3-e4(e4,e3)")
    # ... but only the border cell is placed.
    assert diff(s, after) == {"e4": ("-", "1")}
    assert after.is_over and after.winner == 1


def test_r16_supply_cap_pincer_field_before_border_cell():
    own = rank(7) + rank(8) + rank(9) + rank(1) + ["a2", "b2", "c2", "g2", "h2"]
    assert len(own) == 41
    s = load(
        "pacru",
        2,
        markers=paint(1, own),
        chevrons=["c5:1:E", "e4:1:NW", "d5:2:N", "i5:2:W"],
    )
    after = s.play("c5xd5(e5)")  # e5 is still a valid border cell
    assert diff(s, after) == {"d5": ("-", "1")}
    assert after.is_over and after.winner == 1


@pytest.mark.parametrize(
    "players, own, others",
    [
        (3, rank(7) + rank(8) + rank(9), ["a1:2:NE", "i1:3:NW"]),
        (4, rank(8) + rank(9) + ["a7", "b7", "c7", "d7", "e7"], ["a1:2:NE", "i1:3:NW", "i5:4:W"]),
    ],
)
def test_r16_target_is_28_for_three_and_24_for_four_players(players, own, others):
    s = load("pacru", players, markers=paint(1, own), chevrons=["e3:1:N", *others])
    after = s.play("e3-e4(e4)")
    assert after.scores[1] == {3: 28, 4: 24}[players]
    assert after.is_over and after.winner == 1
    assert after.ranking() == {1: 1, **{seat: 2 for seat in range(2, players + 1)}}


def test_r16_two_players_need_42():
    s = load("pacru", 2, markers=paint(1, rank(7) + rank(8) + rank(9)), chevrons=["e3:1:N", "a1:2:NE"])
    after = s.play("e3-e4(e4)")
    assert after.scores[1] == 28
    assert not after.is_over and after.winner is None


def test_r16_ranking_winner_then_players_with_chevrons_then_out_players():
    # Seat 3 went out first with 10 markers, seat 4 later with none.
    s = load(
        "pacru",
        4,
        markers=paint(1, rank(8) + rank(9) + ["a7", "b7", "c7", "d7", "e7"])
        | paint(2, "g1 h1 i1")
        | paint(3, "f7 g7 h7 i7 a6 b6 c6 g6 h6 i6"),
        chevrons=["e3:1:N", "a1:2:NE"],
        eliminated=[3, 4],
    )
    after = s.play("e3-e4(e4)")
    assert after.winner == 1
    assert after.ranking() == {1: 1, 2: 2, 4: 3, 3: 4}
    assert after.scores == {1: 24, 2: 3, 3: 10, 4: 0}


def test_r16_reorientation_markers_return_to_supply():
    # 41 on the board; a 45-degree turn takes 2 of them back off the board.
    s = load("pacru", 2, markers=paint(1, FORTY_ONE), chevrons=["d1:1:N", "i1:2:NW"])
    after = s.play("d1>(a7,b7)")
    assert after.scores[1] == 39
    assert not after.is_over
