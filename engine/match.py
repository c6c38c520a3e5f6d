"""``python -m engine match``: bot-versus-bot series with seats rotated.

Each game seats the bots in a rotation of the given order, so over a multiple
of the player count every bot plays every seat equally often. A bot **wins**
a game when it is ranked first alone; a shared first place counts as half a
win for each bot sharing it. Win rates come with 95 % Wilson intervals.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from .bots import get
from .variants import new_game


@dataclass
class Tally:
    games: int = 0
    wins: dict[str, float] = field(default_factory=dict)
    plies: int = 0
    moves: int = 0
    thinking: float = 0.0
    #: Per bot: moves chosen and seconds spent choosing them.
    moves_by: dict[str, int] = field(default_factory=dict)
    thinking_by: dict[str, float] = field(default_factory=dict)


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def play_series(
    game: str,
    players: int,
    bots: list[str],
    games: int,
    budget: float,
    seed: int,
    progress: Callable[[int, int], None] | None = None,
    ply_limit: int = 1000,
) -> Tally:
    if len(bots) != players:
        raise ValueError(f"{players} players need {players} bots, got {len(bots)}")
    tally = Tally(wins={b: 0.0 for b in bots})
    engines = [get(b.split(":")[0]) for b in bots]
    for g in range(games):
        shift = g % players
        seating = [(bots[(i + shift) % players], engines[(i + shift) % players]) for i in range(players)]
        state = new_game(game, players, ply_limit=ply_limit)
        while not state.is_over:
            name, bot = seating[state.to_move - 1]
            start = time.perf_counter()
            move = bot.choose(state, budget=budget, seed=seed * 1_000_003 + g * 1009 + state.ply)
            spent = time.perf_counter() - start
            tally.thinking += spent
            tally.moves += 1
            tally.moves_by[name] = tally.moves_by.get(name, 0) + 1
            tally.thinking_by[name] = tally.thinking_by.get(name, 0.0) + spent
            state = state.play(move)
        ranks = state.ranking()
        firsts = [seating[s - 1][0] for s, r in ranks.items() if r == 1]
        for name in firsts:
            tally.wins[name] += 1 / len(firsts)
        tally.games += 1
        tally.plies += state.ply
        if progress:
            progress(g + 1, games)
    return tally


def progress_bar(done: int, total: int) -> None:
    width = 30
    filled = width * done // max(total, 1)
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def report(tally: Tally, bots: list[str]) -> list[str]:
    lines = []
    for name in dict.fromkeys(bots):
        seats = bots.count(name)
        wins = tally.wins[name] / seats
        low, high = wilson(wins, tally.games)
        per_move = tally.thinking_by.get(name, 0.0) / max(tally.moves_by.get(name, 0), 1)
        lines.append(
            f"{name:10} wins {wins:6.1f} of {tally.games} = {wins / max(tally.games, 1):6.1%}  "
            f"(95 % interval {low:.1%} – {high:.1%}); {per_move * 1000:.1f} ms per move"
        )
    lines.append(
        f"average plies per game: {tally.plies / max(tally.games, 1):.1f}; "
        f"moves per second: {tally.moves / max(tally.thinking, 1e-9):.1f}"
    )
    return lines
