"""Benchmark: the 2-seat Swiss side by side with a FIDE Dutch implementation (prints a table; not a test).

The reference is the PyPI package ``caissify-pairings`` (its "dutch" engine, FIDE C.04.3), a
benchmark-only dependency. Install it into the project's venv with:

    .venv/bin/pip install -e '.[bench]'

Then:

    .venv/bin/python bench/swiss_vs_dutch.py
    .venv/bin/python bench/swiss_vs_dutch.py --sizes 16 40 100 --rounds 9 --seeds 1 2 3

Both systems pair the same simulated events: the same players and ratings, and the same random
results model (the better-rated player tends to win, 10 % of games drawn, a bye scores a win), each
fed by its own random generator started from the same seed (once pairings differ, results differ).
For every size the figures are summed over the seeds:

* cross-group: pairs whose players had different scores;
* above min: cross-group pairs above the least any pairing needs for the score groups of that round
  (one per boundary between score groups with an odd count of players above it), a fairer figure
  than cross-group, since the two systems' events drift apart;
* score gap: the sum over all pairs of the score difference;
* floaters: players paired outside their score group, plus byes (a bye is a float down);
* float again: a player floating the same way (up or down) in two consecutive rounds;
* |W-B|>=3: players who ended with at least 3 more games in one seat than in the other;
* 3 in a row: players who took the same seat in three consecutive games at some point;
* rematches: pairs that had already met;
* ms/round: mean time to pair a round.

Seat 1 (moves first) is "white". Only the 2-seat Swiss is compared: the Dutch system has no tables
of three or four.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import warnings
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.pairing import Entrant, swiss_round

DRAWS = 0.1  # share of games drawn
_LAST_FLOAT = {"up": 1, "down": -1, "none": 0}

Pairer = Callable[["Event"], tuple[list[tuple[int, int]], list[int]]]  # (first, second) pairs; byes


@dataclass
class Event:
    """A simulated 2-seat Swiss event: scores, opponents, seats, floats and byes so far."""

    players: int
    seed: int
    rating: dict[int, float] = field(default_factory=dict)
    score: defaultdict[int, float] = field(default_factory=lambda: defaultdict(float))
    met: dict[int, Counter[int]] = field(default_factory=dict)
    seats: dict[int, list[int]] = field(default_factory=dict)  # seats taken (1 or 2), byes not included
    floats: dict[int, list[str]] = field(default_factory=dict)  # "up" / "down" / "none" per round
    byes: Counter[int] = field(default_factory=Counter)
    rounds: int = 0

    def __post_init__(self) -> None:
        ratings = random.Random(self.seed)  # the same players for both systems
        ids = range(1, self.players + 1)
        self.rating = {p: round(ratings.gauss(1500, 200)) for p in ids}
        self.met = {p: Counter() for p in ids}
        self.seats = {p: [] for p in ids}
        self.floats = {p: [] for p in ids}
        self.rng = random.Random(self.seed * 7919 + 1)  # results


@dataclass
class Tally:
    cross: int = 0
    excess: int = 0
    gap: float = 0.0
    floaters: int = 0
    float_again: int = 0
    imbalance: int = 0
    three: int = 0
    rematches: int = 0
    seconds: float = 0.0
    rounds: int = 0

    def add(self, other: Tally) -> None:
        for name in vars(self):
            setattr(self, name, getattr(self, name) + getattr(other, name))


def ours(event: Event) -> tuple[list[tuple[int, int]], list[int]]:
    entrants = [
        Entrant(
            p,
            float(event.score[p]),
            float(event.rating[p]),
            dict(event.met[p]),
            tuple(event.seats[p]),
            event.byes[p],
            floated=_LAST_FLOAT[event.floats[p][-1]] if event.floats[p] else 0,
        )
        for p in event.rating
    ]
    rnd = swiss_round(entrants, 2)
    return [(t.players[0], t.players[1]) for t in rnd.tables], list(rnd.byes)


def dutch(event: Event) -> tuple[list[tuple[int, int]], list[int]]:
    from caissify_pairings import generate_pairings  # type: ignore[import-untyped]

    players = [
        {
            "id": p,
            "name": f"p{p}",
            "score": float(event.score[p]),
            "rating": event.rating[p],
            "color_hist": ["white" if s == 1 else "black" for s in event.seats[p]],
            "float_history": list(event.floats[p]),
            "bye_count": event.byes[p],
        }
        for p in event.rating
    ]
    previous = {(a, b) for a in event.met for b in event.met[a] if a < b}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = generate_pairings(
            "dutch", players, previous, event.rounds + 1, 99, max_byes_per_player=event.rounds + 1
        )
    pairs = [(d["white_id"], d["black_id"]) for d in out if d.get("black_id") is not None]
    byes = [d["white_id"] for d in out if d.get("black_id") is None]
    return pairs, byes


def play_round(event: Event, pairer: Pairer, tally: Tally) -> None:
    start = time.perf_counter()
    pairs, byes = pairer(event)
    tally.seconds += time.perf_counter() - start
    tally.rounds += 1
    seated = sorted([p for pair in pairs for p in pair] + byes)
    if seated != sorted(event.rating):
        raise AssertionError("a player is missing or seated twice")
    tally.excess += sum(event.score[a] != event.score[b] for a, b in pairs) - least_cross(event, byes)
    for a, b in pairs:
        sa, sb = event.score[a], event.score[b]
        if sa != sb:
            tally.cross += 1
            tally.floaters += 2
        tally.gap += abs(sa - sb)
        tally.rematches += event.met[a][b] > 0
        for p, q, seat in ((a, b, 1), (b, a, 2)):
            sp, sq = event.score[p], event.score[q]
            way = "none" if sp == sq else "down" if sp > sq else "up"
            if way != "none" and event.floats[p] and event.floats[p][-1] == way:
                tally.float_again += 1
            event.floats[p].append(way)
            event.seats[p].append(seat)
            event.met[p][q] += 1
    for p in byes:
        tally.floaters += 1
        if event.floats[p] and event.floats[p][-1] == "down":
            tally.float_again += 1
        event.floats[p].append("down")
        event.byes[p] += 1
    # Results after all pairs are recorded, so scores during the round are the scores before it.
    for a, b in pairs:
        r = event.rng.random()
        if r < DRAWS:
            event.score[a] += 0.5
            event.score[b] += 0.5
        else:
            expected = 1 / (1 + 10 ** ((event.rating[b] - event.rating[a]) / 400))
            event.score[a if event.rng.random() < expected else b] += 1
    for p in byes:
        event.score[p] += 1
    event.rounds += 1


def least_cross(event: Event, byes: list[int]) -> int:
    """The fewest cross-group pairs any pairing of the players (byes out) has: one per boundary
    between score groups with an odd count of players above it."""
    sizes = Counter(event.score[p] for p in event.rating if p not in byes)
    above, least = 0, 0
    for score in sorted(sizes, reverse=True)[:-1]:
        above += sizes[score]
        least += above % 2
    return least


def finish(event: Event, tally: Tally) -> None:
    for seats in event.seats.values():
        if abs(seats.count(1) - seats.count(2)) >= 3:
            tally.imbalance += 1
        if any(seats[k] == seats[k + 1] == seats[k + 2] for k in range(len(seats) - 2)):
            tally.three += 1


def run(players: int, rounds: int, seeds: list[int], pairer: Pairer) -> Tally:
    total = Tally()
    for seed in seeds:
        event, tally = Event(players, seed), Tally()
        for _ in range(rounds):
            play_round(event, pairer, tally)
        finish(event, tally)
        total.add(tally)
    return total


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=[16, 40, 100])
    parser.add_argument(
        "--rounds", type=int, nargs="+", default=[7, 9, 9], help="one per size, or one for all"
    )
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument(
        "--no-reference",
        action="store_true",
        help="our Swiss only, without caissify-pairings (the test suite runs it so, where it is missing)",
    )
    args = parser.parse_args()
    systems: list[tuple[str, Pairer]] = [("swiss", ours)]
    if not args.no_reference:
        try:
            import caissify_pairings  # noqa: F401
        except ImportError:
            sys.exit(
                "caissify-pairings is not installed: .venv/bin/pip install -e '.[bench]' "
                "(or --no-reference for our side only)"
            )
        systems.append(("dutch", dutch))
    rounds = args.rounds if len(args.rounds) == len(args.sizes) else [args.rounds[0]] * len(args.sizes)
    head = f"{'event':<22}{'system':<8}{'cross-group':>12}{'above min':>10}{'score gap':>10}"
    head += f"{'floaters':>9}{'float again':>12}"
    head += f"{'|W-B|>=3':>9}{'3 in a row':>11}{'rematches':>10}{'ms/round':>9}"
    print(f"{len(args.seeds)} seeds ({' '.join(map(str, args.seeds))}), figures summed over them")
    print(head)
    print("-" * len(head))
    for players, r in zip(args.sizes, rounds, strict=True):
        for name, pairer in systems:
            t = run(players, r, args.seeds, pairer)
            ms = 1000 * t.seconds / max(1, t.rounds)
            print(
                f"{f'{players} players, {r} rounds':<22}{name:<8}{t.cross:>12}{t.excess:>10}{t.gap:>10.1f}"
                f"{t.floaters:>9}{t.float_again:>12}{t.imbalance:>9}{t.three:>11}{t.rematches:>10}{ms:>9.1f}"
            )


if __name__ == "__main__":
    main()
