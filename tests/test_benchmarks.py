"""Every benchmark in ``bench/`` runs, at a tiny size, so none can break unseen.

The benches are scripts run by hand, so a schema or service change broke them silently
(``bench/scale.py`` failed as shipped once ``Player.email_verified`` became NOT NULL). Each test
here runs one bench as a person would (``python bench/NAME.py`` with its smallest arguments) and
checks it finished and printed its figures, and where a bench counts correctness (timeouts missed
or doubled), that the count is right. No timing is asserted.

Benches needing PostgreSQL are marked ``postgres``: they make databases of their own on the test
database's server, with a suffix of this run's (``BENCH_DB_SUFFIX``), dropped at the end. The ones
needing Redis start their own (never the shared one). ``test_every_bench_is_run`` fails when a
new bench has no test here (or elsewhere in ``tests/``).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from django.conf import settings

from tests.ops.redis_server import RedisServer, free_port

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
SUFFIX = f"_t{os.getpid()}"


def admin_url() -> str:
    """The maintenance database of the test database's PostgreSQL server."""
    db = settings.DATABASES["default"]
    auth = quote(db["USER"] or "postgres", safe="")
    if db.get("PASSWORD"):
        auth += ":" + quote(db["PASSWORD"], safe="")
    return f"postgres://{auth}@{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/postgres"


def run(name: str, *args: str, timeout: float = 120, **env: str) -> str:
    """Run ``bench/NAME.py`` with ``args``; its output (the test fails with it if it failed)."""
    base = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL")}
    done = subprocess.run(
        [sys.executable, str(BENCH / f"{name}.py"), *args],
        cwd=ROOT,
        env={**base, "BENCH_DB_SUFFIX": SUFFIX, "PYTHONUNBUFFERED": "1", **env},
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    out = done.stdout + done.stderr
    assert done.returncode == 0, f"bench/{name}.py failed ({done.returncode}):\n{out[-4000:]}"
    return out


@pytest.fixture
def pg_admin() -> Iterator[str]:
    """The admin URL for the benches' ``--database``; their databases are dropped afterwards."""
    import psycopg

    url = admin_url()
    yield url
    with psycopg.connect(url.replace("postgres://", "postgresql://", 1), autocommit=True) as conn:
        names = conn.execute(
            "SELECT datname FROM pg_database WHERE datname LIKE %s", (f"pacru%{SUFFIX}",)
        ).fetchall()
        for (name,) in names:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# ----------------------------------------------------------------------------- no database
def test_matchmaking() -> None:
    assert "arrivals/min" in run("matchmaking", "--minutes", "2")


def test_arena() -> None:
    """The arena and quick pairing simulation, tiny: every table size's row is printed."""
    out = run(
        "arena", "--players", "12", "--minutes", "5", "--pool-players", "40", "--arrival-minutes", "1",
        "--seats", "2", "3", "4",
    )  # fmt: skip
    for seats in (2, 3, 4):  # the service's patience, then none
        assert re.search(rf"^\s+{seats}\s+[1-9]\d*s\s+\d+\s+\d+\s+[\d.]+%", out, re.M), out
        assert re.search(rf"^\s+{seats}\s+0s\s+\d+\s+\d+\s+[\d.]+%", out, re.M), out
    assert "burst, all at once     3" in out


def test_pairing() -> None:
    out = run("pairing", "--players", "16", "--rounds", "2", "--repeat", "1", "--seats", "2", "4")
    assert "16 players, 2-seat tables" in out and "16 players, 4-seat tables" in out


def test_round_robin() -> None:
    assert run("round_robin", "--players", "5", "6", "--seats", "3", "4").strip()


def test_swiss_vs_dutch() -> None:
    """Our Swiss always; the reference side too where the optional ``caissify-pairings`` is in."""
    try:
        import caissify_pairings  # noqa: F401
    except ImportError:
        args = ["--no-reference"]
    else:
        args = []
    out = run("swiss_vs_dutch", "--sizes", "8", "--rounds", "3", "--seeds", "1", *args)
    assert re.search(r"8 players, 3 rounds\s+swiss", out)
    if not args:
        assert re.search(r"8 players, 3 rounds\s+dutch", out)


def test_query_counts() -> None:
    """It makes SQLite databases of its own."""
    out = run("query_counts")
    assert "api ladders/" in out and "grows" not in out.split("(queries;")[0]


def test_bot_ladder() -> None:
    """The cheapest levels at 2 and 3 seats: each table and every level's row is printed."""
    out = run(
        "bot_ladder", "--game", "shacru", "--players", "2", "3", "--levels", "1-3", "--games", "1", "--quiet"
    )  # fmt: skip
    assert "shacru at 2 seats: 2 games" in out and "shacru at 3 seats: 1 games" in out, out
    assert re.search(r"^\s+3\s+\S+\s+\d+\s+\d+\s+\d+\s+\S+/\d+ = \d+%\s+[\d.]+$", out, re.M), out
    paired = run(
        "bot_ladder", "--game", "shacru", "--players", "2", "--levels", "1-2", "--games", "2",
        "--openings", "3", "--quiet",
    )  # fmt: skip
    assert "3 random plies opening each game (paired)" in paired and "shacru at 2 seats: 2 games" in paired, (
        paired
    )


def test_analysis_cost() -> None:
    """Plies per second of analysis at the cheapest depth, for two games."""
    out = run("analysis_cost", "--depths", "3", "--games", "shacru", "pacru", "--plies", "4")
    assert re.search(r"^shacru\s+3\s+\d+\s+4\s+[\d.]+\s+[\d.]+", out, re.M), out
    assert re.search(r"^pacru\s+3\s+\d+\s+4\s+[\d.]+\s+[\d.]+", out, re.M), out


# ----------------------------------------------------------------------------- PostgreSQL
@pytest.mark.postgres
def test_mail_moves(pg_admin: str) -> None:
    out = run("mail_moves", "--database", pg_admin, "--tables", "3", "--plies", "2")
    assert "none lost" in out and " 0 duplicates" in out


@pytest.mark.postgres
def test_poll(pg_admin: str) -> None:
    assert "lobby fragment, unchanged (304)" in run("poll", "--database", pg_admin, "--requests", "20")


@pytest.mark.postgres
def test_ratings_recompute(pg_admin: str) -> None:
    out = run("ratings_recompute", "--database", pg_admin, "--tables", "50", "--players", "10")
    assert "recompute equals the in-memory replay: True" in out


@pytest.mark.postgres
def test_scale(pg_admin: str) -> None:
    """Its history is made in SQL beside the service's rows: the columns it writes must match."""
    out = run(
        "scale", "--database", pg_admin, "--sizes", "50", "--heavy", "20", "--pool", "20",
        "--requests", "3", "--budget", "1",
    )  # fmt: skip
    assert "does not know" not in out, "games_player has columns bench/scale.py does not fill"
    assert "POST api tables/<live>/moves/" in out


@pytest.mark.postgres
def test_load_moves(pg_admin: str) -> None:
    out = run(
        "load_moves", "--database", pg_admin, "--tables", "4", "--seconds", "1", "--clients", "2",
        "--procs", "1", "--workers", "1", "--threads", "2", "--port", str(free_port()),
    )  # fmt: skip
    responses = re.search(r"responses: \{(.*)\}", out)
    assert responses and set(re.findall(r"(\d+):", responses.group(1))) == {"201"}, out[-2000:]


@pytest.mark.postgres
def test_load_moves_compare(pg_admin: str) -> None:
    """One run: bare reads, moves, then moves at a share of their peak, and the summary line."""
    out = run(
        "load_moves", "--database", pg_admin, "--tables", "4", "--seconds", "1", "--clients", "2",
        "--procs", "1", "--workers", "1", "--threads", "2", "--port", str(free_port()), "--compare",
        "--throttle",
    )  # fmt: skip
    assert out.count("responses: {201:") == 3, out[-2000:]
    assert out.count("the whole machine: ") == 3, out[-2000:]
    assert re.search(r"summary: \d+ moves/s against \d+ bare reads/s \(\d+\.\d\dx\); at \d+ moves/s", out), (
        out[-2000:]
    )


@pytest.mark.postgres
def test_move_profile(pg_admin: str) -> None:
    """Every part prints: the SQL of a move (its locked read among them), the figures in-process,
    the profile's buckets, the cuts and the table list's plans."""
    out = run(
        "move_profile", "--database", pg_admin, "--tables", "2", "--moves", "20", "--list-tables", "100",
        "--old-games", "10",
    )  # fmt: skip
    assert "FOR UPDATE OF t" in out and "[service (games.services)] games/rows.py" in out, out[-3000:]
    for heading in ("== in-process,", "-- buckets (", "-- top 30 by cumulative", "wall time (a stack sample"):
        assert heading in out, heading
    assert "all of these together" in out and "EXPLAIN ANALYZE of:" in out and "Execution Time" in out


@pytest.mark.postgres
def test_clock_timeouts(pg_admin: str) -> None:
    redis = RedisServer()
    redis.start()
    try:
        out = run(
            "clock_timeouts", "--database", pg_admin, "--redis", redis.url, "--tables", "6",
            "--spread", "1", "--lead", "3", "--concurrency", "1",
        )  # fmt: skip
    finally:
        redis.stop()
    assert "tables: 6, timed out: 6, missing: 0, applied twice: 0" in out


@pytest.mark.postgres
def test_watchers(pg_admin: str) -> None:
    """It starts its own Redis and servers."""
    out = run(
        "watchers", "--database", pg_admin, "--watchers", "5", "--tables", "2", "--duration", "1",
        "--idle", "1", "--clients", "1", "--pollers", "2",
    )  # fmt: skip
    assert "watchers/pollers" in out


@pytest.mark.postgres
def test_watchers_chat(pg_admin: str) -> None:
    """The chat case, tiny: every reader gets every message, with its text as posted."""
    out = run(
        "watchers", "--chat", "--database", pg_admin, "--readers", "5", "--messages", "3",
        "--message-interval", "0.5", "--clients", "1", timeout=180,
    )  # fmt: skip
    assert "messages posted: 3 {201: 3}" in out, out[-3000:]
    assert "readers who got each message: each 5/5; texts wrong: 0" in out, out[-3000:]
    assert "every reader got every message: yes" in out, out[-3000:]


@pytest.mark.postgres
def test_faults(pg_admin: str) -> None:
    """The baseline only (the faults themselves take minutes): every timeout applied, exactly once."""
    out = run(
        "faults", "--database", pg_admin, "--faults", "baseline", "--tables", "2", "--spread", "1",
        "--lead", "2", "--settle", "3",
    )  # fmt: skip
    row = re.search(r"^baseline\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)", out, re.M)
    assert row, out[-3000:]
    tables, applied, doubled, missed = map(int, row.groups())
    assert (applied, doubled, missed) == (tables, 0, 0)


@pytest.mark.postgres
def test_faults_live_killed(pg_admin: str) -> None:
    """The live service killed and restarted under watchers: every one reconnects, none loses an event."""
    out = run(
        "faults", "--database", pg_admin, "--faults", "live-killed", "--watchers", "20",
        "--live-tables", "4", "--down", "1",
    )  # fmt: skip
    assert "reconnected 20/20;" in out and "events lost: 0 " in out, out[-3000:]


@pytest.mark.postgres
def test_analysis_cost_queue(pg_admin: str) -> None:
    """A few queued analyses through a real worker: every one done, none computed twice."""
    redis = RedisServer()
    redis.start()
    try:
        out = run(
            "analysis_cost", "--no-engine", "--games", "shacru", "--queue", "3", "--queue-depth", "3",
            "--queue-plies", "4", "--concurrency", "1", "--database", pg_admin, "--redis", redis.url,
        )  # fmt: skip
    finally:
        redis.stop()
    assert "slow queue: 3/3 games analysed" in out, out[-3000:]
    assert "computed more than once: 0; failed: 0" in out, out[-3000:]


def test_every_bench_is_run() -> None:
    """A bench with no test here is named in some other test (``bench/cluster.py``: tests/ops)."""
    here = Path(__file__).read_text()
    tests = [
        p.read_text() for p in (ROOT / "tests").rglob("test_*.py") if p.resolve() != Path(__file__).resolve()
    ]
    for path in sorted(BENCH.glob("*.py")):
        name = path.stem
        if name == "__init__":
            continue
        if re.search(rf'\brun\(\s*"{name}"', here):
            continue
        assert any(f"bench/{name}.py" in text or f"bench.{name}" in text for text in tests), (
            f"bench/{name}.py runs in no test: add one to tests/test_benchmarks.py"
        )
