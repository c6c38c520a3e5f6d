"""A real Celery worker (and beat) for tests: their own processes on the shared Redis, with a
database number and queue name of their own, talking to the PostgreSQL test database so the
worker sees what the test commits."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from config.celery import app

ROOT = Path(__file__).resolve().parents[1]
REDIS = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/14")
GRACE = 0.2


class Celery:
    """Worker and beat processes for one test, on a queue of its own."""

    def __init__(self) -> None:
        self.queue = f"clocks-test-{uuid.uuid4().hex[:8]}"
        db = connection.settings_dict
        host, port = db["HOST"] or "127.0.0.1", db["PORT"] or 5432
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": f"postgres://{db['USER']}@{host}:{port}/{db['NAME']}",
            "REDIS_URL": REDIS,
            "CLOCK_QUEUE": self.queue,
            "BOT_QUEUE": self.queue,
            "CLOCK_GRACE_SECONDS": str(GRACE),
            "CLOCK_SWEEP_SECONDS": "0.5",
            "LOG_LEVEL": "WARNING",
        }
        self.procs: dict[str, subprocess.Popen[bytes]] = {}

    def start(self, name: str = "worker") -> None:
        if name == "worker":
            args = [
                "worker",
                "-Q",
                self.queue,
                "-c",
                "2",
                "--without-mingle",
                "--without-gossip",
                "-n",
                f"{self.queue}@%h",
            ]
        else:
            args = ["beat", "-s", f"/tmp/{self.queue}-beat", "--max-interval", "1"]
        self.procs[name] = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", *args, "-l", "WARNING"],
            cwd=ROOT,
            env=self.env,
            start_new_session=True,
        )

    def wait_ready(self, timeout: float = 20) -> None:
        end = time.time() + timeout
        while time.time() < end:
            replies = app.control.ping(timeout=0.5, destination=[f"{self.queue}@{os.uname().nodename}"])
            if replies:
                return
        raise AssertionError("the Celery worker did not come up")

    def kill(self, name: str = "worker", sig: int = signal.SIGKILL) -> None:
        proc = self.procs.pop(name)
        os.killpg(proc.pid, sig)
        proc.wait(timeout=20)

    def stop_all(self) -> None:
        for name in list(self.procs):
            self.kill(name, signal.SIGTERM)


@pytest.fixture
def celery(settings: Any) -> Iterator[Celery]:
    c = Celery()
    settings.CLOCK_GRACE_SECONDS = GRACE
    saved = {k: app.conf[k] for k in ("task_always_eager", "task_routes")}
    if app.conf.broker_url != REDIS:
        # Connections made so far (if any) were to the in-memory broker: start afresh.
        if app._pool is not None:
            app._pool.force_close_all()
            app._pool = None
        app.amqp._producer_pool = None
        app.control.mailbox._producer_pool = None
        app.conf.broker_url = REDIS
    app.conf.update(
        task_always_eager=False,
        task_routes={"games.tasks.clock_*": {"queue": c.queue}, "games.tasks.bot_*": {"queue": c.queue}},
    )
    try:
        yield c
    finally:
        c.stop_all()
        app.conf.update(saved)
