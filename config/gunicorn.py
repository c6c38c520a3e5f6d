"""gunicorn settings for the web service: ``gunicorn -c config/gunicorn.py config.wsgi``.

Threads let a worker overlap one request's database wait (the commit's disk
flush) with another request's Python work; keep-alive saves a TCP handshake
per API call. The garbage collector is tuned per worker because collections
of the older generations were the tallest latency spikes under load.
"""

from __future__ import annotations

import gc
import os
import re
import tempfile
from typing import Any

bind = os.environ.get("BIND", "0.0.0.0:8000")
workers = int(os.environ.get("WEB_WORKERS", str(os.cpu_count() or 2)))
# Four threads a worker: a move spends longer waiting for its commit to reach the disk than on
# the CPU, so while one waits another runs (bench/load_moves.py: 2 × 4 gave 510 moves/s where
# 2 × 2 gave 315–379 on the same machine; each thread holds one database connection).
threads = int(os.environ.get("WEB_THREADS", "4"))
worker_class = "gthread"
keepalive = 30
timeout = 30
graceful_timeout = 20
accesslog = os.environ.get("ACCESS_LOG") or None
loglevel = os.environ.get("LOG_LEVEL", "info").lower()


def _control_socket(bind_address: str) -> str:
    """One control socket per instance (``gunicornc`` talks to it). gunicorn's default is one path
    per user, so a second instance on the machine would take it over and delete it on stopping;
    here it is named after the address the instance serves. ``GUNICORN_CONTROL_SOCKET`` overrides."""
    folder = os.environ.get("XDG_RUNTIME_DIR") or tempfile.gettempdir()
    name = re.sub(r"[^A-Za-z0-9.]+", "-", bind_address).strip("-")
    return os.path.join(folder, f"pacru-gunicorn-{name}.ctl")


control_socket = os.environ.get("GUNICORN_CONTROL_SOCKET") or _control_socket(bind)


def post_fork(server: Any, worker: Any) -> None:
    # Everything imported so far lives for the whole process: keep it out of collections,
    # and collect the young generation less often.
    gc.freeze()
    gc.set_threshold(50_000, 50, 100)


def child_exit(server: Any, worker: Any) -> None:
    # With PROMETHEUS_MULTIPROC_DIR (common.metrics) a dead worker's live gauge files are removed;
    # its counters and histograms stay counted, merged into one file with every ended process's
    # (common.metrics_files: no Django imported into the master).
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess  # only with metrics shared between processes

        from common import metrics_files  # the master imports no Django; this module needs none

        multiprocess.mark_process_dead(worker.pid)
        try:
            metrics_files.compact()
        except Exception as exc:  # the master must go on whatever happens to the files
            server.log.warning("metrics compaction failed: %s: %s", type(exc).__name__, exc)
