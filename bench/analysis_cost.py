"""Benchmark: what game analysis costs (not a test; prints figures).

1. **Plies per second at each depth** (engine only, no database): for each game, sample games
   of ``--plies`` actions are played by the greedy bot with some random moves (seeded), then
   analysed at each of ``--depths`` (each position searched with that depth's work, ``engine.analysis.WORK``);
   the table gives plies analysed per second and seconds per 100-ply game.
2. **The slow queue's throughput** (with ``--queue N``): a PostgreSQL database of its own
   (``pacru_analysisbench``) gets N finished tables of ``--queue-plies`` actions, an analysis is
   requested for each at ``--queue-depth`` through the service (the task sent to the Redis at
   ``--redis``, queue ``slow``), then one Celery worker (``--concurrency`` processes) on that
   queue works through them. It prints games and plies analysed per minute, and checks that each
   analysis was computed exactly once.

    .venv/bin/python bench/analysis_cost.py                                   # depths 3-8, 3 games
    .venv/bin/python bench/analysis_cost.py --depths 3-6 --games pacru --plies 60
    .venv/bin/python bench/analysis_cost.py --depths 5 --games pacru --queue 100 --concurrency 2
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def depth_range(text: str) -> list[int]:
    low, _, high = text.partition("-")
    return list(range(int(low), int(high or low) + 1))


def sample_game(game: str, players: int, plies: int, seed: int) -> list[str]:
    """A game of ``plies`` actions (or to its end): the greedy bot, one move in four random."""
    import engine
    from engine.bots import GreedyBot
    from engine.playout import random_step

    rng = random.Random(seed)
    state = engine.new_game(game, players)
    actions: list[str] = []
    while not state.is_over and len(actions) < plies:
        if rng.random() < 0.25:
            state, move = random_step(state, rng, reorient_rate=0.0)
        else:
            move = GreedyBot().choose(state, seed=rng.randrange(1 << 30))
            state = state.play(move)
        actions.append(move)
    return actions


def engine_cost(games: list[str], players: int, depths: list[int], plies: int, samples: int) -> None:
    from engine.analysis import analyse
    from engine.analysis import work as work_at

    print(f"plies analysed per second, {players} seats, {samples} game(s) of up to {plies} actions each")
    print(
        f"{'game':8} {'depth':>5} {'work':>7} {'plies':>6} {'seconds':>8} {'plies/s':>8} {'s/100 plies':>12}"
    )
    for game in games:
        sample = [sample_game(game, players, plies, seed) for seed in range(1, samples + 1)]
        for depth in depths:
            work = work_at(depth, game)
            started = time.perf_counter()
            done = 0
            for i, actions in enumerate(sample):
                done += len(analyse(actions, game=game, players=players, iterations=work, seed=i).plies)
            spent = time.perf_counter() - started
            rate = done / max(spent, 1e-9)
            print(
                f"{game:8} {depth:5d} {work:7d} {done:6d} {spent:8.2f} {rate:8.2f} {100 / rate:12.1f}",
                flush=True,
            )


def queue_throughput(args: argparse.Namespace) -> None:
    from bench.load_moves import setup_database

    db_url = setup_database(args.database, "pacru_analysisbench")
    os.environ.update(
        DATABASE_URL=db_url,
        REDIS_URL=args.redis,
        DJANGO_SETTINGS_MODULE="config.settings",
        LOG_LEVEL="WARNING",
    )
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, check=True)
    import django

    django.setup()
    import engine
    from analysis import analyse
    from analysis.models import Analysis
    from games import services

    game = args.games[0]
    one = services.player_register(username="bench-one", password="bench-password-1")
    two = services.player_register(username="bench-two", password="bench-password-1")
    print(f"\ncreating {args.queue} finished {game} tables of up to {args.queue_plies} actions …", flush=True)
    tables = []
    for i in range(args.queue):
        actions = sample_game(game, 2, args.queue_plies, 1000 + i)
        if not engine.replay(engine.Record(game, 2, actions=actions)).is_over:
            actions.append(f"resign {1 + i % 2}")  # finished by a resignation
        head = ["Game: " + game, "Players: 2", "Seat1: bench-one", "Seat2: bench-two", ""]
        text = "\n".join([*head, *actions]) + "\n"
        tables.append(services.table_import_record(text=text, imported_by=one))
    sent = time.perf_counter()
    analyse.MAX_WAITING_PER_PLAYER = len(tables)  # two requesters stand for a hundred players here
    for table in tables:
        analyse.request_analysis(
            table_id=table.pk, user=(one if table.pk % 2 else two).user, depth=args.queue_depth
        )
    print(
        f"requested {len(tables)} analyses at depth {args.queue_depth} in {time.perf_counter() - sent:.1f} s"
    )

    celery = [sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", "slow"]
    options = ["-c", str(args.concurrency), "--without-mingle", "--without-gossip", "-l", "WARNING"]
    worker = subprocess.Popen([*celery, *options, "-n", "analysisbench@%h"], cwd=ROOT, start_new_session=True)
    started = time.perf_counter()
    try:
        while True:
            left = Analysis.objects.exclude(status__in=["done", "failed"]).count()
            if not left:
                break
            if time.perf_counter() - started > args.timeout:
                print(f"gave up after {args.timeout:.0f} s with {left} analyses left")
                break
            print(f"{left:5d} analyses waiting or running", flush=True)
            time.sleep(2)
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        worker.wait(timeout=60)
    rows = list(Analysis.objects.values_list("status", "attempts", "plies", "started_at", "finished_at"))
    done = [r for r in rows if r[0] == "done"]
    plies = sum(len(r[2]) for r in done)
    if done:
        span = (max(r[4] for r in done) - min(r[3] for r in done)).total_seconds()
        print(
            f"slow queue: {len(done)}/{len(rows)} games analysed, {plies} plies, in {span:.1f} s with "
            f"{args.concurrency} worker process(es): {60 * len(done) / max(span, 1e-9):.1f} games/min, "
            f"{plies / max(span, 1e-9):.2f} plies/s"
        )
    twice = sum(1 for r in rows if r[1] != 1)
    failed = sum(1 for r in rows if r[0] == "failed")
    print(f"computed more than once: {twice}; failed: {failed}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", nargs="+", default=["pacru", "shacru", "azacru"])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--depths", type=depth_range, default=depth_range("3-8"), help="e.g. 3-8 or 5")
    parser.add_argument("--plies", type=int, default=40, help="actions per sample game")
    parser.add_argument("--samples", type=int, default=1, help="sample games per game")
    parser.add_argument("--queue", type=int, default=0, help="queued games for the throughput part (0: skip)")
    parser.add_argument("--queue-depth", type=int, default=5)
    parser.add_argument("--queue-plies", type=int, default=40)
    parser.add_argument("--concurrency", type=int, default=2, help="worker processes")
    parser.add_argument("--timeout", type=float, default=3600, help="seconds to wait for the queue")
    parser.add_argument("--database", default="postgres://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/14")
    parser.add_argument("--no-engine", action="store_true", help="skip the plies-per-second part")
    args = parser.parse_args()
    if not args.no_engine:
        engine_cost(args.games, args.players, args.depths, args.plies, args.samples)
    if args.queue:
        queue_throughput(args)


if __name__ == "__main__":
    main()
