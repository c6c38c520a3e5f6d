"""Benchmark: what live updates cost the server (not a test; prints figures).

Game pages poll ``GET /api/v1/tables/{id}/`` about once a second with ``If-None-Match``; the
lobby polls its fragment the same way. This times, in process (Django's test client: the
whole request path, middleware, authentication, database, no network), on a PostgreSQL
database of its own (``pacru_pollbench``) holding a 2-player Pacru table 60 plies in:

* an unchanged table: ``304`` after one indexed query;
* a changed table: the full ``200`` (position, legal moves and their choices, seats, clocks);
* the lobby fragment: ``304`` and ``200``.

    .venv/bin/python bench/poll.py
    .venv/bin/python bench/poll.py --requests 5000
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def timed(n: int, call: Callable[[], int], expect: int) -> list[float]:
    out = []
    for _ in range(n):
        start = time.perf_counter()
        status = call()
        out.append((time.perf_counter() - start) * 1000)
        assert status == expect, f"expected {expect}, got {status}"
    return out


def report(name: str, ms: list[float]) -> None:
    ms = sorted(ms)
    p99 = ms[int(len(ms) * 0.99) - 1]
    print(
        f"{name:<34} {len(ms):>6} requests  mean {statistics.mean(ms):6.2f} ms  "
        f"p50 {statistics.median(ms):6.2f} ms  p99 {p99:6.2f} ms  "
        f"≈ {1000 / statistics.mean(ms):7.0f} req/s/core"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--database", default="postgres://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--requests", type=int, default=2000)
    args = parser.parse_args()

    from bench.load_moves import setup_database

    db_url = setup_database(args.database, "pacru_pollbench")
    os.environ.update(
        DATABASE_URL=db_url, DJANGO_SETTINGS_MODULE="config.settings", LOG_LEVEL="WARNING", THROTTLE_OFF="1"
    )
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, check=True)
    import random

    import django

    django.setup()
    from django.test import Client

    import engine
    from games import services
    from games.models import Table

    a = services.player_register(username="pollbench-a", password="bench-password-1")
    b = services.player_register(username="pollbench-b", password="bench-password-1")
    table = services.table_create(creator=a, game="pacru", players=2)
    services.seat_join(table_id=table.pk, player=b)
    rng = random.Random(7)
    for ply in range(60):
        table.refresh_from_db()
        moves = engine.load(table.position).legal_moves()
        services.move_submit(table_id=table.pk, player=(a, b)[ply % 2], ply=ply, move=rng.choice(moves))
    for i in range(30):
        services.table_create(creator=(a, b)[i % 2], game="pacru", players=4)

    client = Client()
    url = f"/api/v1/tables/{table.pk}/"
    etag = client.get(url)["ETag"]
    lobby_etag = client.get("/?fragment=lobby")["ETag"]
    n = args.requests
    print(f"table #{table.pk} at ply 60, {n} requests per case (one process, one core)")
    report(
        "table, unchanged (304)", timed(n, lambda: client.get(url, HTTP_IF_NONE_MATCH=etag).status_code, 304)
    )
    report("table, changed (200)", timed(max(1, n // 4), lambda: client.get(url).status_code, 200))
    report(
        "lobby fragment, unchanged (304)",
        timed(
            max(1, n // 4),
            lambda: client.get("/?fragment=lobby", HTTP_IF_NONE_MATCH=lobby_etag).status_code,
            304,
        ),
    )
    report(
        "lobby fragment, changed (200)",
        timed(max(1, n // 4), lambda: client.get("/?fragment=lobby").status_code, 200),
    )
    Table.objects.filter(pk=table.pk).update(status="finished")


if __name__ == "__main__":
    main()
