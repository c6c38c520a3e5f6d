"""A Redis server of a test's own, on a free port, that the test may kill and restart.

The shared Redis on 6379 is never touched: fault tests stop and start only this one.
"""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class RedisServer:
    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen[bytes] | None = None
        #: Its working folder: a replica writes the master's snapshot there (never into the checkout).
        self.dir = tempfile.mkdtemp(prefix="test-redis-")

    def start(self) -> None:
        Path(self.dir).mkdir(parents=True, exist_ok=True)
        self.proc = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                self.dir,
            ],
            stdout=subprocess.DEVNULL,
            start_new_session=True,
        )
        end = time.time() + 10
        while time.time() < end:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as conn:
                    conn.sendall(b"PING\r\n")
                    if conn.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                time.sleep(0.05)
        raise AssertionError(f"redis-server did not start on port {self.port}")

    def kill(self) -> None:
        """Stop it at once (SIGKILL: no goodbye to its clients), as a crash would."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)
        self.proc = None

    def stop(self) -> None:
        if self.proc is not None:
            self.kill()
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture
def own_redis() -> Iterator[RedisServer]:
    if shutil.which("redis-server") is None:
        pytest.fail("redis-server is not installed: the fault tests start Redis instances of their own")
    server = RedisServer()
    server.start()
    try:
        yield server
    finally:
        server.stop()
