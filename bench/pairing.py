"""Benchmark: one Swiss round for 1,000 players (not a test; prints figures).

Several rounds are played first with random results, so that score groups and
rematch avoidance matter; then each further round is timed.

    .venv/bin/python bench/pairing.py
    .venv/bin/python bench/pairing.py --players 2000 --rounds 9
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.pairing import Entrant, swiss_round


def run(players: int, seats: int, rounds: int, seed: int) -> None:
    rng = random.Random(seed)
    score: Counter[int] = Counter()
    meet: dict[int, Counter[int]] = {p: Counter() for p in range(players)}
    hist: dict[int, list[int]] = {p: [] for p in range(players)}
    byes: Counter[int] = Counter()
    rating = {p: rng.gauss(0, 10) for p in range(players)}
    times, repeats = [], 0
    for _ in range(rounds):
        entrants = [
            Entrant(p, score[p], rating[p], dict(meet[p]), tuple(hist[p]), byes[p]) for p in range(players)
        ]
        start = time.perf_counter()
        rnd = swiss_round(entrants, seats)
        times.append(time.perf_counter() - start)
        for b in rnd.byes:
            byes[b] += 1
            score[b] += seats - 1
        for t in rnd.tables:
            for a, b in combinations(t.players, 2):
                repeats += meet[a][b] > 0
            for i, p in enumerate(t.players):
                hist[p].append(i + 1)
                meet[p].update(q for q in t.players if q != p)
            order = sorted(t.players, key=lambda p: rating[p] + rng.gauss(0, 10), reverse=True)
            for place, p in enumerate(order):
                score[p] += len(order) - 1 - place
    print(
        f"{players} players, {seats}-seat tables, {rounds} rounds: per round mean "
        f"{sum(times) / len(times):.3f} s, max {max(times):.3f} s; repeated pairings in all rounds: {repeats}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for seats in (2, 3, 4):
        run(args.players, seats, args.rounds, args.seed)


if __name__ == "__main__":
    main()
