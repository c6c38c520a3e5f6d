"""Load test: how quickly timeouts are adjudicated (not a test; prints figures).

It makes a PostgreSQL database of its own (``pacru_clockbench``), creates
``--tables`` active 2-player Fischer tables whose player on turn will not
move, with deadlines spread evenly over ``--spread`` seconds, queues each
table's clock check as the service does (an ETA task at deadline + grace),
then runs one Celery worker (``--concurrency`` processes) and beat on the
Redis at ``--redis`` until every table has timed out. It reports the
adjudication latency after each table became due (deadline + grace) and the
worker's throughput.

    .venv/bin/python bench/clock_timeouts.py                 # 10,000 tables over 180 s
    .venv/bin/python bench/clock_timeouts.py --tables 2000 --spread 60
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
import uuid
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--database", default="postgres://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/13")
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--spread", type=float, default=180, help="seconds over which deadlines fall")
    parser.add_argument("--lead", type=float, default=20, help="seconds before the first deadline")
    parser.add_argument("--concurrency", type=int, default=2, help="worker processes")
    parser.add_argument("--grace", type=float, default=1.0)
    args = parser.parse_args()

    from bench.load_moves import setup_database

    db_url = setup_database(args.database, "pacru_clockbench")
    queue = f"clocks-bench-{uuid.uuid4().hex[:6]}"
    os.environ.update(
        DATABASE_URL=db_url,
        REDIS_URL=args.redis,
        CLOCK_QUEUE=queue,
        CLOCK_GRACE_SECONDS=str(args.grace),
        DJANGO_SETTINGS_MODULE="config.settings",
        LOG_LEVEL="WARNING",
    )
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, check=True)
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    import engine
    from games.clocks import TimeControl
    from games.models import Move, Player, Seat, Table
    from games.tasks import clock_check

    print(f"creating {args.tables} tables …", flush=True)
    User = get_user_model()
    users = User.objects.bulk_create(User(username=f"c{i}", password="!") for i in range(2 * args.tables))
    people = Player.objects.bulk_create(Player(user=u, display_name=u.username) for u in users)
    admin = people[0]
    position = engine.new_game("pacru", 2).play("e1-e2").to_dict()
    tc = TimeControl.from_dict({"kind": "fischer", "base": 600, "increment": 0})
    start = timezone.now()
    first = start + timedelta(seconds=args.lead)
    step = args.spread / max(1, args.tables - 1)
    tables = Table.objects.bulk_create(
        Table(
            game="pacru",
            edition="302",
            players=2,
            created_by=admin,
            status=Table.Status.ACTIVE,
            started_at=start,
            position=position,
            ply=1,
            to_move=2,
            actions=1,
            time_control=tc.to_dict(),
            clocks={"1": {"remaining": 600.0, "periods": 0}, "2": {"remaining": 600.0, "periods": 0}},
            turn_started_at=start,
            deadline=first + timedelta(seconds=i * step),
        )
        for i in range(args.tables)
    )
    Seat.objects.bulk_create(
        Seat(table=t, number=n, player=people[2 * i + n - 1], colour=Seat.COLOURS[n])
        for i, t in enumerate(tables)
        for n in (1, 2)
    )
    Move.objects.bulk_create(Move(table=t, seq=0, ply=1, seat=1, notation="e1-e2") for t in tables)
    grace = timedelta(seconds=args.grace)
    sent = time.perf_counter()
    for t in tables:
        clock_check.apply_async(args=(t.pk, t.actions), eta=t.deadline + grace, queue=queue)
    print(f"queued {len(tables)} ETA checks in {time.perf_counter() - sent:.1f} s", flush=True)

    env = {**os.environ}
    celery = [sys.executable, "-m", "celery", "-A", "config"]
    worker = ["worker", "-Q", queue, "-c", str(args.concurrency), "--without-mingle", "--without-gossip"]
    beat = ["beat", "-s", f"/tmp/{queue}-beat"]
    procs = [
        subprocess.Popen(
            [*celery, *worker, "-l", "WARNING", "-n", f"{queue}@%h"],
            cwd=ROOT,
            env=env,
            start_new_session=True,
        ),
        subprocess.Popen([*celery, *beat, "-l", "WARNING"], cwd=ROOT, env=env, start_new_session=True),
    ]
    try:
        last = tables[-1].deadline + grace
        wait_until = (last - timezone.now()).total_seconds() + 120
        end = time.time() + wait_until
        while time.time() < end:
            left = Table.objects.filter(status=Table.Status.ACTIVE).count()
            print(f"{left:6d} tables still active", flush=True)
            if not left:
                break
            time.sleep(2)
        print()
    finally:
        for p in procs:
            os.killpg(p.pid, signal.SIGTERM)
        for p in procs:
            p.wait(timeout=30)

    due = {t.pk: t.deadline + grace for t in tables}
    done = dict(Move.objects.filter(kind=Move.Kind.TIMEOUT).values_list("table_id", "played_at"))
    lat = sorted((done[pk] - due[pk]).total_seconds() for pk in done)
    missing = len(due) - len(done)
    doubled = Move.objects.filter(kind=Move.Kind.TIMEOUT).count() - len(done)
    print(f"tables: {len(due)}, timed out: {len(done)}, missing: {missing}, applied twice: {doubled}")
    if lat:
        pick = lambda p: lat[min(len(lat) - 1, int(p / 100 * len(lat)))]  # noqa: E731
        print(
            f"latency after due (deadline + {args.grace:g} s grace), s: p50 {pick(50):.3f}  "
            f"p90 {pick(90):.3f}  p99 {pick(99):.3f}  max {lat[-1]:.3f}  min {lat[0]:.3f}"
        )
        span = (max(done.values()) - min(done.values())).total_seconds()
        print(f"worker throughput: {len(done) / max(span, 1e-9):.0f} timeouts/s over {span:.0f} s "
              f"(deadlines arrive at {args.tables / args.spread:.0f}/s)")  # fmt: skip


if __name__ == "__main__":
    main()
