"""Benchmark: the ladder queue's waits against the fairness of the tables it forms (prints figures).

Simulates a 3- or 4-player ladder queue: players arrive at random (``--rate`` a minute) with
ratings drawn from a club's spread (μ normal around 25, σ 2 for established players, a share of
newcomers at σ 8.3), the housekeeping runs every 10 s (:func:`tournaments.ladders.plan_queue_tables`,
the service's own rule), and every formed table is recorded: how long its players waited and the
spread of their μ. Printed: the wait (median, 90th percentile, max) and the μ spread (median,
90th percentile, max), with the share of tables formed only because the bounded wait ran out.

    .venv/bin/python bench/matchmaking.py
    .venv/bin/python bench/matchmaking.py --seats 3 --rate 6 --minutes 240
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def simulate(
    seats: int, rate: float, minutes: int, wait_limit: float, newcomers: float, seed: int
) -> dict[str, float]:
    from tournaments.ladders import FAIR_SHARE, fairness, plan_queue_tables

    rng = random.Random(seed)
    queue: list[tuple[int, tuple[float, float], float]] = []  # (id, (mu, sigma), arrived at)
    waits: list[float] = []
    spreads: list[float] = []
    forced = 0
    tables = 0
    next_id = 0
    for tick in range(0, minutes * 60, 10):
        expected = rate / 6  # arrivals in a 10 s tick
        for _ in range(int(expected) + (rng.random() < expected - int(expected))):
            sigma = 8.3 if rng.random() < newcomers else 2.0
            queue.append((next_id, (rng.gauss(25, 6), sigma), float(tick)))
            next_id += 1
        waiting = [(pid, rating, tick - arrived) for pid, rating, arrived in queue]
        for group in plan_queue_tables(game="pacru", seats=seats, waiting=waiting, wait_limit=wait_limit):
            members = [e for e in queue if e[0] in group]
            mus = [e[1][0] for e in members]
            waits.extend(tick - e[2] for e in members)
            spreads.append(max(mus) - min(mus))
            if fairness(game="pacru", ratings=[e[1] for e in members]) < FAIR_SHARE:
                forced += 1
            tables += 1
            queue = [e for e in queue if e[0] not in group]
    return {
        "tables": tables,
        "left": len(queue),
        "wait_p50": statistics.median(waits) if waits else 0.0,
        "wait_p90": percentile(waits, 0.9) if waits else 0.0,
        "wait_max": max(waits, default=0.0),
        "spread_p50": statistics.median(spreads) if spreads else 0.0,
        "spread_p90": percentile(spreads, 0.9) if spreads else 0.0,
        "spread_max": max(spreads, default=0.0),
        "forced": forced / tables if tables else 0.0,
    }


def main() -> None:
    import os

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seats", type=int, default=4, choices=[3, 4])
    parser.add_argument("--minutes", type=int, default=120)
    parser.add_argument("--wait", type=float, default=120, help="the ladder's queue_wait_seconds")
    parser.add_argument("--newcomers", type=float, default=0.2, help="share of newcomers (σ 8.3)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(
        f"{args.seats}-player queue, {args.minutes} min, bounded wait {args.wait:.0f} s, "
        f"{args.newcomers:.0%} newcomers; μ ~ N(25, 6)"
    )
    print(f"{'arrivals/min':>12} {'tables':>7} {'wait p50':>9} {'p90':>6} {'max':>6}   "
          f"{'μ spread p50':>12} {'p90':>6} {'max':>6}   {'forced by the wait':>18}")  # fmt: skip
    for rate in (1, 2, 4, 8):
        r = simulate(args.seats, rate, args.minutes, args.wait, args.newcomers, args.seed)
        waits = f"{r['wait_p50']:>8.0f}s {r['wait_p90']:>5.0f}s {r['wait_max']:>5.0f}s"
        spreads = f"{r['spread_p50']:>12.1f} {r['spread_p90']:>6.1f} {r['spread_max']:>6.1f}"
        print(f"{rate:>12} {r['tables']:>7.0f} {waits}   {spreads}   {r['forced']:>17.0%}")


if __name__ == "__main__":
    main()
