"""Sending Celery tasks after a commit without ever failing the write that asked for them.

A task is sent once the transaction that asked for it has committed. If the broker cannot take it
then (Redis restarting, the network down) the write has still happened and its answer must say so:
the failure is logged and counted, and the periodic sweeps pick the work up once the broker is
back (the clock sweep applies overdue timeouts, the bot sweep plays waiting bot turns, the ratings
sweep rates pending tables, the tournament sweep counts finished tables).

While the broker is failing, each further send would wait for its own connection timeout; so for
``BROKER_BACKOFF_SECONDS`` after a failure, sends in this process are skipped at once (and logged),
leaving the work to the sweeps as well.
"""

from __future__ import annotations

import logging
import threading
import time
from importlib import import_module
from typing import Any

from celery import current_app
from django.conf import settings

from common import metrics

log = logging.getLogger(__name__)

_lock = threading.Lock()
_down_until = 0.0


def broker_backing_off() -> bool:
    """Whether a recent send failed and sends are being skipped for a while."""
    return time.monotonic() < _down_until


def send(name: str, args: tuple[Any, ...] = (), **options: Any) -> bool:
    """Send the task ``name``; return whether the broker took it. Never raises for broker
    trouble. With tasks eager (no broker) the task runs here and now, as Celery does."""
    global _down_until
    if current_app.conf.task_always_eager:
        # The web process has not imported every task module: a task's name is its module path.
        import_module(name.rpartition(".")[0])
        current_app.tasks[name].apply(args=args, kwargs={}, **_eager_options(options))
        return True
    if broker_backing_off():
        log.warning("task %s%s not sent: the broker failed recently; the sweeps will cover it", name, args)
        _count(name, "skipped")
        return False
    try:
        current_app.send_task(name, args=args, **options)
    except Exception as exc:  # kombu and redis-py raise many kinds; all mean "not sent"
        with _lock:
            _down_until = time.monotonic() + settings.BROKER_BACKOFF_SECONDS
        log.warning(
            "task %s%s not sent (%s: %s); the sweeps will cover it", name, args, type(exc).__name__, exc
        )
        _count(name, "failed")
        return False
    _count(name, "sent")
    return True


def _eager_options(options: dict[str, Any]) -> dict[str, Any]:
    # An eager run ignores routing and timing options.
    return {k: v for k, v in options.items() if k not in ("eta", "countdown", "queue", "expires")}


def _count(name: str, outcome: str) -> None:
    metrics.task_sent(name, outcome)
