"""RULES.md §7: ply limit, resignation and timeout (all games)."""

import pytest

import engine

try:
    from positions import chevrons, load, paint, rank
except ImportError:  # tests/engine collected as a package
    from tests.engine.positions import chevrons, load, paint, rank


@pytest.mark.parametrize("game", ["shacru", "azacru", "pacru"])
def test_7_default_ply_limit_is_1000(game):
    assert engine.new_game(game, 2).to_dict()["ply_limit"] == 1000


def test_7_ply_limit_option_ends_pacru_game_without_winner():
    s = engine.new_game("pacru", 2, ply_limit=1).play("e1-e2")
    assert s.is_over
    assert s.winner is None
    assert s.ranking() == {1: 1, 2: 1}


def test_7_ply_limit_pacru_ranked_by_markers_with_no_winner():
    s = load(
        "pacru",
        2,
        markers=paint(1, "a9 b9 c9") | paint(2, "a8"),
        chevrons=["e5:1:N", "a1:2:NE"],
        ply=999,
        ply_limit=1000,
    )
    after = s.play("e5-e6")
    assert (after.ply, after.is_over, after.winner) == (1000, True, None)
    assert after.ranking() == {1: 1, 2: 2}


def test_7_ply_limit_ranking_players_in_first_then_players_out():
    # Seat 3 is out with the most markers; seats 1 and 2 share rank 1.
    s = load(
        "pacru",
        3,
        markers=paint(1, "a9 b9 c9 d9 e9") | paint(2, "a8 b8 c8 d8 e8") | paint(3, rank(7)),
        chevrons=["e5:1:N", "a1:2:NE"],
        eliminated=[3],
        ply=999,
    )
    after = s.play("e5-e6")
    assert after.is_over and after.winner is None
    assert after.ranking() == {1: 1, 2: 1, 3: 3}


def test_7_ply_limit_shared_ranks_skip_places():
    # 1,2,2,4 style: scores 4, 2, 2, 1.
    s = load(
        "pacru",
        4,
        markers=paint(1, "a9 b9 c9 d9") | paint(2, "a8 b8") | paint(3, "a7 b7") | paint(4, "i9"),
        chevrons=["e5:1:N", "a1:2:NE", "i1:3:NW", "i5:4:W"],
        ply=999,
    )
    assert s.play("e5-e6").ranking() == {1: 1, 2: 2, 3: 2, 4: 4}


@pytest.mark.parametrize("game", ["shacru", "azacru"])
def test_7_ply_limit_ends_shacru_and_azacru(game):
    s = engine.new_game(game, 2, ply_limit=2).play("e1-e2").play("e9-e8")
    assert s.is_over
    assert s.scores == {1: 1, 2: 1}
    assert s.ranking() == {1: 1, 2: 1}
    assert s.winner is None


@pytest.mark.parametrize("game", ["shacru", "azacru", "pacru"])
@pytest.mark.parametrize("reason", ["resign", "timeout"])
def test_7_two_player_resign_or_timeout_other_player_wins(game, reason):
    s = engine.new_game(game, 2)
    after = s.eliminate(1, reason)
    assert after.last_eliminations == ((1, reason),)
    assert after.eliminated == (1,)
    assert after.is_over and after.winner == 2
    assert after.ranking() == {2: 1, 1: 2}
    assert all(":2:" in c for c in chevrons(after))


def test_7_eliminate_default_reason_is_resign():
    assert engine.new_game("pacru", 2).eliminate(2).last_eliminations == ((2, "resign"),)


def test_7_eliminate_is_not_a_ply():
    s = engine.new_game("pacru", 3).play("g1-g2")
    assert s.eliminate(3, "timeout").ply == 1


@pytest.mark.parametrize("game", ["shacru", "pacru"])
def test_7_three_player_timeout_removes_chevrons_keeps_markers(game):
    s = load(
        game,
        3,
        markers=paint(3, "i9 h9"),
        chevrons=["e5:1:N", "a9:2:S", "i1:3:N"],
    )
    after = s.eliminate(3, "timeout")
    assert after.last_eliminations == ((3, "timeout"),)
    assert chevrons(after) == {"e5:1:N", "a9:2:S"}
    assert after.scores == {1: 0, 2: 0, 3: 2}
    assert (after.to_move, after.is_over) == (1, False)
    assert after.to_dict()["tiles"] == s.to_dict()["tiles"]


@pytest.mark.parametrize("game", ["shacru", "pacru"])
def test_7_resignation_of_player_on_turn_passes_the_turn(game):
    s = load(game, 3, chevrons=["e5:1:N", "a9:2:S", "i1:3:N"])
    after = s.eliminate(1)
    assert (after.to_move, after.eliminated, after.is_over) == (2, (1,), False)


def test_7_players_out_ranked_later_eliminated_first_pacru():
    s = load("pacru", 4, chevrons=["e5:1:N", "a9:2:S", "i1:3:N", "i5:4:W"])
    s = s.eliminate(3).eliminate(2, "timeout").eliminate(4)
    assert s.is_over and s.winner == 1
    assert s.eliminated == (3, 2, 4)
    assert s.ranking() == {1: 1, 4: 2, 2: 3, 3: 4}
