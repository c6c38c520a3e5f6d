"""Engine players of graded strength: levels ``"1"`` … ``"8"`` (:mod:`engine.bots.levels`) and
the three kinds they are made of, ``random``, ``greedy`` and ``search``.

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

from .base import Bot, Verdict
from .greedy import GreedyBot
from .levels import CODES, LevelBot, level
from .random_bot import RandomBot
from .search import SearchBot

#: The legacy kinds (still valid names): the random, greedy and search bots themselves, the
#: search bot thinking for a time budget.
LEVELS = ("random", "greedy", "search")


def get(name: str) -> Bot:
    """The bot called ``name``: a level ``"1"`` … ``"8"`` (or its code name), which searches a fixed
    amount of work per move, or one of the kinds ``random``, ``greedy`` and ``search`` (the search
    bot thinking for the ``budget`` it is given, or for ``iterations``)."""
    if name == "random":
        return RandomBot()
    if name == "greedy":
        return GreedyBot()
    if name == "search":
        return SearchBot()
    try:
        return LevelBot(level(name).number)
    except ValueError:
        raise ValueError(
            f"unknown bot level {name!r}: choose one of {', '.join(CODES)} or {', '.join(LEVELS)}"
        ) from None


__all__ = ["CODES", "LEVELS", "Bot", "GreedyBot", "LevelBot", "RandomBot", "SearchBot", "Verdict", "get"]
