"""Bot levels 1–8: graded strength defined by work, not by time.

A level names a kind of bot and, for the search levels, how much it may search
per move: the number of positions its iterative-deepening alpha-beta search may
visit, ``nodes`` in Pacru (over the candidate moves: every base move and
effect choice, the few most useful meeting fields) and ``positions`` in Shacru
and Azacru (a Pacru position costs about four times as much). So a level
plays the same moves on any machine, and its move is reproducible from a seed;
``cap`` (seconds) is only a safety limit that a normal move never reaches.

The legacy names stay: ``random`` is level 1, ``greedy`` level 2 and
``search`` level 6 (about the work the old search bot did in its second a move
on a fast machine).

>>> import engine
>>> s = engine.new_game("shacru", 2)
>>> choose(s, 3, seed=7) == choose(s, 3, seed=7, clock=lambda: 0.0)
True
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from ..state import State
from .base import Verdict
from .greedy import GreedyBot
from .random_bot import RandomBot
from .search import SearchBot


@dataclass(frozen=True)
class Level:
    number: int  # 1..8
    name: str  # English code name, stable
    kind: str  # "random" | "greedy" | "search"
    nodes: int  # Pacru: alpha-beta positions per move (0 for random/greedy)
    positions: int  # Shacru, Azacru: alpha-beta positions per move (0 for random/greedy)
    cap: float  # seconds: a safety cap only

    def work(self, game: str) -> int:
        """The work budget per move in ``game`` (what ``SearchBot`` takes as ``iterations``)."""
        return self.nodes if game == "pacru" else self.positions

    @property
    def code(self) -> str:
        """The level as the site stores it (``"1"`` … ``"8"``)."""
        return str(self.number)


LEVELS: tuple[Level, ...] = (
    Level(1, "beginner", "random", 0, 0, 5.0),
    Level(2, "novice", "greedy", 0, 0, 10.0),
    Level(3, "casual", "search", 150, 400, 20.0),
    Level(4, "club", "search", 700, 1_600, 30.0),
    Level(5, "strong", "search", 2_500, 6_000, 60.0),
    Level(6, "expert", "search", 10_000, 20_000, 90.0),
    Level(7, "master", "search", 30_000, 60_000, 180.0),
    Level(8, "grandmaster", "search", 100_000, 150_000, 300.0),
)

#: The names bots had before levels: they stay valid everywhere a level is taken.
LEGACY = {"random": 1, "greedy": 2, "search": 6}

CODES: tuple[str, ...] = tuple(lv.code for lv in LEVELS)


def level(number: int | str) -> Level:
    """The level ``number`` (``3``, ``"3"``, a code name such as ``"club"``, or a legacy name:
    ``random`` = 1, ``greedy`` = 2, ``search`` = 6). Raises ``ValueError`` for anything else."""
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
) -> str:
    """The move level ``number`` plays in ``state``: the same for a seed on any machine and any
    clock, unless the level's safety cap is reached first."""
    return LevelBot(number, clock=clock).choose(state, seed=seed)


def analyse(state: State, number: int | str, *, seed: int) -> Verdict:
    """The search's verdict on ``state`` with level ``number``'s work (levels 1–2 have none:
    they are given level 3's)."""
    lv = level(number)
    work = lv.work(state.game) or LEVELS[2].work(state.game)
    return SearchBot().analyse(state, iterations=work, seed=seed)


class LevelBot:
    """A level as a :class:`~engine.bots.base.Bot`: ``budget`` and ``iterations`` are ignored (the
    level sets the work; its cap is the only time limit)."""

    def __init__(self, number: int | str, clock: Callable[[], float] = time.perf_counter):
        self.spec = level(number)
        self.level = self.spec.code
        self.clock = clock

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
        if lv.kind == "greedy":
            return GreedyBot().choose(state, seed=seed)
        return SearchBot(clock=self.clock, pacru="alphabeta").choose(
            state, seed=seed, iterations=lv.work(state.game), budget=lv.cap
        )


__all__ = ["CODES", "LEGACY", "LEVELS", "Level", "LevelBot", "analyse", "choose", "is_level", "level"]
