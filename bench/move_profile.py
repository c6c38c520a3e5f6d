"""Where an adjudicated move's time goes, in-process (not a test; prints figures).

It makes a PostgreSQL database of its own (``pacru_profile`` on the server of ``--database``),
creates token-authenticated players and started 2-player tables (as ``bench/load_moves.py``
does), then plays moves through Django's WSGI handler with the whole middleware stack and an
``Authorization: Token …`` header, exactly as an API client's request arrives from gunicorn
(no socket: the figures are the service's own). It prints:

* the SQL of one typical move (``CaptureQueriesContext``), each statement with where it comes
  from (middleware, authentication, the service, an after-commit receiver), for the tables of
  ``--clock`` and, for comparison, one table of each other kind of clock;
* the mean milliseconds per move in-process (and per bare read, ``GET /api/v1/health/``, the
  baseline of ``bench/load_moves.py --baseline``), with the time spent in SQL;
* a cProfile of ``--moves`` moves on this thread's CPU clock (``--timer wall``: the wall clock):
  the top functions by cumulative and by own time, and the CPU in buckets (middleware, DRF
  authentication and parsing, the locked read, the engine's load/play/to_dict, the writes, the
  commit, after-commit receivers, logging, metrics, rendering …): a function matching a rule of
  ``RULES`` is in its bucket, any other shares its callers' (gprof-style, along cProfile's
  caller edges), so SQL run by the authentication counts as authentication;
* the same buckets in wall time from a stack sampler (a sample a millisecond), with the part
  spent waiting for PostgreSQL;
* what each piece costs at most: the same moves with it switched off by patching this process
  (the language query of ``accounts.middleware``, the browser-only middleware, after-commit
  events, metrics), in alternating rounds (``--no-cuts`` skips it);
* ``GET /api/v1/tables/?player=<id>`` for a player whose ``--old-games`` games are all older than
  ``--list-tables`` newer tables (made with ``bulk_create``): its SQL, its time and PostgreSQL's
  ``EXPLAIN (ANALYZE, BUFFERS)`` of its statements; the view (a page's ids off the player's seats)
  against the plain join it replaced, with the list's other filters and on a second page, the
  answers compared; and two hand-written forms with their plans.

Run as ``load_moves`` runs its server: ``THROTTLE_OFF=1``, ``DEBUG=0``, ``LOG_LEVEL=WARNING``, no
Redis (locmem cache, no push, tasks eager). ``--redis URL`` runs as production does instead
(token revocations heard on Redis, waited for before the moves are measured; throttles in Redis;
push handed to the publishing thread after each move), and ``--throttle`` keeps DRF's throttles.

    .venv/bin/python bench/move_profile.py                                # 60 tables, 500 moves
    .venv/bin/python bench/move_profile.py --redis redis://127.0.0.1:6379/15 --throttle
    .venv/bin/python bench/move_profile.py --tables 2 --moves 20 --list-tables 100 --old-games 10  # tiny
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import random
import statistics
import sys
import threading
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.load_moves import setup_database  # noqa: E402

CLOCKS: dict[str, dict[str, Any] | None] = {
    "untimed": None,  # what load_moves plays
    "fischer": {"kind": "fischer", "base": 600, "increment": 5},
    "correspondence": {"kind": "correspondence", "days": 3},
}


# ----------------------------------------------------------------------------- set-up
def prepare(db_url: str, tables: int, game: str, clock: str, extra_clocks: list[str]) -> list[dict[str, Any]]:
    """Migrate; players with tokens; ``tables`` started tables of ``clock`` and one of each of
    ``extra_clocks`` (as ``load_moves.prepare``, with a time control)."""
    import subprocess

    env = {**os.environ, "DATABASE_URL": db_url}
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    os.environ["DATABASE_URL"] = db_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from rest_framework.authtoken.models import Token

    from games.models import Player

    kinds = [clock] * tables + extra_clocks
    User = get_user_model()
    password = make_password("bench-password-1")
    users = User.objects.bulk_create(
        User(username=f"bench{i}", password=password) for i in range(2 * len(kinds))
    )
    players = Player.objects.bulk_create(
        Player(user=u, display_name=u.username, email_verified=True) for u in users
    )
    tokens = {
        t.user_id: t.key
        for t in Token.objects.bulk_create(Token(user=u, key=Token.generate_key()) for u in users)
    }
    out = []
    for i, kind in enumerate(kinds):
        a, b = players[2 * i], players[2 * i + 1]
        out.append(new_table(game, kind, (a, b), (tokens[a.user_id], tokens[b.user_id])))
    return out


def new_table(
    game: str, clock: str, players: tuple[Any, Any], tokens: tuple[str, str], rated: bool = True
) -> dict[str, Any]:
    """A started table of these two players (a replacement is unrated: at most 5 rated games a
    day between the same players)."""
    import engine
    from games import services

    table = services.table_create(
        creator=players[0], game=game, players=2, time_control=CLOCKS[clock], rated=rated
    )
    services.seat_join(table_id=table.pk, player=players[1])
    return {
        "id": table.pk,
        "clock": clock,
        "players": players,
        "tokens": tokens,
        "state": engine.new_game(game, 2),
        "game": game,
    }


# ----------------------------------------------------------------------------- requests
class Wsgi:
    """Requests into Django's WSGI handler as gunicorn hands them over (headers as http.client
    sends them), answers read and closed as a server would."""

    def __init__(self) -> None:
        from django.core.wsgi import get_wsgi_application

        self.app = get_wsgi_application()

    def __call__(
        self, method: str, path: str, *, token: str | None = None, body: bytes = b"", query: str = ""
    ) -> tuple[int, bytes]:
        environ: dict[str, Any] = {
            "REQUEST_METHOD": method,
            "SCRIPT_NAME": "",
            "PATH_INFO": path,
            "QUERY_STRING": query,
            "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "8941",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "REMOTE_ADDR": "127.0.0.1",
            "REMOTE_PORT": "40000",
            "HTTP_HOST": "127.0.0.1:8941",
            "HTTP_ACCEPT_ENCODING": "identity",
            "wsgi.version": (1, 0),
            "wsgi.url_scheme": "http",
            "wsgi.input": io.BytesIO(body),
            "wsgi.errors": sys.stderr,
            "wsgi.multithread": True,
            "wsgi.multiprocess": True,
            "wsgi.run_once": False,
        }
        if body:
            environ["CONTENT_TYPE"] = "application/json"
            environ["CONTENT_LENGTH"] = str(len(body))
        if token:
            environ["HTTP_AUTHORIZATION"] = f"Token {token}"
        status: list[str] = []

        def start_response(line: str, headers: list[tuple[str, str]], exc_info: Any = None) -> None:
            status.append(line)

        result = self.app(environ, start_response)
        try:
            data = b"".join(result)
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()
        return int(status[0].split()[0]), data


class Players:
    """The clients: each table's two players, moving in turn with legal moves chosen by the
    engine (as load_moves' clients do); a finished table is replaced by a new one."""

    def __init__(self, tables: list[dict[str, Any]], seed: int = 1):
        self.tables = tables
        self.rng = random.Random(seed)
        self.turn = 0
        self.finished = 0
        self.last: tuple[int, int] = (0, 0)

    def next_move(
        self, clock: str | None = None, table_id: int | None = None
    ) -> tuple[dict[str, Any], str, bytes, Any]:
        from engine.playout import random_step

        pool = [t for t in self.tables if clock is None or t["clock"] == clock]
        if table_id is not None:
            pool = [t for t in pool if t["id"] == table_id] or pool
        table = pool[self.turn % len(pool)]
        self.turn += 1
        state = table["state"]
        self.last = (table["id"], state.ply)
        after, text = random_step(state, self.rng)
        body = json.dumps({"ply": state.ply, "move": text}).encode()
        return table, table["tokens"][state.to_move - 1], body, after

    def done(self, table: dict[str, Any], after: Any) -> None:
        table["state"] = after
        if after.is_over:
            self.finished += 1
            fresh = new_table(table["game"], table["clock"], table["players"], table["tokens"], rated=False)
            table.update(fresh)


def play(
    wsgi: Wsgi, clients: Players, *, clock: str | None = None, around: Any = None, table_id: int | None = None
) -> tuple[float, float]:
    """One move through the handler; return its wall time and this thread's CPU time (the
    request only, not the client's choice of move)."""
    table, token, body, after = clients.next_move(clock, table_id)
    path = f"/api/v1/tables/{table['id']}/moves/"
    if around is not None:
        around.start()
    start, cpu = time.perf_counter(), time.thread_time()
    code, data = wsgi("POST", path, token=token, body=body)
    elapsed, cpu = time.perf_counter() - start, time.thread_time() - cpu
    if around is not None:
        around.stop()
    if code != 201:
        raise SystemExit(f"move refused: {code} {data[:300]!r}")
    clients.done(table, after)
    return elapsed, cpu


# ----------------------------------------------------------------------------- where a query comes from
#: Logged by Django's debug cursor around a transaction, without passing the execute wrappers.
TRANSACTION = {"BEGIN", "COMMIT", "ROLLBACK"}


def _is_project(filename: str) -> bool:
    return filename.startswith(str(ROOT)) and "/.venv/" not in filename and "/bench/" not in filename


def query_origin(stack: list[traceback.FrameSummary]) -> tuple[str, str]:
    """(group, innermost project frame) of a statement run with this stack."""
    names = [(f.filename, f.name) for f in stack]
    project = [f for f in stack if _is_project(f.filename)]
    where = (
        f"{os.path.relpath(project[-1].filename, ROOT)}:{project[-1].lineno} {project[-1].name}"
        if project
        else "?"
    )
    hook = next((i for i, (_, n) in enumerate(names) if n == "run_and_clear_commit_hooks"), None)
    if hook is not None:
        receivers = [f for f in stack[hook:] if _is_project(f.filename)]
        last = receivers[-1] if receivers else None
        module = os.path.relpath(last.filename, ROOT) if last else "?"
        return f"after commit ({module})", where
    # Else the innermost frame that says which part of the request asked for it.
    groups = [
        ("/games/services/", "service (games.services)"),
        ("/common/auth.py", "DRF authentication"),
        ("rest_framework/authentication.py", "DRF authentication"),
        ("rest_framework/throttling.py", "DRF throttle"),
        ("/common/throttles.py", "DRF throttle"),
        ("/games/apis.py", "view (games.apis)"),
        ("/accounts/middleware.py", "middleware (accounts.middleware)"),
        ("django/contrib/sessions/", "middleware (sessions)"),
        ("django/contrib/auth/middleware.py", "middleware (auth)"),
    ]
    for filename, _name in reversed(names):
        for fragment, group in groups:
            if fragment in filename:
                return group, where
    return "other", where


@contextmanager
def origins(where: bool = True) -> Iterator[list[tuple[str, str, float]]]:
    """Each statement's (group, where, seconds), in order, while the block runs (without
    ``where``: only the seconds, cheaply)."""
    from django.db import connection

    seen: list[tuple[str, str, float]] = []

    def wrapper(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
        stack = traceback.extract_stack()[:-1] if where else []
        start = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            group, frame = query_origin(stack) if where else ("", "")
            seen.append((group, frame, time.perf_counter() - start))

    with connection.execute_wrapper(wrapper):
        yield seen


def print_move_queries(wsgi: Wsgi, clients: Players, clock: str) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    # A table past its first moves (ply 0 starts the clocks), its players' tokens used before.
    table = max((t for t in clients.tables if t["clock"] == clock), key=lambda t: t["state"].ply)
    for _ in range(max(0, 3 - table["state"].ply)):
        play(wsgi, clients, table_id=table["id"])
    with origins() as where, CaptureQueriesContext(connection) as captured:
        play(wsgi, clients, table_id=table["id"])
    table_id, ply = clients.last
    statements = [q for q in captured.captured_queries if q["sql"] not in TRANSACTION]
    print(f"\n== SQL of one move: {clock} table {table_id}, answering ply {ply} ==")
    print(f"{len(statements)} statements, + BEGIN and COMMIT:")
    origin = iter(where)
    for i, query in enumerate(captured.captured_queries, 1):
        sql = " ".join(query["sql"].split())
        if sql in TRANSACTION:  # Django logs these itself; they never pass the execute wrapper
            group, frame, seconds = "transaction", "django/db/transaction.py", float(query["time"])
        else:
            group, frame, seconds = next(origin)
        print(f"  {i:>2}. [{group}] {frame}  ({seconds * 1000:.2f} ms)")
        print(f"      {sql[:400]}{' …' if len(sql) > 400 else ''}")
    counts = Counter(group for group, _, _ in where)
    print("  by origin: " + ", ".join(f"{g}: {n}" for g, n in counts.most_common()))
    return len(statements)


# ----------------------------------------------------------------------------- buckets (stack sampler)
#: (path fragment, function name or None) -> bucket. A sample counts in the bucket of the
#: innermost frame on its stack that matches a rule; only when none does, in the bucket of the
#: innermost frame matching a rule of ``GENERIC`` (the ORM, the driver: whoever asked for the SQL
#: is the bucket, not the driver waiting for the answer).
RULES: list[tuple[str, str | None, str]] = [
    ("django/db/__init__.py", "close_old_connections", "DB: close_old_connections (request end)"),
    ("/engine/variants.py", "load", "engine: load"),
    ("/engine/", "play", "engine: play"),
    ("/engine/", "to_dict", "engine: to_dict"),
    ("/games/rows.py", "lock_table_for_player", "service: locked read (SQL)"),
    ("/games/rows.py", "insert_move_and_update", "model saves: insert move + update table (SQL)"),
    ("/games/rows.py", "insert_move", "model saves: insert move (SQL)"),
    ("/games/rows.py", "update_fields", "model saves: update table (SQL)"),
    ("/live/", None, "after commit: live publish"),
    ("/accounts/receivers.py", None, "after commit: notifications"),
    ("/ratings/", None, "after commit: ratings"),
    ("/tournaments/receivers.py", None, "after commit: tournaments"),
    ("/games/dispatch.py", None, "after commit: tasks (clock, bot)"),
    ("/common/tasks.py", None, "after commit: tasks (clock, bot)"),
    ("/games/events.py", "announce", "after commit: signal dispatch"),
    ("django/db/backends/base/base.py", "run_and_clear_commit_hooks", "after commit: other"),
    ("django/db/backends/base/base.py", "commit", "transaction: COMMIT"),
    ("django/db/backends/base/base.py", "set_autocommit", "transaction: begin/end"),
    ("django/db/transaction.py", None, "transaction: begin/end"),
    ("/common/metrics.py", None, "metrics"),
    ("prometheus_client/", None, "metrics"),
    ("/common/logging.py", None, "logging"),
    ("/lib/python3.11/logging/", None, "logging"),
    ("django/utils/translation/", None, "i18n (gettext, activate)"),
    ("/common/auth.py", None, "DRF: authentication (token)"),
    ("rest_framework/authentication.py", None, "DRF: authentication (token)"),
    ("rest_framework/throttling.py", None, "DRF: throttle"),
    ("/common/throttles.py", None, "DRF: throttle"),
    ("rest_framework/permissions.py", None, "DRF: permissions"),
    ("rest_framework/parsers.py", None, "DRF: parsing"),
    ("/common/parsers.py", None, "DRF: parsing"),
    ("rest_framework/request.py", None, "DRF: request (parsing, user)"),
    ("rest_framework/serializers.py", None, "serialisers (MoveIn)"),
    ("rest_framework/fields.py", None, "serialisers (MoveIn)"),
    ("rest_framework/renderers.py", None, "JSON rendering"),
    ("rest_framework/utils/encoders.py", None, "JSON rendering"),
    ("/lib/python3.11/json/", None, "JSON rendering"),
    ("rest_framework/negotiation.py", None, "DRF: content negotiation"),
    ("/games/services/", None, "service: other (timeouts, transitions, clocks)"),
    ("/games/clocks.py", None, "service: other (timeouts, transitions, clocks)"),
    ("/games/apis.py", None, "view (games.apis)"),
    ("/common/errors.py", None, "view (games.apis)"),
    ("rest_framework/", None, "DRF: dispatch (views, response)"),
    ("/accounts/middleware.py", None, "middleware: accounts (language, zone)"),
    ("django/contrib/sessions/", None, "middleware: sessions"),
    ("django/middleware/locale.py", None, "middleware: locale"),
    ("django/middleware/csrf.py", None, "middleware: csrf"),
    ("django/middleware/security.py", None, "middleware: security"),
    ("django/middleware/common.py", None, "middleware: common"),
    ("django/middleware/clickjacking.py", None, "middleware: other (small)"),
    ("django/contrib/auth/middleware.py", None, "middleware: auth (session user)"),
    ("django/contrib/messages/", None, "middleware: messages"),
    ("whitenoise/", None, "middleware: whitenoise"),
    ("/config/middleware.py", None, "middleware: config (request id, CSP, body size)"),
    ("/common/validation.py", None, "middleware: api query guard"),
    ("django/urls/", None, "handler: URL resolving"),
    ("django/core/handlers/", None, "handler: request/response"),
    ("django/http/", None, "handler: request/response"),
]


GENERIC: list[tuple[str, str | None, str]] = [
    ("/engine/", None, "engine: other"),
    ("django/db/models/", None, "ORM (other statements)"),
    ("django/dispatch/", None, "signals (dispatch)"),
    ("django/utils/deprecation.py", None, "middleware: chain"),
    ("django/db/", None, "DB connection (cursors)"),
    ("psycopg", None, "DB connection (cursors)"),
    ("/bench/move_profile.py", None, "bench driver (environ, reading the answer)"),
]


def bucket_of(stack: tuple[Any, ...]) -> str:
    """The bucket of a stack of code objects, innermost first."""
    for rules in (RULES, GENERIC):
        for code in stack:
            filename = code.co_filename
            for fragment, function, bucket in rules:
                if fragment in filename and (function is None or code.co_name == function):
                    return bucket
    return "other"


class Sampler:
    """Samples the main thread's stack every ``interval`` seconds of wall time while started.

    A thread sampler needs the GIL to look, so it sees a CPU-bound stretch somewhat less often
    than a wait for PostgreSQL (the GIL released): read its buckets for latency, and the
    cProfile's (on the CPU clock) for CPU."""

    def __init__(self, interval: float = 0.001):
        self.interval = interval
        self.stacks: Counter[tuple[Any, ...]] = Counter()
        self.samples = 0
        self.active = threading.Event()
        self.quit = False
        self.target = threading.get_ident()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def start(self) -> None:
        self.active.set()

    def stop(self) -> None:
        self.active.clear()

    def run(self) -> None:
        while not self.quit:
            self.active.wait(0.1)
            frame = sys._current_frames().get(self.target)
            if frame is None or not self.active.is_set():
                continue
            stack = []
            while frame is not None:  # only the code objects: classified at the end
                stack.append(frame.f_code)
                frame = frame.f_back
            self.stacks[tuple(stack)] += 1
            self.samples += 1
            time.sleep(self.interval)

    def close(self) -> None:
        self.quit = True
        self.thread.join()


class Profiler:
    """cProfile on this thread's CPU clock (``cpu``: the waits for PostgreSQL left out, as the
    cores see a move) or on the wall clock."""

    def __init__(self, timer: str = "cpu") -> None:
        self.profile = cProfile.Profile(time.thread_time) if timer == "cpu" else cProfile.Profile()

    def start(self) -> None:
        self.profile.enable()

    def stop(self) -> None:
        self.profile.disable()


def _rule(rules: list[tuple[str, str | None, str]], filename: str, name: str) -> str | None:
    for fragment, function, bucket in rules:
        if fragment in filename and (function is None or name == function):
            return bucket
    return None


def profile_buckets(rows: dict[Any, Any]) -> Counter[str]:
    """cProfile's own times in the buckets of ``RULES``, as gprof does it: a function matching a
    rule is in its bucket; any other shares its callers' buckets, in proportion to the time it
    spent under each caller (cProfile keeps that per caller). Where no caller has a bucket, the
    function's ``GENERIC`` bucket, else "other"."""
    ctx: dict[Any, dict[str, float]] = {}
    for func in rows:
        filename, _line, name = func
        own = _rule(RULES, filename, name)
        if own is not None:
            ctx[func] = {own: 1.0}
    free = [f for f in rows if f not in ctx]
    # The callers' buckets, passed down until nothing changes (cycles, recursion: a fixed point).
    for _ in range(60):
        changed = False
        for func in free:
            mix: Counter[str] = Counter()
            weight = 0.0
            for caller, edge in rows[func][4].items():
                w = edge[3] if len(edge) > 3 else 0.0  # cumulative time under this caller
                if caller == func or w <= 0 or caller not in ctx:
                    continue
                for b, share in ctx[caller].items():
                    mix[b] += w * share
                weight += w
            if weight <= 0:
                continue
            out = {b: v / weight for b, v in mix.items()}
            old = ctx.get(func)
            if old is None or any(abs(out.get(k, 0) - old.get(k, 0)) > 1e-6 for k in set(out) | set(old)):
                ctx[func] = out
                changed = True
        if not changed:
            break

    totals: Counter[str] = Counter()
    for func, (_cc, _nc, tt, _ct, _callers) in rows.items():
        filename, _line, name = func
        fallback = _rule(GENERIC, filename, name) or "other"
        for b, share in ctx.get(func, {fallback: 1.0}).items():
            totals[b] += tt * share
    return totals


def short(path: str) -> str:
    for marker in ("/site-packages/", "/lib/python3.11/"):
        if marker in path:
            return path.split(marker, 1)[1]
    return os.path.relpath(path, ROOT) if path.startswith(str(ROOT)) else path


def print_cprofile(profile: cProfile.Profile, moves: int, top: int, timer: str, cpu_ms: float) -> None:
    stream = io.StringIO()
    stats = pstats.Stats(profile, stream=stream)
    total = stats.total_tt  # type: ignore[attr-defined]
    rows = stats.stats  # type: ignore[attr-defined]
    clock = "CPU" if timer == "cpu" else "wall"
    print(
        f"\n== cProfile of {moves} moves ({clock} clock): {total / moves * 1000:.2f} ms a move under "
        f"the profiler, {sum(r[1] for r in rows.values()) / moves:.0f} calls a move =="
    )
    buckets = profile_buckets(rows)
    print(
        f"\n-- buckets (% of the profiled {clock} time; ms scaled to the unprofiled "
        f"{cpu_ms:.2f} ms of CPU a move) --"
    )
    for b, t in buckets.most_common():
        print(f"  {t / total * 100:>5.1f}%  {t / total * cpu_ms:>6.3f} ms  {b}")
    for key, title in (("cum", "cumulative"), ("tt", "own (total) time")):
        index = 3 if key == "cum" else 2
        ordered = sorted(rows.items(), key=lambda kv: kv[1][index], reverse=True)[:top]
        print(f"\n-- top {top} by {title} (ms per move, % of the profiled time) --")
        print(f"{'cum ms':>8} {'cum %':>6} {'own ms':>8} {'own %':>6} {'calls/move':>10}  function")
        for (filename, line, name), (_cc, nc, tt, ct, _callers) in ordered:
            print(
                f"{ct / moves * 1000:>8.3f} {ct / total * 100:>5.1f}% {tt / moves * 1000:>8.3f} "
                f"{tt / total * 100:>5.1f}% {nc / moves:>10.1f}  {short(filename)}:{line} {name}"
            )
    # Own time by component (the file's package): where the CPU burns, whoever asked for it.
    own: Counter[str] = Counter()
    for (filename, _line, name), (_cc, _nc, tt, _ct, _callers) in rows.items():
        own[component(filename, name)] += tt
    print("\n-- own time by component (whoever called it) --")
    for name, tt in own.most_common(25):
        print(f"{tt / moves * 1000:>8.3f} ms {tt / total * 100:>5.1f}%  {name}")


def component(filename: str, name: str) -> str:
    if filename == "~":
        return f"builtin: {name[:60]}"
    path = short(filename)
    parts = path.split("/")
    if filename.startswith(str(ROOT)) and "/.venv/" not in filename:
        return "project: " + "/".join(parts[:2] if len(parts) > 2 else parts)
    return "/".join(parts[:2]) if parts[0] in ("django", "rest_framework") else parts[0]


def waiting(stack: tuple[Any, ...]) -> bool:
    """Whether the thread is blocked on PostgreSQL's answer (psycopg's wait, the GIL released)."""
    return bool(stack) and "psycopg" in stack[0].co_filename and stack[0].co_name.startswith("wait")


def print_buckets(sampler: Sampler, moves: int, wall: float) -> None:
    """The sampler's buckets in wall time (latency), and the part of each waiting for PostgreSQL."""
    total = max(1, sampler.samples)
    per = wall / moves * 1000 / total  # ms a move per sample
    buckets: dict[str, list[int]] = {}
    for stack, n in sampler.stacks.items():
        row = buckets.setdefault(bucket_of(stack), [0, 0])
        row[0] += n
        row[1] += n if waiting(stack) else 0
    waits = sum(r[1] for r in buckets.values())
    print(
        f"\n== {moves} moves in buckets, wall time (a stack sample every {sampler.interval * 1000:.1f} ms: "
        f"{sampler.samples} samples; {wall / moves * 1000:.2f} ms a move while sampled, "
        f"{waits * per:.2f} ms of it waiting for PostgreSQL) =="
    )
    print(f"{'wall %':>7} {'wall ms':>8} {'wait ms':>8}  bucket")
    for b, (n, w) in sorted(buckets.items(), key=lambda kv: -kv[1][0]):
        print(f"{n / total * 100:>6.1f}% {n * per:>8.3f} {w * per:>8.3f}  {b}")


# ----------------------------------------------------------------------------- what a cut would save
@contextmanager
def patched(target: Any, name: str, value: Any) -> Iterator[None]:
    old = getattr(target, name)
    setattr(target, name, value)
    try:
        yield
    finally:
        setattr(target, name, old)


#: Middleware a token-authenticated API request needs (a guess to measure, not a proposal of the
#: exact list): the request id, security headers, the body limit and query guard, the language.
API_MIDDLEWARE = [
    "config.middleware.RequestIdMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "config.middleware.ContentSecurityPolicyMiddleware",
    "config.middleware.BodySizeLimitMiddleware",
    "common.validation.ApiQueryGuardMiddleware",
    "accounts.middleware.AccountMiddleware",
]


def ablations(wsgi: Wsgi, clients: Players, clock: str, moves: int) -> None:
    """The same moves with one piece of per-move work switched off by patching this process
    (the service's code is not changed): what cutting it would save, at most. Rounds of each
    variant in turn, so that a noisy machine blurs them alike."""
    from contextlib import ExitStack

    from django.test.utils import override_settings

    import accounts.middleware
    from common import metrics
    from games.services import transitions

    with override_settings(MIDDLEWARE=API_MIDDLEWARE):
        lean = Wsgi()
    nothing = lambda *a, **k: None  # noqa: E731

    def no_events(stack: ExitStack) -> None:
        for name in ("announce_turn", "announce_change", "schedule_bot_turn", "schedule_clock_check"):
            stack.enter_context(patched(transitions, name, nothing))

    variants: dict[str, tuple[Wsgi, Callable[[ExitStack], None]]] = {
        "as it is": (wsgi, lambda stack: None),
        "no language query for token requests (accounts.middleware)": (
            wsgi,
            lambda stack: stack.enter_context(patched(accounts.middleware, "_token_language", lambda r: "")),
        ),
        f"only {len(API_MIDDLEWARE)} middleware (no sessions, CSRF, messages, locale, whitenoise …)": (
            lean,
            lambda stack: None,
        ),
        "no after-commit events or tasks (push, notifications, clock/bot tasks)": (wsgi, no_events),
        "no metrics (move_adjudicated)": (
            wsgi,
            lambda stack: stack.enter_context(patched(metrics, "move_adjudicated", nothing)),
        ),
    }

    singles = [patch for _w, patch in list(variants.values())[1:]]

    def everything(stack: ExitStack) -> None:
        for patch in singles:
            patch(stack)

    variants["all of these together"] = (lean, everything)
    results: dict[str, list[tuple[float, float]]] = {name: [] for name in variants}
    rounds = max(1, moves // 25)
    for _ in range(rounds):
        for name, (handler, patch) in variants.items():
            with ExitStack() as stack:
                patch(stack)
                results[name] += [play(handler, clients, clock=clock) for _ in range(max(1, moves // rounds))]
    print(f"\n== what a cut saves at most: {moves} moves per variant, in {rounds} rounds ==")
    print(f"{'CPU ms':>7} {'saved':>6} {'wall ms':>8} {'saved':>6}  variant")
    base_cpu = statistics.median(c for _, c in results["as it is"]) * 1000
    base_wall = statistics.median(w for w, _ in results["as it is"]) * 1000
    for name, got in results.items():
        cpu = statistics.median(c for _, c in got) * 1000
        wall = statistics.median(w for w, _ in got) * 1000
        print(f"{cpu:>7.2f} {base_cpu - cpu:>6.2f} {wall:>8.2f} {base_wall - wall:>6.2f}  {name}")
    print("(medians per move: this thread's CPU, and wall time; a noisy machine moves them ±0.2 ms)")


# ----------------------------------------------------------------------------- the table list
def build_history(list_tables: int, game: str, old_games: int) -> tuple[int, int]:
    """An old player with ``old_games`` finished tables, then ``list_tables`` newer tables of 200
    other players (half finished, half active); return (old player id, a recent player's id).
    The more old games, the more of the seats PostgreSQL's statistics give the old player, and
    the likelier it walks the newest tables hoping to meet theirs soon."""
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.utils import timezone

    import engine
    from games.models import Player, Seat, Table

    User = get_user_model()
    users = User.objects.bulk_create(User(username=f"hist{i}", password="!") for i in range(201))
    people = Player.objects.bulk_create(
        Player(user=u, display_name=u.username, email_verified=True) for u in users
    )
    old, others = people[0], people[1:]
    position = engine.new_game(game, 2).to_dict()
    now = timezone.now()
    rng = random.Random(7)
    finished = {"ranking": {"1": 1, "2": 2}, "scores": {"1": 0, "2": 0}, "winner": 1, "end": "resign"}

    def batch(n: int, pairs: Callable[[], tuple[Any, Any]], active: Callable[[int], bool]) -> None:
        tables = [
            Table(
                game=game, edition="302", players=2, status="active" if active(i) else "finished",
                created_by=None, position=position, ply=0, to_move=1 if active(i) else None,
                started_at=now, finished_at=None if active(i) else now,
                result=None if active(i) else finished,
            )
            for i in range(n)
        ]  # fmt: skip
        chosen = [pairs() for _ in tables]
        for t, (a, _b) in zip(tables, chosen, strict=True):
            t.created_by = a
        Table.objects.bulk_create(tables, batch_size=2000)
        seats = [
            Seat(table=t, number=n, player=p, colour=Seat.COLOURS[n])
            for t, pair in zip(tables, chosen, strict=True)
            for n, p in enumerate(pair, 1)
        ]
        Seat.objects.bulk_create(seats, batch_size=5000)

    done = 0
    while done < old_games:
        n = min(5000, old_games - done)
        batch(n, lambda: (old, rng.choice(others)), lambda i: False)
        done += n
    done = 0
    while done < list_tables:
        n = min(5000, list_tables - done)
        batch(n, lambda: tuple(rng.sample(others, 2)), lambda i: i % 2 == 0)
        done += n
    with connection.cursor() as cursor:
        # As autovacuum leaves a table that has settled: statistics, and the visibility map that
        # lets the planner count an index-only scan of the seats as cheap.
        cursor.execute(f"VACUUM ANALYZE {Seat._meta.db_table}")
        cursor.execute(f"VACUUM ANALYZE {Table._meta.db_table}")
    return old.pk, others[0].pk


def print_list(wsgi: Wsgi, player_id: int, label: str, repeat: int = 7) -> list[str]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        code, data = wsgi("GET", "/api/v1/tables/", query=f"player={player_id}")
        times.append(time.perf_counter() - start)
        assert code == 200, (code, data[:300])
    with CaptureQueriesContext(connection) as captured:
        wsgi("GET", "/api/v1/tables/", query=f"player={player_id}")
    rows = len(json.loads(data)["results"])
    print(
        f"\n-- GET /api/v1/tables/?player={player_id} ({label}): {rows} tables, "
        f"median {statistics.median(times) * 1000:.1f} ms of {repeat}, {len(captured)} statements --"
    )
    for i, q in enumerate(captured.captured_queries, 1):
        sql = " ".join(q["sql"].split())
        print(f"  {i}. ({float(q['time']) * 1000:.1f} ms) {sql[:700]}{' …' if len(sql) > 700 else ''}")
    return [q["sql"] for q in captured.captured_queries]


def timed_list(wsgi: Wsgi, query: str, repeat: int = 7) -> tuple[float, float, bytes]:
    """The median ms of ``GET /api/v1/tables/?<query>`` through the view, the median ms of its
    page's statement (the one ordered by the table id, fetch included), and the answer."""
    from django.db import connection

    times: list[float] = []
    page_sql: list[float] = []

    def wrapper(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
        start = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            if 'ORDER BY "games_table"."id"' in sql:
                page_sql.append(time.perf_counter() - start)

    with connection.execute_wrapper(wrapper):
        for _ in range(repeat):
            start = time.perf_counter()
            code, data = wsgi("GET", "/api/v1/tables/", query=query)
            times.append(time.perf_counter() - start)
            assert code == 200, (code, data[:300])
    return statistics.median(times) * 1000, statistics.median(page_sql or [0.0]) * 1000, data


def compare_with_join(wsgi: Wsgi, player_id: int, game: str) -> None:
    """The view as it is (``paged_off``: the page's ids off the player's seats, the cursor inside
    that subquery, each seat's table checked against the other filters) against the plain join it
    replaced (``paged_off`` switched off in this process), for the old player, with the list's
    other filters and on a second page; the answers must be the same, byte for byte."""
    from games import apis

    _ms, _sql, first = timed_list(wsgi, f"player={player_id}", repeat=1)
    following = json.loads(first)["next"]
    queries = [
        f"player={player_id}",
        following.split("?", 1)[1] if following else f"player={player_id}&limit=10",
        f"player={player_id}&limit=10",
        f"player={player_id}&status=finished",
        f"player={player_id}&status=active",
        f"player={player_id}&open_seats=true",
        f"player={player_id}&game={game}&players=2&rated=true",
    ]
    print(f"\n   the view, seats index (now) against the plain join (before), player {player_id}:")
    print(f"   {'now ms':>7} {'SQL ms':>7} {'join ms':>8} {'SQL ms':>7}  rows  query")
    for query in queries:
        now, now_sql, body = timed_list(wsgi, query)
        with patched(apis, "paged_off", lambda queryset, **_kw: queryset):
            before, before_sql, before_body = timed_list(wsgi, query)
        assert body == before_body, ("the answers differ", query)
        rows = len(json.loads(body)["results"])
        shown = query if len(query) < 70 else query[:67] + "…"
        print(f"   {now:>7.1f} {now_sql:>7.1f} {before:>8.1f} {before_sql:>7.1f} {rows:>5}  {shown}")
    print("   (medians of 7 requests in-process; SQL: the page's statement, execute and fetch)")


def explain(sql: str) -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN (ANALYZE, BUFFERS) " + sql)
        for (line,) in cursor.fetchall():
            print("      " + line)


def list_section(wsgi: Wsgi, list_tables: int, game: str, old_games: int) -> None:
    from django.db import connection
    from django.db.models import Subquery

    from games import selectors
    from games.models import Seat, Table

    print(f"\n== GET /api/v1/tables/?player=<id> with {list_tables} newer tables ==")
    start = time.perf_counter()
    old, recent = build_history(list_tables, game, old_games)
    print(f"history made in {time.perf_counter() - start:.1f} s (bulk_create, then VACUUM ANALYZE)")
    print_list(wsgi, recent, "a player of the newest tables")
    statements = print_list(wsgi, old, f"a player whose {old_games} games are all older than the rest")
    if connection.vendor != "postgresql":
        return
    for sql in statements:
        if sql.lstrip().upper().startswith("SELECT") and "games_table" in sql:
            print(f"\n   EXPLAIN ANALYZE of: {' '.join(sql.split())[:160]} …")
            explain(sql)
    compare_with_join(wsgi, old, game)
    # Two hand-written forms: ordered by the seat's table id (no help: the same merge join), and
    # the page's ids off the player's seats (seat_player_table_idx), which the view now sends.
    base = selectors.table_list().defer(*selectors.LIST_DEFERRED)
    page = 51  # CursorPage: a page of 50 and one more to know there is a next
    seat_ids = Seat.objects.filter(player_id=old).order_by("-table_id").values("table_id")[:page]
    candidates = {
        "ordered by the seat's table id (-seats__table_id)": base.filter(seats__player_id=old).order_by(
            "-seats__table_id"
        )[:page],
        "ids from the seats index first (id IN (SELECT table_id … LIMIT 51))": base.filter(
            pk__in=Subquery(seat_ids)
        ).order_by("-id")[:page],
    }
    for name, qs in candidates.items():
        sql, params = qs.query.sql_with_params()
        with connection.cursor() as cursor:
            text = cursor.mogrify(sql, params)
        text = text.decode() if isinstance(text, bytes) else text
        start = time.perf_counter()
        n = len(list(qs.all()))
        print(f"\n   alternative, {name}: {n} tables in {(time.perf_counter() - start) * 1000:.1f} ms")
        print(f"   {' '.join(text.split())[:300]} …")
        explain(text)
    _ = Table  # the model named in the statements above


def wait_for_revocations(seconds: float = 5.0) -> bool:
    """With Redis: wait until this process hears token revocations (common.auth), as a server's
    process does after its first requests; whether it does."""
    from common import auth  # after django.setup(), as every import of the project here

    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if auth._listening():
            return True
        time.sleep(0.01)
    return False


# ----------------------------------------------------------------------------- main
def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--database",
        default=os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres"),
    )
    parser.add_argument("--game", default="pacru", choices=["shacru", "azacru", "pacru"])
    parser.add_argument("--tables", type=int, default=60, help="started 2-player tables, played in turn")
    parser.add_argument(
        "--moves", type=int, default=500, help="moves per measured pass (timed, cProfile, sampler)"
    )
    parser.add_argument("--clock", default="untimed", choices=sorted(CLOCKS), help="the tables' time control")
    parser.add_argument(
        "--timer", default="cpu", choices=["cpu", "wall"], help="cProfile's clock (cpu: without the waits)"
    )
    parser.add_argument("--no-cuts", action="store_true", help="skip the runs with parts switched off")
    parser.add_argument("--top", type=int, default=30, help="functions listed from the cProfile")
    parser.add_argument("--list-tables", type=int, default=50_000, help="newer tables for the list (0: skip)")
    parser.add_argument(
        "--old-games", type=int, default=2000, help="the list's player: games older than all the others"
    )
    parser.add_argument("--redis", default="", help="REDIS_URL: cache, push and tasks as in production")
    parser.add_argument(
        "--throttle", action="store_true", help="keep DRF's throttles (load_moves turns them off)"
    )
    args = parser.parse_args()

    os.environ.update(DEBUG="0", LOG_LEVEL="WARNING", DJANGO_SETTINGS_MODULE="config.settings")
    os.environ["REDIS_URL"] = args.redis
    if args.throttle:
        os.environ.pop("THROTTLE_OFF", None)
    else:
        os.environ["THROTTLE_OFF"] = "1"
    db_url = setup_database(args.database, "pacru_profile")
    extra = [c for c in CLOCKS if c != args.clock]
    print(
        f"preparing {args.tables} {args.clock} {args.game} tables (+ 1 {' + 1 '.join(extra)}) in {db_url} …"
    )
    tables = prepare(db_url, args.tables, args.game, args.clock, extra)
    from django.conf import settings

    print(
        f"settings: DEBUG={settings.DEBUG}, "
        f"cache {settings.CACHES['default']['BACKEND'].rsplit('.', 1)[-1]}, "
        f"throttles {[c.rsplit('.', 1)[-1] for c in settings.REST_FRAMEWORK['DEFAULT_THROTTLE_CLASSES']]}, "
        f"push {'on' if settings.REDIS_URL else 'off'}, "
        f"tasks {'eager' if settings.CELERY_TASK_ALWAYS_EAGER else 'queued'}, "
        f"{len(settings.MIDDLEWARE)} middleware"
    )
    wsgi = Wsgi()
    clients = Players(tables)
    warm = max(5, min(50, args.moves // 5))
    for _ in range(warm):
        play(wsgi, clients, clock=args.clock)
    listening = bool(args.redis) and wait_for_revocations()
    for _ in range(warm if listening else 0):
        play(wsgi, clients, clock=args.clock)  # the listener emptied the token cache on subscribing

    # (a) the SQL of one move, for each kind of clock
    per_move = print_move_queries(wsgi, clients, args.clock)
    for clock in extra:
        print_move_queries(wsgi, clients, clock)

    # (c) mean time per move, and per bare read, in-process
    sql_time = 0.0
    sql_count = 0
    with origins(where=False) as seen:
        timed = [play(wsgi, clients, clock=args.clock) for _ in range(args.moves)]
        sql_time = sum(s for _, _, s in seen)
        sql_count = len(seen)
    times = [w for w, _ in timed]
    reads, read_cpu = [], []
    for _ in range(args.moves):
        start, cpu = time.perf_counter(), time.thread_time()
        code, _data = wsgi("GET", "/api/v1/health/")
        reads.append(time.perf_counter() - start)
        read_cpu.append(time.thread_time() - cpu)
        assert code == 200
    move_ms, read_ms = statistics.mean(times) * 1000, statistics.mean(reads) * 1000
    move_cpu, read_cpu_ms = statistics.mean(c for _, c in timed) * 1000, statistics.mean(read_cpu) * 1000
    print(f"\n== in-process, {args.moves} moves ({args.clock}) and {args.moves} bare reads ==")
    print(
        f"move: mean {move_ms:.2f} ms, median {statistics.median(times) * 1000:.2f} ms, "
        f"p99 {sorted(times)[int(0.99 * (len(times) - 1))] * 1000:.2f} ms; "
        f"SQL seen by Django's execute wrappers {sql_count / args.moves:.1f} statements, "
        f"{sql_time / args.moves * 1000:.2f} ms a move (+ COMMIT; the move's prepared statements, "
        f"games.rows, pass them by); {per_move} statements in the captured move; "
        f"CPU (this process) {move_cpu:.2f} ms"
    )
    print(
        f"bare read (GET /api/v1/health/): mean {read_ms:.2f} ms, "
        f"median {statistics.median(reads) * 1000:.2f} ms; CPU {read_cpu_ms:.2f} ms"
    )
    print(
        f"a move costs {move_ms / read_ms:.2f} bare reads in wall time, {move_cpu / read_cpu_ms:.2f} in "
        f"this process's CPU (reads/s : moves/s = 1 : {read_cpu_ms / move_cpu:.2f} where CPU-bound)"
    )

    # (b) cProfile, then the sampler's buckets (two passes: the profiler slows what it measures)
    profiler = Profiler(args.timer)
    for _ in range(args.moves):
        play(wsgi, clients, clock=args.clock, around=profiler)
    print_cprofile(profiler.profile, args.moves, args.top, args.timer, move_cpu)
    sampler = Sampler()
    previous = sys.getswitchinterval()
    sys.setswitchinterval(0.0002)
    try:
        wall = sum(play(wsgi, clients, clock=args.clock, around=sampler)[0] for _ in range(args.moves))
    finally:
        sys.setswitchinterval(previous)
        sampler.close()
    print_buckets(sampler, args.moves, wall)
    print(
        f"\n{clients.finished} games finished and were replaced during the run (their last moves count too)"
    )

    if not args.no_cuts:
        ablations(wsgi, clients, args.clock, args.moves)
    if args.list_tables:
        list_section(wsgi, args.list_tables, args.game, args.old_games)


if __name__ == "__main__":
    main()
