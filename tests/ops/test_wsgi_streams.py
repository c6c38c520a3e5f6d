"""Streams never hang the web (issue 30, 1 and 7): the production WSGI server, under 20 of them.

gunicorn as deployed (``config/gunicorn.py``, the production profile, 2 workers × 2 threads as the
audit ran it) on a free loopback port. Before issue 29, a stream URL served by gunicorn was read to
an end it never has before a byte was sent: 5–8 anonymous requests held every thread for good, the
health check timed out and SIGTERM did not stop the server. Now each stream answers ``501
not_streaming`` at once (the streams are the live service's: deploy/nginx/pacru.conf and
docker/nginx.conf send them there), so:

* 20 streams opened at once (the table's and the player's ndjson, the game page's and the lobby's
  events) each get their 501 within a bound on waiting;
* ``/api/v1/health/`` answers within its 1 s request timeout throughout, and after 20 more
  clients vanish (their connection reset right after the request);
* no worker is held: SIGTERM stops the server without its arbiter killing a worker.

The timeouts bound how long the test waits for an answer that would otherwise never come; they
are not speed assertions.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from tests.games.conftest import Actor, started_table

ROOT = Path(__file__).resolve().parents[2]
WORKERS, THREADS = 2, 2
#: The health check's request timeout (a load balancer's), and the bound on waiting for a 501.
HEALTH_TIMEOUT, ANSWER_TIMEOUT = 1.0, 5.0
#: gunicorn's graceful_timeout (config/gunicorn.py): past it the arbiter kills the workers.
GRACEFUL = 20

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Gunicorn:
    """The production web server in a subprocess, on the test's PostgreSQL database."""

    def __init__(self, runtime: Path) -> None:
        self.port = free_port()
        self.log = runtime / "gunicorn.log"
        db = connection.settings_dict
        host, port = db["HOST"] or "127.0.0.1", db["PORT"] or 5432
        # Its own cache (no Redis: the streams' refusal needs none), metrics and control socket.
        drop = {"REDIS_URL", "PROMETHEUS_MULTIPROC_DIR", "GUNICORN_CONTROL_SOCKET"}
        drop.add("DJANGO_ALLOW_ASYNC_UNSAFE")
        self.env = {
            **{k: v for k, v in os.environ.items() if k not in drop},
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DJANGO_PROFILE": "production",
            "SECRET_KEY": "test-only-" + "x" * 50,
            "ALLOWED_HOSTS": "127.0.0.1",
            "DATABASE_URL": f"postgres://{db['USER']}@{host}:{port}/{db['NAME']}",
            "BIND": f"127.0.0.1:{self.port}",
            "WEB_WORKERS": str(WORKERS),
            "WEB_THREADS": str(THREADS),
            "XDG_RUNTIME_DIR": str(runtime),
            "LOG_LEVEL": "WARNING",
        }
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        gunicorn = Path(sys.executable).parent / "gunicorn"
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [str(gunicorn), "-c", "config/gunicorn.py", "config.wsgi"],
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        end = time.monotonic() + 30
        while time.monotonic() < end:
            assert self.proc.poll() is None, f"gunicorn exited:\n{self.output()}"
            try:
                if health(self.port, timeout=2) == 200:
                    return
            except OSError:
                pass
            time.sleep(0.1)
        raise AssertionError(f"gunicorn did not answer:\n{self.output()}")

    def stop(self, timeout: float) -> int:
        """SIGTERM, as systemd and docker stop it; its exit code."""
        assert self.proc is not None
        os.killpg(self.proc.pid, signal.SIGTERM)
        code = self.proc.wait(timeout=timeout)
        self.proc = None
        return code

    def kill(self) -> None:
        if self.proc is not None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)
            self.proc = None

    def output(self) -> str:
        return self.log.read_text(errors="replace")[-4000:]


#: As the proxy sends it (the production profile redirects plain http to https).
PROXIED = {"Host": "127.0.0.1", "X-Forwarded-Proto": "https"}


def health(port: int, timeout: float = HEALTH_TIMEOUT) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", "/api/v1/health/", headers=PROXIED)
        resp = conn.getresponse()
        resp.read()
        return resp.status
    finally:
        conn.close()


class Prober:
    """A load balancer's health check, every 50 ms in a thread, each with a 1 s timeout: every
    answer (or the error instead of one) is kept."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.answers: list[int | str] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.answers.append(health(self.port))
            except OSError as exc:
                self.answers.append(f"{type(exc).__name__}: {exc}")
            self._stop.wait(0.05)

    def __enter__(self) -> Prober:
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stop.set()
        self._thread.join(timeout=10)

    def probes(self, at_least: int) -> None:
        """Wait until ``at_least`` more probes are done, answered or timed out."""
        goal, end = len(self.answers) + at_least, time.monotonic() + at_least * (HEALTH_TIMEOUT + 0.5) + 5
        while len(self.answers) < goal and time.monotonic() < end:
            time.sleep(0.02)
        assert len(self.answers) >= goal, f"the prober stalled: {self.answers[-5:]}"


def send(port: int, path: str, headers: dict[str, str]) -> socket.socket:
    """A GET of ``path`` written on a new connection; the answer is left unread."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=ANSWER_TIMEOUT)
    head = "".join(f"{k}: {v}\r\n" for k, v in {**PROXIED, **headers}.items())
    sock.sendall(f"GET {path} HTTP/1.1\r\n{head}\r\n".encode())
    return sock


def answer(sock: socket.socket) -> tuple[int, dict[str, Any]]:
    """The answer on ``sock`` (waiting at most its timeout for it), then the socket closed."""
    try:
        resp = http.client.HTTPResponse(sock)
        resp.begin()
        return resp.status, json.loads(resp.read())
    finally:
        sock.close()


def vanish(sock: socket.socket) -> None:
    """The client goes away without a word: the connection is reset, its answer never read."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Gunicorn]:
    web = Gunicorn(tmp_path)
    web.start()
    try:
        yield web
    finally:
        web.kill()


def test_twenty_streams_get_501_at_once_and_never_hold_the_web(
    server: Gunicorn, alice: Actor, bob: Actor
) -> None:
    table = started_table([alice, bob])
    streams = [
        (f"/api/v1/tables/{table.pk}/stream/", {}),
        ("/api/v1/stream/", {"Authorization": f"Token {alice.token}"}),
        (f"/live/tables/{table.pk}/", {}),
        ("/live/topics/?t=lobby", {}),
    ] * 5
    with Prober(server.port) as prober:
        prober.probes(3)
        # 20 streams at once: every request is written before any answer is read.
        opened = [send(server.port, path, headers) for path, headers in streams]
        answers, deadline = [], time.monotonic() + ANSWER_TIMEOUT
        for (path, _), sock in zip(streams, opened, strict=True):
            sock.settimeout(max(0.1, deadline - time.monotonic()))  # one bound for them all
            try:
                answers.append((path, *answer(sock)))
            except TimeoutError:
                answers.append((path, 0, {"code": f"no answer within {ANSWER_TIMEOUT} s"}))
        prober.probes(3)
        # 20 more, whose clients vanish before reading anything.
        for path, headers in streams:
            vanish(send(server.port, path, headers))
        prober.probes(10)
    assert all(status == 501 and body["code"] == "not_streaming" for _, status, body in answers), answers
    assert all(body["detail"] for _, _, body in answers)
    assert set(prober.answers) == {200}, [a for a in prober.answers if a != 200][:5]
    # After the clients are gone: as many health checks at once as the server has threads, and more.
    checks = [send(server.port, "/api/v1/health/", {}) for _ in range(WORKERS * THREADS + 2)]
    for sock in checks:
        sock.settimeout(HEALTH_TIMEOUT)
    assert [answer(sock)[0] for sock in checks] == [200] * len(checks)
    # No worker held: stopping, each worker ends at once, none is killed past the graceful timeout.
    assert server.stop(timeout=GRACEFUL + 10) == 0
    log = server.log.read_text(errors="replace")
    assert "SIGKILL" not in log and "WORKER TIMEOUT" not in log, log[-4000:]
