"""The files of metrics shared between processes (``PROMETHEUS_MULTIPROC_DIR``): the folder made
when missing, and the files of ended processes merged so they do not pile up.

prometheus_client writes each process's counters and histograms to files of its own
(``counter_<pid>.db``, ``histogram_<pid>.db``) and never removes them: the counts of a process
that ended must stay counted. Every restarted web or Celery worker process adds files, and a scrape
reads them all (279 ms at 4,000 files). :func:`compact` adds up the files of the processes that
have ended into one file per kind (``counter_compacted.db``, ...) that the scrape reads like any
other, and removes theirs: the totals ``/metrics`` serves are the same before and after, to the
sample. It runs when a process sets up its metrics (``common.metrics``: the files its
predecessors left), when gunicorn reaps a worker (``config.gunicorn``), hourly in Celery beat
("metrics-compaction") and in the in-process sweeper. A scrape holds a shared lock on the folder,
a compaction an exclusive one, so no scrape sees a file counted twice or not at all; a compaction
that stops half-way is finished (or undone) by the next one (its journal).

Whether a process has ended is asked by its pid, so a folder is compacted only by processes of
its own pid namespace: every unit of a systemd host shares ``/run/pacru/metrics``; every
container has a sub-folder of its own (``docker/entrypoint.sh``). This module imports no Django
and makes no metric, so gunicorn's master process can use it.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import re
from collections.abc import Iterator

from prometheus_client import values
from prometheus_client.mmap_dict import MmapedDict

log = logging.getLogger(__name__)

#: Held shared by a scrape and exclusively by a compaction (in the folder the scrape reads).
LOCK_NAME = ".compaction.lock"
_ADDED_UP = re.compile(r"^(counter|histogram|summary)_(\d+)\.db$")
_LIVE_GAUGE = re.compile(r"^gauge_live[a-z]+_(\d+)\.db$")


def prepare(folder: str | None = None) -> bool:
    """Make ``PROMETHEUS_MULTIPROC_DIR`` if it is missing (only the web's unit made it, and a
    worker started first crashed on its first metric). If it cannot be made or written, warn
    and fall back to this process's own metrics (``/metrics`` then misses this process's).
    True when the process writes its samples to the folder."""
    if folder is None and os.environ.get("PROMETHEUS_MULTIPROC_DIR") == "":
        # Set but empty (a compose service's way of saying none): prometheus_client would write
        # its files into the working directory.
        os.environ.pop("PROMETHEUS_MULTIPROC_DIR")
        values.ValueClass = values.MutexValue
    folder = folder if folder is not None else os.environ.get("PROMETHEUS_MULTIPROC_DIR", "")
    if not folder:
        return False
    try:
        os.makedirs(folder, exist_ok=True)
        if not os.access(folder, os.W_OK | os.X_OK):
            raise PermissionError(f"not writable by uid {os.getuid()}")
    except OSError as exc:
        log.warning(
            "metrics: PROMETHEUS_MULTIPROC_DIR=%s is unusable (%s): this process keeps its metrics "
            "to itself, and /metrics will not count them",
            folder,
            exc,
        )
        os.environ.pop("PROMETHEUS_MULTIPROC_DIR", None)
        values.ValueClass = values.MutexValue
        return False
    return True


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (in this pid namespace)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


@contextlib.contextmanager
def locked(folder: str, exclusive: bool) -> Iterator[None]:
    """The folder's compaction lock (shared for a scrape); without one (read-only) nothing."""
    try:
        handle = open(os.path.join(folder, LOCK_NAME), "a+b")  # noqa: SIM115 (held across the yield)
    except OSError:
        yield
        return
    with handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def _recover(folder: str, kind: str) -> None:
    """Finish or undo a compaction of ``kind`` that stopped half-way (its journal is left)."""
    target = os.path.join(folder, f"{kind}_compacted.db")
    journal = target + ".journal"
    if not os.path.exists(journal):
        return
    if os.path.exists(target + ".tmp"):  # the merged file never replaced the old one: undo
        os.remove(target + ".tmp")
    else:  # it did: the merged processes' files go, as the compaction would have done
        with open(journal) as fh:
            for name in json.load(fh):
                with contextlib.suppress(FileNotFoundError):
                    os.remove(os.path.join(folder, name))
    os.remove(journal)


def _merge(folder: str, kind: str, names: list[str]) -> None:
    """Add the files ``names`` into ``<kind>_compacted.db`` and remove them, crash-safely: the
    sum is written to a new file, a journal names the files it holds, the new file replaces the
    old one, then the files and the journal go."""
    target = os.path.join(folder, f"{kind}_compacted.db")
    totals: dict[str, float] = {}
    sources = ([target] if os.path.exists(target) else []) + [os.path.join(folder, n) for n in names]
    for path in sources:
        for key, value, _timestamp, _pos in MmapedDict.read_all_values_from_file(path):
            totals[key] = totals.get(key, 0.0) + value
    merged = MmapedDict(target + ".tmp")
    try:
        for key, value in totals.items():
            merged.write_value(key, value, 0.0)
        merged._m.flush()
    finally:
        merged.close()
    journal = target + ".journal"
    with open(journal, "w") as fh:
        json.dump(names, fh)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(target + ".tmp", target)
    for name in names:
        with contextlib.suppress(FileNotFoundError):
            os.remove(os.path.join(folder, name))
    os.remove(journal)


def compact(folder: str | None = None, root: str | None = None) -> dict[str, int]:
    """Merge the counter, histogram and summary files of ended processes in ``folder`` (default
    ``PROMETHEUS_MULTIPROC_DIR``) and remove their live-gauge files (as prometheus_client's
    ``mark_process_dead``), under the exclusive lock of ``root`` (the folder scrapes read:
    ``PROMETHEUS_MULTIPROC_ROOT``, else ``folder``). Returns the numbers of files merged and
    removed, and of processes they were from; idempotent."""
    folder = folder if folder is not None else os.environ.get("PROMETHEUS_MULTIPROC_DIR", "")
    counts = {"merged": 0, "removed": 0, "processes": 0}
    if not folder or not os.path.isdir(folder):
        return counts
    root = root or os.environ.get("PROMETHEUS_MULTIPROC_ROOT") or folder
    with locked(root, exclusive=True):
        for kind in ("counter", "histogram", "summary"):
            _recover(folder, kind)
        dead: dict[str, list[str]] = {}
        gauges: list[str] = []
        pids: set[int] = set()
        for name in sorted(os.listdir(folder)):
            if match := _ADDED_UP.match(name):
                if not alive(int(match.group(2))):
                    dead.setdefault(match.group(1), []).append(name)
                    pids.add(int(match.group(2)))
            elif (match := _LIVE_GAUGE.match(name)) and not alive(int(match.group(1))):
                gauges.append(name)
                pids.add(int(match.group(1)))
        for kind in ("counter", "histogram", "summary"):
            if dead.get(kind):
                _merge(folder, kind, dead[kind])
                counts["merged"] += len(dead[kind])
        for name in gauges:
            with contextlib.suppress(FileNotFoundError):
                os.remove(os.path.join(folder, name))
            counts["removed"] += 1
    counts["processes"] = len(pids)
    if counts["merged"] or counts["removed"]:
        log.info(
            "retention: metrics files of %d ended process(es): %d merged, %d removed",
            counts["processes"],
            counts["merged"],
            counts["removed"],
            extra={"retention": counts},
        )
    return counts
