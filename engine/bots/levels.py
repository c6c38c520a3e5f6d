"""Bot levels 1–8: graded strength defined by work, not by time.

A level is three things, each independent of the machine:

* **how far it looks**: none (level 1 plays at random), one move (levels 2–4: the greedy bot's
  evaluation of each candidate), or an iterative-deepening alpha-beta search to a fixed
  ``depth`` in plies (levels 5–8; per game, because a ply of Pacru costs far more than one of
  Shacru or Azacru);
* **how much it may search**: a budget of positions per move (``work``), so a complicated
  position cannot make a move run long; the search stops there even if its depth is not done;
* **how careless it is**: ``noise``, the share of its moves played as a random candidate
  instead of its choice, drawn from the move's seed (per game too: a careless move costs more in
  some games than in others).

The steps between the levels are steps of depth (one move to a search, a shallow search to a deep
one) and of carelessness (half the moves, one in five, one in ten, none; in Pacru, whose step from
three plies to five is the largest, one in twelve and one in thirty-three between its five-ply
levels); the top level thinks a second or two a move. How far apart they are is measured by the bot
ladder (:mod:`analysis.ladder`; this release's table is in ``docs/players/bots.md``). A level plays
the same moves on any machine and its move is reproducible from a seed; ``cap`` (seconds) is only a
safety limit that a normal move never reaches.

The legacy names stay: ``random`` is level 1, ``greedy`` level 4 (the greedy bot without
carelessness) and ``search`` level 6.

>>> import engine
>>> s = engine.new_game("shacru", 2)
>>> choose(s, 6, seed=7) == choose(s, 6, seed=7, clock=lambda: 0.0)
True
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..state import State
from .base import Verdict, candidates
from .greedy import GreedyBot
from .random_bot import RandomBot
from .search import SearchBot

GAMES = ("pacru", "shacru", "azacru")


@dataclass(frozen=True)
class Level:
    number: int  # 1..8
    name: str  # English code name, stable
    kind: str  # "random" | "greedy" | "search"
    noises: tuple[float, float, float]  # the share of moves played as a random candidate, per game
    depths: tuple[int, int, int]  # plies of alpha-beta in Pacru, Shacru, Azacru (0: no search)
    budgets: tuple[int, int, int]  # positions the search may visit per move, same order
    cap: float  # seconds: a safety cap only

    def noise(self, game: str) -> float:
        """The share of its moves the level plays as a random candidate in ``game`` (0: none)."""
        return self.noises[GAMES.index(game)]

    def depth(self, game: str) -> int:
        """How many plies deep the level searches in ``game`` (0 for random and greedy)."""
        return self.depths[GAMES.index(game)]

    def work(self, game: str) -> int:
        """The positions per move the level may search in ``game`` (0 for random and greedy)."""
        return self.budgets[GAMES.index(game)]

    @property
    def code(self) -> str:
        """The level as the site stores it (``"1"`` … ``"8"``)."""
        return str(self.number)


_NONE = (0, 0, 0)
#: The shallow and the deep search per game (plies; Pacru's searches never end on the searching
#: seat's own turn, so at 2 seats they are 1, 3, 5 … plies), and their budgets. Shacru's deep
#: budget lets its five plies finish from a middle-game position (some 37,000 positions; cut at
#: 25,000, its level 8 took 58 % from level 7 in the ladder, finished 71 %). Pacru's five plies
#: (up to 80,000) and Azacru's four (40,000–50,000) are still cut short there.
SHALLOW, SHALLOW_WORK = (3, 3, 3), (8_000, 8_000, 8_000)
DEEP, DEEP_WORK = (5, 5, 4), (25_000, 60_000, 25_000)
#: The deep search in Pacru, the shallow one in Shacru and Azacru (Pacru's level 6).
PACRU_DEEP = (DEEP[0], *SHALLOW[1:])
PACRU_DEEP_WORK = (DEEP_WORK[0], *SHALLOW_WORK[1:])

LEVELS: tuple[Level, ...] = (
    Level(1, "beginner", "random", (1.0, 1.0, 1.0), _NONE, _NONE, 5.0),
    Level(2, "novice", "greedy", (0.5, 0.5, 0.5), _NONE, _NONE, 10.0),
    Level(3, "casual", "greedy", (0.2, 0.2, 0.2), _NONE, _NONE, 10.0),
    Level(4, "club", "greedy", (0.0, 0.0, 0.0), _NONE, _NONE, 10.0),
    # Pacru: a careless move costs a three-ply search its edge over one move of lookahead (the
    # ladder had it at 52 % against level 4), and the step from three plies to five is the largest
    # there is, so Pacru's level 5 searches three plies with care and its levels 6-8 five plies,
    # careless one move in twelve, one in thirty-three, and never.
    Level(5, "strong", "search", (0.0, 0.1, 0.1), SHALLOW, SHALLOW_WORK, 30.0),
    Level(6, "expert", "search", (0.08, 0.0, 0.0), PACRU_DEEP, PACRU_DEEP_WORK, 60.0),
    # Shacru: a careless move in ten cost more than two plies of depth gained (the ladder had
    # this level at 47 % against level 6), so its step to level 8 is four plies, none careless.
    Level(7, "master", "search", (0.03, 0.0, 0.1), (5, 4, 4), DEEP_WORK, 60.0),
    Level(8, "grandmaster", "search", (0.0, 0.0, 0.0), DEEP, DEEP_WORK, 60.0),
)

#: The names bots had before levels: they stay valid everywhere a level is taken.
LEGACY = {"random": 1, "greedy": 4, "search": 6}

CODES: tuple[str, ...] = tuple(lv.code for lv in LEVELS)


def level(number: int | str) -> Level:
    """The level ``number`` (``3``, ``"3"``, a code name such as ``"club"``, or a legacy name:
    ``random`` = 1, ``greedy`` = 4, ``search`` = 6). Raises ``ValueError`` for anything else."""
    key = number.strip().lower() if isinstance(number, str) else number
    if isinstance(key, str):
        if key in LEGACY:
            key = LEGACY[key]
        elif key.isdigit():
            key = int(key)
        else:
            key = next((lv.number for lv in LEVELS if lv.name == key), 0)
    if isinstance(key, int) and not isinstance(key, bool) and 1 <= key <= len(LEVELS):
        return LEVELS[key - 1]
    raise ValueError(f"unknown bot level {number!r}: choose 1 to {len(LEVELS)} or one of {', '.join(LEGACY)}")


def is_level(value: object) -> bool:
    """Whether ``value`` names a level (a number, its code name or a legacy name)."""
    try:
        level(value)  # type: ignore[arg-type]
    except (ValueError, TypeError):
        return False
    return True


def choose(
    state: State,
    number: int | str,
    *,
    seed: int,
    clock: Callable[[], float] = time.perf_counter,
    careless: bool = True,
) -> str:
    """The move level ``number`` plays in ``state``: the same for a seed on any machine and any
    clock, unless the level's safety cap is reached first. ``careless=False`` leaves out the
    level's careless moves (a hint is the level's own choice, never a random one)."""
    return LevelBot(number, clock=clock, careless=careless).choose(state, seed=seed)


def analyse(state: State, number: int | str, *, seed: int) -> Verdict:
    """The search's verdict on ``state`` with level ``number``'s depth and work (levels without a
    search are given the first searching level's; carelessness plays no part in a verdict)."""
    lv = level(number)
    if lv.kind != "search":
        lv = next(x for x in LEVELS if x.kind == "search")
    bot = SearchBot(max_depth=lv.depth(state.game))
    return bot.analyse(state, iterations=lv.work(state.game), seed=seed)


class LevelBot:
    """A level as a :class:`~engine.bots.base.Bot`: ``budget`` and ``iterations`` are ignored (the
    level sets the work; its cap is the only time limit)."""

    def __init__(
        self,
        number: int | str,
        clock: Callable[[], float] = time.perf_counter,
        careless: bool = True,
    ):
        self.spec = level(number)
        self.level = self.spec.code
        self.clock = clock
        self.careless = careless

    def choose(
        self,
        state: State,
        *,
        budget: float | None = None,
        seed: int | None = None,
        iterations: int | None = None,
    ) -> str:
        lv = self.spec
        if lv.kind == "random":
            return RandomBot().choose(state, seed=seed)
        draw = random.Random(None if seed is None else f"careless {seed}")
        noise = lv.noise(state.game) if self.careless else 0.0
        if noise and draw.random() < noise:
            # A careless move: any candidate, drawn from the seed (not the position's best).
            return draw.choice(candidates(state))
        if lv.kind == "greedy":
            return GreedyBot().choose(state, seed=seed)
        bot = SearchBot(clock=self.clock, pacru="alphabeta", max_depth=lv.depth(state.game))
        return bot.choose(state, seed=seed, iterations=lv.work(state.game), budget=lv.cap)


__all__ = [
    "CODES",
    "GAMES",
    "LEGACY",
    "LEVELS",
    "Level",
    "LevelBot",
    "analyse",
    "choose",
    "is_level",
    "level",
]
