"""Load test: adjudicated moves per second through the HTTP API (not a test; prints figures).

It makes a PostgreSQL database of its own (``pacru_bench`` on the server of
``--database``), creates players and started 2-player tables, runs the service
under gunicorn, then many concurrent clients each play their own tables by
submitting legal moves (chosen with the engine, like a real client would) for
``--seconds``. It reports adjudicated moves per second and the latency
distribution of the move submissions. The clients' moves are chosen before the clock starts
(``GAMES`` random games, played out with the engine; table ``i`` replays game ``i mod GAMES``),
so the load generator, which shares the machine, spends its CPU on HTTP and not on the engine.

    .venv/bin/python bench/load_moves.py                      # defaults: 32 clients, 30 s
    .venv/bin/python bench/load_moves.py --clients 64 --workers 3 --threads 8
    .venv/bin/python bench/load_moves.py --compare --seconds 20  # reads, moves, moves at 60 % of the peak
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing as mp
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def bench_db_name(name: str) -> str:
    """``name`` with ``BENCH_DB_SUFFIX`` appended: the test suite runs each bench in a database of
    its own, never dropping one that a bench run by hand (or another test run) is using."""
    return name + os.environ.get("BENCH_DB_SUFFIX", "")


def setup_database(admin_url: str, name: str) -> str:
    """A new empty database ``bench_db_name(name)`` (dropped first if there), and its URL."""
    import psycopg

    name = bench_db_name(name)

    with psycopg.connect(admin_url.replace("postgres://", "postgresql://", 1), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    base = admin_url.rsplit("/", 1)[0]
    return f"{base}/{name}"


def prepare(db_url: str, tables: int, game: str) -> list[dict[str, Any]]:
    """Migrate, then create players and started tables; return what each client needs."""
    env = {**os.environ, "DATABASE_URL": db_url}
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    os.environ["DATABASE_URL"] = db_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from rest_framework.authtoken.models import Token

    from games import services
    from games.models import Player

    User = get_user_model()
    password = make_password("bench-password-1")
    users = User.objects.bulk_create(User(username=f"bench{i}", password=password) for i in range(2 * tables))
    players = Player.objects.bulk_create(Player(user=u, display_name=u.username) for u in users)
    tokens = {
        t.user_id: t.key
        for t in Token.objects.bulk_create(Token(user=u, key=Token.generate_key()) for u in users)
    }
    out = []
    for i in range(tables):
        a, b = players[2 * i], players[2 * i + 1]
        table = services.table_create(creator=a, game=game, players=2)
        services.seat_join(table_id=table.pk, player=b)
        out.append({"id": table.pk, "tokens": [tokens[a.user_id], tokens[b.user_id]]})
    return out


#: How many different games the clients replay (see the module docstring).
GAMES = 16


def random_games(game: str, count: int, seed: int) -> list[list[tuple[int, int, str]]]:
    """``count`` random 2-player games of ``game`` played to their end: each a list of (the ply
    answered, the seat to move, the move's text)."""
    import engine
    from engine.playout import random_step

    rng = random.Random(seed)
    out = []
    for _ in range(count):
        state, moves = engine.new_game(game, 2), []
        while not state.is_over:
            after, text = random_step(state, rng)
            moves.append((state.ply, state.to_move, text))
            state = after
        out.append(moves)
    return out


def client_process(
    port: int,
    work: list[dict[str, Any]],
    games: list[list[tuple[int, int, str]]],
    seconds: float,
    seed: int,
    queue: Any,
    threads: int,
    interval: float,
    baseline: bool = False,
) -> None:
    """One process of clients: ``threads`` threads, each playing its tables in turn."""
    import gc
    import threading

    gc.disable()  # the clients' own collection pauses would show up as server latency

    deadline = time.perf_counter() + seconds
    latencies: list[float] = []
    codes: dict[int, int] = {}
    lock = threading.Lock()
    chunks = [work[i::threads] for i in range(threads)]

    def run(mine: list[dict[str, Any]], rng: random.Random) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        local_lat: list[float] = []
        local_codes: dict[int, int] = {}
        # Open-loop pacing when a rate is asked for: each thread sends on its own schedule,
        # so a slow answer does not lower the offered load.
        next_send = time.perf_counter() + rng.random() * interval
        while baseline and time.perf_counter() < deadline:
            start = time.perf_counter()
            conn.request("GET", "/api/v1/health/")
            response = conn.getresponse()
            response.read()
            local_lat.append(time.perf_counter() - start)
            # Counted under 201 so the report reads the same; the status is checked below.
            code = 201 if response.status == 200 else response.status
            local_codes[code] = local_codes.get(code, 0) + 1
        for table in mine if not baseline else []:
            for ply, seat, text in games[table["id"] % len(games)]:
                if time.perf_counter() >= deadline:
                    break
                body = json.dumps({"ply": ply, "move": text})
                headers = {
                    "Authorization": f"Token {table['tokens'][seat - 1]}",
                    "Content-Type": "application/json",
                }
                if interval:
                    pause = next_send - time.perf_counter()
                    if pause > 0:
                        time.sleep(pause)
                    next_send += interval
                start = time.perf_counter()
                conn.request("POST", f"/api/v1/tables/{table['id']}/moves/", body, headers)
                response = conn.getresponse()
                response.read()
                local_lat.append(time.perf_counter() - start)
                local_codes[response.status] = local_codes.get(response.status, 0) + 1
                if response.status != 201:
                    break
            if time.perf_counter() >= deadline:
                break
        with lock:
            latencies.extend(local_lat)
            for k, v in local_codes.items():
                codes[k] = codes.get(k, 0) + v

    workers = [
        threading.Thread(target=run, args=(chunk, random.Random(seed * 1000 + i)))
        for i, chunk in enumerate(chunks)
    ]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    queue.put((latencies, codes))


def wait_for(port: int, timeout: float = 30) -> None:
    end = time.time() + timeout
    while time.time() < end:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/api/v1/players/?limit=1")
            if conn.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("gunicorn did not come up")


def _ticks(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])  # utime + stime
    except (OSError, IndexError, ValueError):
        return 0


def cpu_by_group(server_pid: int) -> dict[str, Any]:
    """CPU seconds used so far by the gunicorn process tree and by PostgreSQL (Linux /proc)."""
    parents: dict[int, int] = {}
    names: dict[int, str] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as fh:
                    head, tail = fh.read().rsplit(")", 1)
                parents[int(entry)] = int(tail.split()[1])
                names[int(entry)] = head.split("(", 1)[1]
            except (OSError, IndexError, ValueError):
                continue
    tree = {server_pid} | {pid for pid, ppid in parents.items() if ppid == server_pid}
    hz = os.sysconf("SC_CLK_TCK")
    return {
        "server": sum(_ticks(p) for p in tree) / hz,
        # Per process: a PostgreSQL backend that ends between two readings takes its CPU along.
        "postgres": {p: _ticks(p) / hz for p, n in names.items() if n.startswith("postgres")},
    }


def cpu_used(before: dict[str, Any], after: dict[str, Any]) -> dict[str, float]:
    """CPU seconds between two readings of :func:`cpu_by_group` (a backend that began in between
    counts from zero; one that ended is not counted)."""
    pg = sum(t - before["postgres"].get(p, 0.0) for p, t in after["postgres"].items())
    return {"server": after["server"] - before["server"], "postgres": max(0.0, pg)}


def machine_ticks() -> dict[str, int]:
    """The whole machine's CPU time so far (Linux ``/proc/stat``), in clock ticks: busy (user,
    system, interrupts), idle (with I/O wait) and stolen by the virtual machine's host."""
    with open("/proc/stat") as fh:
        fields = [int(x) for x in fh.readline().split()[1:9]]
    user, nice, system, idle, iowait, irq, softirq, steal = fields
    return {"busy": user + nice + system + irq + softirq, "idle": idle + iowait, "steal": steal}


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def flush_redis(url: str) -> None:
    """Empty the bench's own Redis database (never database 0, the shared default)."""
    import redis

    client = redis.Redis.from_url(url)
    if client.connection_pool.connection_kwargs.get("db", 0) == 0:
        raise SystemExit("--redis: give a database of its own (not 0), e.g. redis://127.0.0.1:6379/14")
    client.flushdb()


def run_phase(
    args: argparse.Namespace,
    server_pid: int,
    work: list[dict[str, Any]],
    *,
    baseline: bool,
    rate: float,
    games: list[list[tuple[int, int, str]]],
) -> dict[str, Any]:
    """One measured phase against the running server: clients play ``work`` (or read the health
    endpoint when ``baseline``) for ``--seconds``, closed loop or at ``rate`` requests a second."""
    import resource

    queue: Any = mp.get_context("fork").Queue()
    per_proc = [work[i :: args.procs] for i in range(args.procs)]
    threads = max(1, args.clients // args.procs)
    interval = args.clients / rate if rate else 0.0
    procs = [
        mp.get_context("fork").Process(
            target=client_process,
            args=(args.port, chunk, games, args.seconds, i + 1, queue, threads, interval, baseline),
        )
        for i, chunk in enumerate(per_proc)
    ]
    cpu_before = cpu_by_group(server_pid)
    machine_before = machine_ticks()
    client_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    for p in procs:
        p.start()
    results = [queue.get() for _ in procs]
    for p in procs:
        p.join()
    elapsed = time.perf_counter() - start
    cpu_after = cpu_by_group(server_pid)
    machine_after = machine_ticks()
    client_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    latencies = [x for lat, _ in results for x in lat]
    codes: dict[int, int] = {}
    for _, c in results:
        for k, v in c.items():
            codes[k] = codes.get(k, 0) + v
    cpu = cpu_used(cpu_before, cpu_after)
    cpu["clients"] = (client_after.ru_utime + client_after.ru_stime) - (
        client_before.ru_utime + client_before.ru_stime
    )
    done = codes.get(201, 0)
    hz = os.sysconf("SC_CLK_TCK")
    machine = {k: (machine_after[k] - machine_before[k]) / hz for k in machine_before}
    return {
        "machine": machine,
        "baseline": baseline,
        "rate": rate,
        "elapsed": elapsed,
        "codes": codes,
        "per_second": done / elapsed,
        "done": done,
        "cpu": cpu,
        "latencies": latencies or [0.0],
    }


def report(args: argparse.Namespace, phase: dict[str, Any]) -> None:
    offered = f"offered {phase['rate']:.0f}/s" if phase["rate"] else "closed loop"
    print(
        f"gunicorn {args.workers} workers x {args.threads} threads, {args.clients} clients ({offered}), "
        f"{args.game}, {phase['elapsed']:.1f} s"
    )
    print(f"responses: {dict(sorted(phase['codes'].items()))}")
    what = "baseline reads/s (GET /api/v1/health/)" if phase["baseline"] else "adjudicated moves/s"
    print(f"{what}: {phase['per_second']:.0f}")
    done, elapsed, cpu = max(phase["done"], 1), phase["elapsed"], phase["cpu"]
    per_move = ", ".join(f"{k} {v / done * 1000:.2f}" for k, v in cpu.items())
    per_move += " (per request)" if phase["baseline"] else ""
    busy = ", ".join(f"{k} {v / elapsed:.2f}" for k, v in cpu.items())
    print(f"CPU ms per move: {per_move}")
    print(f"cores busy: {busy} (of {os.cpu_count()})")
    machine = phase["machine"]
    other = machine["busy"] - sum(cpu.values())
    print(
        f"the whole machine: {machine['busy'] / elapsed:.2f} cores busy, "
        f"{machine['idle'] / elapsed:.2f} idle, "
        f"{machine['steal'] / elapsed:.2f} stolen by the host; busy outside the three above (Redis, "
        f"the kernel's network work, anything else): {other / elapsed:.2f}"
    )
    lat = phase["latencies"]
    print(
        f"latency ms: p50 {percentile(lat, 50) * 1000:.1f}  "
        f"p90 {percentile(lat, 90) * 1000:.1f}  "
        f"p99 {percentile(lat, 99) * 1000:.1f}  max {max(lat) * 1000:.1f}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--database",
        default=os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres"),
    )
    parser.add_argument("--game", default="pacru", choices=["shacru", "azacru", "pacru"])
    parser.add_argument(
        "--clients", type=int, default=32, help="concurrent clients (threads over --procs processes)"
    )
    parser.add_argument("--procs", type=int, default=2, help="client processes")
    parser.add_argument("--tables", type=int, default=600)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn worker processes")
    parser.add_argument(
        "--threads", type=int, default=4, help="threads per gunicorn worker (config/gunicorn.py's default)"
    )
    parser.add_argument("--port", type=int, default=8941)
    parser.add_argument(
        "--rate", type=float, default=0, help="offered moves per second in all (0: as fast as answered)"
    )
    parser.add_argument(
        "--baseline",
        action="store_true",
        help="instead of moves, GET /api/v1/health/ (a DRF view reading one row) as fast as answered",
    )
    parser.add_argument(
        "--compare",
        action="store_true",
        help="one run, one server: bare reads closed loop, moves closed loop, then moves offered at "
        "--at of the measured peak (fresh tables); prints moves : reads and the p99 at that rate",
    )
    parser.add_argument(
        "--at", type=float, default=0.6, help="with --compare: the fixed rate, a share of the peak"
    )
    parser.add_argument(
        "--redis",
        default="",
        help="REDIS_URL for the server, as in production: cache, push and a task queue (no worker takes "
        "the tasks, so a finished game's work, ratings and the like, stays off the web processes); "
        "use a database of its own (e.g. redis://127.0.0.1:6379/14): it is emptied before and after. "
        "Without it tasks run in the web process as they are sent (eagerly).",
    )
    parser.add_argument(
        "--throttle",
        action="store_true",
        help="keep the API's throttles, as in production (each request counted against its player's "
        "`user` rate, here 100000/min so no bench client is refused); without it they are off "
        "(THROTTLE_OFF=1)",
    )
    parser.add_argument(
        "--logs",
        action="store_true",
        help="log as production does (INFO, JSON: one line per move) to a file, instead of warnings only",
    )
    args = parser.parse_args()

    db_url = setup_database(args.database, "pacru_bench")
    tables = args.tables * (2 if args.compare else 1)
    print(f"preparing {tables} {args.game} tables in {db_url} …", flush=True)
    work = prepare(db_url, tables, args.game)
    games = random_games(args.game, GAMES, seed=1)
    print(
        f"{len(games)} random games to replay, {sum(map(len, games)) // len(games)} plies on average",
        flush=True,
    )
    env = {**os.environ, "DATABASE_URL": db_url, "THROTTLE_OFF": "1", "DEBUG": "0", "LOG_LEVEL": "WARNING"}
    env["REDIS_URL"] = args.redis
    if args.throttle:
        env.update(THROTTLE_OFF="0", THROTTLE_USER="100000/min", THROTTLE_ANON="100000/min")
    if args.redis:
        flush_redis(args.redis)
        print(f"server on Redis {args.redis}: tasks queued for no worker, push published", flush=True)
    log_file = None
    if args.logs:
        env.update(LOG_LEVEL="INFO", LOG_FORMAT="json")
        log_file = open("/tmp/load_moves_server.log", "w")  # noqa: SIM115  (closed with the server)
        print("server log (JSON, INFO): /tmp/load_moves_server.log", flush=True)
    server = subprocess.Popen(
        [
            sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.py", "config.wsgi",
            "--bind", f"127.0.0.1:{args.port}",
            "--workers", str(args.workers), "--threads", str(args.threads), "--log-level", "warning",
        ],
        cwd=ROOT, env=env, start_new_session=True, stderr=log_file,
    )  # fmt: skip
    try:
        wait_for(args.port)
        if not args.compare:
            report(
                args, run_phase(args, server.pid, work, baseline=args.baseline, rate=args.rate, games=games)
            )
            return
        half = len(work) // 2
        print("\n-- bare reads, closed loop --")
        reads = run_phase(args, server.pid, [], baseline=True, rate=0, games=games)
        report(args, reads)
        print("\n-- moves, closed loop --")
        moves = run_phase(args, server.pid, work[:half], baseline=False, rate=0, games=games)
        report(args, moves)
        target = args.at * moves["per_second"]
        print(f"\n-- moves offered at {args.at:.0%} of that peak --")
        fixed = run_phase(args, server.pid, work[half:], baseline=False, rate=target, games=games)
        report(args, fixed)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=20)
        if args.redis:
            flush_redis(args.redis)
    ratio = moves["per_second"] / max(reads["per_second"], 1e-9)
    print(
        f"\nsummary: {moves['per_second']:.0f} moves/s against {reads['per_second']:.0f} bare reads/s "
        f"({ratio:.2f}x); at {fixed['per_second']:.0f} moves/s ({args.at:.0%} of the peak) "
        f"p50 {percentile(fixed['latencies'], 50) * 1000:.1f} ms, "
        f"p99 {percentile(fixed['latencies'], 99) * 1000:.1f} ms"
    )


if __name__ == "__main__":
    main()
