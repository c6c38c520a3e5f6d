"""Bots: only legal moves, deterministic by seed, within their budget, graded strength."""

from __future__ import annotations

import random
import subprocess
import sys
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.bots import LEVELS, SearchBot, get
from engine.match import play_series, wilson
from engine.playout import random_step

SETUPS = [(g, n) for g in engine.GAMES for n in (2, 3, 4)]


def random_position(game: str, players: int, seed: int) -> engine.State:
    rng = random.Random(seed)
    state = engine.new_game(game, players)
    for _ in range(rng.randint(0, 50)):
        if state.is_over:
            break
        state, _ = random_step(state, rng)
    return state


@settings(max_examples=60, deadline=None)
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 10_000), level=st.sampled_from(LEVELS))
def test_every_bot_plays_only_legal_moves(setup: tuple[str, int], seed: int, level: str) -> None:
    state = random_position(*setup, seed)
    if state.is_over:
        return
    move = get(level).choose(state, seed=seed, iterations=15)
    after = state.play(move)  # raises IllegalMove if it is not legal
    assert after.last_move == move, "the bot's move is canonical"


@pytest.mark.parametrize("level", LEVELS)
def test_bots_are_deterministic_for_a_seed(level: str) -> None:
    state = random_position("pacru", 3, 42)
    first = [get(level).choose(state, seed=s, iterations=40) for s in range(5)]
    again = [get(level).choose(state, seed=s, iterations=40) for s in range(5)]
    assert first == again


def test_the_search_respects_its_budget_on_a_fake_clock() -> None:
    now = [0.0]

    def clock() -> float:
        now[0] += 0.01  # every look at the clock costs 10 ms of "time"
        return now[0]

    bot = SearchBot(clock=clock)
    bot.choose(engine.new_game("pacru", 2), budget=0.5, seed=1)
    assert 40 <= bot.iterations_done <= 50, bot.iterations_done
    assert now[0] <= 0.5 * 1.1 + 0.02


@pytest.mark.parametrize("game", ["pacru", "azacru", "shacru"])
def test_the_search_returns_within_its_budget(game: str) -> None:
    """Both searches (UCT for Pacru, alpha-beta for the step games) stop when their clock says
    the budget is spent. The clock is injected (each look costs 1 ms of its time), so a busy
    machine cannot change the outcome; the wall clock only guards against a hang."""
    state = random_position(game, 2, 7)
    now = [0.0]

    def clock() -> float:
        now[0] += 0.001
        return now[0]

    bot = SearchBot(clock=clock)
    start = time.perf_counter()
    move = bot.choose(state, budget=0.3, seed=1)
    assert move in state.legal_moves()
    assert 0.2 <= now[0] <= 0.3 * 1.1, now[0]  # it searched most of the budget, and no more
    assert bot.iterations_done > 10  # it searched
    assert time.perf_counter() - start < 60, "deadlock guard only"


def test_the_step_game_search_is_deterministic_for_a_node_budget() -> None:
    state = random_position("azacru", 3, 11)
    runs = [SearchBot().choose(state, seed=3, iterations=2000) for _ in range(2)]
    assert runs[0] == runs[1] and runs[0] in state.legal_moves()


def test_greedy_beats_random_clearly() -> None:
    tally = play_series("pacru", 2, ["greedy", "random"], games=20, budget=0.0, seed=5)
    assert tally.wins["greedy"] >= 16, tally.wins


def test_wilson_interval() -> None:
    low, high = wilson(18, 20)
    assert 0.68 < low < 0.70 and 0.97 < high < 0.98


def test_the_match_command_prints_win_rates() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "engine", "match", "--game", "shacru", "--players", "3", "--bots",
         "greedy,random,random", "--games", "3"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "greedy" in out.stdout and "95 % interval" in out.stdout and "moves per second" in out.stdout
    assert "3/3 games" in out.stderr
