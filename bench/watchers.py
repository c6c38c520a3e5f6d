"""Benchmark: many watchers of live tables while moves are played (not a test; prints figures).

It makes a PostgreSQL database of its own (``pacru_watchbench``), ``--tables`` started 2-player
tables, starts a ``redis-server`` of its own on a free port and the ASGI server
(``uvicorn config.asgi:application``, production profile, ``REDIS_URL`` = that Redis). Client
processes (asyncio, raw TCP) then open ``GET /live/tables/<id>/`` event streams, spread evenly over
the tables, in steps up to each of ``--watchers``; at each step it measures

* idle: ``--idle`` seconds with the watchers connected and no moves: the server's CPU, its RSS;
* moving: ``--duration`` seconds while a mover process plays ``--moves-per-second`` moves in all
  through the API (``POST /api/v1/tables/<id>/moves/``, token auth, on the same server); every
  watcher notes when each state arrives; latency = arrival − the moment the mover got its 201
  (all processes on this machine, one clock: ``time.time()``).

Then the comparison: ``--pollers`` clients doing what the pages did before, a conditional
``GET /api/v1/tables/<id>/`` with ``If-None-Match`` once a second each, served by gunicorn (WSGI,
``config/gunicorn.py``), idle and while the same mover plays; their CPU is scaled linearly to
each watcher count (said so in the output).

    .venv/bin/python bench/watchers.py
    .venv/bin/python bench/watchers.py --watchers 1000,5000,10000 --tables 20 --moves-per-second 5
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import multiprocessing as mp
import os
import random
import resource
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.load_moves import bench_db_name, percentile, prepare, setup_database  # noqa: E402

DB_NAME = "pacru_watchbench"
HZ = os.sysconf("SC_CLK_TCK")


def raise_nofile() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# ---------------------------------------------------------------- processes and their cost


def _stat(pid: int) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()
    except OSError:
        return None


def tree(root: int) -> list[int]:
    """``root`` and all its descendants."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (fields := _stat(int(entry))) is not None:
            parents[int(entry)] = int(fields[1])
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo += [p for p, pp in parents.items() if pp == pid]
    return out


def ticks(pids: list[int]) -> dict[int, int]:
    out = {}
    for pid in pids:
        fields = _stat(pid)
        if fields is not None:
            out[pid] = int(fields[11]) + int(fields[12])  # utime + stime
    return out


def rss_mb(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status") as fh:
                for line in fh:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        except OSError:
            pass
    return total / 1024


def postgres_backends(admin_url: str) -> list[int]:
    """The PostgreSQL backends connected to the benchmark's database (the servers' connections)."""
    import psycopg

    try:
        with psycopg.connect(admin_url.replace("postgres://", "postgresql://", 1), autocommit=True) as conn:
            rows = conn.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = %s", (bench_db_name(DB_NAME),)
            ).fetchall()
    except psycopg.OperationalError as exc:  # e.g. too many clients: the figure is left out
        print(f"  (PostgreSQL backends not measured: {exc})", flush=True)
        return []
    return [r[0] for r in rows]


def threads(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status") as fh:
                total += sum(int(line.split()[1]) for line in fh if line.startswith("Threads:"))
        except OSError:
            pass
    return total


class Meter:
    """CPU seconds of a server's process tree and of its PostgreSQL backends over a window."""

    def __init__(self, server_pid: int, admin_url: str):
        self.server_pid, self.admin_url = server_pid, admin_url

    def start(self) -> None:
        self.t0 = time.perf_counter()
        self.server0 = ticks(tree(self.server_pid))
        self.pg0 = ticks(postgres_backends(self.admin_url))

    def stop(self) -> dict[str, float]:
        elapsed = time.perf_counter() - self.t0
        server = ticks(tree(self.server_pid))
        pg = ticks(postgres_backends(self.admin_url))

        def delta(after: dict[int, int], before: dict[int, int]) -> float:
            return sum(v - before.get(p, 0) for p, v in after.items()) / HZ

        return {
            "seconds": elapsed,
            "server": delta(server, self.server0) / elapsed,  # cores busy
            "postgres": delta(pg, self.pg0) / elapsed,
            "rss": rss_mb(tree(self.server_pid)),
            "threads": threads(tree(self.server_pid)),
            "backends": len(pg),
        }


# ---------------------------------------------------------------- servers


def start_redis() -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    proc = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    end = time.time() + 10
    while time.time() < end:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2) as conn:
                conn.sendall(b"PING\r\n")
                if conn.recv(16).startswith(b"+PONG"):
                    return proc, f"redis://127.0.0.1:{port}/0"
        except OSError:
            time.sleep(0.05)
    raise SystemExit("redis-server did not start")


def server_env(db_url: str, redis_url: str) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": db_url,
        "REDIS_URL": redis_url,
        "DJANGO_PROFILE": "production",
        "SECRET_KEY": "bench-watchers-not-a-secret-" + "x" * 40,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "false",
        "SECURE_COOKIES": "false",
        "THROTTLE_OFF": "1",
        "LIVE_KEEPALIVE_SECONDS": "15",
        "LOG_LEVEL": "WARNING",
        "GAME_LOG_LEVEL": "WARNING",
    }


def start_server(argv: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    with open(log, "wb") as fh:
        return subprocess.Popen(
            argv, cwd=ROOT, env=env, stdout=fh, stderr=subprocess.STDOUT, preexec_fn=_server_preexec
        )


def _server_preexec() -> None:
    os.setsid()
    raise_nofile()


def wait_for(port: int, timeout: float = 60) -> None:
    end = time.time() + timeout
    while time.time() < end:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/api/v1/health/", headers={"Host": "127.0.0.1"})
            if conn.getresponse().status == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise SystemExit(f"the server on port {port} did not come up")


def stop(proc: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=20)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


# ---------------------------------------------------------------- clients


def _arrival(buf: bytes, on_version: Any) -> bytes:
    """Find the ``id: <version>`` lines in ``buf``; return the unread tail."""
    while True:
        i = buf.find(b"id: t")
        if i < 0:
            return buf[-8:]
        j = buf.find(b"\n", i)
        if j < 0:
            return buf[i:]
        on_version(buf[i + 4 : j])
        buf = buf[j:]


def watcher_process(port: int, tables: list[int], first: int, commands: Any, results: Any) -> None:
    """Hold a share of the watchers: connect on command, note each state's arrival."""
    raise_nofile()
    import gc

    gc.disable()
    asyncio.run(_watchers(port, tables, first, commands, results))


async def _watchers(port: int, tables: list[int], first: int, commands: Any, results: Any) -> None:
    loop = asyncio.get_running_loop()
    open_: list[asyncio.Task[None]] = []
    alive = {"n": 0, "failed": 0, "events": 0}
    recording: list[tuple[int, int, float]] | None = None
    gate = asyncio.Semaphore(64)  # connections being opened at once by this process

    async def watch(table: int, ready: asyncio.Future[bool]) -> None:
        nonlocal recording
        try:
            async with gate:
                reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 20)
                writer.write(
                    f"GET /live/tables/{table}/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    f"Accept: text/event-stream\r\n\r\n".encode()
                )
                head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 60)
            if not head.startswith(b"HTTP/1.1 200"):
                raise OSError(head.split(b"\r\n", 1)[0].decode())
        except (OSError, asyncio.IncompleteReadError, TimeoutError) as exc:
            alive["failed"] += 1
            if alive["failed"] <= 3:
                print(f"watcher of table {table} failed: {exc!r}", file=sys.stderr, flush=True)
            ready.set_result(False)
            return
        alive["n"] += 1
        ready.set_result(True)

        def seen(version: bytes) -> None:
            alive["events"] += 1
            if recording is not None:
                recording.append((table, int(version.split(b"-")[3]), now))

        buf = b""
        try:
            while data := await reader.read(1 << 16):
                now = time.time()
                buf = _arrival(buf + data, seen)
        except (OSError, asyncio.IncompleteReadError):
            pass
        finally:
            alive["n"] -= 1
            writer.close()

    while True:
        cmd, arg = await loop.run_in_executor(None, commands.get)
        if cmd == "connect":  # up to ``arg`` watchers in this process
            readies = []
            while len(open_) < arg:
                ready: asyncio.Future[bool] = loop.create_future()
                table = tables[(first + len(open_)) % len(tables)]
                open_.append(loop.create_task(watch(table, ready)))
                readies.append(ready)
            await asyncio.gather(*readies)
            results.put(("connected", alive["n"], alive["failed"]))
        elif cmd == "record":
            recording = []
            results.put(("recording", alive["n"], 0))
        elif cmd == "collect":
            results.put(("collected", recording or [], alive["n"]))
            recording = None
        elif cmd == "stop":
            for task in open_:
                task.cancel()
            await asyncio.gather(*open_, return_exceptions=True)
            results.put(("stopped", 0, 0))
            return


def poller_process(port: int, tables: list[int], first: int, count: int, commands: Any, results: Any) -> None:
    raise_nofile()
    asyncio.run(_pollers(port, tables, first, count, commands, results))


async def _pollers(port: int, tables: list[int], first: int, count: int, commands: Any, results: Any) -> None:
    """``count`` pollers: each a keep-alive connection, a conditional GET once a second."""
    loop = asyncio.get_running_loop()
    statuses: dict[int, int] = {}
    recording: list[tuple[int, int, float]] = []
    running = True

    async def poll(table: int) -> None:
        await asyncio.sleep(random.random())
        etag = ""
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        next_at = time.monotonic()
        while running:
            headers = f"GET /api/v1/tables/{table}/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            if etag:
                headers += f"If-None-Match: {etag}\r\n"
            writer.write((headers + "\r\n").encode())
            head = await reader.readuntil(b"\r\n\r\n")
            now = time.time()
            lines = head.decode("latin1").split("\r\n")
            status = int(lines[0].split()[1])
            fields = {k.lower(): v.strip() for k, _, v in (x.partition(":") for x in lines[1:] if x)}
            length = int(fields.get("content-length", "0"))
            if length:
                await reader.readexactly(length)
            statuses[status] = statuses.get(status, 0) + 1
            if status == 200:
                if etag:  # a new state (not the first fetch): when did it arrive?
                    recording.append((table, int(fields["etag"].strip('"').split("-")[3]), now))
                etag = fields["etag"]
            next_at += 1.0
            await asyncio.sleep(max(0.0, next_at - time.monotonic()))
        writer.close()

    tasks = [loop.create_task(poll(tables[(first + i) % len(tables)])) for i in range(count)]
    while True:
        cmd, _ = await loop.run_in_executor(None, commands.get)
        if cmd == "collect":
            results.put(("collected", (dict(statuses), list(recording)), count))
            statuses.clear()
            recording.clear()
        elif cmd == "stop":
            running = False
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            results.put(("stopped", 0, 0))
            return


def mover_process(work: list[dict[str, Any]], game: str, commands: Any, results: Any) -> None:
    """Play moves on command: ``(port, seconds, rate)``; answer with what was played when."""
    import engine
    from engine.playout import random_step

    rng = random.Random(7)
    states = {t["id"]: engine.new_game(game, 2) for t in work}
    while True:
        cmd = commands.get()
        if cmd is None:
            return
        port, seconds, rate = cmd
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        played: list[tuple[int, int, float, float]] = []  # table, ply after, sent, got 201
        codes: dict[int, int] = {}
        start = time.perf_counter()
        i = 0
        while True:
            due = start + i / rate
            if due - start >= seconds:
                break
            time.sleep(max(0.0, due - time.perf_counter()))
            live = [t for t in work if not states[t["id"]].is_over]
            if not live:
                break
            table = live[i % len(live)]
            i += 1
            state = states[table["id"]]
            after, text = random_step(state, rng)
            body = json.dumps({"ply": state.ply, "move": text})
            headers = {
                "Authorization": f"Token {table['tokens'][state.to_move - 1]}",
                "Content-Type": "application/json",
                "Host": "127.0.0.1",
            }
            sent = time.time()
            conn.request("POST", f"/api/v1/tables/{table['id']}/moves/", body, headers)
            response = conn.getresponse()
            response.read()
            got = time.time()
            codes[response.status] = codes.get(response.status, 0) + 1
            if response.status == 201:
                states[table["id"]] = after
                played.append((table["id"], after.ply, sent, got))
        conn.close()
        results.put((played, codes))


# ---------------------------------------------------------------- the run


class Pool:
    """Client processes and their command queues."""

    def __init__(self, target: Any, args_for: Any, procs: int):
        ctx = mp.get_context("fork")
        self.results = ctx.Queue()
        self.commands = [ctx.Queue() for _ in range(procs)]
        self.procs = [
            ctx.Process(target=target, args=(*args_for(i), self.commands[i], self.results), daemon=True)
            for i in range(procs)
        ]
        for p in self.procs:
            p.start()

    def ask(self, cmds: list[tuple[str, Any]], timeout: float = 600) -> list[tuple[str, Any, Any]]:
        for q, cmd in zip(self.commands, cmds, strict=True):
            q.put(cmd)
        return [self.results.get(timeout=timeout) for _ in cmds]

    def close(self) -> None:
        self.ask([("stop", None)] * len(self.procs))
        for p in self.procs:
            p.join(timeout=10)


def latencies(
    played: list[tuple[int, int, float, float]],
    arrivals: list[tuple[int, int, float]],
    per_table: dict[int, int],
) -> tuple[list[float], int, int]:
    """Latency of each arrival of a state the mover made (seconds after its 201), received, expected."""
    got = {(t, ply): g for t, ply, _, g in played}
    lat = [at - got[(t, ply)] for t, ply, at in arrivals if (t, ply) in got]
    expected = sum(per_table.get(t, 0) for t, _, _, _ in played)
    return lat, len(lat), expected


def slowest(played: list[tuple[int, int, float, float]], arrivals: list[tuple[int, int, float]]) -> str:
    """The moves whose last watcher heard of them latest."""
    got = {(t, ply): g for t, ply, _, g in played}
    worst: dict[tuple[int, int], float] = {}
    for t, ply, at in arrivals:
        if (t, ply) in got:
            worst[(t, ply)] = max(worst.get((t, ply), 0.0), at - got[(t, ply)])
    if not played:
        return ""
    start = played[0][3]
    top = sorted(worst.items(), key=lambda kv: -kv[1])[:5]
    return ", ".join(f"{got[k] - start:.1f}: {v * 1000:.0f}" for k, v in top)


def ms(values: list[float], p: float) -> str:
    return f"{percentile(values, p) * 1000:.0f}" if values else "-"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--database",
        default=os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres"),
    )
    parser.add_argument("--watchers", default="1000,5000,10000", help="watcher counts, rising")
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--moves-per-second", type=float, default=5.0, help="in all, over the tables")
    parser.add_argument("--duration", type=float, default=20.0, help="seconds of moves per step")
    parser.add_argument("--idle", type=float, default=10.0, help="seconds of the idle window per step")
    parser.add_argument("--workers", type=int, default=1, help="uvicorn worker processes")
    parser.add_argument("--clients", type=int, default=4, help="watcher client processes")
    parser.add_argument(
        "--pollers", type=int, default=300, help="pollers measured (0: none); scaled to each watcher count"
    )
    parser.add_argument("--game", default="pacru", choices=["shacru", "azacru", "pacru"])
    args = parser.parse_args()
    steps = sorted(int(x) for x in args.watchers.split(","))
    raise_nofile()

    db_url = setup_database(args.database, DB_NAME)
    print(f"preparing {args.tables} {args.game} tables in {db_url} …", flush=True)
    work = prepare(db_url, args.tables, args.game)
    from django.db import connections

    connections.close_all()
    table_ids = [t["id"] for t in work]

    redis_proc, redis_url = start_redis()
    env = server_env(db_url, redis_url)
    port = free_port()
    uvicorn = start_server(
        [
            sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
            "--port", str(port), "--workers", str(args.workers), "--no-access-log",
            "--loop", "uvloop", "--http", "httptools", "--backlog", "4096",
        ],
        env,
        Path("/tmp/bench_watchers_uvicorn.log"),
    )  # fmt: skip
    ctx = mp.get_context("fork")
    mover_q, mover_r = ctx.Queue(), ctx.Queue()
    mover = ctx.Process(target=mover_process, args=(work, args.game, mover_q, mover_r), daemon=True)
    mover.start()
    rows: list[dict[str, Any]] = []
    watch_pool = None
    try:
        wait_for(port)
        meter = Meter(uvicorn.pid, args.database)
        time.sleep(1)
        base_rss = rss_mb(tree(uvicorn.pid))
        print(f"uvicorn ({args.workers} worker(s)) on port {port}, RSS {base_rss:.0f} MB; redis {redis_url}")
        print("server log: /tmp/bench_watchers_uvicorn.log", flush=True)
        n_clients = args.clients
        watch_pool = Pool(watcher_process, lambda i: (port, table_ids, i), n_clients)
        for n in steps:
            shares = [n // n_clients + (1 if i < n % n_clients else 0) for i in range(n_clients)]
            t0 = time.perf_counter()
            answers = watch_pool.ask([("connect", s) for s in shares])
            connected = sum(a[1] for a in answers)
            failed = sum(a[2] for a in answers)
            print(
                f"\n{n} watchers: {connected} connected, {failed} failed in all "
                f"({time.perf_counter() - t0:.1f} s to connect this step)",
                flush=True,
            )
            time.sleep(2)
            meter.start()
            time.sleep(args.idle)
            idle = meter.stop()
            print(
                f"  idle {idle['seconds']:.0f} s: server {idle['server'] * 100:.1f}% of a core, "
                f"postgres {idle['postgres'] * 100:.1f}%, RSS {idle['rss']:.0f} MB, "
                f"{idle['threads']} threads, {idle['backends']} PostgreSQL connections",
                flush=True,
            )
            watch_pool.ask([("record", None)] * n_clients)
            meter.start()
            mover_q.put((port, args.duration, args.moves_per_second))
            played, codes = mover_r.get(timeout=args.duration + 120)
            time.sleep(2)  # the last states on their way
            moving = meter.stop()
            answers = watch_pool.ask([("collect", None)] * n_clients)
            arrivals = [a for ans in answers for a in ans[1]]
            still = sum(ans[2] for ans in answers)
            per_table = {t: 0 for t in table_ids}
            for i, s in enumerate(shares):
                for k in range(s):
                    per_table[table_ids[(i + k) % len(table_ids)]] += 1
            per_table = {t: c * still // max(connected, 1) for t, c in per_table.items()}
            lat, received, expected = latencies(played, arrivals, per_table)
            print(
                f"  moving {moving['seconds']:.0f} s: {len(played)} moves {codes}, server "
                f"{moving['server'] * 100:.1f}% of a core, postgres {moving['postgres'] * 100:.1f}%; "
                f"latency ms p50 {ms(lat, 50)} p99 {ms(lat, 99)} max {ms(lat, 100)}; "
                f"received {received}/{expected}; still connected {still}",
                flush=True,
            )
            slow = slowest(played, arrivals)
            if slow:
                print(f"  slowest moves (s into the window: worst arrival ms): {slow}", flush=True)
            rows.append(
                {"n": connected, "idle": idle, "moving": moving, "lat": lat, "received": received,
                 "expected": expected, "base_rss": base_rss, "moves": len(played)}
            )  # fmt: skip
    finally:
        if watch_pool is not None:
            watch_pool.close()
        stop(uvicorn)

    polling: dict[str, Any] = {}
    if args.pollers:
        gport = free_port()
        genv = {**env, "BIND": f"127.0.0.1:{gport}"}
        gunicorn = start_server(
            [sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.py", "config.wsgi",
             "--bind", f"127.0.0.1:{gport}", "--log-level", "warning"],
            genv,
            Path("/tmp/bench_watchers_gunicorn.log"),
        )  # fmt: skip
        try:
            wait_for(gport)
            meter = Meter(gunicorn.pid, args.database)
            procs = 2
            counts = [args.pollers // procs + (1 if i < args.pollers % procs else 0) for i in range(procs)]
            firsts = [sum(counts[:i]) for i in range(procs)]
            poll_pool = Pool(poller_process, lambda i: (gport, table_ids, firsts[i], counts[i]), procs)
            time.sleep(3)  # all started (they begin within their first second)
            poll_pool.ask([("collect", None)] * procs)
            meter.start()
            time.sleep(args.idle)
            polling["idle"] = meter.stop()
            answers = poll_pool.ask([("collect", None)] * procs)
            polling["idle_statuses"] = _merge([a[1][0] for a in answers])
            meter.start()
            mover_q.put((gport, args.duration, args.moves_per_second))
            played, codes = mover_r.get(timeout=args.duration + 120)
            time.sleep(1.5)
            polling["moving"] = meter.stop()
            answers = poll_pool.ask([("collect", None)] * procs)
            polling["moving_statuses"] = _merge([a[1][0] for a in answers])
            arrivals = [x for a in answers for x in a[1][1]]
            per_table = {t: 0 for t in table_ids}
            for i in range(args.pollers):
                per_table[table_ids[i % len(table_ids)]] += 1
            lat, received, expected = latencies(played, arrivals, per_table)
            polling.update(lat=lat, received=received, expected=expected, moves=len(played))
            poll_pool.close()
        finally:
            stop(gunicorn)
    mover_q.put(None)
    stop(redis_proc)
    report(args, rows, polling)


def _merge(dicts: list[dict[int, int]]) -> dict[int, int]:
    out: dict[int, int] = {}
    for d in dicts:
        for k, v in d.items():
            out[k] = out.get(k, 0) + v
    return out


def report(args: argparse.Namespace, rows: list[dict[str, Any]], polling: dict[str, Any]) -> None:
    with open("/proc/loadavg") as fh:
        load = fh.read().split()[0]
    print(
        f"\n== watchers: uvicorn, {args.workers} worker(s), {args.tables} tables, "
        f"{args.moves_per_second:g} moves/s, {os.cpu_count()} cores, load average now {load} =="
    )
    print(
        f"{'watchers':>8} | {'idle CPU %':>10} | {'RSS MB':>7} | {'MB/1000':>7} | {'CPU/1000 idle':>13} | "
        f"{'moving CPU %':>12} | {'p50 ms':>6} | {'p99 ms':>6} | received/expected"
    )
    for r in rows:
        per_k = r["n"] / 1000
        print(
            f"{r['n']:>8} | {r['idle']['server'] * 100:>10.1f} | {r['idle']['rss']:>7.0f} | "
            f"{(r['idle']['rss'] - r['base_rss']) / per_k:>7.1f} | "
            f"{r['idle']['server'] * 100 / per_k:>12.2f}% | {r['moving']['server'] * 100:>12.1f} | "
            f"{ms(r['lat'], 50):>6} | {ms(r['lat'], 99):>6} | {r['received']}/{r['expected']}"
        )
    print(
        "  (CPU % = percent of one core, server process tree; MB/1000 = RSS above the idle server's, "
        "per 1,000 watchers; latency = state's arrival at a watcher - the mover's 201)"
    )
    if not polling:
        return
    n = args.pollers
    idle, moving = polling["idle"], polling["moving"]
    ok = polling["idle_statuses"]
    rate = sum(ok.values()) / idle["seconds"]
    print(
        f"\n== pollers: gunicorn (config/gunicorn.py), {n} pollers measured, conditional GET once a second =="
    )
    print(
        f"idle: {rate:.0f} requests/s {ok}; server {idle['server'] * 100:.1f}% of a core + postgres "
        f"{idle['postgres'] * 100:.1f}%"
    )
    print(
        f"moving: {polling['moves']} moves {polling['moving_statuses']}; server "
        f"{moving['server'] * 100:.1f}% + postgres {moving['postgres'] * 100:.1f}%; latency to a new "
        f"state ms p50 {ms(polling['lat'], 50)} p99 {ms(polling['lat'], 99)}; "
        f"received {polling['received']}/{polling['expected']}"
    )
    print(f"scaled linearly from {n} pollers (their idle CPU x N/{n}; above 100% it needs more cores):")
    print(f"{'N':>8} | {'pollers CPU %':>13} | {'watchers CPU %':>14} | {'watchers/pollers':>16}")
    for r in rows:
        polled = idle["server"] * r["n"] / n
        print(
            f"{r['n']:>8} | {polled * 100:>13.0f} | {r['idle']['server'] * 100:>14.1f} | "
            f"{r['idle']['server'] / polled * 100 if polled else 0:>15.1f}%"
        )
    print("  (idle windows, server process CPU only; polling also costs PostgreSQL the figure above x N/n)")


if __name__ == "__main__":
    main()
