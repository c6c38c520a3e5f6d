"""Engine players of graded strength: ``random``, ``greedy`` and ``search``.

Every bot answers :meth:`Bot.choose` with one complete canonical move string
(effect cells, ``(*)``, meeting cell, reorientations and their removed
markers included) that :meth:`State.play` accepts. Bots are deterministic for
a given seed (the search bot with a fixed ``iterations`` count; with a time
budget its depth depends on the machine's speed) and never play an illegal
move: they only ever choose among moves the engine generated.

>>> import engine
>>> from engine.bots import get
>>> s = engine.new_game("pacru", 2)
>>> move = get("greedy").choose(s, seed=1)
>>> s.play(move).last_move == move
True
"""

from __future__ import annotations

from .base import Bot
from .greedy import GreedyBot
from .random_bot import RandomBot
from .search import SearchBot

LEVELS = ("random", "greedy", "search")


def get(level: str) -> Bot:
    """The bot of this level (``random``, ``greedy`` or ``search``)."""
    if level == "random":
        return RandomBot()
    if level == "greedy":
        return GreedyBot()
    if level == "search":
        return SearchBot()
    raise ValueError(f"unknown bot level {level!r}: choose one of {', '.join(LEVELS)}")


__all__ = ["LEVELS", "Bot", "GreedyBot", "RandomBot", "SearchBot", "get"]
