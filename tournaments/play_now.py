"""Play now's periodic work, in one wave: quick pairing pools seat who waits
(``tournaments.pools.wave``) and arenas pair their free players and end on time
(``tournaments.arena.wave``). Celery beat sends it every ``PLAY_NOW_WAVE_SECONDS``
(``tournaments.tasks.play_now_wave``, queue ``slow``); the in-process sweeper of
``scripts/run`` calls :func:`local_wave` (``LOCAL_SWEEPS``).

Each part takes its rows under row locks, so two waves at once (a beat restarted, a task
redelivered) seat every player once. ``now`` is injected by tests."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.utils import timezone

from common.retention import every, run_parts

from .arena import wave as arenas
from .pools import wave as pools

PARTS = {"pools": pools.sweep, "arenas": arenas.sweep}


def wave(*, now: datetime | None = None) -> dict[str, int]:
    """Run every part once; a part that fails is logged and the others still run."""
    return run_parts("play-now wave", PARTS, now=now or timezone.now())


@every(settings.PLAY_NOW_WAVE_SECONDS)
def local_wave() -> dict[str, int]:
    """The in-process sweeper's pairing wave (``LOCAL_SWEEPS``)."""
    return wave()
