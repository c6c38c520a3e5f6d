"""The service's Prometheus metrics, the functions the code records them with, and ``/metrics``.

Counters and histograms are recorded where the work happens (:func:`move_adjudicated`,
:func:`timeout_applied`, :func:`bot_turn_played`, :func:`rating_updates_applied`, and the Celery
task signals :func:`install_celery_signals` connects). Gauges of the service's state (queue
depths, overdue tables, bot turns waiting, the sweeps' ages) are read when Prometheus scrapes, by
:class:`ReadingsCollector`, from readings the caller passes in (``config.metrics`` gives it
``games.health``'s).

Several processes (gunicorn workers, Celery worker processes): with ``PROMETHEUS_MULTIPROC_DIR``
set, each process writes its samples to files there and :func:`registry` adds up the files under
:func:`shared_dir` (every container's sub-folder of the shared volume, see ``docker/entrypoint.sh``).
Only counters and histograms live in those files; the gauges are read at scrape time. Without it
(local runs, tests) the process's default registry is served. The files of ended processes are
merged (``common.metrics_files.compact``), and a missing folder is made at import.
"""

from __future__ import annotations

import glob
import hmac
import ipaddress
import logging
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from celery import signals
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

from common import metrics_files
from common.retention import every

log = logging.getLogger(__name__)

# Before the first metric: the shared folder made if missing (else this process keeps its own),
# and the files its predecessors left merged (common.metrics_files).
if metrics_files.prepare():
    try:
        metrics_files.compact()
    except Exception as exc:  # never a reason not to start
        log.warning("metrics: compaction failed: %s: %s", type(exc).__name__, exc)

MOVES = Counter(
    "pacru_moves_adjudicated",
    "Moves submitted and adjudicated, by result: accepted, retry (an exact retry of a recorded move), "
    "the refusal's code (illegal_move, stale_ply, not_your_turn, flagged, ...) or error.",
    ["result"],
)
ADJUDICATION = Histogram(
    "pacru_move_adjudication_seconds",
    "Time to adjudicate and record one submitted move (the transaction under the table's lock).",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0),
)
TIMEOUTS = Counter(
    "pacru_timeouts_applied",
    "Clocks run out and applied, by kind: timeout (a seat lost on time) or aborted (no first move).",
    ["kind"],
)
TIMEOUT_LAG = Histogram(
    "pacru_timeout_lag_seconds",
    "How long after its deadline plus the grace a timeout or abort was applied.",
    buckets=(0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 300.0),
)
BOT_LAG = Histogram(
    "pacru_bot_turn_lag_seconds",
    "Seconds from the start of a bot's turn to its move being recorded.",
    buckets=(0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0),
)
RATING_UPDATES = Counter(
    "pacru_rating_updates_applied",
    "Finished tables whose rating update was applied.",
)
TASKS = Counter(
    "pacru_celery_tasks",
    "Celery tasks ended, by task name and outcome: success, failure, retry, rejected, revoked, expired.",
    ["task", "outcome"],
)
SENDS = Counter(
    "pacru_celery_tasks_sent",
    "Tasks handed to the broker, by task name and outcome: sent, failed (the broker did not take "
    "it; the sweeps cover the work) or skipped (not tried: the broker failed moments ago).",
    ["task", "outcome"],
)
RECEIVER_FAILURES = Counter(
    "pacru_event_receiver_failures",
    "Receivers of an after-commit event that raised (logged; the write and the other receivers "
    "went on), by event and receiver.",
    ["event", "receiver"],
)


def move_adjudicated(result: str, seconds: float) -> None:
    """One submitted move was adjudicated: ``accepted``, ``retry`` or the refusal's code."""
    MOVES.labels(result=result).inc()
    ADJUDICATION.observe(max(0.0, seconds))


def timeout_applied(kind: str, lag_seconds: float) -> None:
    """A timeout (``timeout``) or first-move abort (``aborted``) was applied, ``lag_seconds``
    after the deadline plus the grace."""
    TIMEOUTS.labels(kind=kind).inc()
    TIMEOUT_LAG.observe(max(0.0, lag_seconds))


def bot_turn_played(lag_seconds: float) -> None:
    """A bot's move was recorded ``lag_seconds`` after its turn started."""
    BOT_LAG.observe(max(0.0, lag_seconds))


def rating_updates_applied(n: int) -> None:
    """``n`` tables' rating updates were applied (committed)."""
    if n > 0:
        RATING_UPDATES.inc(n)


def receiver_failed(event: str, receiver: str) -> None:
    """A receiver of ``event`` raised after the commit (games.events.announce)."""
    RECEIVER_FAILURES.labels(event=event, receiver=receiver).inc()


def task_finished(task: str, outcome: str) -> None:
    """A task ran to an end: ``success``, ``failure``, ``retry``, ``rejected``, ``revoked``, ``expired``."""
    TASKS.labels(task=task or "unknown", outcome=outcome).inc()


def task_sent(task: str, outcome: str) -> None:
    """A task was given to the broker (``sent``) or not (``failed``, ``skipped``): common.tasks."""
    SENDS.labels(task=task or "unknown", outcome=outcome).inc()


# Celery's signals ------------------------------------------------------------------------------


def _name(sender: Any) -> str:
    return str(getattr(sender, "name", None) or sender or "unknown")


def _on_success(sender: Any = None, **kw: Any) -> None:
    task_finished(_name(sender), "success")


def _on_failure(sender: Any = None, **kw: Any) -> None:
    task_finished(_name(sender), "failure")


def _on_retry(sender: Any = None, **kw: Any) -> None:
    task_finished(_name(sender), "retry")


def _on_rejected(sender: Any = None, message: Any = None, **kw: Any) -> None:
    headers = getattr(message, "headers", None) or {}
    task_finished(str(headers.get("task") or "unknown"), "rejected")


def _on_revoked(sender: Any = None, expired: bool = False, **kw: Any) -> None:
    task_finished(_name(sender), "expired" if expired else "revoked")


def _compact(**kw: Any) -> None:
    try:
        metrics_files.compact()
    except Exception as exc:  # never a reason for a worker process not to start
        log.warning("metrics: compaction failed: %s: %s", type(exc).__name__, exc)


def install_celery_signals() -> None:
    """Count every task's outcome (connected from ``config.celery``; connecting twice is harmless),
    and have each new worker process merge the metrics files of the ones it replaces."""
    signals.worker_process_init.connect(_compact, weak=False, dispatch_uid="pacru.metrics.compact")
    signals.task_success.connect(_on_success, weak=False, dispatch_uid="pacru.metrics.task_success")
    signals.task_failure.connect(_on_failure, weak=False, dispatch_uid="pacru.metrics.task_failure")
    signals.task_retry.connect(_on_retry, weak=False, dispatch_uid="pacru.metrics.task_retry")
    signals.task_rejected.connect(_on_rejected, weak=False, dispatch_uid="pacru.metrics.task_rejected")
    signals.task_revoked.connect(_on_revoked, weak=False, dispatch_uid="pacru.metrics.task_revoked")


# Readings taken at scrape time -------------------------------------------------------------------


@dataclass(frozen=True)
class Readings:
    """Where the scrape-time gauges come from (each may raise: the reading is then reported down)."""

    queue_depths: Callable[[], dict[str, int]]
    overdue_tables: Callable[[], int]
    stranded_bot_turns: Callable[[], int]
    #: Seconds since each background loop (clock-sweep, bot-sweep) last ran; none without it.
    sweep_ages: Callable[[], dict[str, float]] | None = None


class ReadingsCollector(Collector):
    """Gauges read at scrape time. A reading that fails is logged and reported as down
    (``pacru_redis_up 0``, ``pacru_database_up 0``); the scrape itself always succeeds. Without
    ``REDIS_URL`` (tasks run in-process) there is no Redis gauge nor queue depth."""

    def __init__(self, readings: Readings):
        self.readings = readings

    def collect(self) -> Iterator[Metric]:
        redis_up = GaugeMetricFamily("pacru_redis_up", "1 if Redis (the broker) answered this scrape.")
        depth = GaugeMetricFamily(
            "pacru_queue_depth",
            "Messages waiting in each Celery queue; 'unacked': held by workers (ETA tasks).",
            labels=["queue"],
        )
        if settings.REDIS_URL:  # without Redis, tasks run in-process: no broker, no queues
            try:
                depths = self.readings.queue_depths()
            except Exception as exc:  # a failing reading must not break the scrape
                log.warning("metrics: queue depths unreadable: %s: %s", type(exc).__name__, exc)
                redis_up.add_metric([], 0)
            else:
                redis_up.add_metric([], 1)
                for queue, n in sorted(depths.items()):
                    depth.add_metric([queue], n)
            yield redis_up
            yield depth

        database_up = GaugeMetricFamily("pacru_database_up", "1 if the database answered this scrape.")
        try:
            overdue = self.readings.overdue_tables()
            stranded = self.readings.stranded_bot_turns()
            ages = self.readings.sweep_ages() if self.readings.sweep_ages else {}
        except Exception as exc:  # the same
            log.warning("metrics: table readings failed: %s: %s", type(exc).__name__, exc)
            database_up.add_metric([], 0)
            yield database_up
            return
        database_up.add_metric([], 1)
        yield database_up
        yield GaugeMetricFamily(
            "pacru_overdue_tables",
            "Active tables whose timeout should have been applied by now (sweep or clock tasks behind).",
            value=overdue,
        )
        yield GaugeMetricFamily(
            "pacru_stranded_bot_turns",
            "Active tables where a bot has been on turn longer than BOT_STRANDED_SECONDS.",
            value=stranded,
        )
        if ages:
            sweep_age = GaugeMetricFamily(
                "pacru_sweep_age_seconds",
                "Seconds since each background sweep last ran (+Inf: never). Readiness reports the "
                "clock sweep degraded past max(10 x CLOCK_SWEEP_SECONDS, OVERDUE_SECONDS).",
                labels=["sweep"],
            )
            for name, age in sorted(ages.items()):
                sweep_age.add_metric([name], age)
            yield sweep_age


class _Forward(Collector):
    """Another registry's metrics, as one collector of a registry built per scrape."""

    def __init__(self, source: CollectorRegistry):
        self.source = source

    def collect(self) -> Iterable[Metric]:
        return self.source.collect()


class SharedFilesCollector(MultiProcessCollector):
    """prometheus_client's ``MultiProcessCollector``, reading the folder's sub-folders too: each
    container writes to a sub-folder of its own (``docker/entrypoint.sh``), as process ids of
    different containers collide."""

    def collect(self) -> Iterable[Metric]:
        # Under the shared lock: a compaction (common.metrics_files) never runs half-way through.
        with metrics_files.locked(self._path, exclusive=False):
            files = glob.glob(os.path.join(self._path, "**", "*.db"), recursive=True)
            return self.merge(files, accumulate=True)


def shared_dir() -> str:
    """The folder every process's samples are under ('' when each process keeps its own):
    ``PROMETHEUS_MULTIPROC_ROOT`` (set by ``docker/entrypoint.sh`` to the shared volume, whose
    sub-folder it makes this container's ``PROMETHEUS_MULTIPROC_DIR``), else ``PROMETHEUS_MULTIPROC_DIR``."""
    return os.environ.get("PROMETHEUS_MULTIPROC_ROOT") or os.environ.get("PROMETHEUS_MULTIPROC_DIR") or ""


@every(3600)
def local_compaction() -> dict[str, int]:
    """The in-process sweeper's metrics compaction (``LOCAL_SWEEPS``): hourly."""
    return metrics_files.compact()


def registry(extra: Iterable[Collector] = (), multiproc_dir: str | None = None) -> CollectorRegistry:
    """The registry one scrape serves: every process's samples (the files under ``multiproc_dir``,
    by default :func:`shared_dir`) or this process's default registry, plus ``extra`` collectors
    (the scrape-time gauges, kept out of the per-process files so they are not added up)."""
    folder = multiproc_dir if multiproc_dir is not None else shared_dir()
    scrape = CollectorRegistry(auto_describe=False)
    if folder:
        SharedFilesCollector(scrape, path=folder)
    else:
        scrape.register(_Forward(REGISTRY))
    for collector in extra:
        scrape.register(collector)
    return scrape


# The view -----------------------------------------------------------------------------------------


def _loopback(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return False
    mapped = getattr(ip, "ipv4_mapped", None)
    return bool((mapped or ip).is_loopback)


def scrape_refusal(request: HttpRequest) -> str:
    """Why this client may not read the metrics ('' if it may).

    Clients on the loopback (the connection's own address, ``REMOTE_ADDR``) need nothing, unless
    the request came through a proxy (it has ``X-Forwarded-For`` or ``Forwarded``: a proxy on the
    same machine must not make every client local). Anyone else needs
    ``Authorization: Bearer <METRICS_TOKEN>``; an empty ``METRICS_TOKEN`` disables that.
    """
    proxied = "HTTP_X_FORWARDED_FOR" in request.META or "HTTP_FORWARDED" in request.META
    if _loopback(request.META.get("REMOTE_ADDR", "")) and not proxied:
        return ""
    token = getattr(settings, "METRICS_TOKEN", "")
    if not token:
        return "metrics are served to local clients only: set METRICS_TOKEN to allow remote scraping\n"
    scheme, _, given = request.META.get("HTTP_AUTHORIZATION", "").partition(" ")
    if scheme.lower() != "bearer" or not hmac.compare_digest(given.strip().encode(), token.encode()):
        return "metrics need 'Authorization: Bearer <METRICS_TOKEN>'\n"
    return ""


def metrics_response(request: HttpRequest, extra: Iterable[Collector] = ()) -> HttpResponse:
    """The ``/metrics`` answer: the Prometheus text format, or 403 with the reason."""
    refusal = scrape_refusal(request)
    if refusal:
        return HttpResponse(refusal, status=403, content_type="text/plain; charset=utf-8")
    body = generate_latest(registry(extra))
    response = HttpResponse(body, content_type=CONTENT_TYPE_LATEST)
    response["Cache-Control"] = "no-store"
    return response
