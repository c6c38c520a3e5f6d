"""Fault matrix: clocks and bots end to end while things go wrong (not a test; prints figures).

It runs the production profile on instances of its own: a ``redis-server`` on a free port
(nothing kept on disk), a PostgreSQL database ``pacru_faultbench`` (dropped and
made again on every run), gunicorn serving ``config.wsgi`` (``-c config/gunicorn.py``, two
workers), two Celery workers (``clocks,default,slow`` and ``bots``, two processes each) and
Celery beat, with short grace and sweep periods. Then, for each fault, it makes fresh tables
through the services (2-player tables with deadlines spread over ``--spread`` seconds, 3- and
4-player tables whose seats time out in rotation, and correspondence tables fast-forwarded so
that only the sweep can apply them), breaks something, waits until every due timeout should
have been applied, and reads the outcome back from the database:

* ``baseline``              nothing goes wrong;
* ``worker-killed``         SIGKILL the clock worker's process group while it holds ETA checks,
                            start a new worker a few seconds later;
* ``beat-stopped``          stop beat for twice the spread, then start it again;
* ``duplicate-delivery``    every clock check sent again (at its due time, a little before it and
                            at once), and a clock sweep sent four times a second;
* ``moves-racing-timeouts`` players move through the HTTP API just before, inside and just after
                            the grace of their deadline;
* ``redis-restart``         SIGKILL Redis while ETA checks are held, start it again ~3 s later
                            (empty: the queued checks are lost, the sweep must cover them);
* ``redis-down-writes``     Redis down ~5 s while players move through the API (HTTP statuses,
                            readiness 503 / liveness 200 during the outage);
* ``bot-worker-killed``     human-vs-search-bot tables (~1 s per bot move), SIGKILL the bot worker
                            mid-search, start a new one: stranded bot turns, bot moves doubled;
* ``live-killed``           ``--watchers`` browser-like watchers (EventSource: on a lost connection
                            they wait the server's ``retry:`` and reconnect with ``Last-Event-ID``)
                            hold ``/live/tables/<id>/`` streams of the live (ASGI) service while
                            players move through the API; SIGKILL the live service, start it again
                            ``--down`` s later: reconnect time p50/p99, events lost (a watcher that
                            does not end on its table's final version), moves made during the
                            outage delivered after the reconnect as the current state.

Per fault it prints: tables, timeouts applied, doubled (a seat flagged twice, more timeouts than
seats, or Seat rows disagreeing), missed (active with its deadline long past), early (applied
before deadline + grace), lag after deadline + grace (p50/p99/max, from the Move rows),
``games.verify`` failures over the finished tables, HTTP 5xx, whether the worker survived,
stranded and doubled bot turns; then notes per fault. Logs of every process are kept in the
folder it prints.

The service's "timeout applied" log lines (workers and gunicorn log at INFO) also say which
path applied each timeout: the ETA ``clock_check``, the ``clock_sweep`` or a request.

    .venv/bin/python bench/faults.py                                  # the whole matrix (~4 min)
    .venv/bin/python bench/faults.py --faults baseline,redis-restart --tables 12
    .venv/bin/python bench/faults.py --faults redis-restart,redis-down-writes --throttled
    .venv/bin/python bench/faults.py --tables 40 --spread 20
    .venv/bin/python bench/faults.py --faults live-killed --watchers 5000 --down 5
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import itertools
import json
import logging
import os
import random
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GRACE = 0.5
SETTINGS = {
    "CLOCK_GRACE_SECONDS": str(GRACE),
    "CLOCK_SWEEP_SECONDS": "1",
    "BOT_SWEEP_SECONDS": "1",
    "BOT_SWEEP_AFTER_SECONDS": "3",
    "BOT_LEASE_SECONDS": "5",
}
FAULTS = (
    "baseline",
    "worker-killed",
    "beat-stopped",
    "duplicate-delivery",
    "moves-racing-timeouts",
    "redis-restart",
    "redis-down-writes",
    "bot-worker-killed",
    "live-killed",
)
GAMES = ("pacru", "azacru", "shacru")
PHASES = ("before", "during", "after", "after+5")
HOST = socket.gethostname()


def free_port() -> int:
    """A port the system picks: two runs at once (or another bench) do not pick the same one, as
    they did scanning up from a fixed port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def epoch(value: datetime | None) -> float | None:
    return None if value is None else value.timestamp()


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


# ----------------------------------------------------------------------------- the processes
class Stack:
    """Redis, gunicorn, the two Celery workers and beat: each a process group of its own."""

    def __init__(self, db_url: str, logdir: Path, throttled: bool = False) -> None:
        self.redis_port = free_port()
        self.web_port = free_port()
        self.live_port = free_port()
        self.logdir = logdir
        self.uid = uuid.uuid4().hex[:6]
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DJANGO_PROFILE": "production",
            "SECRET_KEY": "bench",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "SECURE_SSL_REDIRECT": "false",
            "SECURE_COOKIES": "false",
            "THROTTLE_OFF": "1",
            "BIND": f"127.0.0.1:{self.web_port}",
            "WEB_WORKERS": "2",
            "REDIS_URL": f"redis://127.0.0.1:{self.redis_port}/0",
            "DATABASE_URL": db_url,
            "LOG_LEVEL": "WARNING",
            **SETTINGS,
        }
        for name in ("CLOCK_QUEUE", "BOT_QUEUE"):  # the service's own queue names
            self.env.pop(name, None)
        if throttled:
            # Throttles on (their counters live in the Redis cache, as in production), with limits
            # no client here reaches: the cache's fallback while Redis is away is exercised too.
            del self.env["THROTTLE_OFF"]
            self.env.update(
                {f"THROTTLE_{scope}": "1000000/min" for scope in ("ANON", "USER", "AUTH", "WATCH")}
            )
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        self.starts: Counter[str] = Counter()
        self.node: dict[str, str] = {}

    def _spawn(self, name: str, cmd: list[str], **env: str) -> subprocess.Popen[bytes]:
        self.starts[name] += 1
        log = open(self.logdir / f"{name}-{self.starts[name]}.log", "wb")  # noqa: SIM115
        proc = subprocess.Popen(
            cmd,
            cwd=ROOT,
            env={**self.env, **env},
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        log.close()
        self.procs[name] = proc
        return proc

    def alive(self, name: str) -> bool:
        proc = self.procs.get(name)
        return proc is not None and proc.poll() is None

    def kill(self, name: str, sig: int = signal.SIGKILL, wait: float = 20) -> None:
        proc = self.procs.pop(name, None)
        if proc is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, sig)
        try:
            proc.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
        # Children left in the group (a worker's pool) are killed with it.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)

    def stop_all(self) -> None:
        for name in ("beat", "worker-bots", "worker-clocks", "live", "web", "redis"):
            if name in self.procs:
                self.kill(name, signal.SIGTERM if name != "redis" else signal.SIGKILL, wait=15)

    # redis
    def start_redis(self) -> None:
        self._spawn(
            "redis",
            ["redis-server", "--port", str(self.redis_port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--daemonize", "no"],
        )  # fmt: skip
        self.wait_redis()

    def redis(self) -> Any:
        import redis

        return redis.Redis(port=self.redis_port, socket_connect_timeout=1, socket_timeout=2)

    def wait_redis(self, timeout: float = 15) -> None:
        end = time.time() + timeout
        while time.time() < end:
            try:
                if self.redis().ping():
                    return
            except Exception:
                time.sleep(0.1)
        raise RuntimeError("redis-server did not come up")

    def held_eta(self) -> int:
        """Messages delivered to workers and not acknowledged yet (ETA checks held in memory)."""
        try:
            return int(self.redis().hlen("unacked"))
        except Exception:
            return -1

    # web
    def start_web(self) -> None:
        self._spawn(
            "web",
            [sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.py", "config.wsgi"],
            LOG_LEVEL="INFO",  # timeouts applied by a move are logged too
        )
        end = time.time() + 40
        while time.time() < end:
            if not self.alive("web"):  # e.g. the port was taken meanwhile: never trust another's answer
                raise RuntimeError("gunicorn exited (see the web log)")
            if http_get(self.web_port, "/api/v1/health/", timeout=2)[0] == 200:
                return
            time.sleep(0.3)
        raise RuntimeError("gunicorn did not come up (see the web log)")

    # live (ASGI): started by the live-killed fault only
    def start_live(self) -> None:
        self._spawn(
            "live",
            [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
             "--port", str(self.live_port), "--no-access-log", "--no-proxy-headers",
             "--timeout-graceful-shutdown", "2"],
            # No cap on streams per address: every watcher here comes from 127.0.0.1.
            LIVE_STREAMS_PER_ADDRESS="0",
        )  # fmt: skip
        end = time.time() + 60
        while time.time() < end:
            if not self.alive("live"):
                raise RuntimeError("uvicorn exited (see the live log)")
            if http_get(self.live_port, "/api/v1/health/", timeout=2)[0] == 200:
                return
            time.sleep(0.1)
        raise RuntimeError("uvicorn did not come up (see the live log)")

    # celery
    def start_worker(self, kind: str) -> None:
        name = f"worker-{kind}"
        queues = "clocks,default,slow" if kind == "clocks" else "bots"
        node = f"fb{self.uid}-{kind}{self.starts[name] + 1}"
        self.node[name] = f"{node}@{HOST}"
        self._spawn(
            name,
            [sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", queues, "-c", "2",
             "--without-mingle", "--without-gossip", "-n", f"{node}@%h", "-l", "INFO"],
            LOG_LEVEL="INFO",  # the workers' "timeout applied" lines say which task applied each
        )  # fmt: skip

    def ping(self, name: str, timeout: float = 1.0) -> bool:
        from config.celery import app

        try:
            return bool(app.control.ping(timeout=timeout, destination=[self.node[name]]))
        except Exception:
            return False

    def wait_worker(self, name: str, timeout: float = 40) -> float:
        start = time.time()
        while time.time() - start < timeout:
            if not self.alive(name):
                raise RuntimeError(f"{name} exited (see its log)")
            if self.ping(name, 0.5):
                return time.time() - start
        raise RuntimeError(f"{name} does not answer pings")

    def start_beat(self) -> None:
        self._spawn(
            "beat",
            [sys.executable, "-m", "celery", "-A", "config", "beat", "-s",
             str(self.logdir / "beat-schedule"), "--max-interval", "1", "-l", "WARNING"],
        )  # fmt: skip

    def ensure(self) -> list[str]:
        """Start whatever is not running (or not answering); say what had to be started."""
        fixed = []
        if not self.alive("redis"):
            self.start_redis()
            fixed.append("redis")
        if not self.alive("web"):
            self.start_web()
            fixed.append("web")
        for kind in ("clocks", "bots"):
            name = f"worker-{kind}"
            if self.alive(name) and not (self.ping(name, 1.0) or self.ping(name, 2.0)):
                fixed.append(f"{name} (alive but not answering: killed)")
                self.kill(name)
            if not self.alive(name):
                self.start_worker(kind)
                fixed.append(name)
        if not self.alive("beat"):
            self.start_beat()
            fixed.append("beat")
        for kind in ("clocks", "bots"):
            self.wait_worker(f"worker-{kind}")
        return fixed


# ----------------------------------------------------------------------------- HTTP
def http_get(port: int, path: str, timeout: float = 5) -> tuple[int | str, Any]:
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        conn.request("GET", path)
        r = conn.getresponse()
        body = r.read()
        conn.close()
        return r.status, body
    except (OSError, http.client.HTTPException) as exc:
        return type(exc).__name__, None


def http_move(
    port: int, table_id: int, token: str, ply: int, move: str, timeout: float = 15
) -> tuple[Any, dict[str, Any]]:
    body = json.dumps({"ply": ply, "move": move})
    headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        conn.request("POST", f"/api/v1/tables/{table_id}/moves/", body, headers)
        r = conn.getresponse()
        raw = r.read()
        conn.close()
    except (OSError, http.client.HTTPException) as exc:
        return type(exc).__name__, {}
    try:
        data = json.loads(raw)
    except ValueError:
        data = {"raw": raw[:200].decode("latin-1")}
    return r.status, data


def parse_time(text: str | None) -> float | None:
    if not text:
        return None
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


# ----------------------------------------------------------------------------- scenario plumbing
@dataclass
class TableInfo:
    id: int
    players: int
    kind: str  # 2p, multi, corr, bot
    seats: dict[int, Any]  # seat -> Player
    tokens: dict[int, str]
    base: float = 0.0
    #: (actions, deadline) once made: the first due time, before any watcher runs.
    first: tuple[int, datetime] | None = None


@dataclass
class Result:
    fault: str
    tables: int = 0
    timeouts: int = 0
    doubled: int = 0
    missed: int = 0
    early: int = 0
    lags: list[float] = field(default_factory=list)
    unmeasured: int = 0
    verified: int = 0
    verify_fail: int = 0
    http: Counter[Any] = field(default_factory=Counter)
    worker_alive: str = "-"
    bot_stranded: str = "-"
    bot_doubled: str = "-"
    ready: Counter[Any] = field(default_factory=Counter)
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0
    error: str = ""
    #: When the fault began and when the service was whole again (epoch seconds), if any.
    window: tuple[float, float] | None = None


class Watcher(threading.Thread):
    """Records every (table, actions) -> deadline of the scenario's active tables (so each
    timeout's due time is known afterwards) and calls ``on_new`` for each new one."""

    def __init__(self, ids: list[int], on_new: Callable[[int, int, datetime], None] | None = None) -> None:
        super().__init__(daemon=True)
        self.ids = ids
        self.on_new = on_new
        self.dues: dict[tuple[int, int], datetime] = {}
        self.stop = threading.Event()

    def run(self) -> None:
        from django.db import connection

        from games.models import Table

        try:
            while not self.stop.is_set():
                rows = Table.objects.filter(pk__in=self.ids, status=Table.Status.ACTIVE).values_list(
                    "pk", "actions", "deadline"
                )
                for pk, actions, deadline in rows:
                    if deadline is not None and (pk, actions) not in self.dues:
                        self.dues[(pk, actions)] = deadline
                        if self.on_new:
                            self.on_new(pk, actions, deadline)
                self.stop.wait(0.1)
        finally:
            connection.close()


class Prober(threading.Thread):
    """GET readiness and liveness once a second: (time, ready status, live status)."""

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.samples: list[tuple[float, Any, Any]] = []
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            t = time.time()
            ready = http_get(self.port, "/api/v1/health/ready/", timeout=5)[0]
            live = http_get(self.port, "/api/v1/health/", timeout=5)[0]
            self.samples.append((t, ready, live))
            self.stop.wait(max(0.0, 1.0 - (time.time() - t)))

    def between(self, a: float, b: float) -> tuple[Counter[Any], Counter[Any]]:
        ready = Counter(r for t, r, _ in self.samples if a <= t <= b)
        live = Counter(lv for t, _, lv in self.samples if a <= t <= b)
        return ready, live


class Bench:
    def __init__(self, args: argparse.Namespace, stack: Stack) -> None:
        self.args = args
        self.stack = stack
        self.rng = random.Random(args.seed)
        self.serial = 0
        self.send_failures = 0

    # -- tables
    def players(self, n: int) -> list[tuple[Any, str]]:
        from django.contrib.auth import get_user_model
        from rest_framework.authtoken.models import Token

        from games.models import Player

        User = get_user_model()
        self.serial += 1
        prefix = f"fb{self.serial}x"
        users = User.objects.bulk_create(User(username=f"{prefix}{i}", password="!") for i in range(n))
        people = Player.objects.bulk_create(Player(user=u, display_name=u.username) for u in users)
        tokens = Token.objects.bulk_create(Token(user=u, key=Token.generate_key()) for u in users)
        return list(zip(people, [t.key for t in tokens], strict=True))

    def first_move(self, table_id: int, player: Any) -> None:
        import engine
        from engine.playout import random_step
        from games import services
        from games.models import Table

        position = Table.objects.values_list("position", flat=True).get(pk=table_id)
        _, text = random_step(engine.load(position), self.rng, reorient_rate=0)
        services.move_submit(table_id=table_id, player=player, ply=0, move=text)

    def open_table(
        self, people: list[tuple[Any, str]], game: str, tc: dict[str, Any], kind: str, base: float
    ) -> TableInfo:
        from games import services

        n = len(people)
        table = services.table_create(creator=people[0][0], game=game, players=n, time_control=tc)
        for p, _ in people[1:]:
            services.seat_join(table_id=table.pk, player=p)
        self.first_move(table.pk, people[0][0])
        return TableInfo(
            table.pk, n, kind, {i + 1: p for i, (p, _) in enumerate(people)},
            {i + 1: tok for i, (_, tok) in enumerate(people)}, base,
        )  # fmt: skip

    def timed_tables(
        self,
        n: int,
        *,
        multi: bool = True,
        corr: int = 2,
        increment: float = 0.0,
        base_of: Callable[[int, int], float] | None = None,
    ) -> list[TableInfo]:
        """``n`` Fischer tables (every fourth a 3- or 4-player one when ``multi``) plus ``corr``
        correspondence tables fast-forwarded to fall due within the spread (left to the sweep)."""
        from django.db.models import F

        from games.models import Table

        args = self.args
        kinds = ["multi" if multi and i % 4 == 3 else "2p" for i in range(n)]
        twos = [i for i, k in enumerate(kinds) if k == "2p"]
        seat_counts = [3 if (i // 4) % 2 == 0 else 4 for i in range(n)]
        people = self.players(
            sum(seat_counts[i] if k == "multi" else 2 for i, k in enumerate(kinds)) + 2 * corr
        )
        out = []
        pos = 0
        for i, k in enumerate(kinds):
            seats = seat_counts[i] if k == "multi" else 2
            if k == "2p":
                j = twos.index(i)
                base = args.lead + j * args.spread / max(1, len(twos) - 1)
            else:
                base = 4.0 + (i // 4) % 4  # 3 or 4 seats time out in turn: 4-7 s each
            if base_of is not None:
                base = base_of(i, seats)
            tc = {"kind": "fischer", "base": round(base, 3), "increment": increment}
            out.append(self.open_table(people[pos : pos + seats], GAMES[i % 3], tc, k, base))
            out[-1].first = Table.objects.values_list("actions", "deadline").get(pk=out[-1].id)
            pos += seats
        for c in range(corr):
            info = self.open_table(
                people[pos : pos + 2], "pacru", {"kind": "correspondence", "days": 1}, "corr", 0
            )
            pos += 2
            # A day passes: the deadline (beyond the ETA horizon, so no ETA check was sent) now
            # falls within the spread; only the clock sweep can apply it.
            due_in = timedelta(seconds=args.lead + args.spread * (0.4 + 0.3 * c))
            Table.objects.filter(pk=info.id).update(
                deadline=F("deadline") - timedelta(days=1) + due_in,
                turn_started_at=F("turn_started_at") - timedelta(days=1) + due_in,
            )
            info.first = Table.objects.values_list("actions", "deadline").get(pk=info.id)
            out.append(info)
        return out

    # -- waiting and measuring
    def settle(self, ids: list[int], limit: float) -> None:
        from games.models import Table

        while time.time() < limit:
            if not Table.objects.filter(pk__in=ids, status=Table.Status.ACTIVE).exists():
                return
            time.sleep(0.5)

    def measure(self, res: Result, tables: list[TableInfo], dues: dict[tuple[int, int], datetime]) -> None:
        from django.db.models import Count
        from django.utils import timezone

        from games.models import Move, Seat, Table
        from games.verify import verify_table

        ids = [t.id for t in tables]
        now = timezone.now()
        res.tables = len(ids)
        by_table: dict[int, list[dict[str, Any]]] = {}
        for m in Move.objects.filter(table_id__in=ids).order_by("table_id", "seq").values():
            by_table.setdefault(m["table_id"], []).append(m)
        seats_out = Counter(
            Seat.objects.filter(table_id__in=ids, elimination_reason=Seat.Reason.TIMEOUT).values_list(
                "table_id", flat=True
            )
        )
        info = {t.id: t for t in tables}
        kind_lags: dict[str, list[float]] = {}
        phase_lags: dict[tuple[str, str], list[float]] = {}
        head_start: list[float] = []
        for tid in ids:
            moves = by_table.get(tid, [])
            flagged = [m for m in moves if m["kind"] == Move.Kind.TIMEOUT]
            res.timeouts += len(flagged)
            per_seat = Counter(m["seat"] for m in flagged)
            out_before: set[int] = set()
            bad = False
            for m in moves:
                if m["kind"] != Move.Kind.MOVE:
                    bad |= m["seat"] in out_before
                    out_before.add(m["seat"])
            bad |= any(c > 1 for c in per_seat.values())
            bad |= len(flagged) > info[tid].players - 1
            bad |= seats_out[tid] != len(per_seat)
            res.doubled += bad
            for m in flagged:
                previous = moves[moves.index(m) - 1] if moves.index(m) > 0 else None
                due = dues.get((tid, m["seq"]))
                if due is None:
                    res.unmeasured += 1
                    continue
                lag = (m["played_at"] - due).total_seconds() - GRACE
                res.lags.append(lag)
                kind_lags.setdefault(info[tid].kind, []).append(lag)
                following = dues.get((tid, m["seq"] + 1))
                if info[tid].kind == "multi" and following is not None:
                    # The next seat's clock (a full base: it has not moved) started at
                    # deadline - base: how long before this timeout was written was that?
                    started = following - timedelta(seconds=info[tid].base)
                    head_start.append((m["played_at"] - started).total_seconds())
                if res.window and previous is not None:
                    # When its clock check was scheduled (the action before it) and when it fell due.
                    sched = self.phase(res.window, previous["played_at"].timestamp())
                    phase_lags.setdefault(
                        (sched, self.phase(res.window, due.timestamp() + GRACE)), []
                    ).append(lag)
                res.early += lag < 0
        if kind_lags:
            names = {"2p": "2-player", "multi": "3-4 player", "corr": "correspondence (sweep only)"}
            res.notes.append(
                "lag by kind: "
                + "; ".join(
                    f"{names.get(k, k)} n={len(v)} p50 {pct(v, 50):.2f} max {max(v):.2f}"
                    for k, v in sorted(kind_lags.items())
                )
            )
        if head_start:
            res.notes.append(
                f"3-4 player rotations: the next seat's clock started max {max(head_start):.3f}s "
                f"(p50 {pct(head_start, 50):.3f}s) before the timeout before it was written"
            )
        if phase_lags:
            res.notes.append(
                f"lag by when the check was scheduled / fell due, relative to the fault "
                f"(window {res.window[1] - res.window[0]:.1f}s; 'after+5' = over 5 s after it): "  # type: ignore[index]
                + "; ".join(
                    f"{a}/{d} n={len(v)} p50 {pct(v, 50):.2f} max {max(v):.2f}"
                    for (a, d), v in sorted(
                        phase_lags.items(), key=lambda kv: (PHASES.index(kv[0][0]), PHASES.index(kv[0][1]))
                    )
                )
            )
        res.missed = Table.objects.filter(
            pk__in=ids, status=Table.Status.ACTIVE, deadline__lt=now - timedelta(seconds=GRACE + 5)
        ).count()
        backdated = []
        for table in Table.objects.filter(pk__in=ids, status=Table.Status.FINISHED):
            last = by_table.get(table.pk, [])[-1:]
            if last and last[0]["kind"] == Move.Kind.TIMEOUT and table.finished_at is not None:
                # finished_at is the 'now' the timeout was applied with; played_at when it was written
                backdated.append((last[0]["played_at"] - table.finished_at).total_seconds())
            res.verified += 1
            problems = verify_table(table)
            if problems:
                res.verify_fail += 1
                res.notes.append(f"verify table {table.pk}: {problems[:2]}")
        if backdated and max(backdated) > 0.1:
            res.notes.append(
                f"tables finished by a timeout: finished_at lies before the timeout's Move.played_at by "
                f"p50 {pct(backdated, 50):.3f}s, max {max(backdated):.3f}s (the 'now' it was applied with)"
            )
        doubled_plies = (
            Move.objects.filter(table_id__in=ids, kind=Move.Kind.MOVE)
            .values("table_id", "ply")
            .annotate(n=Count("id"))
            .filter(n__gt=1)
            .count()
        )
        if doubled_plies:
            res.notes.append(f"{doubled_plies} (table, ply) pairs with more than one move")
        if res.unmeasured:
            res.notes.append(f"{res.unmeasured} timeouts without a recorded deadline (lag not measured)")

    @staticmethod
    def phase(window: tuple[float, float], at: float) -> str:
        if at < window[0]:
            return "before"
        if at <= window[1]:
            return "during"
        return "after" if at <= window[1] + 5 else "after+5"

    # -- one scenario
    def timeout_scenario(
        self,
        res: Result,
        fault: Callable[[float, list[TableInfo]], None] | None = None,
        *,
        on_new: Callable[[int, int, datetime], None] | None = None,
        extra: float = 0.0,
        **table_options: Any,
    ) -> None:
        tables = self.timed_tables(self.args.tables, **table_options)
        t0 = time.time()
        watcher = Watcher([t.id for t in tables], on_new)
        for t in tables:  # a short first turn may end while later tables are still being made
            if t.first is not None and t.first[1] is not None:
                watcher.dues[(t.id, t.first[0])] = t.first[1]
                if on_new is not None:
                    on_new(t.id, t.first[0], t.first[1])
        prober = Prober(self.stack.web_port)
        watcher.start()
        prober.start()
        try:
            if fault is not None:
                fault(t0, tables)
            last_due = t0 + self.args.lead + self.args.spread + 3 * 7.0
            self.settle([t.id for t in tables], max(last_due, time.time()) + extra + self.args.settle)
        finally:
            watcher.stop.set()
            prober.stop.set()
            watcher.join()
            prober.join()
        res.ready = Counter(r for _, r, _ in prober.samples)
        self.measure(res, tables, watcher.dues)
        self.prober = prober


# ----------------------------------------------------------------------------- the faults
def run_baseline(b: Bench, res: Result) -> None:
    b.timeout_scenario(res)


def wait_held(b: Bench, at_least: int = 1, timeout: float = 10) -> int:
    end = time.time() + timeout
    held = b.stack.held_eta()
    while held < at_least and time.time() < end:
        time.sleep(0.2)
        held = b.stack.held_eta()
    return held


def run_worker_killed(b: Bench, res: Result) -> None:
    def fault(t0: float, tables: list[TableInfo]) -> None:
        time.sleep(max(0.0, t0 + b.args.lead + b.args.spread * 0.3 - time.time()))
        held = wait_held(b)
        killed = time.time()  # the fault's window begins as the signal is sent
        b.stack.kill("worker-clocks", signal.SIGKILL)
        time.sleep(b.args.down)
        b.stack.start_worker("clocks")
        up = b.stack.wait_worker("worker-clocks")
        res.window = (killed, time.time())
        res.notes.append(
            f"SIGKILL clock worker group at t0+{killed - t0:.1f}s holding {held} unacked ETA checks; "
            f"new worker started after {b.args.down:g}s, answered after {up:.1f}s more"
        )

    b.timeout_scenario(res, fault)


def run_beat_stopped(b: Bench, res: Result) -> None:
    off = 2 * b.args.spread

    def fault(t0: float, tables: list[TableInfo]) -> None:
        time.sleep(max(0.0, t0 + b.args.lead - 1 - time.time()))
        b.stack.kill("beat", signal.SIGTERM)
        stopped = time.time()
        time.sleep(off)
        b.stack.start_beat()
        res.window = (stopped, time.time())
        res.notes.append(f"beat stopped at t0+{stopped - t0:.1f}s for {off:g}s")

    b.timeout_scenario(res, fault, extra=off)
    ready = Counter(r for t, r, _ in b.prober.samples)
    res.notes.append(f"readiness over the scenario: {dict(ready)}")


def run_duplicate_delivery(b: Bench, res: Result) -> None:
    from config.celery import app
    from games.task_names import CLOCK_CHECK, CLOCK_SWEEP

    sent: Counter[str] = Counter()
    stop = threading.Event()

    def send(name: str, args: tuple[Any, ...] = (), **options: Any) -> None:
        try:
            app.send_task(name, args=args, **options)
            sent[name] += 1
        except Exception as exc:
            sent[f"failed {type(exc).__name__}"] += 1

    def on_new(pk: int, actions: int, deadline: datetime) -> None:
        due = deadline + timedelta(seconds=GRACE)
        send(CLOCK_CHECK, (pk, actions), eta=due)  # the duplicate
        send(CLOCK_CHECK, (pk, actions), eta=due - timedelta(seconds=0.05))  # just early
        send(CLOCK_CHECK, (pk, actions))  # at once: must do nothing

    def sweeps() -> None:
        while not stop.wait(0.25):
            send(CLOCK_SWEEP)

    thread = threading.Thread(target=sweeps, daemon=True)
    thread.start()
    try:
        b.timeout_scenario(res, on_new=on_new)
    finally:
        stop.set()
        thread.join()
    res.notes.append(f"extra tasks sent: {dict(sent)}")


def run_racing(b: Bench, res: Result) -> None:
    import engine
    from engine.playout import random_step
    from games.models import Table

    port = b.stack.web_port
    turns = 4
    records: list[dict[str, Any]] = []
    lock = threading.Lock()

    def client(info: TableInfo, deadline: float, position: dict[str, Any], seed: int) -> None:
        rng = random.Random(seed)
        state = engine.load(position)
        for _ in range(turns):
            offset = rng.uniform(-0.3, GRACE + 0.3)
            time.sleep(max(0.0, deadline + offset - time.time()))
            after, text = random_step(state, rng, reorient_rate=0)
            sent = time.time()
            status, data = http_move(port, info.id, info.tokens[state.to_move], state.ply, text)
            got = time.time()
            with lock:
                records.append(
                    {"table": info.id, "deadline": deadline, "sent": sent, "got": got, "status": status,
                     "code": data.get("code", "")}
                )  # fmt: skip
            if status != 201:
                return
            state = after
            if state.is_over:
                return
            deadline = parse_time(data["table"]["deadline"]) or 0

    def fault(t0: float, tables: list[TableInfo]) -> None:
        rows = dict(
            (pk, (d, p))
            for pk, d, p in Table.objects.filter(pk__in=[t.id for t in tables if t.kind == "2p"]).values_list(
                "pk", "deadline", "position"
            )
        )
        threads = [
            threading.Thread(target=client, args=(t, epoch(rows[t.id][0]), rows[t.id][1], i), daemon=True)
            for i, t in enumerate(tables)
            if t.kind == "2p"
        ]
        for th in threads:
            th.start()
        for th in threads:
            th.join(timeout=120)

    # 2-player tables only (each client knows the deadline of every turn it races); the first
    # turn lasts --lead and more (the clients start once every table is made), and a 1.5 s
    # increment leaves a mover who moved inside the grace a next turn.
    b.timeout_scenario(
        res, fault, multi=False, increment=1.5, base_of=lambda i, seats: b.args.lead + (i % 5) * 0.5
    )  # fmt: skip
    res.http.update(r["status"] for r in records)
    late_ok = [r for r in records if r["status"] == 201 and r["sent"] > r["deadline"] + GRACE]
    refused_in_time = [r for r in records if r["status"] != 201 and r["got"] < r["deadline"] + GRACE]
    inside = [r for r in records if r["deadline"] < r["sent"] and r["got"] < r["deadline"] + GRACE]
    res.notes.append(
        f"{len(records)} racing moves: {dict(Counter((r['status'], r['code']) for r in records))}; "
        f"{len(inside)} made inside the grace (all must be 201: "
        f"{sum(r['status'] == 201 for r in inside)} were)"
    )
    res.notes.append(
        f"accepted though sent after deadline+grace: {len(late_ok)}; "
        f"refused though answered before deadline+grace: {len(refused_in_time)}"
    )
    for r in (late_ok + refused_in_time)[:5]:
        res.notes.append(f"  {r}")


def run_redis_restart(b: Bench, res: Result) -> None:
    stack = b.stack

    def fault(t0: float, tables: list[TableInfo]) -> None:
        time.sleep(max(0.0, t0 + b.args.lead + b.args.spread * 0.3 - time.time()))
        held = wait_held(b)
        pids = {n: stack.procs[n].pid for n in ("worker-clocks", "worker-bots", "beat", "web")}
        killed = time.time()
        stack.kill("redis", signal.SIGKILL)
        time.sleep(b.args.down)
        stack.start_redis()
        back = time.time()
        res.notes.append(
            f"redis SIGKILLed at t0+{killed - t0:.1f}s holding {held} unacked ETA checks, "
            f"back (empty) {back - killed:.1f}s later"
        )
        answered = None
        end = time.time() + 30
        while time.time() < end:
            if stack.ping("worker-clocks", 0.5):
                answered = time.time() - back
                break
        res.window = (killed, back + (answered or 0))
        survived = {n: stack.alive(n) and stack.procs[n].pid == pid for n, pid in pids.items()}
        res.worker_alive = (
            "yes" if survived["worker-clocks"] and answered is not None
            else ("alive, deaf" if survived["worker-clocks"] else "no")
        )  # fmt: skip
        res.notes.append(
            f"after the restart: processes alive {survived}; clock worker answered a ping "
            + (f"{answered:.1f}s after Redis came back" if answered is not None else "never (30 s)")
        )
        res.notes.append(f"beat alive afterwards: {stack.alive('beat')}")

    b.timeout_scenario(res, fault)
    try:
        r = stack.redis()
        undeliverable = r.llen("ae.undeliver")
        bindings = sorted(k.decode() for k in r.keys("_kombu.binding.*"))
        res.notes.append(f"after: ae.undeliver holds {undeliverable} messages; kombu bindings {bindings}")
    except Exception as exc:
        res.notes.append(f"could not read Redis afterwards: {exc}")


def run_redis_down_writes(b: Bench, res: Result) -> None:
    import engine
    from engine.playout import random_step
    from games.models import Table

    stack, port = b.stack, b.stack.web_port
    records: list[tuple[float, float, Any, str]] = []
    lock = threading.Lock()
    timeline: dict[str, float] = {}
    kill_at, down = 3.0, 5.0

    def client(info: TableInfo, stop_at: float, seed: int) -> None:
        from django.db import connection

        rng = random.Random(seed)
        try:
            position = Table.objects.values_list("position", flat=True).get(pk=info.id)
            state = engine.load(position)
            while time.time() < stop_at and not state.is_over:
                after, text = random_step(state, rng, reorient_rate=0)
                sent = time.time()
                status, data = http_move(port, info.id, info.tokens[state.to_move], state.ply, text)
                with lock:
                    records.append((sent, time.time(), status, data.get("code", "")))
                if status in (200, 201):
                    state = after
                elif status == 409 and data.get("code") == "flagged":
                    return
                else:  # resynchronise from the database
                    row = Table.objects.values_list("position", "status").get(pk=info.id)
                    if row[1] != Table.Status.ACTIVE:
                        return
                    state = engine.load(row[0])
                time.sleep(rng.uniform(0.2, 0.5))
        finally:
            connection.close()

    def fault(t0: float, tables: list[TableInfo]) -> None:
        movers = [t for t in tables if t.kind == "2p"][::2]
        threads = [
            threading.Thread(
                target=client, args=(t, t0 + b.rng.uniform(kill_at - 1, kill_at + down + 10), i), daemon=True
            )
            for i, t in enumerate(movers)
        ]
        for th in threads:
            th.start()
        time.sleep(max(0.0, t0 + kill_at - time.time()))
        res.notes.append(f"{b.stack.held_eta()} unacked ETA checks held when Redis was killed")
        timeline["down"] = time.time()
        stack.kill("redis", signal.SIGKILL)
        time.sleep(down)
        timeline["restart"] = time.time()
        stack.start_redis()
        timeline["up"] = time.time()
        res.window = (timeline["down"], timeline["up"])
        for th in threads:
            th.join(timeout=60)

    # Idle tables fall due during the outage (their ETA checks were queued before it); the
    # movers' clients stop at random moments around it, so their last turn's check is sent while
    # Redis is down (or skipped: the sender backs off) and only the sweep can apply it.
    b.timeout_scenario(
        res, fault, multi=False, corr=1, increment=0.0,
        base_of=lambda i, seats: (kill_at + 0.5 + (i % 8) * down / 8) if i % 2 else 12.0 + (i % 3),
    )  # fmt: skip
    down_at, up_at = timeline.get("down", 0), timeline.get("up", 0)
    during = [r for r in records if down_at <= r[0] <= up_at]
    res.http.update(r[2] for r in records)
    # Probes begun while Redis was surely down (a probe's time is when it began).
    ready, live = b.prober.between(down_at + 0.2, timeline.get("restart", up_at))
    ready_after, live_after = b.prober.between(up_at + 6, time.time())
    slow = max((r[1] - r[0] for r in during), default=0)
    res.notes.append(
        f"moves: {len(records)} in all {dict(Counter((r[2], r[3]) for r in records))}; "
        f"{len(during)} sent during the outage {dict(Counter(r[2] for r in during))}, slowest {slow:.2f}s"
    )
    res.notes.append(
        f"during the outage: readiness {dict(ready)}, liveness {dict(live)}; "
        f"from 6 s after Redis returned: readiness {dict(ready_after)}, liveness {dict(live_after)}"
    )


def run_bot_worker_killed(b: Bench, res: Result) -> None:
    from django.db.models import F
    from django.utils import timezone

    import engine
    from engine.playout import random_step
    from games import services
    from games.models import Move, Table

    stack, port, args = b.stack, b.stack.web_port, b.args
    n = args.bot_tables
    people = b.players(n)
    marks = log_marks(stack.logdir)
    tables: list[TableInfo] = []
    lock = threading.Lock()
    stop = threading.Event()
    codes: Counter[Any] = Counter()

    def open_one(p: Any, tok: str) -> TableInfo:
        t = services.table_create(creator=p, game="pacru", players=2, bot="search", rated=False)
        info = TableInfo(t.pk, 2, "bot", {1: p}, {1: tok})
        with lock:
            tables.append(info)
        return info

    def human(p: Any, tok: str, seed: int) -> None:
        """Plays seat 1 at once whenever it is on turn; opens a new table when one finishes,
        so the bots keep thinking through the whole scenario."""
        from django.db import connection

        rng = random.Random(seed)
        try:
            info = open_one(p, tok)
            while not stop.is_set():
                row = Table.objects.filter(pk=info.id).values_list("status", "to_move", "position").first()
                if row is None or row[0] != Table.Status.ACTIVE:
                    info = open_one(p, tok)
                    continue
                if row[1] == 1:
                    state = engine.load(row[2])
                    _, text = random_step(state, rng, reorient_rate=0)
                    status, _ = http_move(port, info.id, info.tokens[1], state.ply, text)
                    with lock:
                        codes[status] += 1
                stop.wait(0.2)
        finally:
            connection.close()

    threads = [
        threading.Thread(target=human, args=(p, tok, i), daemon=True) for i, (p, tok) in enumerate(people)
    ]
    t0 = time.time()
    for th in threads:
        th.start()
    thinking = 0
    try:
        time.sleep(6)
        end = time.time() + 10
        while time.time() < end:  # kill while bots are thinking (holding their lease)
            with lock:
                ids = [t.id for t in tables]
            thinking = Table.objects.filter(
                pk__in=ids, status=Table.Status.ACTIVE, to_move=2, bot_lease_actions=F("actions"),
                bot_lease_until__gt=timezone.now(),
            ).count()  # fmt: skip
            if thinking >= min(2, n):
                break
            time.sleep(0.05)
        killed = time.time()
        stack.kill("worker-bots", signal.SIGKILL)
        time.sleep(args.down)
        try:
            queued = stack.redis().llen("bots")
        except Exception:
            queued = -1
        stack.start_worker("bots")
        up = stack.wait_worker("worker-bots")
        res.window = (killed, time.time())
        res.notes.append(
            f"{n} humans each playing a search bot (budget 1 s), a new table when one ends; SIGKILL bot "
            f"worker at t0+{killed - t0:.1f}s with {thinking} bots thinking; new worker after "
            f"{args.down:g}s ({queued} messages waiting in 'bots' then), answering {up:.1f}s later"
        )
        time.sleep(max(0.0, killed + args.stranded + 5 - time.time()))
    finally:
        stop.set()
        for th in threads:
            th.join(timeout=30)

    ids = [t.id for t in tables]
    now = timezone.now()
    cutoff = now - timedelta(seconds=args.stranded)
    stranded = sum(
        1
        for to_move, seats, started in Table.objects.filter(
            pk__in=ids, status=Table.Status.ACTIVE
        ).values_list("to_move", "bot_seats", "turn_started_at")
        if to_move in (seats or []) and started is not None and started <= cutoff
    )
    moves = list(
        Move.objects.filter(table_id__in=ids, kind=Move.Kind.MOVE).order_by("table_id", "seq").values()
    )
    pairs = Counter((m["table_id"], m["ply"]) for m in moves)
    replies = [
        (prev["played_at"].timestamp(), (m["played_at"] - prev["played_at"]).total_seconds())
        for prev, m in itertools.pairwise(moves)
        if m["table_id"] == prev["table_id"] and m["seat"] == 2
    ]
    waits = [w for _, w in replies]
    across = [w for at, w in replies if at < killed and at + w > killed]
    res.bot_stranded = str(stranded)
    res.bot_doubled = str(sum(c - 1 for c in pairs.values() if c > 1))
    res.http.update(codes)
    res.notes.append(
        f"{len(ids)} tables, bot moves {sum(m['seat'] == 2 for m in moves)}, human moves "
        f"{sum(m['seat'] == 1 for m in moves)}; bot reply time p50 {pct(waits or [0], 50):.2f}s "
        f"max {max(waits, default=0):.2f}s; "
        f"{len(across)} bot turns spanned the kill, answered after max {max(across, default=0):.2f}s"
    )
    # The bot sweep's re-sends (clock worker's log): of turns lost with the killed worker, or of
    # turns that were only waiting in the queue behind other bots' searches (no lease yet).
    import re

    started = {(m["table_id"], m["seq"] + 1): m["played_at"].timestamp() for m in moves}
    resends: Counter[tuple[int, int]] = Counter()
    for path in stack.logdir.glob("worker-clocks-*.log"):
        with open(path, "rb") as fh:
            fh.seek(marks.get(path, 0))
            text = fh.read().decode("utf-8", "replace")
        for tid, action in re.findall(r"bot turn at table (\d+) \(action (\d+)\) has waited", text):
            resends[(int(tid), int(action))] += 1
    lost = {k for k in resends if started.get(k, 0) < killed}
    res.notes.append(
        f"bot sweep re-sent {sum(resends.values())} times {len(resends)} turns: {len(lost)} begun before the "
        f"kill ({sum(resends[k] for k in lost)} sends), {len(resends) - len(lost)} begun after it "
        f"({sum(v for k, v in resends.items() if k not in lost)} sends; a turn merely queued behind "
        f"other searches, no lease yet); max sends of one turn {max(resends.values(), default=0)}"
    )
    # The humans resign: every table finishes, then is verified.
    for t in Table.objects.filter(pk__in=ids, status=Table.Status.ACTIVE):
        info = next(i for i in tables if i.id == t.pk)
        try:
            services.game_resign(table_id=t.pk, player=info.seats[1])
        except Exception as exc:
            res.notes.append(f"resign table {t.pk}: {type(exc).__name__}: {exc}")
    b.measure(res, tables, {})
    res.timeouts = 0


class EventSources(threading.Thread):
    """``n`` browser EventSources on ``/live/tables/<id>/`` (spread evenly over ``tables``), in an
    asyncio loop of their own (raw HTTP/1.1). Each does what a browser's EventSource does: reads
    the server-sent events, and when its connection ends or cannot be made, waits the ``retry:``
    time the server last gave (3 s before it gave one, the browsers' default) and connects again
    with ``Last-Event-ID``, the id of the last event it saw. A non-200 answer is counted (a browser
    would stop there) and retried, so it shows in the figures."""

    def __init__(self, port: int, tables: list[int], n: int) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.table = [tables[i % len(tables)] for i in range(n)]
        #: Per watcher: the last event id seen, the times its connections opened (200) and ended.
        self.last: list[str | None] = [None] * n
        self.opened: list[list[float]] = [[] for _ in range(n)]
        self.ended: list[list[float]] = [[] for _ in range(n)]
        #: Per watcher: (time, id) of every event received.
        self.events: list[list[tuple[float, str]]] = [[] for _ in range(n)]
        self.failed: Counter[str] = Counter()
        self.loop = asyncio.new_event_loop()
        self.stopping = False

    def run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.tasks = [self.loop.create_task(self._one(i)) for i in range(len(self.table))]
        self.loop.run_until_complete(asyncio.gather(*self.tasks, return_exceptions=True))
        self.loop.close()

    def stop(self) -> None:
        def cancel() -> None:
            self.stopping = True
            for task in self.tasks:
                task.cancel()

        self.loop.call_soon_threadsafe(cancel)
        self.join(30)

    async def _one(self, i: int) -> None:
        retry = 3.0
        await asyncio.sleep(i * 0.002)  # the first connections spread over a moment, as page loads
        while not self.stopping:
            writer = None
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", self.port, limit=1 << 22)
                head = (
                    f"GET /live/tables/{self.table[i]}/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    "Accept: text/event-stream\r\n"
                )
                if self.last[i] is not None:
                    head += f"Last-Event-ID: {self.last[i]}\r\n"
                writer.write((head + "\r\n").encode())
                answer = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 60)
                if not answer.startswith(b"HTTP/1.1 200"):
                    self.failed[answer.split(b"\r\n", 1)[0].decode(errors="replace")] += 1
                    await asyncio.sleep(retry)
                    continue
                self.opened[i].append(time.time())
                try:
                    # The body is chunked: the chunk-size lines are no SSE field and are skipped.
                    while line := await reader.readline():
                        if line.startswith(b"id: "):
                            event_id = line[4:].strip().decode()
                            self.last[i] = event_id
                            self.events[i].append((time.time(), event_id))
                        elif line.startswith(b"retry: "):
                            retry = int(line[7:].strip()) / 1000
                finally:
                    self.ended[i].append(time.time())
            except asyncio.CancelledError:
                raise
            except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError) as exc:
                self.failed[type(exc).__name__] += 1
            finally:
                if writer is not None:
                    writer.close()
            if not self.stopping:
                await asyncio.sleep(retry)


def _ply(event_id: str) -> int:
    return int(event_id.split("-")[3])  # t<id>-<status>-<actions>-<ply>-… (games.selectors.table_version)


def run_live_killed(b: Bench, res: Result) -> None:
    from django.db import connection

    from games import selectors, services
    from games.models import Table

    stack, args = b.stack, b.args
    if not stack.alive("live"):
        stack.start_live()
    n_tables = min(args.live_tables, args.watchers)
    people = b.players(2 * n_tables)
    # Long clocks: nothing times out meanwhile; the tables' only changes are the movers' moves.
    tc = {"kind": "fischer", "base": 900, "increment": 0}
    infos = [b.open_table(people[2 * i : 2 * i + 2], GAMES[i % 3], tc, "2p", 900) for i in range(n_tables)]
    ids = [t.id for t in infos]
    watchers = EventSources(stack.live_port, ids, args.watchers)
    watchers.start()
    t = time.time()
    while time.time() - t < 120 and not all(watchers.last):
        time.sleep(0.2)
    res.notes.append(
        f"{sum(1 for x in watchers.last if x)}/{args.watchers} watchers on {n_tables} tables had the "
        f"first state after {time.time() - t:.1f}s"
    )
    moves: list[tuple[float, int, int, Any]] = []  # (got the answer, table, ply after, status)
    stop = threading.Event()

    def mover() -> None:
        """Moves through the web (gunicorn), ``--moves-per-second`` in all, round the tables."""
        rng = random.Random(args.seed)
        start, k = time.time(), 0
        try:
            while not stop.is_set():
                info = infos[k % len(infos)]
                k += 1
                table = Table.objects.get(pk=info.id)
                if table.status == Table.Status.ACTIVE:
                    state = services.current_state(table)
                    from engine.playout import random_step

                    _, text = random_step(state, rng, reorient_rate=0)
                    status, data = http_move(
                        stack.web_port, info.id, info.tokens[state.to_move], table.ply, text
                    )
                    ply = data.get("table", {}).get("ply", -1) if isinstance(data, dict) else -1
                    moves.append((time.time(), info.id, ply, status))
                stop.wait(max(0.0, start + k / args.moves_per_second - time.time()))
        finally:
            connection.close()

    thread = threading.Thread(target=mover, daemon=True)
    thread.start()
    time.sleep(3)
    t_kill = time.time()
    stack.kill("live", signal.SIGKILL)
    time.sleep(args.down)
    t_start = time.time()
    stack.start_live()
    t_up = time.time()
    res.window = (t_kill, t_up)
    time.sleep(3)
    stop.set()
    thread.join(30)
    t_last = max((at for at, *_ in moves), default=time.time())
    finals = {tid: (selectors.table_version(tid) or ("?",))[0] for tid in ids}
    end = time.time() + args.settle
    while time.time() < end and any(watchers.last[i] != finals[tid] for i, tid in enumerate(watchers.table)):
        time.sleep(0.2)
    settled = time.time()
    watchers.stop()

    n = args.watchers
    back = [next((o for o in watchers.opened[i] if o > t_kill), None) for i in range(n)]
    after_kill = [o - t_kill for o in back if o is not None]
    after_start = [o - t_start for o in back if o is not None]
    lost = [i for i, tid in enumerate(watchers.table) if watchers.last[i] != finals[tid]]
    # Moves the outage hid: per table, the last ply played while the live service was down.
    hidden: dict[int, int] = {}
    for at, tid, ply, status in moves:
        if status == 201 and t_kill <= at <= t_up:
            hidden[tid] = max(hidden.get(tid, 0), ply)
    due = [i for i, tid in enumerate(watchers.table) if tid in hidden]
    delivered = 0
    for i in due:
        first = next((eid for at, eid in watchers.events[i] if back[i] and at >= back[i]), None)
        delivered += first is not None and _ply(first) >= hidden[watchers.table[i]]
    dup = sum(1 for evs in watchers.events for (_, a), (_, b2) in itertools.pairwise(evs) if a == b2)
    res.tables = n_tables
    res.http.update(Counter(s for _, _, _, s in moves))
    res.notes.append(
        f"live service SIGKILLed with {n} watchers connected, down {t_start - t_kill:.1f}s, answering again "
        f"{t_up - t_start:.1f}s after its start; {len(moves)} moves through gunicorn meanwhile "
        f"({sum(1 for at, *_ in moves if t_kill <= at <= t_up)} while it was down)"
    )
    if after_kill:
        res.notes.append(
            f"reconnected {len(after_kill)}/{n}; reconnect time after the kill "
            f"p50 {pct(after_kill, 50):.2f}s p99 {pct(after_kill, 99):.2f}s max {max(after_kill):.2f}s; "
            "after the restart began (the service's start-up included) "
            f"p50 {pct(after_start, 50):.2f}s p99 {pct(after_start, 99):.2f}s max {max(after_start):.2f}s"
        )
    else:
        res.notes.append(f"reconnected 0/{n}")
    res.notes.append(
        f"events lost: {len(lost)} (watchers not on their table's final version; the others all were "
        f"{settled - t_last:.1f}s after the last move); moves made during the outage delivered after the "
        f"reconnect as the current state: {delivered}/{len(due)} watchers of the {len(hidden)} tables "
        f"moved meanwhile; the same event sent twice in a row: {dup}; failed connects/answers "
        f"(while down): {dict(watchers.failed)}"
    )
    if lost:
        res.error = f"{len(lost)} watchers did not end on their table's final version"
    for info in infos:  # the tables end, so no clock check of theirs outlives the run
        with contextlib.suppress(Exception):
            services.game_resign(table_id=info.id, player=info.seats[1])


RUNNERS: dict[str, Callable[[Bench, Result], None]] = {
    "baseline": run_baseline,
    "worker-killed": run_worker_killed,
    "beat-stopped": run_beat_stopped,
    "duplicate-delivery": run_duplicate_delivery,
    "moves-racing-timeouts": run_racing,
    "redis-restart": run_redis_restart,
    "redis-down-writes": run_redis_down_writes,
    "bot-worker-killed": run_bot_worker_killed,
    "live-killed": run_live_killed,
}


# ----------------------------------------------------------------------------- report
def report(results: list[Result], argv: list[str], wall: float, logdir: Path) -> None:
    head = (
        f"{'fault':<22} {'tables':>6} {'tmo':>4} {'doubled':>7} {'missed':>6} {'early':>5} "
        f"{'lag p50':>7} {'p99':>6} {'max':>6} {'verify':>7} {'5xx':>4} {'worker':>6} "
        f"{'bot strand':>10} {'bot dbl':>7} {'ready 200/503':>13} {'secs':>5}"
    )
    print()
    print(head)
    print("-" * len(head))
    for r in results:
        five = sum(v for k, v in r.http.items() if isinstance(k, int) and k >= 500)
        five_s = str(five) if r.http else "-"
        lag = (
            f"{pct(r.lags, 50):7.2f} {pct(r.lags, 99):6.2f} {max(r.lags):6.2f}"
            if r.lags
            else f"{'-':>7} {'-':>6} {'-':>6}"
        )
        verify = f"{r.verify_fail}/{r.verified}"
        ready = f"{r.ready.get(200, 0)}/{r.ready.get(503, 0)}"
        print(
            f"{r.fault:<22} {r.tables:>6} {r.timeouts:>4} {r.doubled:>7} {r.missed:>6} {r.early:>5} "
            f"{lag} {verify:>7} {five_s:>4} {r.worker_alive:>6} {r.bot_stranded:>10} {r.bot_doubled:>7} "
            f"{ready:>13} {r.seconds:>5.0f}"
        )
    print()
    print(
        "tables: timed tables made for the fault (correspondence ones included; bots: human-vs-bot tables); "
        "tmo: timeouts applied;\n"
        "lag: timeout applied (Move.played_at) minus (deadline + grace), seconds; verify: failed/finished; "
        "ready: readiness probes (1/s) answered 200/503"
    )
    for r in results:
        extra = [f"error: {r.error}"] if r.error else []
        codes = [f"HTTP statuses: {dict(sorted(r.http.items(), key=str))}"] if r.http else []
        for line in extra + codes + r.notes:
            print(f"  {r.fault}: {line}")
    print()
    print(f"command: {' '.join(shlex.quote(a) for a in argv)}")
    print(f"wall time: {wall:.0f} s; process logs in {logdir}")


#: What the scan of the process logs counts, per scenario: (label, text in the line).
LOG_PATTERNS = (
    ("sends skipped/failed", "the sweeps will cover it"),
    ("bot turns re-sent by the sweep", "has waited: sending it again"),
    ("broker lost", "Connection to broker lost"),
    ("beat could not send", "Couldn't apply scheduled task"),
    ("cache fell back to memory", "cache: Redis does not answer"),
    ("restored unacked", "unacknowledged message"),
    ("errors", '"level": "ERROR"'),
    ("criticals", '"level": "CRITICAL"'),
    ("tracebacks (plain)", "Traceback (most recent call last)"),
)


def log_marks(logdir: Path) -> dict[Path, int]:
    return {p: p.stat().st_size for p in logdir.glob("*.log")}


def applied_by(logdir: Path, marks: dict[Path, int]) -> Counter[str]:
    """Which path applied each timeout since ``marks``: the service's "timeout applied" lines
    (INFO, JSON) carry the task that ran them, or the request."""
    out: Counter[str] = Counter()
    for path in sorted(logdir.glob("*.log")):
        with open(path, "rb") as fh:
            fh.seek(marks.get(path, 0))
            text = fh.read().decode("utf-8", "replace")
        for line in text.splitlines():
            if '"games.services.timeouts"' not in line or " applied, " not in line:
                continue
            try:
                rec = json.loads(line)
            except ValueError:
                continue
            what = rec["message"].split(" applied", 1)[0]
            by = rec.get("task", "").rsplit(".", 1)[-1] or ("request" if rec.get("request_id") else "other")
            out[by if what == "timeout" else f"{what} by {by}"] += 1
    return out


def log_scan(logdir: Path, marks: dict[Path, int]) -> dict[str, dict[str, int]]:
    """Lines written since ``marks`` matching LOG_PATTERNS, by process kind."""
    out: dict[str, dict[str, int]] = {}
    for path in sorted(logdir.glob("*.log")):
        with open(path, "rb") as fh:
            fh.seek(marks.get(path, 0))
            text = fh.read().decode("utf-8", "replace")
        proc = path.stem.rsplit("-", 1)[0]
        for line in text.splitlines():
            for label, needle in LOG_PATTERNS:
                if needle in line and not (label.startswith("tracebacks") and line.startswith("{")):
                    out.setdefault(proc, {}).setdefault(label, 0)
                    out[proc][label] += 1
    return out


# ----------------------------------------------------------------------------- main
def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--database",
        default=os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres"),
        help="admin URL of the PostgreSQL server (the bench makes pacru_faultbench on it)",
    )
    parser.add_argument(
        "--faults", default=",".join(FAULTS), help=f"comma-separated, from: {', '.join(FAULTS)}"
    )
    parser.add_argument("--tables", type=int, default=24, help="timed tables per fault")
    parser.add_argument("--spread", type=float, default=12, help="seconds over which 2-player deadlines fall")
    parser.add_argument(
        "--lead", type=float, default=5, help="seconds from a table's first move to its deadline"
    )
    parser.add_argument(
        "--settle", type=float, default=20, help="seconds waited past the last expected timeout"
    )
    parser.add_argument("--down", type=float, default=3, help="seconds a killed worker or Redis stays down")
    parser.add_argument("--bot-tables", type=int, default=6, help="human-vs-bot tables (bot-worker-killed)")
    parser.add_argument("--stranded", type=float, default=30, help="a bot on turn this long is stranded")
    parser.add_argument("--watchers", type=int, default=1000, help="stream watchers (live-killed)")
    parser.add_argument("--live-tables", type=int, default=20, help="tables they watch (live-killed)")
    parser.add_argument(
        "--moves-per-second", type=float, default=4, help="moves through the API, in all (live-killed)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--throttled",
        action="store_true",
        help="gunicorn with the API throttles on (very high limits) instead of THROTTLE_OFF=1: "
        "their counters use the Redis cache, so the Redis faults exercise its fallback",
    )
    args = parser.parse_args()
    faults = [f.strip() for f in args.faults.split(",") if f.strip()]
    unknown = set(faults) - set(FAULTS)
    if unknown:
        parser.error(f"unknown faults: {', '.join(sorted(unknown))}")

    started = time.time()
    from bench.load_moves import setup_database

    db_url = setup_database(args.database, "pacru_faultbench")
    logdir = Path(tempfile.mkdtemp(prefix="faultbench-"))
    stack = Stack(db_url, logdir, throttled=args.throttled)
    os.environ.update(stack.env)
    os.environ["LOG_LEVEL"] = "ERROR"  # this process: the services' warnings are counted, not printed
    for name in ("CLOCK_QUEUE", "BOT_QUEUE"):
        os.environ.pop(name, None)

    def terminate(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt  # the same way out as Ctrl-C: stop everything, print what there is

    signal.signal(signal.SIGTERM, terminate)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    results: list[Result] = []
    try:
        stack.start_redis()
        subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=stack.env, check=True)
        import django

        django.setup()
        from games.housebots import bot_accounts

        bot_accounts()

        class CountSends(logging.Handler):
            def emit(self, record: logging.LogRecord) -> None:
                bench.send_failures += 1

        stack.start_web()
        stack.ensure()
        print(
            f"redis :{stack.redis_port}, gunicorn :{stack.web_port}, database {db_url}, logs {logdir}",
            flush=True,
        )
        bench = Bench(args, stack)
        logging.getLogger("common.tasks").addHandler(CountSends(level=logging.WARNING))
        logging.getLogger("common.tasks").setLevel(logging.WARNING)
        for fault in faults:
            res = Result(fault)
            results.append(res)
            fixed = stack.ensure()
            if fixed and results[:-1]:
                res.notes.append(f"restarted before the scenario: {fixed}")
            before = bench.send_failures
            marks = log_marks(logdir)
            t = time.time()
            print(f"[{time.strftime('%H:%M:%S')}] {fault} …", flush=True)
            try:
                RUNNERS[fault](bench, res)
            except KeyboardInterrupt:
                res.error = "interrupted (Ctrl-C): figures incomplete"
                res.seconds = time.time() - t
                break
            except Exception as exc:
                import traceback

                traceback.print_exc()
                res.error = f"{type(exc).__name__}: {exc}"
            res.seconds = time.time() - t
            by = applied_by(logdir, marks)
            if by:
                res.notes.append(
                    f"timeouts applied by (service log lines): {dict(by.most_common())}; "
                    f"in the database: {res.timeouts}"
                )
            seen = log_scan(logdir, marks)
            if seen:
                res.notes.append(f"process log lines: {seen}")
            if bench.send_failures > before:
                res.notes.append(f"this process failed/skipped {bench.send_failures - before} task sends")
    finally:
        # Every process this run started, by its process group; never anything else.
        stack.stop_all()
    python = sys.executable
    if python.startswith(str(ROOT)):
        python = os.path.relpath(python, Path.cwd())
    report(results, [python, *sys.argv], time.time() - started, logdir)


if __name__ == "__main__":
    main()
