"""Benchmark: what pages and lists cost as finished history grows (not a test; prints figures).

It makes a PostgreSQL database of its own (``pacru_scale`` on the server of ``--database``;
dropped and made again every run, dropped at the end unless ``--keep``), migrates it, runs
``seed_demo``, plays a dozen real games (Pacru, Azacru, Shacru, 2–4 seats) through the service
to serve as templates, then grows the history in steps to each of ``--sizes`` finished tables
with set-based SQL (``INSERT … SELECT … FROM generate_series``): every synthetic table is a copy
of a template's row (its final position, result, end reason, seat ranks and markers) with its
own id, players and dates, with 10–20 of the template's moves. Seats are drawn from a pool of
``--pool`` generated players, plus one *heavy* player who sits at ``--heavy`` of the tables
(every k-th, spread over the whole history at every size) and has a rating change for each, and
one *retired* player who sat at as many tables, the oldest ones (a player whose games are all far
down the indexes: the worst case of "newest first"). Every rated table has its rating guard row.
Dates run over the past year, increasing with the id (as they do in real life).

After each step (``VACUUM ANALYZE``) every page and list is requested in process with Django's
test client (the whole request path: middleware, sessions, authentication, database, templates;
no network; DEBUG off, throttles off) and its p50/p99 printed; at the end one table puts the
sizes side by side, with the ratio of the largest size to the smallest (goal: ≤ 2×).

    .venv/bin/python bench/scale.py --quick          # 10³ and 10⁴ tables, heavy player 1,000 games
    .venv/bin/python bench/scale.py                  # 10⁴, 10⁵, 10⁶ (20–40 min, a few GB)
    .venv/bin/python bench/scale.py --sizes 10000,100000 --requests 50 --keep
"""

from __future__ import annotations

import argparse
import math
import os
import random
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DB_NAME = "pacru_scale"
PASSWORD = "scale-bench-pass-2026"

#: The template games (game, seats): copies of them make the history, in this proportion.
TEMPLATE_MIX = [
    ("pacru", 2), ("pacru", 2), ("pacru", 2), ("pacru", 2), ("pacru", 3), ("pacru", 4), ("pacru", 4),
    ("azacru", 2), ("azacru", 2), ("azacru", 3), ("shacru", 2), ("shacru", 2), ("shacru", 4),
]  # fmt: skip

#: The heavy player's rating change at each of their synthetic tables (made again at every step,
#: as their tables move): ``n`` counts their changes in that game, mu wanders, sigma shrinks.
HEAVY_HISTORY = """
INSERT INTO ratings_ratingchange (player_id, game, table_id, rank, seats, mu_before, sigma_before,
    mu_after, sigma_after, conservative_before, conservative_after, at)
SELECT player_id, game, table_id, rank, seats, mb, sb, ma, sa, mb - 3 * sb, ma - 3 * sa, at
FROM (
    SELECT player_id, game, table_id, rank, seats, at,
        25 + 5 * sin(n / 300.0) AS mb, 25 + 5 * sin((n + 1) / 300.0) AS ma,
        greatest(8.333 * exp(-n / 40.0), 0.9) AS sb, greatest(8.333 * exp(-(n + 1) / 40.0), 0.9) AS sa
    FROM (
        SELECT s.player_id, t.game, t.id AS table_id, coalesce(s.rank, 1) AS rank, t.players AS seats,
            t.finished_at AS at,
            row_number() OVER (PARTITION BY t.game ORDER BY t.id) - 1 AS n
        FROM games_seat s JOIN games_table t ON t.id = s.table_id
        JOIN bench_synth b ON b.table_id = t.id
        WHERE s.player_id = {heavy}
    ) numbered
) x
"""

#: Tables per INSERT statement (a transaction each): keeps transactions and sorts moderate.
CHUNK = 100_000


def log(text: str) -> None:
    print(f"[{datetime.now(UTC):%H:%M:%S}] {text}", flush=True)


# ----------------------------------------------------------------------------- database
def admin_connect(url: str) -> Any:
    import psycopg

    return psycopg.connect(url.replace("postgres://", "postgresql://", 1), autocommit=True)


def columns(conn: Any, table: str) -> list[str]:
    rows = conn.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' "
        "AND table_name = %s ORDER BY ordinal_position",
        (table,),
    ).fetchall()
    return [r[0] for r in rows]


def copy_insert(conn: Any, table: str, overrides: dict[str, str], source: str, skip: tuple = ("id",)) -> str:
    """``INSERT INTO table (every column) SELECT …``: a column in ``overrides`` takes that
    expression, any other is copied from the template row ``t`` (so columns added by later
    migrations are carried over from a real row, not guessed)."""
    cols = [c for c in columns(conn, table) if c not in skip or c in overrides]
    exprs = [overrides.get(c, f"t.{c}") for c in cols]
    return f"INSERT INTO {table} ({', '.join(cols)}) SELECT {', '.join(exprs)} {source}"


def db_size(conn: Any) -> int:
    return conn.execute("SELECT pg_database_size(current_database())").fetchone()[0]


def gb(n: float) -> str:
    return f"{n / 1e9:.2f} GB" if n >= 1e8 else f"{n / 1e6:.0f} MB"


class History:
    """Grows the finished history with set-based SQL, in steps."""

    def __init__(
        self, db_url: str, *, pool: int, heavy_id: int, heavy_games: int, retired_id: int, gmax: int
    ) -> None:
        self.conn = admin_connect(db_url)
        self.pool = pool
        self.heavy_id = heavy_id
        self.heavy_games = heavy_games
        self.stride = 1  # the heavy player sits at every stride-th synthetic table
        self.retired_id = retired_id
        self.retired_games = heavy_games
        self.gmax = gmax  # the largest size: dates run from a year ago (g = 0) to now (g = gmax)
        self.made = 0  # synthetic tables so far (g = 0 … made-1)
        self.now = datetime.now(UTC).replace(microsecond=0)
        self.templates = 0

    def keys(self) -> tuple[list[str], list[str | None], list[str | None]]:
        """The pool's usernames with the keys of their display names and usernames."""
        from games.names import name_key

        usernames = [f"scale_{g}" for g in range(self.pool)]
        return usernames, [name_key(f"Scale {g}") for g in range(self.pool)], [name_key(u) for u in usernames]

    def prepare(self, template_ids: list[int]) -> None:
        """The player pool and the helper tables (template index → template table; pool index →
        player), kept in the database for the later steps (``bench_`` tables; no page reads them)."""
        c = self.conn
        c.execute(
            "INSERT INTO auth_user (password, last_login, is_superuser, username, first_name, last_name, "
            "email, is_staff, is_active, date_joined) "
            "SELECT '!', NULL, false, 'scale_' || g, '', '', '', false, true, "
            "%s::timestamptz - interval '400 days' "
            "FROM generate_series(0, %s - 1) g",
            (self.now, self.pool),
        )
        pcols = columns(c, "games_player")
        defaults = {
            "user_id": "u.id",
            "display_name": "'Scale ' || substr(u.username, 7)",
            # The keys as the service computes them (games.names: a look-alike skeleton, not SQL's).
            "name_key": "k.name_key",
            "username_key": "k.username_key",
            "email_verified": "false",
            "username_held_until": "NULL",
            "is_bot": "false",
            "is_guest": "false",
            "bot_level": "''",
            "bot_budget": "0.5",
            "vacation_started": "NULL",
            "vacation_until": "NULL",
            "vacation_year": "0",
            "vacation_days_used": "0",
            "created": "u.date_joined",
        }
        missing = [col for col in pcols if col not in defaults and col != "id"]
        if missing:
            log(f"games_player has columns this script does not know, left to their defaults: {missing}")
        cols = [col for col in pcols if col in defaults]
        c.execute(
            f"INSERT INTO games_player ({', '.join(cols)}) SELECT {', '.join(defaults[x] for x in cols)} "
            "FROM auth_user u JOIN unnest(%s::text[], %s::text[], %s::text[]) AS k(username, name_key, "
            "username_key) ON k.username = u.username ORDER BY u.id",
            self.keys(),
        )
        c.execute(
            "CREATE TABLE bench_pool AS SELECT (row_number() OVER (ORDER BY p.id) - 1)::int AS idx, "
            "p.id AS player_id FROM games_player p JOIN auth_user u ON u.id = p.user_id "
            "WHERE u.username LIKE 'scale\\_%'"
        )
        c.execute("CREATE UNIQUE INDEX ON bench_pool (idx)")
        c.execute("CREATE TABLE bench_synth (table_id bigint PRIMARY KEY, g bigint NOT NULL)")
        c.execute(
            "CREATE TABLE bench_tpl AS SELECT (row_number() OVER (ORDER BY id) - 1)::int AS idx, "
            "id AS table_id, players FROM games_table WHERE id = ANY(%s)",
            (template_ids,),
        )
        self.templates = len(template_ids)
        # Everyone in the pool has a Pacru rating: the leaderboard lists 2,000 players, not 4.
        c.execute(
            "INSERT INTO ratings_rating (player_id, game, mu, sigma, conservative, games, last_played) "
            "SELECT player_id, 'pacru', mu, sigma, mu - 3 * sigma, 20 + idx %% 500, %s::timestamptz - "
            "(idx %% 300) * interval '1 day' "
            "FROM (SELECT player_id, idx, 15 + (idx * 37 %% 200) / 10.0 AS mu, "
            "1.5 + (idx * 11 %% 50) / 10.0 AS sigma FROM bench_pool) x",
            (self.now,),
        )

    def _times(self) -> dict[str, str]:
        fin = (
            f"('{self.now.isoformat()}'::timestamptz - interval '1 hour' "
            f"- (1 - g::float8 / {self.gmax}) * interval '365 days')"
        )
        return {
            "finished": fin,
            "started": f"({fin} - interval '25 minutes')",
            "created": f"({fin} - interval '27 minutes')",
        }

    def _player(self, number: str, players: str) -> str:
        """The player at seat ``number`` of synthetic table ``g``: the heavy player at one seat of
        every stride-th table (spread over the whole history), the retired player at another seat
        of the oldest tables, else the pool (distinct within a table: 487·k mod pool)."""
        heavy_seat = f"(g / {self.stride}) % {players} + 1"
        return (
            f"CASE WHEN g % {self.stride} = 0 AND {number} = {heavy_seat} THEN {self.heavy_id} "
            f"WHEN g < {self.retired_games} AND {number} = ({heavy_seat}) % {players} + 1 "
            f"THEN {self.retired_id} ELSE pp.player_id END"
        )

    def grow(self, target: int) -> dict[str, float]:
        """Add synthetic finished tables until there are ``target``; return the seconds per part."""
        c = self.conn
        timings: dict[str, float] = {}
        c.execute("SET synchronous_commit = off")
        # Bulk load of rows made from valid ones: no per-row foreign-key trigger (superuser only).
        c.execute("SET session_replication_role = replica")
        c.execute("SET work_mem = '256MB'")
        c.execute("SET maintenance_work_mem = '512MB'")
        times = self._times()
        T, P = self.templates, self.pool
        old_stride, self.stride = self.stride, max(1, target // self.heavy_games)
        while self.made < target:
            g0, g1 = self.made, min(target, self.made + CHUNK)
            id0 = c.execute("SELECT coalesce(max(id), 0) + 1 FROM games_table").fetchone()[0]
            tid = f"({id0} + g - {g0})"
            series = f"FROM generate_series({g0}::bigint, {g1 - 1}) g JOIN bench_tpl b ON b.idx = g % {T}"
            pool_at = lambda k: f"JOIN bench_pool pp ON pp.idx = (g * 7919 + {k} * 487) % {P}"  # noqa: E731
            with c.transaction():
                start = time.perf_counter()
                c.execute(
                    copy_insert(
                        c,
                        "games_table",
                        {
                            "id": tid,
                            "status": "'finished'",
                            "created_by_id": self._player("1", "b.players"),
                            "created_at": times["created"],
                            "started_at": times["started"],
                            "finished_at": times["finished"],
                            "turn_started_at": "NULL",
                            "deadline": "NULL",
                        },
                        f"{series} JOIN games_table t ON t.id = b.table_id {pool_at(1)}",
                        skip=(),
                    )
                )
                timings["tables"] = timings.get("tables", 0) + time.perf_counter() - start
                start = time.perf_counter()
                c.execute(
                    copy_insert(
                        c,
                        "games_seat",
                        {
                            "table_id": tid,
                            "player_id": self._player("t.number", "b.players"),
                            "joined_at": f"({times['created']} + t.number * interval '10 seconds')",
                        },
                        f"{series} JOIN games_seat t ON t.table_id = b.table_id {pool_at('t.number')}",
                    )
                )
                timings["seats"] = timings.get("seats", 0) + time.perf_counter() - start
                start = time.perf_counter()
                c.execute(
                    copy_insert(
                        c,
                        "games_move",
                        {
                            "table_id": tid,
                            "played_at": f"({times['started']} + t.seq * interval '30 seconds')",
                        },
                        f"{series} JOIN games_move t ON t.table_id = b.table_id AND t.seq < 10 + g % 11",
                    )
                )
                timings["moves"] = timings.get("moves", 0) + time.perf_counter() - start
                c.execute(
                    f"INSERT INTO bench_synth SELECT {tid}, g FROM generate_series({g0}::bigint, {g1 - 1}) g"
                )
            self.made = g1
            log(f"  … {self.made:,} synthetic tables")
        c.execute(
            "SELECT setval(pg_get_serial_sequence('games_table', 'id'), (SELECT max(id) FROM games_table))"
        )
        # Every rated table in the history has been rated (as in a real service): its guard row,
        # numbered on from the game's ledger, so a finishing move rates only its own table.
        start = time.perf_counter()
        with c.transaction():
            c.execute(
                "INSERT INTO ratings_ratingupdate (table_id, game, seq, applied_at) "
                "SELECT t.id, t.game, coalesce(l.seq, 0) + row_number() OVER (PARTITION BY t.game "
                "ORDER BY t.finished_at, t.id), t.finished_at FROM games_table t "
                "LEFT JOIN ratings_ratingledger l ON l.game = t.game "
                "WHERE t.status = 'finished' AND t.rated "
                "AND NOT EXISTS (SELECT 1 FROM ratings_ratingupdate u WHERE u.table_id = t.id)"
            )
            c.execute(
                "INSERT INTO ratings_ratingledger (game, seq) "
                "SELECT game, max(seq) FROM ratings_ratingupdate "
                "GROUP BY game ON CONFLICT (game) DO UPDATE SET seq = EXCLUDED.seq"
            )
        timings["rating guards"] = time.perf_counter() - start
        start = time.perf_counter()
        with c.transaction():
            if self.stride != old_stride:
                # The heavy player keeps ~heavy_games tables, spread over the longer history: they
                # leave the older tables off the new stride, to the pool player due at that seat.
                c.execute(
                    "UPDATE games_seat s SET player_id = pp.player_id FROM bench_synth b, bench_pool pp "
                    f"WHERE s.table_id = b.table_id AND s.player_id = {self.heavy_id} "
                    f"AND b.g % {self.stride} <> 0 AND pp.idx = (b.g * 7919 + s.number * 487) % {P}"
                )
                c.execute(
                    "UPDATE games_table t SET created_by_id = s.player_id FROM games_seat s, bench_synth b "
                    "WHERE s.table_id = t.id AND s.number = 1 AND b.table_id = t.id "
                    f"AND t.created_by_id = {self.heavy_id} AND s.player_id <> {self.heavy_id}"
                )
            c.execute(
                "DELETE FROM ratings_ratingchange r USING bench_synth b "
                f"WHERE r.table_id = b.table_id AND r.player_id = {self.heavy_id}"
            )
            c.execute(HEAVY_HISTORY.format(heavy=self.heavy_id))
        timings["heavy player"] = time.perf_counter() - start
        # The heavy player's ratings follow their last change in each game.
        c.execute(
            "INSERT INTO ratings_rating (player_id, game, mu, sigma, conservative, games, last_played) "
            "SELECT DISTINCT ON (game) player_id, game, mu_after, sigma_after, conservative_after, "
            "count(*) OVER (PARTITION BY game), at FROM ratings_ratingchange "
            f"WHERE player_id = {self.heavy_id} ORDER BY game, at DESC, table_id DESC "
            "ON CONFLICT (player_id, game) DO UPDATE SET mu = EXCLUDED.mu, sigma = EXCLUDED.sigma, "
            "conservative = EXCLUDED.conservative, games = EXCLUDED.games, last_played = EXCLUDED.last_played"
        )
        c.execute("RESET session_replication_role")
        start = time.perf_counter()
        c.execute("VACUUM ANALYZE")
        timings["vacuum analyze"] = time.perf_counter() - start
        return timings


# ----------------------------------------------------------------------------- measuring
def percentile(sorted_ms: list[float], p: float) -> float:
    return sorted_ms[min(len(sorted_ms) - 1, max(0, math.ceil(p / 100 * len(sorted_ms)) - 1))]


class SqlTimer:
    """A database execute wrapper: the SQL time and queries of the request being timed, and
    per statement text the total time with one set of its parameters (to EXPLAIN later)."""

    def __init__(self) -> None:
        self.ms = 0.0
        self.queries = 0
        self.by_sql: dict[str, list[Any]] = {}

    def __call__(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        start = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            ms = (time.perf_counter() - start) * 1000
            self.ms += ms
            self.queries += 1
            entry = self.by_sql.setdefault(sql, [0.0, 0, params, many])
            entry[0] += ms
            entry[1] += 1


class Sample:
    """One endpoint at one size: wall-clock p50/p99, SQL p50, queries per request, top statement."""

    def __init__(self, wall: list[float], sql: list[float], queries: int, timer: SqlTimer) -> None:
        wall, sql = sorted(wall), sorted(sql)
        self.n = len(wall)
        self.p50, self.p99 = percentile(wall, 50), percentile(wall, 99)
        self.sql50 = percentile(sql, 50)
        self.queries = queries
        top = max(timer.by_sql.items(), key=lambda kv: kv[1][0], default=None)
        self.top_sql = top[0] if top else ""
        self.top_params = top[1][2] if top else None
        self.top_ms = top[1][0] / max(1, self.n) if top else 0.0
        self.top_many = top[1][3] if top else False


def measure(call: Callable[[], int], expect: int, n: int, budget: float) -> Sample:
    """Warm up, then up to ``n`` timed calls (fewer if they would take over ``budget`` seconds,
    but at least 20): wall-clock and SQL time of each, in ms."""
    from django.db import connection

    for _ in range(3):
        status = call()
        assert status == expect, f"expected {expect}, got {status}"
    wall: list[float] = []
    sql: list[float] = []
    timer = SqlTimer()
    queries = 0
    began = time.perf_counter()
    with connection.execute_wrapper(timer):
        while len(wall) < n and (len(wall) < 20 or time.perf_counter() - began < budget):
            if isinstance(call, Mover):
                call.ready()
            timer.ms, timer.queries = 0.0, 0
            start = time.perf_counter()
            status = call()
            wall.append((time.perf_counter() - start) * 1000)
            sql.append(timer.ms)
            queries = max(queries, timer.queries)
            assert status == expect, f"expected {expect}, got {status}"
    return Sample(wall, sql, queries, timer)


class Mover:
    """Move submissions through the API at a live 2-player Pacru table of the heavy player (seat 1)
    and a rival, legal moves chosen with the engine; a new table when a game ends."""

    def __init__(self, client: Any, heavy: Any, rival: Any, tokens: dict[int, str], seed: int) -> None:
        self.client, self.heavy, self.rival, self.tokens = client, heavy, rival, tokens
        self.rng = random.Random(seed)
        self.state: Any = None
        self.table_id = 0

    def _new_table(self) -> None:
        from games import services

        table = services.table_create(creator=self.heavy, game="pacru", players=2)
        table = services.seat_join(table_id=table.pk, player=self.rival)
        self.table_id = table.pk
        self.state = services.current_state(table)

    def ready(self) -> None:
        """Outside the timing: a new table when there is none or its game is over."""
        if self.state is None or self.state.is_over:
            self._new_table()

    def __call__(self) -> int:
        from engine.playout import random_step

        self.ready()
        after, text = random_step(self.state, self.rng)
        player = (self.heavy, self.rival)[self.state.to_move - 1]
        response = self.client.post(
            f"/api/v1/tables/{self.table_id}/moves/",
            {"ply": self.state.ply, "move": text},
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Token {self.tokens[player.pk]}",
        )
        if response.status_code == 201:
            self.state = after
        return response.status_code


def endpoints(
    ids: dict[str, Any], mover: Mover, client: Any, heavy_client: Any
) -> list[tuple[str, Callable[[], int], int]]:
    """(name, call returning the status, expected status): every page and list of the issue, and
    extra rows (marked +): the lobby and table list of the heavy player, and the views of a
    retired player with as many games as the heavy one, all of them the oldest of the history."""
    h, r = ids["heavy"], ids["retired"]

    def get(url: str, c: Any = client, **extra: Any) -> Callable[[], int]:
        return lambda: c.get(url, **extra).status_code

    def lobby_304() -> int:
        # The tag of a previous answer (taken just before: a move submission changes it).
        if "lobby_etag" not in ids:
            ids["lobby_etag"] = client.get("/?fragment=lobby")["ETag"]
        etag = ids["lobby_etag"]
        return client.get("/?fragment=lobby", HTTP_IF_NONE_MATCH=etag).status_code

    return [
        ("page /", get("/"), 200),
        ("page /?fragment=lobby (200)", get("/?fragment=lobby"), 200),
        ("page /?fragment=lobby (304)", lobby_304, 304),
        ("api tables/", get("/api/v1/tables/"), 200),
        ("api tables/?status=finished", get("/api/v1/tables/?status=finished"), 200),
        ("api tables/?status=active", get("/api/v1/tables/?status=active"), 200),
        ("page /ratings/pacru/", get("/ratings/pacru/"), 200),
        ("api players/", get("/api/v1/players/"), 200),
        ("page /players/<heavy>/", get(f"/players/{h}/"), 200),
        ("api players/<heavy>/", get(f"/api/v1/players/{h}/"), 200),
        ("api players/<heavy>/ratings/", get(f"/api/v1/players/{h}/ratings/"), 200),
        ("page /tournaments/<demo>/", get(f"/tournaments/{ids['tournament']}/"), 200),
        ("page /leagues/demo-club/", get(f"/leagues/{ids['league']}/"), 200),
        ("page /ladders/<demo>/", get(f"/ladders/{ids['ladder']}/"), 200),
        ("+ page / (heavy signed in)", get("/", heavy_client), 200),
        ("+ api tables/?player=<heavy>", get(f"/api/v1/tables/?player={h}"), 200),
        ("+ page /players/<retired>/", get(f"/players/{r}/"), 200),
        ("+ api players/<retired>/", get(f"/api/v1/players/{r}/"), 200),
        ("+ api tables/?player=<retired>", get(f"/api/v1/tables/?player={r}"), 200),
        ("POST api tables/<live>/moves/", mover, 201),
    ]


# ----------------------------------------------------------------------------- set-up
def play_templates(rng: random.Random) -> list[int]:
    """Real finished games through the service (the demo players): the rows the history copies."""
    from engine.playout import random_step
    from games import services
    from games.models import Player, Table

    people = list(Player.objects.filter(user__username__in=["alice", "bob", "carol", "dave"]).order_by("pk"))
    ids = []
    for game, seats in TEMPLATE_MIX:
        table = services.table_create(creator=people[0], game=game, players=seats)
        for p in people[1:seats]:
            services.seat_join(table_id=table.pk, player=p)
        table.refresh_from_db()
        by_seat = {s.number: s.player for s in table.seats.all()}
        while table.status == Table.Status.ACTIVE:
            if table.ply >= 300:  # a random game that wanders: the one on turn resigns
                table = services.game_resign(table_id=table.pk, player=by_seat[table.to_move])
                continue
            state = services.current_state(table)
            _, text = random_step(state, rng)
            table = services.move_submit(
                table_id=table.pk, player=by_seat[state.to_move], ply=table.ply, move=text
            ).table
        ids.append(table.pk)
    return ids


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--database", default="postgres://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--sizes", default="10000,100000,1000000", help="finished tables, comma-separated")
    parser.add_argument(
        "--quick", action="store_true", help="sizes 1000,10000 and a heavy player of 1,000 games"
    )
    parser.add_argument("--heavy", type=int, default=10_000, help="games of the heavy player")
    parser.add_argument("--pool", type=int, default=2_000, help="generated players")
    parser.add_argument("--requests", type=int, default=100, help="timed requests per endpoint (at most)")
    parser.add_argument("--budget", type=float, default=8.0, help="seconds per endpoint (after 20 requests)")
    parser.add_argument("--keep", action="store_true", help=f"keep the database {DB_NAME}")
    args = parser.parse_args()
    sizes = [1000, 10_000] if args.quick else sorted(int(float(s)) for s in args.sizes.split(","))
    heavy_games = min(1000 if args.quick else args.heavy, sizes[0])

    from bench.load_moves import setup_database

    with admin_connect(args.database) as conn:
        data_dir = conn.execute("SHOW data_directory").fetchone()[0]
    for where in ("/work", data_dir):
        try:
            du = shutil.disk_usage(where)
            log(f"disk {where}: {gb(du.free)} free of {gb(du.total)}")
        except OSError:
            pass
    log(f"estimate at {sizes[-1]:,} tables: ≈ {gb(sizes[-1] * 6500)} of database")

    db_url = setup_database(args.database, DB_NAME)
    db_name = db_url.rsplit("/", 1)[1]
    os.environ.update(
        DATABASE_URL=db_url,
        DJANGO_SETTINGS_MODULE="config.settings",
        DJANGO_PROFILE="local",
        DEBUG="0",
        THROTTLE_OFF="1",
        LOG_LEVEL="WARNING",
        # The template games seat the four demo players together again and again, rated.
        RATED_GAMES_SAME_PLAYERS_PER_DAY="0",
        TOKEN_CACHE_SECONDS=os.environ.get("TOKEN_CACHE_SECONDS", "30"),
    )
    os.environ.pop("REDIS_URL", None)
    results: dict[int, dict[str, Sample]] = {}
    builds: dict[int, tuple[float, dict[str, float], int]] = {}
    history = None
    plans: list[str] = []
    try:
        start = time.perf_counter()
        subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, check=True)
        subprocess.run([sys.executable, "manage.py", "seed_demo"], cwd=ROOT, check=True)
        import django

        django.setup()
        from django.conf import settings
        from django.db import connections
        from django.test import Client
        from rest_framework.authtoken.models import Token

        from games import services
        from tournaments.models import Ladder, League, Tournament

        assert not settings.DEBUG
        rng = random.Random(2026)
        template_ids = play_templates(rng)
        heavy = services.player_register(username="heavy", password=PASSWORD, display_name="Heavy Player")
        rival = services.player_register(username="rival", password=PASSWORD, display_name="Rival")
        retired = services.player_register(username="retired", password=PASSWORD, display_name="Retired")
        tokens = {p.pk: Token.objects.get_or_create(user=p.user)[0].key for p in (heavy, rival)}
        league = League.objects.get(slug="demo-club")
        ids: dict[str, Any] = {
            "heavy": heavy.pk,
            "retired": retired.pk,
            "league": league.slug,
            "tournament": Tournament.objects.filter(league=league).order_by("pk").first().pk,
            "ladder": Ladder.objects.filter(league=league).order_by("pk").first().pk,
        }
        connections.close_all()
        history = History(
            db_url,
            pool=args.pool,
            heavy_id=heavy.pk,
            heavy_games=heavy_games,
            retired_id=retired.pk,
            gmax=sizes[-1],
        )
        history.prepare(template_ids)
        log(
            f"set-up (migrate, seed_demo, {len(template_ids)} template games, {args.pool:,} players) "
            f"{time.perf_counter() - start:.0f} s"
        )

        client = Client()
        heavy_client = Client()
        heavy_client.force_login(heavy.user)
        mover = Mover(client, heavy, rival, tokens, seed=7)
        for n in sizes:
            start = time.perf_counter()
            log(f"growing the history to {n:,} finished tables …")
            parts = history.grow(n)
            took = time.perf_counter() - start
            size = db_size(history.conn)
            builds[n] = (took, parts, size)
            counts = history.conn.execute(
                "SELECT (SELECT count(*) FROM games_table), (SELECT count(*) FROM games_seat), "
                "(SELECT count(*) FROM games_move), (SELECT count(*) FROM ratings_ratingchange "
                f"WHERE player_id = {heavy.pk}), "
                f"(SELECT count(*) FROM games_seat WHERE player_id = {heavy.pk}), "
                f"(SELECT count(*) FROM games_seat WHERE player_id = {retired.pk})"
            ).fetchone()
            log(
                f"built in {took:.0f} s ({', '.join(f'{k} {v:.0f} s' for k, v in parts.items())}); "
                f"database {gb(size)}; tables {counts[0]:,}, seats {counts[1]:,}, moves {counts[2]:,}, "
                f"heavy player's games {counts[4]:,} and rating changes {counts[3]:,}, "
                f"retired player's games {counts[5]:,}"
            )
            connections.close_all()
            results[n] = {}
            for name, call, expect in endpoints(ids, mover, client, heavy_client):
                ids.pop("lobby_etag", None)
                m = measure(call, expect, args.requests, args.budget)
                results[n][name] = m
                print(
                    f"    {name:<34} {m.n:>4} req  p50 {m.p50:8.1f} ms  p99 {m.p99:8.1f} ms  "
                    f"SQL p50 {m.sql50:7.1f} ms in {m.queries:>2} queries",
                    flush=True,
                )
            if n != sizes[0]:
                plans += explain(results[sizes[0]], results[n], n)
        report(sizes, results, builds)
        for line in plans:
            print(line)
    finally:
        if history is not None:
            history.conn.close()
        try:
            from django.db import connections

            connections.close_all()
        except Exception:
            pass
        if args.keep:
            log(f"kept the database {db_url}")
        else:
            with admin_connect(args.database) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{db_name}" WITH (FORCE)')
            log(f"dropped the database {db_name}")


def explain(first: dict[str, Sample], now: dict[str, Sample], n: int) -> list[str]:
    """Right after measuring size ``n`` (while the database is that size): ``EXPLAIN ANALYZE``
    the statement that took the most time in each endpoint that grew over 2× since the first
    size (wall or SQL p50), with the parameters it ran with. Returns the lines to print."""
    from django.db import connection

    out: list[str] = []
    for name, m in now.items():
        base = first[name]
        grew = m.p50 > 2 * base.p50 or (m.sql50 > 2 * base.sql50 and m.sql50 - base.sql50 > 5)
        if not grew or not m.top_sql or m.top_many or name.startswith("POST"):
            continue
        out.append("")
        out.append(
            f"{name} at N={n:,}: wall p50 {base.p50:.1f} → {m.p50:.1f} ms, SQL p50 {base.sql50:.1f} → "
            f"{m.sql50:.1f} ms; its costliest statement ({m.top_ms:.1f} ms per request):"
        )
        out.append(f"  {m.top_sql[:400]}{' …' if len(m.top_sql) > 400 else ''}")
        try:
            with connection.cursor() as cur:
                cur.execute("EXPLAIN (ANALYZE, BUFFERS) " + m.top_sql, m.top_params)
                out.extend(f"    {line}" for (line,) in cur.fetchall())
        except Exception as exc:
            out.append(f"    (EXPLAIN failed: {exc})")
    return out


def report(
    sizes: list[int],
    results: dict[int, dict[str, Sample]],
    builds: dict[int, tuple[float, dict[str, float], int]],
) -> None:
    done = [n for n in sizes if n in results]
    first, last = done[0], done[-1]
    names = list(results[first])
    head = f"{'wall ms p50 / p99':<34}" + "".join(f"{f'N={n:,}':>20}" for n in done)
    head += f"{'ratio p50':>11}{'ratio p99':>11}  goal ≤2× (p50)"
    print()
    print(f"N finished tables; ratio: N={last:,} over N={first:,}")
    print(head)
    print("-" * len(head))
    for name in names:
        row = f"{name:<34}"
        for n in done:
            m = results[n][name]
            row += f"{f'{m.p50:.1f} / {m.p99:.1f}':>20}"
        r50 = results[last][name].p50 / results[first][name].p50
        r99 = results[last][name].p99 / results[first][name].p99
        row += f"{r50:>10.2f}×{r99:>10.2f}×  {'ok' if r50 <= 2 else 'MISS'}"
        print(row)
    slow_first = max(names, key=lambda x: results[first][x].p50)
    slow_last = max(names, key=lambda x: results[last][x].p50)
    ratio = results[last][slow_last].p50 / results[first][slow_first].p50
    print(
        f"slowest p50: N={first:,} {slow_first} {results[first][slow_first].p50:.1f} ms; "
        f"N={last:,} {slow_last} {results[last][slow_last].p50:.1f} ms; ratio {ratio:.2f}× "
        f"({'goal met' if ratio <= 2 else 'goal missed'})"
    )
    misses = [x for x in names if results[last][x].p50 / results[first][x].p50 > 2]
    print(f"endpoints over 2× (wall p50): {', '.join(misses) if misses else 'none'}")
    print()
    print(
        "SQL time per request (the part that can grow with history; wall time is noisy on a shared machine)"
    )
    head = f"{'SQL ms p50 (queries)':<34}" + "".join(f"{f'N={n:,}':>16}" for n in done) + f"{'ratio':>9}"
    print(head)
    print("-" * len(head))
    for name in names:
        row = f"{name:<34}"
        for n in done:
            m = results[n][name]
            row += f"{f'{m.sql50:.1f} ({m.queries})':>16}"
        a, b = results[first][name].sql50, results[last][name].sql50
        row += f"{b / a if a else float('nan'):>8.2f}×"
        print(row)
    print()
    print("builds (cumulative history):")
    for n in done:
        took, parts, size = builds[n]
        print(
            f"  N={n:>9,}: {took:6.0f} s ({', '.join(f'{k} {v:.0f} s' for k, v in parts.items())}), "
            f"database {gb(size)}"
        )


if __name__ == "__main__":
    main()
