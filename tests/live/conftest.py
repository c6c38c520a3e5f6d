"""A real uvicorn server (``config.asgi:application``) in a subprocess, on the PostgreSQL test
database, with Redis (a database number of its own on the shared server) for its live push.

The server can be killed with SIGKILL (a crash: no goodbye to its clients) and started again on
the same port, as a supervisor would. Small helpers read its streams line by line over plain
``http.client`` with a socket timeout, so a stream that stops talking fails the test instead of
hanging it.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
REDIS = os.environ.get("LIVE_TEST_REDIS_URL", "redis://127.0.0.1:6379/13")
#: How long a stream read may wait for a line before the test fails.
READ_TIMEOUT = 10.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Uvicorn:
    """One uvicorn process serving the project; ``kill`` and ``start`` again keep the port."""

    def __init__(self, **env: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        db = connection.settings_dict
        host, port = db["HOST"] or "127.0.0.1", db["PORT"] or 5432
        base = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
        self.env = {
            **base,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": f"postgres://{db['USER']}@{host}:{port}/{db['NAME']}",
            "REDIS_URL": REDIS,
            "THROTTLE_OFF": "1",
            "LOG_LEVEL": "WARNING",
            **env,
        }
        self.log = Path(tempfile.mkstemp(prefix="live-uvicorn-", suffix=".log")[1])
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self, timeout: float = 30.0) -> None:
        assert self.proc is None, "already running"
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "uvicorn",
                    "config.asgi:application",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    str(self.port),
                    "--no-access-log",
                    # As scripts/run: no proxy in front, so X-Forwarded-For is the client's own
                    # words (the service reads it only from TRUSTED_PROXIES, as gunicorn's side).
                    "--no-proxy-headers",
                    # As scripts/run: open streams never end by themselves, so a stopping server
                    # waits this long for them, then ends them (SIGTERM: stop()).
                    "--timeout-graceful-shutdown",
                    "2",
                ],
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.starts += 1
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise AssertionError(f"uvicorn exited with {self.proc.returncode}:\n{self.output()}")
            try:
                status, _ = request(self.url, "GET", "/api/v1/health/", timeout=2)
            except OSError:
                time.sleep(0.1)
                continue
            if status < 500:
                return
            time.sleep(0.1)
        raise AssertionError(f"uvicorn did not answer on port {self.port}:\n{self.output()}")

    def kill(self) -> None:
        """SIGKILL, as a crash would: open streams are cut without a last word."""
        assert self.proc is not None
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)
        self.proc = None

    def restart(self) -> None:
        """Kill (SIGKILL) and start again on the same port."""
        if self.proc is not None:
            self.kill()
        self.start()

    def stop(self) -> None:
        if self.proc is None:
            return
        os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)
        self.proc = None

    def output(self) -> str:
        return self.log.read_text(errors="replace")[-4000:]

    def post(self, path: str, data: Any = None, token: str | None = None) -> tuple[int, Any]:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Token {token}"
        return request(self.url, "POST", path, json.dumps(data or {}).encode(), headers)

    def get(self, path: str, token: str | None = None) -> tuple[int, Any]:
        headers = {"Authorization": f"Token {token}"} if token else {}
        return request(self.url, "GET", path, headers=headers)

    def stream(self, path: str, **headers: str) -> Stream:
        return Stream(self.port, path, headers)


def request(
    url: str,
    method: str,
    path: str,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
    timeout: float = READ_TIMEOUT,
) -> tuple[int, Any]:
    """One request; the status and the JSON body (``None`` when there is none)."""
    port = int(url.rsplit(":", 1)[1])
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        resp = conn.getresponse()
        raw = resp.read()
        ctype = resp.getheader("Content-Type", "")
        return resp.status, json.loads(raw) if raw and "json" in ctype else None
    finally:
        conn.close()


class Stream:
    """A streaming GET read line by line (ndjson) or event by event (server-sent events)."""

    def __init__(self, port: int, path: str, headers: dict[str, str], timeout: float = READ_TIMEOUT):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        self.conn.request("GET", path, headers={k.replace("_", "-"): v for k, v in headers.items()})
        self.resp = self.conn.getresponse()
        self.status = self.resp.status
        self.content_type = self.resp.getheader("Content-Type", "")

    def line(self) -> str:
        raw = self.resp.readline()
        if not raw:
            raise EOFError("the stream ended")
        return raw.decode().rstrip("\r\n")

    def body(self) -> Any:
        """The whole (non-streaming) body as JSON: for error answers."""
        return json.loads(self.resp.read())

    def ndjson(self, pings: bool = False, within: float = 2 * READ_TIMEOUT) -> dict[str, Any]:
        """The next ndjson object (pings skipped unless asked for, for ``within`` seconds at most:
        a stream that only pings fails the test rather than hanging it)."""
        end = time.monotonic() + within
        while True:
            if time.monotonic() > end:
                raise AssertionError(f"only pings for {within:.0f} s")
            line = self.line()
            if not line:
                continue
            obj: dict[str, Any] = json.loads(line)
            if pings or obj.get("type") != "ping":
                return obj

    def until(self, kind: str, limit: int = 50) -> dict[str, Any]:
        """Read ndjson lines until one of type ``kind`` (at most ``limit`` others first)."""
        seen = []
        for _ in range(limit):
            obj = self.ndjson()
            if obj.get("type") == kind:
                return obj
            seen.append(obj.get("type"))
        raise AssertionError(f"no {kind!r} line; got {seen}")

    def block(self) -> dict[str, str]:
        """The next server-sent block as fields (``comment`` for ``: …`` lines)."""
        fields: dict[str, str] = {}
        while True:
            line = self.line()
            if not line:
                if fields:
                    return fields
                continue
            if line.startswith(":"):
                fields["comment"] = line[1:].strip()
                continue
            name, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            fields[name] = fields[name] + "\n" + value if name == "data" and name in fields else value

    def event(self, within: float = 2 * READ_TIMEOUT) -> dict[str, str]:
        """The next server-sent event (keep-alive comments and ``retry:`` blocks skipped, for
        ``within`` seconds at most)."""
        end = time.monotonic() + within
        while True:
            if time.monotonic() > end:
                raise AssertionError(f"only keep-alives for {within:.0f} s")
            block = self.block()
            if "event" in block or "data" in block:
                return block

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Stream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@pytest.fixture(scope="module")
def uvicorn_server(django_db_setup: None) -> Iterator[Uvicorn]:
    """A uvicorn process for the module's tests: keep-alives every second (so idle streams show
    them soon), and the hub's safety recheck every 30 s (so only Redis pub/sub can be quick)."""
    server = Uvicorn(LIVE_KEEPALIVE_SECONDS="1", LIVE_RECHECK_SECONDS="30")
    server.start()
    try:
        yield server
    finally:
        server.stop()
        server.log.unlink(missing_ok=True)
        drop_queued_tasks()


def drop_queued_tasks() -> None:
    """The server sends background work (ratings, clock checks) to Celery on its Redis database,
    where no worker of these tests takes it: drop those queues so runs leave nothing behind.
    Only the queue keys of this database number are deleted, nothing else of the shared Redis."""
    import redis

    client = redis.Redis.from_url(REDIS, socket_connect_timeout=1, socket_timeout=1)
    try:
        client.delete("default", "clocks", "bots", "slow")
    finally:
        client.close()
