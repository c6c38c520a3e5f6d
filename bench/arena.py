"""Benchmark: arena pairing and quick pairing pools, simulated on a clock of their own (prints figures).

Both drive the services' own pure planners, with no database: a pairing wave every ``--wave``
seconds (``PLAY_NOW_WAVE_SECONDS``, 3 s) seats whoever is free, as ``tournaments.play_now`` does.

**Arena** (``tournaments.arena.pairing.plan_arena_tables``, scored with
``tournaments.arena.scoring.score``): ``--players`` join at the start of a ``--minutes`` arena;
each table lasts a simulated time (log-normal around ``GAME_MINUTES`` for its size: longer at more
seats), its places drawn from the players' ratings (a player's form on the day: rating + N(0, 200));
its players are free again when it ends and are paired at the next wave. No table starts after the
end. Printed per table size: tables played, the share of each player's arena time spent waiting
between tables (p50 and p95 across players), the rematch rate (tables where a player meets one of
their last table's opponents again), and what a wave costs (``plan_arena_tables``: mean, p95 and
max ms). ``--patience`` compares the planner's patience before a rematch (``service``: its own
``REMATCH_PATIENCE`` for the table size; ``0``: none): while other tables are in play, a table the
planner could only make as a rematch is not seated until each of its players has waited that long,
so the next waves may bring others (a wave holds few players: those whose tables just ended).

**Quick pairing** (``tournaments.pools.planner.plan_wave``): ``--pool-players`` join one pool,
ratings normal around 1500 (sd 300), either arriving evenly at random over ``--arrival-minutes``
(steady) or all at once (burst); whoever is seated leaves, to come back no more. Printed per table
size: p50 and p95 time to a table, the tables' rating spread (highest minus lowest: p50 and p95),
who was never seated, and what a wave costs (mean, p95 and max ms).

    .venv/bin/python bench/arena.py
    .venv/bin/python bench/arena.py --players 400 --minutes 90 --seats 2 3 4 --seed 7
"""

from __future__ import annotations

import argparse
import heapq
import math
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

#: A table's median length in minutes by its size (log-normal, ``GAME_SPREAD`` around it).
GAME_MINUTES = {2: 4.0, 3: 6.0, 4: 8.0}
GAME_SPREAD = 0.45
#: A player's form on the day, in rating points (draws each table's places).
FORM = 200.0
#: How long the pool keeps pairing after the last arrival (whoever is left then was never seated).
POOL_TAIL_SECONDS = 600


def percentile(values: list[float], p: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def ms(values: list[float]) -> str:
    """Mean / p95 / max, in milliseconds."""
    return " / ".join(
        f"{v * 1000:.2f}" for v in (statistics.fmean(values), percentile(values, 0.95), max(values))
    )


# ------------------------------------------------------------------------------------ arena
def simulate_arena(
    players: int, seats: int, minutes: float, wave: float, seed: int, patience: float | None = None
) -> dict[str, float]:
    from tournaments.arena.pairing import Free, plan_arena_tables
    from tournaments.arena.scoring import ARENA_SCALES, Outcome, Score, score

    rng = random.Random(seed)
    end = minutes * 60.0
    rating = {p: rng.gauss(1500, 300) for p in range(players)}
    scores = {p: Score() for p in range(players)}
    last: dict[int, frozenset[int]] = {p: frozenset() for p in range(players)}
    free_since: dict[int, float] = dict.fromkeys(range(players), 0.0)
    waited = dict.fromkeys(range(players), 0.0)
    ending: list[tuple[float, int, tuple[int, ...]]] = []  # (ends at, table number, its players)
    costs: list[float] = []
    tables = rematches = 0
    scale = ARENA_SCALES[seats]
    now = 0.0
    while now < end or ending:
        # The tables that ended by now: score them, free their players.
        while ending and ending[0][0] <= now:
            at, _number, group = heapq.heappop(ending)
            form = sorted(group, key=lambda p: -(rating[p] + rng.gauss(0, FORM)))
            for place, p in enumerate(form):
                scores[p], _earned, _mark = score(
                    scores[p], Outcome(place_points=scale[place], won=place == 0)
                )
                last[p] = frozenset(q for q in group if q != p)
                if at < end:
                    free_since[p] = at
        if now >= end:
            now = ending[0][0] if ending else now
            continue
        free = [
            Free(
                player=p,
                points=scores[p].points,
                rating=rating[p],
                waited=now - since,
                last_opponents=last[p],
            )
            for p, since in free_since.items()
        ]
        started = time.perf_counter()
        planned = plan_arena_tables(free, seats=seats, others_playing=bool(ending), patience=patience)
        costs.append(time.perf_counter() - started)
        for group in planned:
            rematches += any(q in last[p] for p in group for q in group)
            for p in group:
                waited[p] += now - free_since.pop(p)
            length = 60.0 * GAME_MINUTES[seats] * math.exp(rng.gauss(0, GAME_SPREAD))
            tables += 1
            heapq.heappush(ending, (now + length, tables, tuple(group)))
        now += wave
    for p, since in free_since.items():  # free when the arena ended
        waited[p] += end - since
    shares = [w / end for w in waited.values()]
    return {
        "tables": tables,
        "wait_p50": percentile(shares, 0.5),
        "wait_p95": percentile(shares, 0.95),
        "rematch": rematches / tables if tables else 0.0,
        "games_p50": percentile([float(s.games) for s in scores.values()], 0.5),
        "costs": costs,  # type: ignore[dict-item]
    }


# ------------------------------------------------------------------------------------ pools
def simulate_pool(
    players: int, seats: int, arrival_minutes: float, wave: float, seed: int
) -> dict[str, float]:
    from tournaments.pools.planner import Waiting, plan_wave

    rng = random.Random(seed)
    span = arrival_minutes * 60.0
    arrivals = sorted(
        (rng.uniform(0, span) if span else 0.0, p, rng.gauss(1500, 300)) for p in range(players)
    )
    waiting: dict[int, tuple[float, float]] = {}  # player: (joined at, rating)
    to_table: list[float] = []
    spreads: list[float] = []
    costs: list[float] = []
    nxt = 0
    now = 0.0
    while now <= span + POOL_TAIL_SECONDS and (nxt < len(arrivals) or waiting):
        while nxt < len(arrivals) and arrivals[nxt][0] <= now:
            at, p, r = arrivals[nxt]
            waiting[p] = (at, r)
            nxt += 1
        batch = [Waiting(player=p, rating=r, waited=now - at) for p, (at, r) in waiting.items()]
        started = time.perf_counter()
        planned = plan_wave(batch, seats=seats)
        costs.append(time.perf_counter() - started)
        for group in planned:
            ratings = [waiting[p][1] for p in group]
            spreads.append(max(ratings) - min(ratings))
            for p in group:
                to_table.append(now - waiting.pop(p)[0])
        now += wave
    return {
        "tables": len(spreads),
        "wait_p50": percentile(to_table, 0.5),
        "wait_p95": percentile(to_table, 0.95),
        "spread_p50": percentile(spreads, 0.5),
        "spread_p95": percentile(spreads, 0.95),
        "left": len(waiting) + len(arrivals) - nxt,
        "costs": costs,  # type: ignore[dict-item]
    }


def main() -> None:
    import os

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=200, help="arena players")
    parser.add_argument("--minutes", type=float, default=60, help="the arena's duration")
    parser.add_argument("--seats", type=int, nargs="+", default=[2, 4], choices=[2, 3, 4])
    parser.add_argument("--pool-players", type=int, default=1000)
    parser.add_argument("--arrival-minutes", type=float, default=10, help="the steady pool's arrivals")
    parser.add_argument("--wave", type=float, default=3.0, help="seconds between pairing waves")
    parser.add_argument(
        "--patience",
        nargs="+",
        default=["service", "0"],
        help="seconds a rematch table waits for other free players ('service': REMATCH_PATIENCE)",
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    from tournaments.arena.pairing import REMATCH_PATIENCE

    print(
        f"Arena: {args.players} players, {args.minutes:g} min, a wave every {args.wave:g} s; "
        f"ratings ~ N(1500, 300), table lengths log-normal (median "
        + ", ".join(f"{GAME_MINUTES[s]:g} min at {s}" for s in args.seats)
        + ")"
    )
    print(f"{'seats':>5} {'patience':>8} {'tables':>7} {'games p50':>9}   {'waiting share p50':>17} "
          f"{'p95':>6}   {'rematch rate':>12}   {'wave ms mean / p95 / max':>24}")  # fmt: skip
    for seats in args.seats:
        for choice in args.patience:
            patience = None if choice == "service" else float(choice)
            shown = f"{REMATCH_PATIENCE[seats] if patience is None else patience:.0f}s"
            a = simulate_arena(args.players, seats, args.minutes, args.wave, args.seed, patience)
            print(
                f"{seats:>5} {shown:>8} {a['tables']:>7.0f} {a['games_p50']:>9.0f}   "
                f"{a['wait_p50']:>17.1%} {a['wait_p95']:>6.1%}   {a['rematch']:>12.1%}   {ms(a['costs']):>24}"  # type: ignore[arg-type]
            )
    print()
    print(
        f"Quick pairing: {args.pool_players} players in one pool, ratings ~ N(1500, 300), "
        f"a wave every {args.wave:g} s (tail {POOL_TAIL_SECONDS} s after the last arrival)"
    )
    print(f"{'arrivals':>28} {'seats':>5} {'tables':>7}   {'to a table p50':>14} {'p95':>6}   "
          f"{'spread p50':>10} {'p95':>5}   {'never seated':>12}   "
          f"{'wave ms mean / p95 / max':>24}")  # fmt: skip
    for label, span in (
        (f"steady, over {args.arrival_minutes:g} min", args.arrival_minutes),
        ("burst, all at once", 0.0),
    ):
        for seats in args.seats:
            q = simulate_pool(args.pool_players, seats, span, args.wave, args.seed)
            print(
                f"{label:>28} {seats:>5} {q['tables']:>7.0f}   "
                f"{q['wait_p50']:>13.0f}s {q['wait_p95']:>5.0f}s   "
                f"{q['spread_p50']:>10.0f} {q['spread_p95']:>5.0f}   {q['left']:>12.0f}   "
                f"{ms(q['costs']):>24}"  # type: ignore[arg-type]
            )


if __name__ == "__main__":
    main()
