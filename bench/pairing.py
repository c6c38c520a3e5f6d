"""Benchmark: the time of one Swiss round for 1,000 players (prints figures; not a test).

For each table size asked for (2 and 4 seats by default), several rounds are
played first with random results (the better-rated player tends to win; some
two-player games are drawn), so that score groups have formed and many pairs
have already met; then the next round is paired and timed (best and mean of a
few runs on the same input). Every round is checked: everyone seated exactly
once, and rematches are counted (pairs of players at one table who had already
met); there should be none. Target: well under 2 s per round.

    .venv/bin/python bench/pairing.py
    .venv/bin/python bench/pairing.py --players 2000 --rounds 10 --seats 2 3 4
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter, defaultdict
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.pairing import Entrant, Round, swiss_round
from tournaments.standings import place_points

DRAWS = 0.1  # share of two-player games drawn


class Event:
    """A simulated Swiss event: scores, meetings, seats and byes so far."""

    def __init__(self, players: int, seats: int, seed: int) -> None:
        self.rng = random.Random(seed)
        self.seats = seats
        self.ids = list(range(1, players + 1))
        self.rating = {p: self.rng.gauss(1500, 200) for p in self.ids}
        self.score: defaultdict[int, float] = defaultdict(float)
        self.met: dict[int, Counter[int]] = {p: Counter() for p in self.ids}
        self.seat_history: dict[int, list[int]] = {p: [] for p in self.ids}
        self.byes: Counter[int] = Counter()

    def entrants(self) -> list[Entrant]:
        return [
            Entrant(
                p,
                float(self.score[p]),
                self.rating[p],
                dict(self.met[p]),
                tuple(self.seat_history[p]),
                self.byes[p],
            )
            for p in self.ids
        ]

    def rematches(self, rnd: Round) -> int:
        seated = sorted([p for t in rnd.tables for p in t.players] + list(rnd.byes))
        if seated != self.ids:
            raise AssertionError("a player is missing or seated twice")
        return sum(1 for t in rnd.tables for a, b in combinations(t.players, 2) if self.met[a][b])

    def play(self, rnd: Round) -> None:
        for p in rnd.byes:
            self.byes[p] += 1
            self.score[p] += 1.0  # a bye scores a win (byes happen with two seats only)
        for table in rnd.tables:
            for seat, p in enumerate(table.players, start=1):
                self.seat_history[p].append(seat)
                self.met[p].update(q for q in table.players if q != p)
            if len(table.players) == 2 and self.rng.random() < DRAWS:
                ranks = dict.fromkeys(table.players, 1)
            else:
                form = {p: self.rating[p] + self.rng.gauss(0, 300) for p in table.players}
                ranks = {
                    p: i for i, p in enumerate(sorted(table.players, key=form.__getitem__, reverse=True), 1)
                }
            for p, pts in place_points(self.seats, ranks).items():
                self.score[p] += pts


def run(players: int, seats: int, rounds: int, repeat: int, seed: int) -> None:
    event = Event(players, seats, seed)
    earlier, rematches = [], 0
    for _ in range(rounds):
        entrants = event.entrants()
        start = time.perf_counter()
        rnd = swiss_round(entrants, seats)
        earlier.append(time.perf_counter() - start)
        rematches += event.rematches(rnd)
        event.play(rnd)
    entrants = event.entrants()
    groups = len({e.score for e in entrants})
    timed = []
    for _ in range(repeat):
        start = time.perf_counter()
        rnd = swiss_round(entrants, seats)
        timed.append(time.perf_counter() - start)
    now = event.rematches(rnd)
    print(
        f"{players} players, {seats}-seat tables: round {rounds + 1} (after {rounds} simulated rounds, "
        f"{groups} score groups): best {min(timed):.3f} s, mean {statistics.mean(timed):.3f} s "
        f"over {repeat} runs; rematches {now}\n"
        f"    rounds 1-{rounds}: max {max(earlier):.3f} s per round, rematches {rematches}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=8, help="rounds simulated before the timed one")
    parser.add_argument("--seats", type=int, nargs="+", default=[2, 4], choices=[2, 3, 4])
    parser.add_argument("--repeat", type=int, default=5, help="runs of the timed round")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for seats in args.seats:
        run(args.players, seats, args.rounds, args.repeat, args.seed)


if __name__ == "__main__":
    main()
