"""Retention (issue 30, finding 5): every rule deletes what is past its time and keeps the rest,
in batches, and a second run deletes nothing; the jobs are on Celery beat's schedule and the
in-process sweeper's. The metrics files of ended processes are merged without changing a total
/metrics serves, and a missing metrics folder is made (finding 8)."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import tempfile
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from prometheus_client import generate_latest
from prometheus_client.mmap_dict import MmapedDict
from prometheus_client.parser import text_string_to_metric_families

import accounts.tasks
import games.tasks
from accounts import sweeps
from accounts.models import Notification, OutgoingMail, SessionRecord
from common import metrics, metrics_files
from common.retention import delete_in_batches
from config.celery import app
from games import retention, services
from games.guests import cleanup_guests
from games.models import Player, Table
from tests.games.conftest import Actor, started_table
from tests.games.test_guests import _age, guest_client

ROOT = Path(__file__).resolve().parents[2]
DAY = timedelta(days=1)

pytestmark = pytest.mark.django_db


def _notification(user: Any, key: str, created: Any, read: Any = None, mail: str = "none") -> int:
    n = Notification.objects.create(user=user, kind="turn", key=key, mail=mail)
    Notification.objects.filter(pk=n.pk).update(created_at=created, read_at=read)
    return n.pk


def test_notifications_read_or_unread_past_their_time_go(alice: Actor) -> None:
    now, user = timezone.now(), alice.player.user
    gone = [
        _notification(user, "read-long-ago", now - 200 * DAY, read=now - 91 * DAY),
        _notification(user, "unread-a-year", now - 366 * DAY),
    ]
    kept = [
        _notification(user, "read-lately", now - 200 * DAY, read=now - 89 * DAY),
        _notification(user, "unread-lately", now - 364 * DAY),
        _notification(user, "fresh", now),
        # Waiting for its digest: the digest still has to carry it.
        _notification(user, "in-a-digest", now - 400 * DAY, mail=Notification.Mail.DIGEST),
    ]
    assert sweeps.forget_notifications() == 2
    assert not Notification.objects.filter(pk__in=gone).exists()
    assert Notification.objects.filter(pk__in=kept).count() == len(kept)
    assert sweeps.forget_notifications() == 0


def test_the_keep_times_are_settings(alice: Actor, settings: Any) -> None:
    now = timezone.now()
    settings.NOTIFY_KEEP_READ_DAYS = 7
    pk = _notification(alice.player.user, "read-8-days", now - 10 * DAY, read=now - 8 * DAY)
    assert sweeps.forget_notifications() == 1 and not Notification.objects.filter(pk=pk).exists()


def test_expired_sessions_and_their_records_go(alice: Actor) -> None:
    now = timezone.now()
    stores = []
    for _ in range(3):
        store = SessionStore()
        store.create()
        stores.append(store.session_key)
    expired, alive, also_expired = stores
    Session.objects.filter(pk__in=[expired, also_expired]).update(expire_date=now - DAY)
    age = timedelta(seconds=settings.SESSION_COOKIE_AGE)
    old = SessionRecord.objects.create(
        user=alice.player.user, session_key=expired, last_seen=now - age - 2 * DAY
    )
    recent = SessionRecord.objects.create(user=alice.player.user, session_key=alive, last_seen=now - age / 2)
    assert sweeps.clear_sessions() == {"sessions": 2, "session_records": 1}
    assert list(Session.objects.values_list("pk", flat=True)) == [alive]
    assert list(SessionRecord.objects.values_list("pk", flat=True)) == [recent.pk]
    assert not SessionRecord.objects.filter(pk=old.pk).exists()
    assert sweeps.clear_sessions() == {"sessions": 0, "session_records": 0}


def _mail(key: str, status: str, created: Any) -> int:
    mail = OutgoingMail.objects.create(
        key=key, to="a@example.org", subject="s", text="t", message_id=f"<{key}@x>", status=status,
        next_try_at=created,
    )  # fmt: skip
    OutgoingMail.objects.filter(pk=mail.pk).update(created_at=created)
    return mail.pk


def test_sent_and_given_up_mails_go_after_mail_keep_days() -> None:
    now, keep = timezone.now(), timedelta(days=settings.MAIL_KEEP_DAYS)
    gone = [_mail("sent-old", "sent", now - keep - DAY), _mail("failed-old", "failed", now - keep - DAY)]
    kept = [
        _mail("sent-lately", "sent", now - keep + DAY),
        _mail("pending-old", "pending", now - keep - 30 * DAY),  # still to be sent, whatever its age
    ]
    counts = sweeps.retention_sweep()
    assert counts["mails"] == 2
    assert not OutgoingMail.objects.filter(pk__in=gone).exists()
    assert OutgoingMail.objects.filter(pk__in=kept).count() == 2
    assert sweeps.retention_sweep()["mails"] == 0


def test_the_retention_sweep_logs_one_line_with_its_counts(
    alice: Actor, caplog: pytest.LogCaptureFixture
) -> None:
    _notification(alice.player.user, "old", timezone.now() - 400 * DAY)
    with caplog.at_level(logging.INFO, logger="accounts.sweeps"):
        counts = accounts.tasks.retention_sweep()
    assert counts == {"mails": 0, "notifications": 1, "sessions": 0, "session_records": 0}
    lines = [r.getMessage() for r in caplog.records if r.name == "accounts.sweeps"]
    assert len(lines) == 1 and "1 notifications" in lines[0] and "0 mails" in lines[0], lines


def test_positions_of_tables_that_ended_long_ago_are_archived(alice: Actor, bob: Actor, carol: Actor) -> None:
    now, after = timezone.now(), timedelta(days=settings.ARCHIVE_AFTER_DAYS)
    old, recent, playing = (started_table([alice, bob]) for _ in range(3))
    Table.objects.filter(pk=old.pk).update(status=Table.Status.FINISHED, finished_at=now - after - DAY)
    Table.objects.filter(pk=recent.pk).update(status=Table.Status.ABORTED, finished_at=now - after + DAY)
    assert Table.objects.filter(position__isnull=True).count() == 0
    assert games.tasks.archive_positions() == 1
    assert Table.objects.get(pk=old.pk).position is None
    assert Table.objects.filter(pk__in=[recent.pk, playing.pk], position__isnull=False).count() == 2
    assert games.tasks.archive_positions() == 0


def test_retention_works_in_batches_of_short_transactions(alice: Actor) -> None:
    now = timezone.now()
    for i in range(5):
        _notification(alice.player.user, f"n{i}", now - 400 * DAY)
    _notification(alice.player.user, "young", now)
    with CaptureQueriesContext(connection) as queries:
        assert delete_in_batches(Notification.objects.filter(created_at__lt=now - DAY), batch=2) == 5
    deletes = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("DELETE")]
    assert len(deletes) == 3, deletes  # 2 + 2 + 1, each by primary key
    assert Notification.objects.count() == 1


def test_guests_kept_do_not_starve_the_cleanup(db: None, bob: Actor) -> None:
    """Guests kept (a rated game against a person) once filled every page of candidates, so the
    stale guests behind them were never looked at."""
    for i in range(3):
        legacy = services.player_register(
            username=f"guest-0ld{i}", password="correct-horse-9", display_name=f"Old {i}"
        )
        table = services.table_create(creator=legacy, game="pacru", players=2, rated=True)
        services.seat_join(table_id=table.pk, player=bob.player)
        Player.objects.filter(pk=legacy.pk).update(is_guest=True)
        _age(legacy, 30)
    _, stale = guest_client()
    _age(stale, 30)
    assert cleanup_guests(limit=2) == {"deleted": 1, "kept": 3}
    assert not Player.objects.filter(pk=stale.pk).exists()
    assert cleanup_guests(limit=2) == {"deleted": 0, "kept": 3}


def test_every_job_is_on_the_beat_schedule_and_the_local_sweeper() -> None:
    schedule = settings.CELERY_BEAT_SCHEDULE
    jobs = {
        "retention": accounts.tasks.retention_sweep,
        "archive-positions": games.tasks.archive_positions,
        "guest-cleanup": games.tasks.guest_cleanup,
        "metrics-compaction": games.tasks.compact_metrics,
    }
    for entry, task in jobs.items():
        assert schedule[entry]["task"] == task.name and task.name in app.tasks
    for name in ("accounts.sweeps.local_retention", "games.retention.local_archive"):
        assert name in settings.LOCAL_SWEEPS
    assert "common.metrics.local_compaction" in settings.LOCAL_SWEEPS


def test_the_in_process_sweeper_runs_the_retention(alice: Actor, bob: Actor) -> None:
    old = _notification(alice.player.user, "old", timezone.now() - 400 * DAY)
    table = started_table([alice, bob])
    ended = timezone.now() - timedelta(days=settings.ARCHIVE_AFTER_DAYS + 1)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED, finished_at=ended)
    sweeps.local_retention.reset()  # type: ignore[attr-defined]
    retention.local_archive.reset()  # type: ignore[attr-defined]
    call_command("clock_sweeper", "--once")
    assert not Notification.objects.filter(pk=old).exists()
    assert Table.objects.get(pk=table.pk).position is None


# Metrics files ------------------------------------------------------------------------------------

WRITE = (
    "import sys\n"
    "from common import metrics\n"
    "for _ in range(int(sys.argv[1])):\n"
    "    metrics.move_adjudicated('accepted', 0.002)\n"
    "    metrics.task_finished('games.tasks.clock_check', 'success')\n"
    "    metrics.timeout_applied('timeout', 3.0)\n"
)


def _env(folder: Path) -> dict[str, str]:
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(folder), "DJANGO_SETTINGS_MODULE": "config.settings"}
    env.pop("PROMETHEUS_MULTIPROC_ROOT", None)
    return env


def _ended_process(folder: Path, n: int, staged: bool = True) -> list[str]:
    """A process that counted ``n`` of each and ended, its files left in ``folder``. Written in a
    folder of its own and moved (``staged``): a process merges what it finds when it starts."""
    where = Path(tempfile.mkdtemp(dir=folder.parent)) if staged else folder
    out = subprocess.run(
        [sys.executable, "-c", WRITE, str(n)], cwd=ROOT, env=_env(where), capture_output=True, timeout=60
    )
    assert out.returncode == 0, out.stderr.decode()
    names = []
    for path in where.glob("*_[0-9]*.db"):
        path.rename(folder / path.name)
        names.append(path.name)
    return names


def _samples(folder: Path) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    text = generate_latest(metrics.registry(multiproc_dir=str(folder))).decode()
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def same(samples: dict[Any, float]) -> Any:
    """Equal, but for the last bits of float sums added up in another order (counts are exact)."""
    return pytest.approx(samples, rel=1e-12, abs=1e-12)


def test_the_files_of_ended_processes_are_merged_and_no_total_changes(tmp_path: Path) -> None:
    folder = tmp_path / "metrics"
    folder.mkdir()
    # A process still running keeps its files (it writes on to them).
    running = subprocess.Popen(
        [sys.executable, "-c", WRITE + "print('ready', flush=True)\nsys.stdin.read()\n", "4"],
        cwd=ROOT,
        env=_env(folder),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    try:
        assert running.stdout is not None and running.stdout.readline().strip() == b"ready"
        for n in (1, 2, 3):
            _ended_process(folder, n)
        MmapedDict(str(folder / "gauge_livesum_999999999.db")).close()  # an ended process's live gauge
        before = _samples(folder)
        assert before[("pacru_moves_adjudicated_total", (("result", "accepted"),))] == 10
        assert len(list(folder.glob("*.db"))) == 9

        counts = metrics_files.compact(str(folder))
        assert counts == {"merged": 6, "removed": 1, "processes": 4}
        files = sorted(p.name for p in folder.glob("*.db"))
        assert files == sorted(
            ["counter_compacted.db", "histogram_compacted.db"]
            + [f"{kind}_{running.pid}.db" for kind in ("counter", "histogram")]
        )
        assert _samples(folder) == same(before)
        assert metrics_files.compact(str(folder)) == {"merged": 0, "removed": 0, "processes": 0}

        # More processes end: their counts add to the merged ones, none goes down.
        _ended_process(folder, 5)
        grown = _samples(folder)
        metrics_files.compact(str(folder))
        assert _samples(folder) == same(grown)
        assert grown[("pacru_moves_adjudicated_total", (("result", "accepted"),))] == 15
        assert all(grown[key] >= value for key, value in before.items())
    finally:
        running.communicate(b"", timeout=30)
    metrics_files.compact(str(folder))  # now it has ended too
    assert sorted(p.name for p in folder.glob("*.db")) == ["counter_compacted.db", "histogram_compacted.db"]
    assert _samples(folder) == same(grown)


def test_a_compaction_stopped_half_way_is_finished_or_undone(tmp_path: Path) -> None:
    folder = tmp_path / "metrics"
    folder.mkdir()
    _ended_process(folder, 2)
    before = _samples(folder)
    metrics_files.compact(str(folder))
    _ended_process(folder, 3)
    expected = _samples(folder)
    names = sorted(p.name for p in folder.glob("counter_[0-9]*.db"))
    # Stopped after its journal, before the merged file replaced the old one: undone, then redone.
    (folder / "counter_compacted.db.tmp").write_bytes(b"half")
    (folder / "counter_compacted.db.journal").write_text(f'["{names[0]}"]')
    metrics_files.compact(str(folder))
    assert _samples(folder) == same(expected)
    assert not list(folder.glob("*.tmp")) and not list(folder.glob("*.journal"))
    # Stopped after the replace, before the merged files went: they go, and are not counted twice.
    _ended_process(folder, 1)
    expected = _samples(folder)
    stale = next(folder.glob("counter_[0-9]*.db"))
    written = stale.read_bytes()
    metrics_files._merge(str(folder), "counter", [stale.name])
    stale.write_bytes(written)
    (folder / "counter_compacted.db.journal").write_text(f'["{stale.name}"]')
    metrics_files.compact(str(folder))
    assert _samples(folder) == same(expected)
    assert not stale.exists() and not list(folder.glob("*.journal"))
    assert before  # the first scrape had samples


def test_a_process_merges_the_files_ended_processes_left_when_it_starts(tmp_path: Path) -> None:
    folder = tmp_path / "metrics"
    folder.mkdir()
    _ended_process(folder, 1)
    _ended_process(folder, 2)
    before = _samples(folder)
    _ended_process(folder, 4, staged=False)
    after = _samples(folder)
    key = ("pacru_moves_adjudicated_total", (("result", "accepted"),))
    assert (before[key], after[key]) == (3, 7)
    assert len(list(folder.glob("counter_*.db"))) == 2  # the merged file, and the last process's


def test_a_new_celery_worker_process_merges_the_files_of_those_it_replaces(tmp_path: Path) -> None:
    folder = tmp_path / "metrics"
    folder.mkdir()
    code = (
        "import sys, django; django.setup(); import config.celery; from celery import signals\n"
        "print('ready', flush=True); sys.stdin.read()\n"
        "signals.worker_process_init.send(sender=None)\n"
    )
    pipes = {"stdin": subprocess.PIPE, "stdout": subprocess.PIPE}
    worker = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, env=_env(folder), **pipes)  # type: ignore[call-overload]
    assert worker.stdout is not None and worker.stdout.readline().strip() == b"ready"
    ended = _ended_process(folder, 2)  # a pool process that ended after this one started
    before = _samples(folder)
    worker.communicate(b"", timeout=60)
    assert worker.returncode == 0
    assert ended and not any((folder / name).exists() for name in ended)
    assert (folder / "counter_compacted.db").exists()
    assert _samples(folder) == same(before)


# A missing metrics folder (finding 8) --------------------------------------------------------------

START = (
    "import django; django.setup(); import config.celery; from common import metrics; "
    "metrics.move_adjudicated('accepted', 0.01)"
)


def test_a_process_makes_a_missing_metrics_folder(tmp_path: Path) -> None:
    folder = tmp_path / "run" / "pacru" / "metrics"
    out = subprocess.run(
        [sys.executable, "-c", START], cwd=ROOT, env=_env(folder), capture_output=True, timeout=60
    )
    assert out.returncode == 0, out.stderr.decode()
    assert list(folder.glob("counter_*.db"))


def test_an_unusable_metrics_folder_falls_back_with_a_warning(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    out = subprocess.run(
        [sys.executable, "-c", START],
        cwd=ROOT,
        env=_env(blocker / "metrics"),
        capture_output=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr.decode()
    assert "PROMETHEUS_MULTIPROC_DIR" in out.stderr.decode() and "unusable" in out.stderr.decode()


def test_every_systemd_unit_writing_metrics_makes_and_keeps_the_folder() -> None:
    units = sorted((ROOT / "deploy" / "systemd").glob("*.service"))
    writers = [u for u in units if "PROMETHEUS_MULTIPROC_DIR=/run/pacru/metrics" in u.read_text()]
    assert {u.name for u in writers} >= {"pacru-web.service", "pacru-worker@.service", "pacru-beat.service"}
    for unit in writers:
        lines = unit.read_text().splitlines()
        runtime = [line.split("=", 1)[1].split() for line in lines if line.startswith("RuntimeDirectory=")]
        assert any("pacru/metrics" in dirs for dirs in runtime), unit.name
        assert "RuntimeDirectoryPreserve=yes" in lines, unit.name
