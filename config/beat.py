"""Celery beat's schedule (``CELERY_BEAT_SCHEDULE``), kept apart from the settings: which
periodic task runs how often, from the intervals the settings read from the environment."""

from __future__ import annotations

from typing import Any

from celery.schedules import crontab

from accounts import task_names as accounts_tasks
from games import task_names as games_tasks
from ratings import task_names as ratings_tasks
from tournaments import task_names as tournaments_tasks


def schedule(
    *,
    CLOCK_SWEEP_SECONDS: float,
    BOT_SWEEP_SECONDS: float,
    CALENDAR_TICK_SECONDS: float,
    PLAY_NOW_WAVE_SECONDS: float,
    RETENTION_HOUR: int,
) -> dict[str, Any]:
    """The beat entries; every task is idempotent, so a beat restarted or doubled does no harm."""
    return {
        "clock-sweep": {
            "task": games_tasks.CLOCK_SWEEP,
            "schedule": CLOCK_SWEEP_SECONDS,
            "options": {"expires": CLOCK_SWEEP_SECONDS * 5},
        },
        "bot-sweep": {
            "task": games_tasks.BOT_SWEEP,
            "schedule": BOT_SWEEP_SECONDS,
            "options": {"expires": BOT_SWEEP_SECONDS * 5},
        },
        "calendar-tick": {"task": tournaments_tasks.CALENDAR_TICK, "schedule": CALENDAR_TICK_SECONDS},
        # Quick pairing pools and arenas (tournaments.play_now): a wave every few seconds.
        "play-now-wave": {
            "task": tournaments_tasks.PLAY_NOW_WAVE,
            "schedule": PLAY_NOW_WAVE_SECONDS,
            "options": {"expires": PLAY_NOW_WAVE_SECONDS * 5},
        },
        "ladder-housekeeping": {
            "task": tournaments_tasks.LADDER_HOUSEKEEPING,
            "schedule": 10.0,
            "options": {"expires": 60},
        },
        "ratings-pending": {
            "task": ratings_tasks.RATE_PENDING,
            "schedule": 60.0,
            "options": {"expires": 300},
        },
        # Analyses whose task the broker or a worker lost: sent again (analysis.analyse.resend_lost).
        "analysis-sweep": {
            "task": "analysis.tasks.analysis_sweep",
            "schedule": 300.0,
            "options": {"expires": 600},
        },
        "mail-sweep": {"task": accounts_tasks.MAIL_SWEEP, "schedule": 15.0, "options": {"expires": 60}},
        "notify-sweep": {"task": accounts_tasks.NOTIFY_SWEEP, "schedule": 30.0, "options": {"expires": 120}},
        "guest-cleanup": {
            "task": games_tasks.GUEST_CLEANUP,
            "schedule": 3600.0,
            "options": {"expires": 1800},
        },
        "abandoned-guest-tables": {
            "task": games_tasks.END_ABANDONED_GUEST_TABLES,
            "schedule": 3600.0,
            "options": {"expires": 1800},
        },
        # Retention (docs/operators/backups.md): at fixed times of day, so a beat restarted daily
        # (its schedule file lost with the container) still runs them; each is idempotent and batched.
        "retention": {
            "task": accounts_tasks.RETENTION_SWEEP,
            "schedule": crontab(hour=RETENTION_HOUR, minute=10),
            "options": {"expires": 3600},
        },
        "archive-positions": {
            "task": games_tasks.ARCHIVE_POSITIONS,
            "schedule": crontab(hour=RETENTION_HOUR, minute=30),
            "options": {"expires": 3600},
        },
        # The metrics files of ended processes where the worker runs, merged (common.metrics_files).
        "metrics-compaction": {
            "task": games_tasks.COMPACT_METRICS,
            "schedule": 3600.0,
            "options": {"expires": 1800},
        },
    }
