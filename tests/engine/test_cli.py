"""The command line, run as a user would: python -m engine …"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from engine.playout import random_game
from engine.records import Record


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args], input=stdin, capture_output=True, text=True, timeout=120
    )


def test_help_lists_the_commands() -> None:
    out = run("--help")
    assert out.returncode == 0
    for command in ("play", "replay", "bench"):
        assert command in out.stdout


def test_replay_prints_the_final_position_and_result(tmp_path: Path) -> None:
    final, moves = random_game("pacru", 3, seed=2)
    path = tmp_path / "game.txt"
    path.write_text(Record("pacru", 3, actions=moves).to_text())
    out = run("replay", str(path))
    assert out.returncode == 0, out.stderr
    assert "game over" in out.stdout
    assert f"ply {final.ply}" in out.stdout
    assert "┃" in out.stdout


def test_replay_rejects_a_bad_record_with_the_reason(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("Game: pacru\nPlayers: 2\n\n1. a3-a4\n")
    out = run("replay", str(path))
    assert out.returncode == 1
    assert "ply 1: a3-a4" in out.stderr and "faces E" in out.stderr


def test_a_hot_seat_game_takes_moves_and_explains_mistakes(tmp_path: Path) -> None:
    record = tmp_path / "r.txt"
    script = "moves\na3-b4\na3-b4(b4)\nchoices a7-b6\nA7 - B6 (A6)\nresign\n"
    out = run("play", "--seats", "human,human", "--no-color", "--record", str(record), stdin=script)
    assert out.returncode == 0, out.stderr
    assert "a3-b2 a3-b3 a3-b4" in out.stdout
    assert "choose a neutral field" in out.stdout
    assert "a7-b6(a6)" in out.stdout
    assert "game over (last-standing): seat 2 wins" in out.stdout
    assert record.read_text().splitlines()[-3:] == ["1. a3-b4(b4)", "2. a7-b6(a6)", "resign 1"]


def test_random_movers_play_a_game_to_the_end() -> None:
    out = run(
        "play", "--game", "azacru", "--players", "4", "--seats", "random,random,random,random", "--seed", "3"
    )
    assert out.returncode == 0
    assert "game over" in out.stdout


def test_bench_prints_figures_for_each_game() -> None:
    out = run("bench", "--seconds", "0.05", "--game", "shacru")
    assert out.returncode == 0
    lines = [line for line in out.stdout.splitlines() if line.startswith("shacru")]
    assert len(lines) == 3
