"""The random bot: uniform over complete legal moves, with an occasional reorientation."""

from __future__ import annotations

import random

from ..state import State
from .base import random_reorientation

REORIENT_RATE = 0.02


class RandomBot:
    level = "random"

    def choose(
        self,
        state: State,
        *,
        budget: float | None = None,
        seed: int | None = None,
        iterations: int | None = None,
    ) -> str:
        rng = random.Random(seed)
        if rng.random() < REORIENT_RATE:
            turn = random_reorientation(state, rng)
            if turn is not None:
                return turn
        return rng.choice(state.legal_moves())
