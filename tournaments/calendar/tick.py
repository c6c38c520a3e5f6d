"""The calendar's periodic work, in one tick: Celery beat sends it every
``CALENDAR_TICK_SECONDS`` (``tournaments.tasks.calendar_tick``, queue ``slow``), and the
in-process sweeper of ``scripts/run`` calls :func:`local_tick` (``LOCAL_SWEEPS``).

Each part is idempotent and takes its rows under their own row locks, so two ticks at once (a
beat restarted, a task redelivered) do each thing once. ``now`` is injected by tests."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.utils import timezone

from common.retention import every, run_parts

from ..seasons import sweep as seasons
from ..teams import rounds as teams
from . import recurring, rounds, starts

PARTS = {
    "recurring": recurring.sweep,
    "starts": starts.sweep,
    "rounds": rounds.sweep,
    "seasons": seasons.sweep,
    "teams": teams.calendar_part,
}


def tick(*, now: datetime | None = None) -> dict[str, int]:
    """Run every part once; a part that fails is logged and the others still run."""
    return run_parts("calendar tick", PARTS, now=now or timezone.now())


@every(settings.CALENDAR_TICK_SECONDS)
def local_tick() -> dict[str, int]:
    """The in-process sweeper's calendar (``LOCAL_SWEEPS``)."""
    return tick()
