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
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from kombu import pools as kombu_pools

from config.celery import app

ROOT = Path(__file__).resolve().parents[1]
REDIS = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/14")
GRACE = 0.2


class Celery:
    """Worker and beat processes for one test, on a queue of its own."""

    def __init__(self, redis_url: str = REDIS, **env: str) -> None:
        self.redis_url = redis_url
        self.queue = f"clocks-test-{uuid.uuid4().hex[:8]}"
        db = connection.settings_dict
        host, port = db["HOST"] or "127.0.0.1", db["PORT"] or 5432
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": f"postgres://{db['USER']}@{host}:{port}/{db['NAME']}",
            "REDIS_URL": redis_url,
            "CLOCK_QUEUE": self.queue,
            "BOT_QUEUE": self.queue,
            "CLOCK_GRACE_SECONDS": str(GRACE),
            "CLOCK_SWEEP_SECONDS": "0.5",
            "LOG_LEVEL": "WARNING",
            **env,
        }
        self.procs: dict[str, subprocess.Popen[bytes]] = {}

    def start(self, name: str = "worker") -> None:
        if name.startswith("worker"):
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
            args = ["beat", "-s", f"/tmp/{self.queue}-{name}", "--max-interval", "1"]
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

    def alive(self, name: str = "worker") -> bool:
        """Whether the process is still running (it may have exited on its own)."""
        return self.procs[name].poll() is None

    def stop_all(self) -> None:
        for name in list(self.procs):
            self.kill(name, signal.SIGTERM)


def conf_set(**values: Any) -> None:
    """Change Celery settings in this process. The app reads Django's ``CELERY_*`` settings, and
    Celery 5.6 prefers such a prefixed key over the plain one: both are set."""
    app.conf.update({**values, **{f"CELERY_{key.upper()}": value for key, value in values.items()}})
    if "task_routes" in values:
        # The producer's router is made once, with the routes read then: make it again.
        app.amqp.flush_routes()
        app.amqp.__dict__.pop("router", None)


def conf_get(*keys: str) -> dict[str, Any]:
    return {key: app.conf[key] for key in keys}


def use_broker(url: str) -> None:
    """Point this process's Celery producer at ``url`` (new connections from now on)."""
    if app.conf.broker_url != url:
        # Connections made so far (if any) were to another broker: start afresh. kombu keeps
        # producer pools by connection in a registry of its own: empty it too.
        if app._pool is not None:
            app._pool.force_close_all()
            app._pool = None
        kombu_pools.reset()
        app.amqp._producer_pool = None
        app.control.mailbox._producer_pool = None
        conf_set(broker_url=url)


@contextmanager
def running_celery(settings: Any, redis_url: str = REDIS, **env: str) -> Iterator[Celery]:
    """Worker and beat processes on a queue of their own; this process sends to them."""
    c = Celery(redis_url, **env)
    settings.CLOCK_GRACE_SECONDS = GRACE
    saved = conf_get("task_always_eager", "task_routes", "broker_url")
    use_broker(redis_url)
    conf_set(
        task_always_eager=False,
        task_routes={"games.tasks.clock_*": {"queue": c.queue}, "games.tasks.bot_*": {"queue": c.queue}},
    )
    try:
        yield c
    finally:
        c.stop_all()
        use_broker(saved.pop("broker_url"))
        conf_set(**saved)


@pytest.fixture
def celery(settings: Any) -> Iterator[Celery]:
    with running_celery(settings) as c:
        yield c
