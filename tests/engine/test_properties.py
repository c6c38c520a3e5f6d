"""Properties that hold over random legal playouts of every game and player count."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine.playout import random_step
from engine.records import Record, parse_record

GAME_SETUPS = [(g, n) for g in engine.GAMES for n in (2, 3, 4)]
SUPPLY = {2: 42, 3: 28, 4: 24}

playouts = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)


def check_invariants(state: engine.State) -> None:
    doc = state.to_dict()
    cells = [c.split(":")[0] for c in doc["chevrons"]]
    assert len(cells) == len(set(cells)), "a field holds two chevrons"
    for seat in state.eliminated:
        assert not [c for c in doc["chevrons"] if c.split(":")[1] == str(seat)]
    markers = {s: doc["tiles"].count(str(s)) for s in range(1, state.players + 1)}
    assert markers == state.scores
    if state.game == "pacru":
        assert all(n <= SUPPLY[state.players] for n in markers.values())
    assert engine.load(doc) == state
    assert engine.load(doc).to_dict() == doc
    ranks = state.ranking()
    assert sorted(ranks) == list(range(1, state.players + 1))
    # A valid competition ranking: rank r is taken by exactly the players with r-1 others above.
    for seat, rank in ranks.items():
        assert rank == 1 + sum(1 for r in ranks.values() if r < rank), (seat, ranks)
    if state.is_over and state.winner is not None:
        assert ranks[state.winner] == 1
        assert list(ranks.values()).count(1) == 1


def check_listed_moves_play(state: engine.State, rng: random.Random) -> None:
    """Every listed move (a sample of the complete ones) plays and prints canonically."""
    bases = state.base_moves()
    assert bases == sorted(bases) and len(bases) == len(set(bases))
    complete: list[str] = []
    for base in bases:
        if base == "pass":
            assert bases == ["pass"]
            complete.append(base)
            continue
        choices = state.choices(base)
        if state.game == "pacru":
            assert choices.move == base
            complete.extend(choices.moves())
        else:
            # Shacru/Azacru base moves are complete already (twist included).
            assert base in choices.moves()
            complete.append(base)
    assert sorted(complete) == sorted(state.legal_moves())
    for move in rng.sample(complete, min(len(complete), 12)):
        after = state.play(move)
        assert after.last_move == move
        assert after.ply == state.ply + 1
        assert engine.load(after.to_dict()) == after


@playouts
@given(setup=st.sampled_from(GAME_SETUPS), seed=st.integers(0, 2**32 - 1))
def test_random_playouts_keep_every_invariant(setup: tuple[str, int], seed: int) -> None:
    game, players = setup
    rng = random.Random(seed)
    state = engine.new_game(game, players)
    record = Record(game, players)
    while not state.is_over:
        before = state
        state, text = random_step(before, rng)
        record.actions.append(text)
        # The fast path and the text API agree, and the text is canonical.
        replayed = before.play(text)
        assert replayed == state and replayed.last_move == text
        assert engine.load(before.to_dict()) == before, "play() changed the old state"
        check_invariants(state)
        if state.ply % 7 == 0 and not state.is_over:
            check_listed_moves_play(state, rng)
    assert state.end_reason
    text = record.to_text()
    assert parse_record(text).replay() == state
    assert engine.replay(text).to_dict() == state.to_dict()


@playouts
@given(setup=st.sampled_from(GAME_SETUPS), seed=st.integers(0, 2**32 - 1))
def test_resignations_keep_the_game_consistent(setup: tuple[str, int], seed: int) -> None:
    game, players = setup
    rng = random.Random(seed)
    state = engine.new_game(game, players)
    record = Record(game, players)
    while not state.is_over:
        if rng.random() < 0.03:
            seat = rng.choice([s for s in range(1, players + 1) if s not in state.eliminated])
            reason = rng.choice(["resign", "timeout"])
            state = state.eliminate(seat, reason)
            record.actions.append(f"{reason} {seat}")
            assert (seat, reason) in state.last_eliminations
        else:
            state, text = random_step(state, rng)
            record.actions.append(text)
        check_invariants(state)
        if not state.is_over:
            assert state.to_move not in state.eliminated
    assert engine.replay(record.to_text()) == state
