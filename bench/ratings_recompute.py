"""Benchmark: recomputing ratings for many finished 4-player tables (not a test; prints figures).

It makes a PostgreSQL database of its own (``pacru_ratingbench``), creates
``--tables`` finished, rated 4-player Pacru tables among ``--players`` players
with random rankings (ties included), then times, in the same run:

* the bare TrueSkill math: ``ratings.environment.rate`` over the same tables
  in the same order, all in memory;
* ``ratings.services.recompute``: the same updates with every database read
  and write (history rows, guards, ratings), built aside and swapped in with
  one transaction;
* a second ``recompute`` of the same tables, now all rated: replayed in the
  order they were applied (``RatingUpdate.seq``), the old history replaced.

    .venv/bin/python bench/ratings_recompute.py                 # 100,000 tables
    .venv/bin/python bench/ratings_recompute.py --tables 20000
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--database", default="postgres://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--tables", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=5_000)
    args = parser.parse_args()

    from bench.load_moves import setup_database

    db_url = setup_database(args.database, "pacru_ratingbench")
    os.environ.update(DATABASE_URL=db_url, DJANGO_SETTINGS_MODULE="config.settings", LOG_LEVEL="WARNING")
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, check=True)
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from games.models import Player, Seat, Table
    from ratings import environment
    from ratings.services import recompute

    rng = random.Random(2026)
    print(f"creating {args.tables} finished 4-player tables among {args.players} players …", flush=True)
    made = time.perf_counter()
    User = get_user_model()
    users = User.objects.bulk_create(User(username=f"p{i}", password="!") for i in range(args.players))
    people = [
        p.pk for p in Player.objects.bulk_create(Player(user=u, display_name=u.username) for u in users)
    ]
    start = timezone.now() - timedelta(days=365)
    games: list[tuple[list[int], list[int]]] = []
    chunk = 10_000
    for first in range(0, args.tables, chunk):
        batch = []
        for i in range(first, min(first + chunk, args.tables)):
            seated = rng.sample(people, 4)
            ranks = sorted(rng.choice((1, 1, 2, 3, 4)) for _ in range(4))  # sorted: a valid place list
            order = list(range(4))
            rng.shuffle(order)
            ranks = [ranks[k] for k in order]
            games.append((seated, ranks))
            batch.append(
                Table(
                    game="pacru",
                    edition="302",
                    players=4,
                    created_by_id=seated[0],
                    status=Table.Status.FINISHED,
                    rated=True,
                    started_at=start,
                    finished_at=start + timedelta(seconds=i),
                    result={"ranking": {str(n + 1): r for n, r in enumerate(ranks)}},
                )
            )
        tables = Table.objects.bulk_create(batch)
        Seat.objects.bulk_create(
            Seat(
                table=t,
                number=n + 1,
                player_id=games[first + k][0][n],
                colour=Seat.COLOURS[n + 1],
                rank=games[first + k][1][n],
            )
            for k, t in enumerate(tables)
            for n in range(4)
        )
    print(f"created in {time.perf_counter() - made:.0f} s", flush=True)

    t = time.perf_counter()
    current: dict[int, tuple[float, float]] = {}
    for seated, ranks in games:
        after = environment.rate("pacru", [current.get(p, (25.0, 25 / 3)) for p in seated], ranks)
        current.update(zip(seated, after, strict=True))
    bare = time.perf_counter() - t

    # The math inside recompute is timed as well: on a busy machine the bare run and the
    # recompute can see different CPU speeds, so "recompute minus its own math" is the steadier figure.
    inside = [0.0]
    rate = environment.rate

    def timed_rate(*args: object, **kwargs: object) -> object:
        t = time.perf_counter()
        try:
            return rate(*args, **kwargs)  # type: ignore[arg-type]
        finally:
            inside[0] += time.perf_counter() - t

    environment.rate = timed_rate  # type: ignore[assignment]
    t = time.perf_counter()
    rated = recompute(games=["pacru"])["pacru"]
    full = time.perf_counter() - t
    math_full, inside[0] = inside[0], 0.0

    t = time.perf_counter()
    again = recompute(games=["pacru"])["pacru"]
    second = time.perf_counter() - t
    math_second = inside[0]
    environment.rate = rate

    from ratings.models import Rating

    check = Rating.objects.filter(player_id=people[0]).values_list("mu", "sigma").first()
    same = check is None or abs(check[0] - current[people[0]][0]) < 1e-9
    print(f"tables rated: {rated}")
    print(f"bare trueskill.rate:        {bare:7.1f} s  ({args.tables / bare:,.0f} tables/s)")
    print(f"recompute with the database:{full:7.1f} s  ({rated / full:,.0f} tables/s)")
    print(f"database work: {full - bare:.1f} s = {(full - bare) / bare * 100:.0f} % of the bare math")
    print(
        f"  the same, measured inside: math {math_full:.1f} s, the rest {full - math_full:.1f} s"
        f" = {(full - math_full) / math_full * 100:.0f} %"
    )
    print(f"recompute again (all {again} rated, replayed in seq order): {second:.1f} s")
    print(
        f"  measured inside: math {math_second:.1f} s, the rest {second - math_second:.1f} s"
        f" = {(second - math_second) / math_second * 100:.0f} %"
    )
    print(f"recompute equals the in-memory replay: {same}")


if __name__ == "__main__":
    main()
