"""``python -m engine bench``: engine speed on one core.

For every game and player count it prints:

* random-playout plies per second on the fast path (:func:`random_step`:
  random base move, random effect cells, 2 % reorientation attempts in Pacru);
* the same through the public text API (``legal_moves`` + ``play``);
* ``base_moves()`` calls per second on mid-game positions, with the move
  cache cleared before each call so every call generates from scratch, and
  the same on the busiest quarter of those positions (the most legal moves).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from .bots import SearchBot
from .playout import random_step
from .state import State
from .variants import GAMES, new_game


def _rate(work: Callable[[], int], seconds: float) -> float:
    done, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        done += work()
    return done / elapsed


def _playout_rate(game: str, players: int, seconds: float, text_api: bool) -> float:
    rng = random.Random(7)

    def one_game() -> int:
        state = new_game(game, players)
        plies = 0
        while not state.is_over:
            if text_api:
                state = state.play(rng.choice(state.legal_moves()))
            else:
                state, _ = random_step(state, rng)
            plies += 1
        return plies

    return _rate(one_game, seconds)


def midgame_positions(game: str, players: int, count: int = 200, seed: int = 11) -> list[State]:
    """Positions from random games, taken between plies 16 and 40."""
    rng = random.Random(seed)
    out: list[State] = []
    while len(out) < count:
        state = new_game(game, players)
        stop = rng.randint(16, 40)
        while not state.is_over and state.ply < stop:
            state, _ = random_step(state, rng)
        if not state.is_over:
            out.append(state)
    return out


def _movegen_rate(game: str, players: int, seconds: float, busiest: bool = False) -> tuple[float, float]:
    positions = midgame_positions(game, players, count=800 if busiest else 200)
    if busiest:
        # The quarter of positions with the most moves: generation's harder cases.
        positions.sort(key=lambda p: len(p.base_moves()), reverse=True)
        positions = positions[: len(positions) // 4]
    index = 0

    def call() -> int:
        nonlocal index
        state = positions[index % len(positions)]
        index += 1
        state._moves = None
        state.base_moves()
        return 1

    rate = _rate(call, seconds)
    mean = sum(len(p.base_moves()) for p in positions) / len(positions)
    return rate, mean


def run(
    seconds: float = 1.0, games: tuple[str, ...] = GAMES, print_fn: Callable[[str], None] = print
) -> None:
    print_fn(f"engine bench: {seconds:g} s per figure, one core")
    print_fn(
        f"{'game':8} {'players':>7} {'plies/s fast':>13} {'plies/s text':>13} "
        f"{'base_moves/s':>13} {'moves/pos':>9} {'busiest/s':>10} {'moves/pos':>9}"
    )
    for game in games:
        for players in (2, 3, 4):
            fast = _playout_rate(game, players, seconds, text_api=False)
            text = _playout_rate(game, players, seconds, text_api=True)
            gen, mean = _movegen_rate(game, players, seconds)
            busy, busy_mean = _movegen_rate(game, players, seconds, busiest=True)
            print_fn(
                f"{game:8} {players:>7} {fast:>13,.0f} {text:>13,.0f} {gen:>13,.0f} {mean:>9.1f} "
                f"{busy:>10,.0f} {busy_mean:>9.1f}"
            )
    print_fn(
        "search bot on mid-game positions, 2 players: Pacru UCT iterations per second (one playout "
        "each); Shacru and Azacru alpha-beta positions per second:"
    )
    for game in games:
        unit = "iterations/s" if game == "pacru" else "positions/s"
        print_fn(f"  {game:8} {_search_rate(game, seconds):>9,.0f} {unit}")


def _search_rate(game: str, seconds: float) -> float:
    positions = midgame_positions(game, 2, count=5)
    bot, done, spent = SearchBot(), 0, 0.0
    for state in positions:
        start = time.perf_counter()
        bot.choose(state, budget=seconds / len(positions), seed=1)
        spent += time.perf_counter() - start
        done += bot.iterations_done
    return done / spent
