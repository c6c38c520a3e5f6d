"""The greedy bot: one move of lookahead with the shared evaluation.

Every candidate move (every base move and effect choice, the few most useful
meeting fields) is played and its position evaluated for the mover; the best
wins, ties broken by the seed.
"""

from __future__ import annotations

import random

from ..state import State
from .base import candidates, evaluate


class GreedyBot:
    level = "greedy"

    def choose(
        self,
        state: State,
        *,
        budget: float | None = None,
        seed: int | None = None,
        iterations: int | None = None,
    ) -> str:
        rng = random.Random(seed)
        me = state.to_move
        best: list[str] = []
        best_value = float("-inf")
        for move in candidates(state):
            value = evaluate(state.play(move), me)
            if value > best_value + 1e-9:
                best, best_value = [move], value
            elif abs(value - best_value) <= 1e-9:
                best.append(move)
        return rng.choice(best)
