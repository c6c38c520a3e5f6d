"""Uniformly random play straight on the internal move tuples.

This is the fast path used by random playouts (benchmarks, the random bot,
property tests): it skips notation entirely but goes through the same
move generation and effect code as :meth:`State.play`.
"""

from __future__ import annotations

import random

from .board import CELL_NAMES
from .notation import TURN_SYMBOLS, Parsed, with_effects
from .pacru import PacruState
from .state import PINCER, State
from .stepgames import ShacruState, move_string
from .variants import new_game


def random_step(state: State, rng: random.Random, reorient_rate: float = 0.02) -> tuple[State, str]:
    """Play one uniformly chosen legal move; return the new state and its canonical text.

    In Pacru a reorientation is tried with probability ``reorient_rate``
    (random chevron, turn and removed markers) when the player can afford one.
    """
    if isinstance(state, PacruState):
        if reorient_rate and rng.random() < reorient_rate:
            removable = state._removable()
            if len(removable) >= 2:
                turn = rng.choice((-2, -1, 1, 2) if len(removable) >= 4 else (-1, 1))
                cell = rng.choice(state._cells_of(state.to_move))
                removed = sorted(rng.sample(removable, 2 * abs(turn)), key=CELL_NAMES.__getitem__)
                tokens = tuple(CELL_NAMES[c] for c in removed)
                text = with_effects(CELL_NAMES[cell] + TURN_SYMBOLS[turn], tokens)
                new = state._reorient(Parsed("reorient", cell, tokens=tokens, turn=turn), text)
                return new, text
        move = rng.choice(state._legal())
        tiles, occ, changes = state._steps_1_2(move)
        _kind, options = state._effect_options(move, tiles, occ)
        chosen: list[str] = []
        if options:
            option = rng.choice(options)
            chosen.append(option)
            state._apply_effect(move, option, tiles, changes)
        meeting = state._meeting_cells(move, tiles, occ)
        if meeting:
            cell = rng.choice(meeting)
            chosen.append(CELL_NAMES[cell])
            changes.append(cell)
        base = CELL_NAMES[move[0]] + ("x" if move[4] == PINCER else "-") + CELL_NAMES[move[1]]
        text = with_effects(base, chosen)
        return state._apply(move, changes, text), text
    assert isinstance(state, ShacruState)
    moves = state._legal()
    if not moves:
        return state._apply(None), "pass"
    move = rng.choice(moves)
    return state._apply(move), move_string(move)


def random_game(
    game: str, players: int, seed: int | None = None, **options: object
) -> tuple[State, list[str]]:
    """Play a whole random game; return the final state and the moves played."""
    rng = random.Random(seed)
    state = new_game(game, players, **options)
    moves = []
    while not state.is_over:
        state, text = random_step(state, rng)
        moves.append(text)
    return state, moves


__all__ = ["random_game", "random_step"]
