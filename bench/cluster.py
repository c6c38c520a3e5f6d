"""Beyond one machine, on loopback: two web nodes and two live nodes behind a proxy (not a test;
prints figures; ``tests/ops/test_cluster_pg.py`` runs it at a tiny size).

It starts, each a process group of its own:

* a ``redis-server`` of its own on a free port (its files in a temporary folder; the shared 6379
  instance is never touched): the cache (sessions' throttles, sign-in counters) and live push;
* two web nodes: gunicorn serving ``config.wsgi`` with ``config/gunicorn.py`` (production profile,
  ``--web-workers`` workers each, ``TRUSTED_PROXIES=1``, ``LIVE_PUSH=on``);
* two live nodes: ``uvicorn config.asgi:application --no-proxy-headers`` (``TRUSTED_PROXIES=1``);
* the proxy: a small asyncio reverse proxy in this process, routing as ``docker/nginx.conf`` does:
  ``/live/`` and ``/api/v1/(tables/N/)?stream/`` round-robin to the live nodes, the rest
  round-robin to the web nodes, ``/metrics`` 404; it appends the client's address to
  ``X-Forwarded-For`` (nginx's ``$proxy_add_x_forwarded_for``) and names the node that answered in
  an ``X-Upstream`` response header (nginx: ``add_header X-Upstream $upstream_addr``), so each
  figure can say which node did what. nginx is not installed by the project (its tests install
  only Chromium), and an in-process proxy needs nothing more; it is a stand-in for routing and
  X-Forwarded-For on loopback, not a measurement of nginx.

All nodes share one ``SECRET_KEY``, the database (PostgreSQL) and the Redis. Then three checks:

1. **cross-node push**: a table's ndjson stream (``/api/v1/tables/N/stream/``) held on each live
   node; moves POSTed through the proxy (round-robin: alternately web node A and B); each move's
   state must arrive on both streams. Latency = arrival on the stream − the moment the POST was
   sent (so it includes the move's own write), p50/p99 per (web node → live node);
2. **one player, two streams, one live process**: the same player's page topic stream
   (``/live/topics/?t=player:<id>``, session cookie from the sign-in page) and event stream
   (``/api/v1/stream/``, token) on the same live node; the opponent moves; both must hear it
   (``changed`` / ``yourTurn``), and the node's log must show no error;
3. **sign-in limit across nodes**: ``--clients`` parallel clients (each from an address of its own,
   127.0.0.x) send ``--attempts`` wrong passwords each for one account through the proxy to both
   web nodes: exactly ``THROTTLE_LOGIN_ACCOUNT`` (``--login-limit``/hour) are checked (400), the
   rest refused (429).

    .venv/bin/python bench/cluster.py
    .venv/bin/python bench/cluster.py --moves 400 --web-workers 2
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import json
import os
import random
import re
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

#: What docker/nginx.conf sends to the live (ASGI) service; everything else goes to the web.
LIVE_PATHS = re.compile(r"^/live/|^/api/v1/(tables/[0-9]+/)?stream/$")
#: How long a stream read or an HTTP answer may take before the check fails (not a measurement).
TIMEOUT = 20.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


# ----------------------------------------------------------------------------- the proxy
class Proxy:
    """A reverse proxy on a free port, in a thread of its own (see the module docstring). One
    request per client connection (``Connection: close`` both ways): enough for these clients."""

    def __init__(self, upstreams: dict[str, list[tuple[str, int]]]) -> None:
        #: group ("web", "live") -> [(node name, port)]
        self.upstreams = upstreams
        self.turn: Counter[str] = Counter()
        #: Requests sent to each node.
        self.served: Counter[str] = Counter()
        self.port = 0
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.server: asyncio.Server | None = None

    def start(self) -> None:
        self.thread.start()
        fut = asyncio.run_coroutine_threadsafe(self._serve(), self.loop)
        self.port = fut.result(10)

    async def _serve(self) -> int:
        self.server = await asyncio.start_server(self._client, "127.0.0.1", 0, limit=1 << 20)
        return int(self.server.sockets[0].getsockname()[1])

    def stop(self) -> None:
        async def close() -> None:
            if self.server is not None:
                self.server.close()
            for task in asyncio.all_tasks():
                if task is not asyncio.current_task():
                    task.cancel()

        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(close(), self.loop).result(5)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)

    def pick(self, group: str) -> tuple[str, int]:
        nodes = self.upstreams[group]
        node = nodes[self.turn[group] % len(nodes)]
        self.turn[group] += 1
        return node

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        upstream: asyncio.StreamWriter | None = None
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            method, target, version = lines[0].split(" ", 2)
            path = target.split("?", 1)[0]
            if path == "/metrics":  # scraped from inside, never through the proxy
                writer.write(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                await writer.drain()
                return
            name, port = self.pick("live" if LIVE_PATHS.match(path) else "web")
            self.served[name] += 1
            headers, forwarded = [], ""
            for line in lines[1:]:
                if not line:
                    continue
                key = line.split(":", 1)[0].strip().lower()
                if key == "x-forwarded-for":
                    forwarded = line.split(":", 1)[1].strip()
                elif key not in ("connection", "keep-alive", "x-forwarded-proto"):
                    headers.append(line)
            peer = writer.get_extra_info("peername")[0]
            headers += [
                f"X-Forwarded-For: {forwarded + ', ' if forwarded else ''}{peer}",
                "X-Forwarded-Proto: http",
                "Connection: close",
            ]
            try:
                up_reader, upstream = await asyncio.open_connection("127.0.0.1", port, limit=1 << 20)
            except OSError:
                writer.write(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                await writer.drain()
                return
            upstream.write("\r\n".join([f"{method} {target} {version}", *headers, "", ""]).encode("latin-1"))
            await upstream.drain()
            ahead = asyncio.ensure_future(self._pump(reader, upstream))  # the request's body
            try:
                answer = await up_reader.readuntil(b"\r\n\r\n")
                status, rest = answer.split(b"\r\n", 1)
                writer.write(status + f"\r\nX-Upstream: {name}\r\n".encode() + rest)
                await writer.drain()
                back = asyncio.ensure_future(self._pump(up_reader, writer))
                # Whichever side ends first (the answer is complete, or the client left) ends both.
                await asyncio.wait({ahead, back}, return_when=asyncio.FIRST_COMPLETED)
                back.cancel()
            finally:
                ahead.cancel()
        except (
            OSError,
            asyncio.IncompleteReadError,
            asyncio.LimitOverrunError,
            ValueError,
            asyncio.CancelledError,
        ):
            pass  # the client or the node went away, or the proxy is stopping
        finally:
            for w in (upstream, writer):
                if w is not None:
                    w.close()

    @staticmethod
    async def _pump(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
        with contextlib.suppress(OSError, asyncio.IncompleteReadError):
            while data := await src.read(1 << 16):
                dst.write(data)  # each chunk at once: streams are never buffered
                await dst.drain()


# ----------------------------------------------------------------------------- the nodes
class Cluster:
    """Redis, two gunicorn web nodes, two uvicorn live nodes and the proxy (see the module docstring)."""

    def __init__(
        self, db_url: str, *, web_workers: int = 2, login_limit: int = 5, keepalive: float = 1
    ) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="cluster-"))
        self.redis_port = free_port()
        self.env = {
            **{k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"},
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DJANGO_PROFILE": "production",
            "SECRET_KEY": "cluster-" + secrets.token_urlsafe(40),  # one key on every node
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "SECURE_SSL_REDIRECT": "false",
            "SECURE_COOKIES": "false",
            "DATABASE_URL": db_url,
            "REDIS_URL": f"redis://127.0.0.1:{self.redis_port}/0",
            "TRUSTED_PROXIES": "1",
            "LIVE_PUSH": "on",
            "LIVE_KEEPALIVE_SECONDS": str(keepalive),
            # Only the sign-in limits matter here: the request throttles are set out of reach.
            "THROTTLE_ANON": "100000/min",
            "THROTTLE_USER": "100000/min",
            "THROTTLE_LOGIN_ACCOUNT": f"{login_limit}/hour",
            "WEB_WORKERS": str(web_workers),
            "XDG_RUNTIME_DIR": str(self.dir),  # gunicorn's control sockets
            "LOG_LEVEL": "WARNING",
        }
        self.env.pop("THROTTLE_OFF", None)
        self.login_limit = login_limit
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        self.ports: dict[str, int] = {}
        self.proxy: Proxy | None = None

    # processes
    def _spawn(self, name: str, cmd: list[str], port: int) -> None:
        with open(self.dir / f"{name}.log", "ab") as log:
            self.procs[name] = subprocess.Popen(
                cmd, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        self.ports[name] = port

    def log(self, name: str) -> str:
        return (self.dir / f"{name}.log").read_text(errors="replace")

    def start(self) -> None:
        port = self.redis_port
        self._spawn(
            "redis",
            ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--dir", str(self.dir),
             "--save", "", "--appendonly", "no"],
            port,
        )  # fmt: skip
        for name in ("web-a", "web-b"):
            port = free_port()
            self.env["BIND"] = f"127.0.0.1:{port}"
            self._spawn(
                name, [sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.py", "config.wsgi"], port
            )
        self.env.pop("BIND")
        for name in ("live-a", "live-b"):
            port = free_port()
            self._spawn(
                name,
                [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
                 "--port", str(port), "--no-access-log", "--no-proxy-headers",
                 "--timeout-graceful-shutdown", "2"],
                port,
            )  # fmt: skip
        for name in ("web-a", "web-b", "live-a", "live-b"):
            self._wait(name)
        self.proxy = Proxy(
            {
                "web": [(n, self.ports[n]) for n in ("web-a", "web-b")],
                "live": [(n, self.ports[n]) for n in ("live-a", "live-b")],
            }
        )
        self.proxy.start()

    def _wait(self, name: str, timeout: float = 90) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.procs[name].poll() is not None:
                raise RuntimeError(f"{name} exited:\n{self.log(name)[-3000:]}")
            with contextlib.suppress(OSError, http.client.HTTPException):
                if request(self.ports[name], "GET", "/api/v1/health/", timeout=3).status == 200:
                    return
            time.sleep(0.2)
        raise RuntimeError(f"{name} did not answer:\n{self.log(name)[-3000:]}")

    def stop(self) -> None:
        if self.proxy is not None:
            self.proxy.stop()
        for name, proc in self.procs.items():
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL if name == "redis" else signal.SIGTERM)
        for proc in self.procs.values():
            try:
                proc.wait(timeout=25)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)

    def cleanup(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)

    # through the proxy
    @property
    def port(self) -> int:
        assert self.proxy is not None
        return self.proxy.port

    def __enter__(self) -> Cluster:
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


# ----------------------------------------------------------------------------- HTTP
@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes
    cookies: dict[str, str] = field(default_factory=dict)

    def json(self) -> Any:
        return json.loads(self.body)


def request(
    port: int,
    method: str,
    path: str,
    body: Any = None,
    headers: dict[str, str] | None = None,
    *,
    source: str | None = None,
    timeout: float = TIMEOUT,
) -> Answer:
    """One request; ``body`` a dict is sent as JSON, bytes as they are; ``source``: the local
    address to connect from (any 127.x.y.z on loopback: a client of its own to the proxy)."""
    headers = dict(headers or {})
    if isinstance(body, dict):
        body = json.dumps(body).encode()
        headers.setdefault("Content-Type", "application/json")
    conn = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=timeout, source_address=(source, 0) if source else None
    )
    try:
        conn.request(method, path, body=body, headers=headers)
        resp = conn.getresponse()
        raw = resp.read()
        cookies = {}
        for value in resp.headers.get_all("Set-Cookie") or []:
            pair = value.split(";", 1)[0]
            cookies[pair.split("=", 1)[0]] = pair.split("=", 1)[1]
        return Answer(resp.status, {k.lower(): v for k, v in resp.getheaders()}, raw, cookies)
    finally:
        conn.close()


class Stream:
    """A streaming GET through the proxy; ``node`` is the live node that holds it."""

    def __init__(self, port: int, path: str, headers: dict[str, str] | None = None) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
        self.conn.request("GET", path, headers=headers or {})
        self.resp = self.conn.getresponse()
        self.status = self.resp.status
        self.node = self.resp.getheader("X-Upstream", "")

    def line(self) -> str:
        raw = self.resp.readline()
        if not raw:
            raise EOFError("the stream ended")
        return raw.decode().rstrip("\r\n")

    def ndjson(self, kind: str | None = None, within: float = TIMEOUT) -> dict[str, Any]:
        """The next ndjson object (pings skipped; of type ``kind`` when given)."""
        end = time.monotonic() + within
        while time.monotonic() < end:
            line = self.line()
            if line:
                obj: dict[str, Any] = json.loads(line)
                if obj.get("type") != "ping" and (kind is None or obj.get("type") == kind):
                    return obj
        raise TimeoutError(f"no {kind or 'event'} line within {within:.0f} s")

    def sse(self, event: str, within: float = TIMEOUT) -> str:
        """The data of the next server-sent event named ``event`` (keep-alives and others skipped)."""
        end, name = time.monotonic() + within, ""
        while time.monotonic() < end:
            line = self.line()
            if line.startswith("event:"):
                name = line.split(":", 1)[1].strip()
            elif line.startswith("data:") and name == event:
                return line.split(":", 1)[1].strip()
            elif not line:
                name = ""
        raise TimeoutError(f"no {event} event within {within:.0f} s")

    def close(self) -> None:
        self.conn.close()


def stream_on(port: int, path: str, headers: dict[str, str] | None = None, *, node: str | None = None,
              avoid: set[str] | frozenset[str] = frozenset(), tries: int = 6) -> Stream:  # fmt: skip
    """Open ``path`` through the proxy until a live node answers that is ``node`` (or not in
    ``avoid``): the proxy's round-robin decides, so another try lands on the next node."""
    for _ in range(tries):
        s = Stream(port, path, headers)
        if s.status != 200:
            body = s.resp.read()[:300]
            s.close()
            raise AssertionError(f"{path}: {s.status} {body!r}")
        if (node is None or s.node == node) and s.node not in avoid:
            return s
        s.close()
    raise AssertionError(f"no stream of {path} landed on {node or 'a node not in ' + str(avoid)}")


# ----------------------------------------------------------------------------- data (this process)
def players(prefix: str, n: int, password: str) -> list[tuple[Any, str]]:
    """``n`` registered players (signing in with ``password``) and an API token each. The password
    is hashed with the nodes' hasher (Django's default), whatever this process uses (the tests'
    settings hash with MD5 for speed, which the nodes would not accept)."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import PBKDF2PasswordHasher
    from rest_framework.authtoken.models import Token

    from games import services

    hasher = PBKDF2PasswordHasher()
    out = []
    for i in range(n):
        p = services.player_register(username=f"{prefix}{i}", password=password, display_name=f"{prefix} {i}")
        get_user_model().objects.filter(pk=p.user_id).update(password=hasher.encode(password, hasher.salt()))
        out.append((p, Token.objects.create(user=p.user).key))
    return out


def new_table(two: list[tuple[Any, str]], **options: Any) -> tuple[int, dict[int, str]]:
    """A started 2-player Pacru table, unrated (the same two play many: rated games between one pair
    are capped a day); its id and each seat's token."""
    from games import services
    from games.models import Table

    table = services.table_create(creator=two[0][0], game="pacru", players=2, rated=False, **options)
    services.seat_join(table_id=table.pk, player=two[1][0])
    by_player = {p.pk: tok for p, tok in two}
    seats = {s.number: by_player[s.player_id] for s in Table.objects.get(pk=table.pk).seats.all()}
    return table.pk, seats


def next_move(table_id: int, rng: random.Random) -> tuple[int, int, str] | None:
    """The seat to move, the ply it answers and a legal move (``None`` once the game is over)."""
    from engine.playout import random_step
    from games import services
    from games.models import Table

    table = Table.objects.get(pk=table_id)
    if table.status != Table.Status.ACTIVE:
        return None
    state = services.current_state(table)
    _, text = random_step(state, rng, reorient_rate=0)
    return state.to_move, table.ply, text


def post_move(port: int, table_id: int, token: str, ply: int, move: str) -> Answer:
    return request(
        port, "POST", f"/api/v1/tables/{table_id}/moves/", {"ply": ply, "move": move},
        {"Authorization": f"Token {token}"},
    )  # fmt: skip


# ----------------------------------------------------------------------------- 1. cross-node push
class Arrivals(threading.Thread):
    """Reads a table's ndjson stream; notes when each ply's state arrived."""

    def __init__(self, stream: Stream) -> None:
        super().__init__(daemon=True)
        self.stream = stream
        self.seen: dict[int, float] = {}
        self.cond = threading.Condition()
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            while True:
                obj = self.stream.ndjson(within=3600)
                now = time.time()
                with self.cond:
                    self.seen.setdefault(int(obj["table"]["ply"]), now)
                    self.cond.notify_all()
        except BaseException as exc:  # the stream closed (by us at the end) or failed
            self.error = exc
            with self.cond:
                self.cond.notify_all()

    def wait_for(self, ply: int, timeout: float = TIMEOUT) -> float | None:
        with self.cond:
            self.cond.wait_for(lambda: ply in self.seen or self.error is not None, timeout)
            return self.seen.get(ply)


def cross_node_moves(
    cluster: Cluster, moves: int, per_table: int = 40, seed: int = 1, warmup: int = 0
) -> dict[str, Any]:
    """Check 1 (see the module docstring): ``moves`` moves; per move, which web node took it and
    when each live node's stream had its state. Returns the figures. The first ``warmup`` moves
    are checked but not timed (each web worker's first requests open its connections)."""
    rng = random.Random(seed)
    two = players(f"cx{secrets.token_hex(3)}x", 2, "cluster-pass-9")
    port = cluster.port
    lat: dict[tuple[str, str], list[float]] = {}
    #: The same arrivals, counted from the moment the 201 was read (negative: the stream was first).
    after_201: list[float] = []
    posts: list[float] = []
    missing: list[tuple[int, str]] = []
    statuses: Counter[int] = Counter()
    played = 0
    while played < moves + warmup:
        table_id, tokens = new_table(two)
        path = f"/api/v1/tables/{table_id}/stream/"
        first = stream_on(port, path)
        second = stream_on(port, path, avoid={first.node})
        readers = [Arrivals(first), Arrivals(second)]
        for r in readers:
            r.start()
        try:
            for r in readers:  # the table's first state: each stream is joined
                if r.wait_for(0) is None:
                    raise AssertionError(f"no first state on {r.stream.node}: {r.error!r}")
            for _ in range(per_table):
                if played >= moves + warmup:
                    break
                nxt = next_move(table_id, rng)
                if nxt is None:
                    break
                seat, ply, text = nxt
                sent = time.time()
                answer = post_move(port, table_id, tokens[seat], ply, text)
                answered = time.time()
                timed = played >= warmup
                if timed:
                    posts.append(answered - sent)
                statuses[answer.status] += 1
                if answer.status != 201:
                    raise AssertionError(f"move answered {answer.status}: {answer.body[:300]!r}")
                web = answer.headers.get("x-upstream", "?")
                after = answer.json()["table"]["ply"]
                played += 1
                for r in readers:
                    at = r.wait_for(after)
                    if at is None:
                        missing.append((after, r.stream.node))
                    elif timed:
                        lat.setdefault((web, r.stream.node), []).append(at - sent)
                        after_201.append(at - answered)
        finally:
            for r in readers:
                r.stream.close()
    return {
        "moves": played,
        "warmup": warmup,
        "latency": lat,
        "after_201": after_201,
        "posts": posts,
        "missing": missing,
        "statuses": statuses,
    }


# ----------------------------------------------------------------------------- 2. one player, two streams
def sign_in_page(port: int, username: str, password: str) -> dict[str, str]:
    """Sign in through the sign-in page (via the proxy: a web node); the cookies it set. The CSRF
    cookie is the client's own choice, sent back in the form, as Django's double submit allows."""
    csrf = secrets.token_hex(16)
    body = f"username={username}&password={password}&csrfmiddlewaretoken={csrf}".encode()
    answer = request(
        port, "POST", "/accounts/login/", body,
        {"Content-Type": "application/x-www-form-urlencoded", "Cookie": f"csrftoken={csrf}"},
    )  # fmt: skip
    if answer.status != 302 or "sessionid" not in answer.cookies:
        raise AssertionError(f"sign-in page answered {answer.status}: {answer.body[:300]!r}")
    return answer.cookies


def same_player_streams(cluster: Cluster, seed: int = 2) -> dict[str, Any]:
    """Check 2 (see the module docstring)."""
    rng = random.Random(seed)
    password = "cluster-pass-9"
    two = players(f"sp{secrets.token_hex(3)}x", 2, password)
    (me, _), (_other, _) = two
    port = cluster.port
    # A correspondence table: a turn there is also a notification, which changes the player's topic
    # (a move at a live-clock table changes only the table's).
    table_id, tokens = new_table(two, time_control={"kind": "correspondence", "days": 3})
    my_seat = next(s for s, tok in tokens.items() if tok == two[0][1])
    # My turn first? Then I move now (here, through the service), so the opponent's move is next.
    nxt = next_move(table_id, rng)
    assert nxt is not None
    if nxt[0] == my_seat:
        from games import services

        services.move_submit(table_id=table_id, player=me, ply=nxt[1], move=nxt[2])
    cookies = sign_in_page(port, me.user.username, password)
    token = request(port, "POST", "/api/v1/auth/token/", {"username": me.user.username, "password": password})
    assert token.status == 200, token.body
    cookie = "; ".join(f"{k}={v}" for k, v in cookies.items())
    topics = stream_on(port, f"/live/topics/?t=player:{me.pk}", {"Cookie": cookie})
    events = stream_on(
        port, "/api/v1/stream/", {"Authorization": f"Token {token.json()['token']}"}, node=topics.node
    )
    node = topics.node
    try:
        first = events.ndjson("state")
        nxt = next_move(table_id, rng)
        assert nxt is not None and nxt[0] != my_seat
        moved = post_move(port, table_id, tokens[nxt[0]], nxt[1], nxt[2])
        assert moved.status == 201, moved.body
        changed = json.loads(topics.sse("changed"))
        turn = events.ndjson("yourTurn")
    finally:
        topics.close()
        events.close()
    log = cluster.log(node)
    return {
        "node": node,
        "topic_node": topics.node,
        "events_node": events.node,
        "state_tables": [t["id"] for t in first["tables"]],
        "changed": changed,
        "your_turn_table": turn["table"]["id"],
        "table": table_id,
        "player": me.pk,
        "web": moved.headers.get("x-upstream"),
        "node_errors": [
            ln for ln in log.splitlines() if "Traceback" in ln or '"ERROR"' in ln or "TypeError" in ln
        ],
    }


# ----------------------------------------------------------------------------- 3. sign-in limit
def signin_throttle(cluster: Cluster, clients: int = 8, attempts: int = 3) -> dict[str, Any]:
    """Check 3 (see the module docstring): the statuses of ``clients`` × ``attempts`` wrong
    sign-ins, sent at once by parallel clients from addresses of their own."""
    ((victim, _),) = players(f"tv{secrets.token_hex(3)}x", 1, "the-right-one-9")
    port = cluster.port
    barrier = threading.Barrier(clients)
    statuses: Counter[int] = Counter()
    nodes: Counter[tuple[str, int]] = Counter()
    lock = threading.Lock()

    def client(i: int) -> None:
        source = f"127.0.0.{20 + i}"
        barrier.wait()
        for k in range(attempts):
            answer = request(
                port, "POST", "/api/v1/auth/token/",
                {"username": victim.user.username, "password": f"wrong-{i}-{k}"}, source=source,
            )  # fmt: skip
            with lock:
                statuses[answer.status] += 1
                nodes[(answer.headers.get("x-upstream", "?"), answer.status)] += 1

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return {
        "statuses": statuses,
        "nodes": nodes,
        "limit": cluster.login_limit,
        "sent": clients * attempts,
        "addresses": seen_addresses(cluster),
    }


def seen_addresses(cluster: Cluster) -> list[str]:
    """The client addresses the web nodes counted sign-ins for (the ``auth`` counts' keys in the
    shared cache): the proxy's X-Forwarded-For, read with TRUSTED_PROXIES=1, names each client."""
    import redis

    client = redis.Redis(port=cluster.redis_port, socket_timeout=5)
    try:
        keys = [k.decode() for k in client.scan_iter(match="*signin:auth:*")]
    finally:
        client.close()
    return sorted({k.split("signin:auth:", 1)[1].rsplit(":", 1)[0] for k in keys})


# ----------------------------------------------------------------------------- main
def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--database",
        default=os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres"),
        help="admin URL of the PostgreSQL server (the bench makes pacru_clusterbench on it)",
    )
    parser.add_argument("--moves", type=int, default=200, help="moves of the cross-node check")
    parser.add_argument("--warmup", type=int, default=10, help="moves played before, not timed")
    parser.add_argument("--web-workers", type=int, default=2, help="gunicorn workers per web node")
    parser.add_argument("--clients", type=int, default=8, help="parallel sign-in clients")
    parser.add_argument("--attempts", type=int, default=3, help="wrong passwords per sign-in client")
    parser.add_argument("--login-limit", type=int, default=5, help="THROTTLE_LOGIN_ACCOUNT, per hour")
    args = parser.parse_args()

    from bench.load_moves import setup_database

    started = time.time()
    db_url = setup_database(args.database, "pacru_clusterbench")
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v0"],
        cwd=ROOT,
        check=True,
        env={**os.environ, "DATABASE_URL": db_url},
    )
    os.environ.update(
        {"DATABASE_URL": db_url, "DJANGO_SETTINGS_MODULE": "config.settings", "LOG_LEVEL": "ERROR"}
    )
    import django

    django.setup()
    cluster = Cluster(db_url, web_workers=args.web_workers, login_limit=args.login_limit, keepalive=15)
    with cluster:
        print(
            f"proxy :{cluster.port} -> web {cluster.ports['web-a']}, {cluster.ports['web-b']} "
            f"(gunicorn x{args.web_workers} each); live {cluster.ports['live-a']}, {cluster.ports['live-b']} "
            f"(uvicorn); redis :{cluster.redis_port}; {db_url}; logs {cluster.dir}",
            flush=True,
        )
        push = cross_node_moves(cluster, args.moves, warmup=args.warmup)
        player = same_player_streams(cluster)
        throttle = signin_throttle(cluster, args.clients, args.attempts)
        served = dict(sorted(cluster.proxy.served.items())) if cluster.proxy else {}
    report(args, push, player, throttle, served, time.time() - started)
    cluster.cleanup()


def report(
    args: argparse.Namespace,
    push: dict[str, Any],
    player: dict[str, Any],
    throttle: dict[str, Any],
    served: dict[str, int],
    wall: float,
) -> None:
    print("\n== 1. a move through a web node reaches table streams on both live nodes")
    print(
        f"moves {push['moves']}, the first {push['warmup']} not timed (POST statuses "
        f"{dict(push['statuses'])}), states missing on a stream: "
        f"{len(push['missing'])}; POST answered in p50 {statistics.median(push['posts']) * 1000:.1f} ms"
    )
    print(f"{'web node -> live node':<24} {'n':>5} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7}")
    rows = sorted(push["latency"].items())
    rows.append((("all", ""), [v for _, values in rows for v in values]))
    for (web, live), values in rows:
        name = f"{web} -> {live}" if live else web
        print(
            f"{name:<24} {len(values):>5} {pct(values, 50) * 1000:>7.1f} {pct(values, 99) * 1000:>7.1f} "
            f"{max(values) * 1000:>7.1f}"
        )
    print("  (latency = the state's arrival on the stream - the moment the POST was sent, write included)")
    if push["after_201"]:
        late = push["after_201"]
        print(
            f"  counted from the moment the 201 was read instead: p50 {pct(late, 50) * 1000:.1f} ms, "
            f"p99 {pct(late, 99) * 1000:.1f} ms (negative: the stream had it before the mover had its answer)"
        )

    print("\n== 2. one player's topic stream and event stream on one live process")
    ok = player["changed"] == [f"player:{player['player']}"] and player["your_turn_table"] == player["table"]
    ok = ok and player["topic_node"] == player["events_node"] and not player["node_errors"]
    print(
        f"both on {player['node']}: topic stream 'changed' {player['changed']}, event stream 'yourTurn' "
        f"table {player['your_turn_table']} (the move went "
        f"through {player['web']}); node log errors: {len(player['node_errors'])}; {'OK' if ok else 'FAILED'}"
    )

    print("\n== 3. wrong passwords for one account from parallel clients through both web nodes")
    st = throttle["statuses"]
    other = {k: v for k, v in st.items() if k not in (400, 429)}
    print(
        f"{args.clients} clients x {args.attempts} attempts = {throttle['sent']}; limit "
        f"{throttle['limit']}/hour: checked (400) {st.get(400, 0)}, refused (429) {st.get(429, 0)}, "
        f"other {other}; {'OK' if st.get(400, 0) == throttle['limit'] and not other else 'FAILED'}"
    )
    print(f"by node and status: {dict(sorted(throttle['nodes'].items()))}")
    print(f"client addresses the nodes counted (X-Forwarded-For, TRUSTED_PROXIES=1): {throttle['addresses']}")
    print(f"\nrequests per node (proxy): {served}")
    python = sys.executable
    if python.startswith(str(ROOT)):
        python = os.path.relpath(python, Path.cwd())
    print(f"command: {' '.join([python, *sys.argv])}")
    print(f"wall time: {wall:.0f} s")


if __name__ == "__main__":
    main()
