"""The seasons' part of the calendar tick (``tournaments.calendar.tick``).

* A divisions season in registration whose calendar has a first round time starts when its
  registration closes: one hour (``REGISTRATION_CLOSES_BEFORE``) before that time. The players
  are placed, each division's event is created with its players and scheduled (``starts_at`` the
  first round time), so the calendar starts each division at its first round by itself.
* A running divisions season whose division events have all finished is closed: places,
  promotion and relegation, the next season opened.

A points series (more events may still be added) and a season without a calendar are started
and closed by the organiser. Each step runs under the season's row lock and checks its status
first, so two ticks at once do each thing once.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from common.errors import ServiceError

from ..models import Division, Season
from . import services

log = logging.getLogger(__name__)

REGISTRATION_CLOSES_BEFORE = timedelta(hours=1)


def due_to_start(*, season: Season, now: datetime) -> bool:
    if season.kind != Season.Kind.DIVISIONS or not season.round_times:
        return False
    return datetime.fromisoformat(season.round_times[0]) - REGISTRATION_CLOSES_BEFORE <= now


def sweep(*, now: datetime) -> dict[str, int]:
    done = {"started": 0, "closed": 0, "refused": 0}
    waiting = Season.objects.filter(kind=Season.Kind.DIVISIONS, status=Season.Status.REGISTRATION)
    for season in waiting.only("pk", "kind", "round_times"):
        if not due_to_start(season=season, now=now):
            continue
        try:
            services.season_start(season_id=season.pk, now=now)
            done["started"] += 1
        except ServiceError as exc:  # too few players, a calendar too short, or started meanwhile
            log.info("season %s not started: %s", season.pk, exc.detail)
            done["refused"] += 1
    running = Season.objects.filter(kind=Season.Kind.DIVISIONS, status=Season.Status.RUNNING)
    for season in running.only("pk"):
        if not Division.objects.filter(season=season).exists() or services.unfinished(season=season):
            continue
        services.season_close(season_id=season.pk, now=now)
        done["closed"] += 1
    return {k: v for k, v in done.items() if v}
