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

The chat case (``--chat``, instead of the tables): one event's chat room, ``--readers`` signed-in
readers, each doing what the event page's chat does: it reads the room once from the API (``GET
/api/v1/tournaments/<id>/chat/``, token auth, on gunicorn as in production, or ``--chat-api uvicorn``
as ``scripts/run`` serves it) and holds the room's stream ``/live/chat/<room id>/`` open (on
uvicorn), which brings the room's newest messages on every change. ``--chat-fetch``: as the page
did before, it holds ``/live/topics/?t=chat:<room id>`` open instead and, on each ``changed``
event, fetches ``GET …/chat/?after=<last id>`` (one keep-alive connection each), to compare.
Entrants post ``--messages`` messages, one every
``--message-interval`` seconds, in turn: as many writers as keep each one under the chat rate limit
(the limits are not raised; ``--writers`` to choose). Latency = the moment a reader holds the
message's text − the moment its POST was sent. It prints p50/p95/p99/max, how many readers got each
message, and exits 1 unless every reader got every message, with its text as sent.

    .venv/bin/python bench/watchers.py
    .venv/bin/python bench/watchers.py --watchers 1000,5000,10000 --tables 20 --moves-per-second 5
    .venv/bin/python bench/watchers.py --chat --readers 1000 --messages 20 --message-interval 2
    .venv/bin/python bench/watchers.py --chat --chat-fetch --readers 1000
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import json
import math
import multiprocessing as mp
import os
import random
import resource
import signal
import socket
import subprocess
import sys
import threading
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


def start_uvicorn(port: int, workers: int, env: dict[str, str]) -> subprocess.Popen[bytes]:
    """The live server, as production runs it (``docker/compose.yaml``'s ``live`` service)."""
    return start_server(
        [
            sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
            "--port", str(port), "--workers", str(workers), "--no-access-log",
            "--loop", "uvloop", "--http", "httptools", "--backlog", "4096",
        ],
        env,
        Path("/tmp/bench_watchers_uvicorn.log"),
    )  # fmt: skip


def start_gunicorn(port: int, env: dict[str, str]) -> subprocess.Popen[bytes]:
    """The web service (pages and the API) as production runs it: ``config/gunicorn.py``."""
    return start_server(
        [sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.py", "config.wsgi",
         "--bind", f"127.0.0.1:{port}", "--log-level", "warning"],
        {**env, "BIND": f"127.0.0.1:{port}"},
        Path("/tmp/bench_watchers_gunicorn.log"),
    )  # fmt: skip


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


# ---------------------------------------------------------------- the chat case (--chat)


def chat_prepare(db_url: str, readers: int, writers: int) -> dict[str, Any]:
    """Migrate, then a club's event with ``writers`` entrants (who may write in its room) and
    ``readers`` signed-in players (anyone may read an event's room), each with an API token.
    ``writers`` 0: as many as keep each under the chat rate (see :func:`chat_writers`)."""
    env = {**os.environ, "DATABASE_URL": db_url}
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    os.environ["DATABASE_URL"] = db_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from rest_framework.authtoken.models import Token

    from games.models import Player
    from tournaments.competitions import services as events

    User = get_user_model()
    boss = User.objects.create_superuser("chatboss", password="bench-password-1")
    organiser = Player.objects.get_or_create(user=boss, defaults={"display_name": "chatboss"})[0]
    league = events.league_create(organiser=organiser, name="Chat Bench Club", slug="chat-bench")
    event = events.tournament_create(
        organiser=organiser, league=league, name="Busy Event", game="pacru", seats=2, rounds=5
    )
    limits = (settings.CHAT_RATE_BURST, settings.CHAT_RATE_MINUTE)
    password = make_password("bench-password-1")
    names = [f"chatreader{i}" for i in range(readers)] + [f"chatwriter{i}" for i in range(64)]
    users = User.objects.bulk_create(User(username=n, password=password) for n in names)
    players = Player.objects.bulk_create(
        Player(user=u, display_name=u.username, email_verified=True) for u in users
    )
    tokens = {
        t.user_id: t.key
        for t in Token.objects.bulk_create(Token(user=u, key=Token.generate_key()) for u in users)
    }
    return {
        "tournament": event.pk,
        "readers": [tokens[p.user_id] for p in players[:readers]],
        "spare": [(p.pk, tokens[p.user_id]) for p in players[readers:]],
        "limits": limits,
    }


def chat_writers(wanted: int, interval: float, messages: int, limits: tuple[int, int]) -> int:
    """How many writers post in turn, so that none is refused for its rate (the limits stay as
    set): each sends one message every ``writers × interval`` seconds, at most 80 % of what
    ``CHAT_RATE_BURST`` (per 10 s) and ``CHAT_RATE_MINUTE`` allow, and no more than a burst in
    all (a server running late may take a writer's messages one right after the other)."""
    if wanted:
        return wanted
    burst, minute = (max(n, 1) for n in limits)
    spacing = 1.25 * max(10 / burst, 60 / minute)  # seconds between one writer's posts
    return max(1, min(messages, 64, max(math.ceil(spacing / interval), math.ceil(messages / burst))))


def chat_register(tournament: int, spare: list[tuple[int, str]], writers: int) -> list[str]:
    """Enter ``writers`` of the spare players in the event (entrants write in its room)."""
    from games.models import Player
    from tournaments.competitions import services as events

    chosen = spare[:writers]
    for pk, _token in chosen:
        events.register(tournament_id=tournament, player=Player.objects.get(pk=pk))
    return [token for _pk, token in chosen]


class Api:
    """One keep-alive connection to the API server, as a browser tab holds it (opened again when
    the server closed it: its keep-alive ended)."""

    def __init__(self, port: int, token: str):
        self.port = port
        self.headers = f"Host: 127.0.0.1\r\nAccept: application/json\r\nAuthorization: Token {token}\r\n"
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def get(self, path: str) -> tuple[int, bytes]:
        for attempt in range(2):
            try:
                if self.reader is None or self.writer is None:
                    self.reader, self.writer = await asyncio.open_connection(
                        "127.0.0.1", self.port, limit=1 << 20
                    )
                reader, writer = self.reader, self.writer
                writer.write(f"GET {path} HTTP/1.1\r\n{self.headers}\r\n".encode())
                head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 300)
                lines = head.decode("latin1").split("\r\n")
                status = int(lines[0].split()[1])
                fields = {k.lower(): v.strip() for k, _, v in (x.partition(":") for x in lines[1:] if x)}
                body = await reader.readexactly(int(fields.get("content-length", "0")))
                if fields.get("connection", "").lower() == "close":
                    self.close()
                return status, body
            except (OSError, asyncio.IncompleteReadError, TimeoutError):
                self.close()
                if attempt:
                    raise
        raise AssertionError("unreachable")


def chat_reader_process(
    where: dict[str, Any], tokens: list[str], first: int, commands: Any, results: Any
) -> None:
    """Hold a share of the readers: connect on command, note when each message's text arrives.
    ``where``: the ports (``live``, ``api``), the ``event`` and its ``room``, and the ``mode``
    (``stream``: the room's stream; ``fetch``: the topic stream and a fetch on each change)."""
    raise_nofile()
    import gc

    gc.disable()
    asyncio.run(_chat_readers(where, tokens, first, commands, results))


def _sse_blocks(buf: bytes) -> tuple[list[bytes], bytes]:
    """The whole server-sent blocks in ``buf``, and the unread tail."""
    *blocks, tail = buf.split(b"\n\n")
    return blocks, tail


async def _chat_readers(
    where: dict[str, Any], tokens: list[str], first: int, commands: Any, results: Any
) -> None:
    """Each reader does what the chat on an event page does: it reads the room once from the API,
    and holds ``/live/chat/<room>/`` open, each event bringing the room's newest messages (a read
    of ``?before=`` only should the stream skip some); or (``fetch``) it holds
    ``/live/topics/?t=chat:<room>`` open and, on each ``changed`` event, fetches ``?after=<last id>``."""
    live_port, api_port, event, mode = where["live"], where["api"], where["event"], where["mode"]
    stream_path = (
        f"/live/chat/{where['room']}/" if mode == "stream" else f"/live/topics/?t=chat:{where['room']}"
    )
    loop = asyncio.get_running_loop()
    open_: list[asyncio.Task[None]] = []
    alive = {"n": 0, "failed": 0, "dropped": 0, "reconciled": 0, "heard": 0}
    statuses: dict[int, int] = {}
    #: (reader, message id) → (text, when it first arrived): a newest page read again repeats some.
    recording: dict[tuple[int, int], tuple[str, float]] | None = None
    gate = asyncio.Semaphore(64)  # readers connecting at once in this process
    path = f"/api/v1/tournaments/{event}/chat/"

    async def read(number: int, ready: asyncio.Future[bool]) -> None:
        token = tokens[number - first]
        api = Api(api_port, token)
        wanted = asyncio.Event()
        last = 0

        def note(messages: list[dict[str, Any]], now: float) -> None:
            if recording is not None:
                for m in messages:
                    recording.setdefault((number, m["id"]), (m["text"], now))

        async def fetch(query: str) -> list[dict[str, Any]]:
            status, body = await api.get(path + query)
            now = time.time()
            statuses[status] = statuses.get(status, 0) + 1
            if status != 200:
                return []
            messages: list[dict[str, Any]] = json.loads(body)["messages"]
            note(messages, now)
            return messages

        def pushed(block: bytes) -> None:
            """A ``messages`` event: merged as the page merges it (by id)."""
            nonlocal last
            now = time.time()
            data = json.loads(block[block.index(b"\ndata: ") + 7 :])
            messages = data["messages"]
            alive["heard"] += 1
            if data["more"] and messages and messages[0]["id"] > last:  # some skipped: read them
                gaps.append(messages[0]["id"])
                wanted.set()
            note(messages, now)
            last = max([last, *(m["id"] for m in messages)])

        gaps: list[int] = []  # the first id of events that skipped some: read what is older

        async def fetcher() -> None:
            nonlocal last
            while True:
                await wanted.wait()
                wanted.clear()
                if mode == "stream":  # only the messages a stream event skipped
                    while gaps:
                        before = gaps.pop(0)
                        with contextlib.suppress(
                            OSError, asyncio.IncompleteReadError, TimeoutError, ValueError
                        ):
                            await fetch(f"?before={before}&limit=100")
                    continue
                try:
                    messages = await fetch(f"?after={last}&limit=100")
                    if not messages:  # as the page: a change with no new message, read the newest page
                        alive["reconciled"] += 1
                        messages = await fetch("")
                except (OSError, asyncio.IncompleteReadError, TimeoutError, ValueError):
                    statuses[0] = statuses.get(0, 0) + 1  # no answer: try again in a second
                    await asyncio.sleep(1)
                    wanted.set()
                    continue
                last = max([last, *(m["id"] for m in messages)])

        try:
            async with gate:
                reader, writer = await asyncio.open_connection("127.0.0.1", live_port, limit=1 << 20)
                writer.write(
                    f"GET {stream_path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Token {token}\r\n"
                    f"Accept: text/event-stream\r\n\r\n".encode()
                )
                head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 60)
                if not head.startswith(b"HTTP/1.1 200"):
                    raise OSError(head.split(b"\r\n", 1)[0].decode())
                last = max([0, *(m["id"] for m in await fetch(""))])  # the page's first load
        except Exception as exc:  # counted and shown: a reader that cannot start never hangs the run
            alive["failed"] += 1
            if alive["failed"] <= 3:
                print(f"chat reader {number} failed: {exc!r}", file=sys.stderr, flush=True)
            ready.set_result(False)
            api.close()
            return
        alive["n"] += 1
        ready.set_result(True)
        task = loop.create_task(fetcher())
        buf = b""
        try:
            while data := await reader.read(1 << 16):
                buf += data
                if mode == "stream":
                    blocks, buf = _sse_blocks(buf)
                    for block in blocks:
                        if b"event: messages" in block:
                            pushed(block)
                    continue
                i = buf.rfind(b"event: changed")
                if i >= 0:
                    alive["heard"] += buf.count(b"event: changed")
                    wanted.set()
                    buf = buf[i + 14 :]
                buf = buf[-14:]
            alive["dropped"] += 1  # the server ended the stream
        except (OSError, asyncio.IncompleteReadError):
            alive["dropped"] += 1
        finally:
            alive["n"] -= 1
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
            writer.close()
            api.close()

    while True:
        cmd, arg = await loop.run_in_executor(None, commands.get)
        if cmd == "connect":
            readies = []
            while len(open_) < arg:
                ready: asyncio.Future[bool] = loop.create_future()
                open_.append(loop.create_task(read(first + len(open_), ready)))
                readies.append(ready)
            await asyncio.gather(*readies)
            results.put(("connected", alive["n"], alive["failed"]))
        elif cmd == "record":
            recording = {}
            statuses.clear()
            alive["reconciled"] = alive["heard"] = 0
            results.put(("recording", alive["n"], 0))
        elif cmd == "count":
            results.put(("count", len(recording or {}), alive["n"]))
        elif cmd == "collect":
            got = [(n, mid, text, at) for (n, mid), (text, at) in (recording or {}).items()]
            done = (got, dict(statuses), alive["dropped"], alive["reconciled"], alive["heard"])
            results.put(("collected", done, alive["n"]))
            recording = None
        elif cmd == "stop":
            for task in open_:
                task.cancel()
            await asyncio.gather(*open_, return_exceptions=True)
            results.put(("stopped", 0, 0))
            return


def chat_writer_process(port: int, event: int, tokens: list[str], commands: Any, results: Any) -> None:
    """Post on command ``(messages, interval)``, the writers in turn; answer with each message's
    id, text, when its POST was sent and when the 201 came."""
    rng = random.Random(11)
    while True:
        cmd = commands.get()
        if cmd is None:
            return
        messages, interval = cmd
        done: list[tuple[int, int, bytes, str, float, float]] = []  # number, status, body, text, times
        # Open loop: each message leaves on time, however long the server takes with the one before.
        start, sending = time.perf_counter(), []
        for i in range(messages):
            time.sleep(max(0.0, start + i * interval - time.perf_counter()))
            text = f"bench message {i + 1} <b>&amp; {rng.randrange(10**9)}</b>"  # shown as text, never HTML
            args = (port, event, tokens[i % len(tokens)], i, text, done)
            sending.append(threading.Thread(target=_chat_post, args=args))
            sending[-1].start()
        for thread in sending:
            thread.join()
        posted: list[tuple[int, str, float, float]] = []
        codes: dict[int, int] = {}
        for i, status, body, text, sent, got in sorted(done):
            codes[status] = codes.get(status, 0) + 1
            if status == 201:
                posted.append((json.loads(body)["id"], text, sent, got))
            elif codes[status] <= 3:
                print(f"message {i + 1}: {status} {body[:300]!r}", file=sys.stderr, flush=True)
        results.put((sorted(posted), codes))


def _chat_post(port: int, event: int, token: str, i: int, text: str, done: list[Any]) -> None:
    """POST message ``i`` on a connection of its own; note its answer and times in ``done``."""
    headers = {"Authorization": f"Token {token}", "Content-Type": "application/json", "Host": "127.0.0.1"}
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
    sent = time.time()
    try:
        conn.request("POST", f"/api/v1/tournaments/{event}/chat/", json.dumps({"text": text}), headers)
        response = conn.getresponse()
        status, body = response.status, response.read()
    except (OSError, http.client.HTTPException):
        status, body = 0, b""
    finally:
        conn.close()
    done.append((i, status, body, text, sent, time.time()))  # list.append: safe between threads


def chat_get(port: int, path: str, token: str) -> dict[str, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", path, headers={"Host": "127.0.0.1", "Authorization": f"Token {token}"})
    response = conn.getresponse()
    body = response.read()
    conn.close()
    if response.status != 200:
        raise SystemExit(f"GET {path}: {response.status} {body[:500]!r}")
    return dict(json.loads(body))


def chat_main(args: argparse.Namespace) -> None:
    """The chat case: one event room, ``--readers`` readers, ``--messages`` messages."""
    raise_nofile()
    db_url = setup_database(args.database, DB_NAME)
    print(f"preparing an event and {args.readers} readers in {db_url} …", flush=True)
    setup = chat_prepare(db_url, args.readers, args.writers)
    limits = setup["limits"]
    n_writers = chat_writers(args.writers, args.message_interval, args.messages, limits)
    writer_tokens = chat_register(setup["tournament"], setup["spare"], n_writers)
    from django.db import connections

    connections.close_all()
    event = setup["tournament"]
    redis_proc, redis_url = start_redis()
    env = server_env(db_url, redis_url)
    live_port = free_port()
    uvicorn = start_uvicorn(live_port, args.workers, env)
    gunicorn = None
    api_port = live_port
    if args.chat_api == "gunicorn":
        api_port = free_port()
        gunicorn = start_gunicorn(api_port, env)
    ctx = mp.get_context("fork")
    writer_q, writer_r = ctx.Queue(), ctx.Queue()
    writer = ctx.Process(
        target=chat_writer_process, args=(api_port, event, writer_tokens, writer_q, writer_r), daemon=True
    )
    writer.start()
    pool = None
    failed = 1
    try:
        wait_for(live_port)
        wait_for(api_port)
        room = chat_get(api_port, f"/api/v1/tournaments/{event}/chat/", writer_tokens[0])["room"]
        if not room["may_write"]:
            raise SystemExit(f"the writers may not write in the event's room: {room['refusal']}")
        topic = room["topic"]
        mode = "fetch" if args.chat_fetch else "stream"
        web = (
            f"gunicorn ({os.environ.get('WEB_WORKERS', os.cpu_count())} workers × "
            f"{os.environ.get('WEB_THREADS', '4')} threads, config/gunicorn.py)"
            if gunicorn
            else "the same uvicorn"
        )
        how = (
            f"the topic stream /live/topics/?t={topic} and a fetch of …/chat/?after= on each change"
            if mode == "fetch"
            else f"the room's stream /live/chat/{room['id']}/ (the messages in it)"
        )
        print(f"room {room['id']} ({room['label']!r}); readers: one first read, then {how}; "
              f"streams on uvicorn ({args.workers} worker(s)), the API on {web}; redis {redis_url}",
              flush=True)  # fmt: skip
        print("server logs: /tmp/bench_watchers_uvicorn.log, /tmp/bench_watchers_gunicorn.log", flush=True)
        n_clients = max(1, min(args.clients, args.readers))
        shares = [
            args.readers // n_clients + (1 if i < args.readers % n_clients else 0) for i in range(n_clients)
        ]
        firsts = [sum(shares[:i]) for i in range(n_clients)]
        tokens = setup["readers"]
        where = {"live": live_port, "api": api_port, "event": event, "room": room["id"], "mode": mode}
        pool = Pool(
            chat_reader_process,
            lambda i: (where, tokens[firsts[i] : firsts[i] + shares[i]], firsts[i]),
            n_clients,
        )
        t0 = time.perf_counter()
        answers = pool.ask([("connect", s) for s in shares])
        connected = sum(a[1] for a in answers)
        print(
            f"{args.readers} readers: {connected} connected (stream open, first load done), "
            f"{sum(a[2] for a in answers)} failed ({time.perf_counter() - t0:.1f} s)",
            flush=True,
        )
        time.sleep(2)
        pool.ask([("record", None)] * n_clients)
        meters = {"uvicorn": Meter(uvicorn.pid, args.database)}
        if gunicorn:
            meters["gunicorn"] = Meter(gunicorn.pid, args.database)
        for m in meters.values():
            m.start()
        writer_q.put((args.messages, args.message_interval))
        posted, codes = writer_r.get(timeout=args.messages * args.message_interval + 400)
        # The last messages on their way: until every reader has every one, or nothing came for 45 s
        # (longer than the hubs' recheck, LIVE_RECHECK_SECONDS: a lost publish is repaired by then).
        expected, have, quiet = len(posted) * connected, -1, time.time()
        while time.time() - quiet < 45:
            now_have = sum(a[1] for a in pool.ask([("count", None)] * n_clients))
            if now_have >= expected:
                break
            if now_have != have:
                have, quiet = now_have, time.time()
            time.sleep(0.25)
        cost = {name: m.stop() for name, m in meters.items()}
        answers = pool.ask([("collect", None)] * n_clients)
        arrivals = [x for a in answers for x in a[1][0]]
        statuses = _merge([a[1][1] for a in answers])
        dropped = sum(a[1][2] for a in answers)
        fetches = (statuses, sum(a[1][3] for a in answers), sum(a[1][4] for a in answers))
        failed = chat_report(
            args, connected, n_writers, limits, posted, codes, arrivals, fetches, dropped, cost
        )
    finally:
        try:
            if pool is not None:
                pool.close()
        finally:  # the servers run in sessions of their own: stopped whatever the readers did
            writer_q.put(None)
            stop(uvicorn)
            if gunicorn:
                stop(gunicorn)
            stop(redis_proc)
    if failed:
        raise SystemExit(1)


def chat_report(
    args: argparse.Namespace,
    readers: int,
    writers: int,
    limits: tuple[int, int],
    posted: list[tuple[int, str, float, float]],
    codes: dict[int, int],
    arrivals: list[tuple[int, int, str, float]],
    fetches: tuple[dict[int, int], int, int],
    dropped: int,
    cost: dict[str, dict[str, float]],
) -> bool:
    """Print the figures; whether a message was refused or some reader lacks one (or got it wrong)."""
    sent = {mid: (text, at) for mid, text, at, _got in posted}
    holders: dict[int, set[int]] = {mid: set() for mid in sent}
    lat: list[float] = []
    worst: dict[int, float] = {}
    wrong = 0
    for reader, mid, text, at in arrivals:
        if mid not in sent:
            continue
        if text != sent[mid][0]:
            wrong += 1
            continue
        if reader not in holders[mid]:
            holders[mid].add(reader)
            lat.append(at - sent[mid][1])
            worst[mid] = max(worst.get(mid, 0.0), at - sent[mid][1])
    with open("/proc/loadavg") as fh:
        load = fh.read().split()[0]
    burst, minute = limits
    how = "fetch on each change (--chat-fetch)" if args.chat_fetch else "messages in the room's stream"
    print(
        f"\n== chat: one event room, {readers} readers, {args.messages} messages one every "
        f"{args.message_interval:g} s, {how}, {os.cpu_count()} cores, load average now {load} =="
    )
    print(
        f"writers: {writers} entrants in turn, each one message every {writers * args.message_interval:g} s; "
        f"the chat rate limit as set, not raised (CHAT_RATE_BURST={burst} per 10 s, "
        f"CHAT_RATE_MINUTE={minute} per minute per player)"
    )
    post_ms = [got - at for _mid, _text, at, got in posted]
    print(
        f"messages posted: {len(posted)} {codes}; POST to 201 ms p50 {ms(post_ms, 50)} max {ms(post_ms, 100)}"
    )
    print(
        f"message-to-reader ms (POST sent -> the reader holds the text): p50 {ms(lat, 50)} "
        f"p95 {ms(lat, 95)} p99 {ms(lat, 99)} max {ms(lat, 100)} ({len(lat)} deliveries)"
    )
    counts = [len(holders[mid]) for mid in sorted(holders)]
    each = f"each {counts[0]}/{readers}" if counts and len(set(counts)) == 1 else str(counts)
    print(f"readers who got each message: {each}; texts wrong: {wrong}; streams dropped: {dropped}")
    statuses, reconciled, heard = fetches
    if args.chat_fetch:
        print(f"changed events heard by the readers: {heard}")
        print(
            f"reader fetches (GET …/chat/?after=<last id>, as the page did): {sum(statuses.values())} "
            f"{statuses}, {reconciled} of them a newest page read again after a change that brought "
            "nothing new"
        )
    else:
        print(f"messages events heard by the readers: {heard}")
        print(
            f"reader fetches after the first read (GET …/chat/?before=, only for messages a stream "
            f"event skipped): {sum(statuses.values())} {statuses}"
        )
    print(
        "server CPU while messages flowed: "
        + ", ".join(f"{name} {c['server'] * 100:.0f}%" for name, c in cost.items())
        + f", postgres {next(iter(cost.values()))['postgres'] * 100:.0f}% of a core"
        + f" ({next(iter(cost.values()))['seconds']:.0f} s)"
    )
    api = cost.get("gunicorn", cost["uvicorn"])
    if statuses:
        per = api["server"] * api["seconds"] / sum(statuses.values()) * 1000
        pg = api["postgres"] * api["seconds"] / sum(statuses.values()) * 1000
        print(
            f"  about {per:.1f} ms of API server CPU and {pg:.1f} ms of PostgreSQL per fetch (POSTs included)"
        )
    if posted:
        start = posted[0][2]
        top = sorted(worst.items(), key=lambda kv: -kv[1])[:5]
        print(
            "slowest messages (s into the run: last reader ms): "
            + ", ".join(f"{sent[mid][1] - start:.1f}: {v * 1000:.0f}" for mid, v in top)
        )
    complete = bool(posted) and len(posted) == args.messages and all(c == readers for c in counts)
    complete = complete and readers == args.readers and wrong == 0
    print(f"every reader got every message: {'yes' if complete else 'NO'}")
    return not complete


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
    chat = parser.add_argument_group("the chat case (--chat), instead of the tables")
    chat.add_argument("--chat", action="store_true", help="one busy event room: readers and writers")
    chat.add_argument("--readers", type=int, default=1000, help="readers of the room")
    chat.add_argument("--messages", type=int, default=20, help="messages posted")
    chat.add_argument("--message-interval", type=float, default=2.0, help="seconds between two messages")
    chat.add_argument("--writers", type=int, default=0, help="entrants posting in turn (0: within the rate)")
    chat.add_argument(
        "--chat-fetch",
        action="store_true",
        help="the readers as the page did before: the topic stream, and a fetch of ?after= on each change",
    )
    chat.add_argument(
        "--chat-api", default="gunicorn", choices=["gunicorn", "uvicorn"], help="the server of the chat API"
    )
    args = parser.parse_args()
    if args.chat:
        chat_main(args)
        return
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
    uvicorn = start_uvicorn(port, args.workers, env)
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
        gunicorn = start_gunicorn(gport, env)
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
