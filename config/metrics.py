"""``/metrics``: the Prometheus text format (common.metrics), with the background work's readings
(games.health) taken at scrape time. A plain Django view: no session, no throttle, not in the API
schema; local clients need nothing, others ``Authorization: Bearer <METRICS_TOKEN>``."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from common.metrics import Readings, ReadingsCollector, metrics_response
from games import health
from live.hub import HubCollector

READINGS = Readings(
    queue_depths=health.queue_depths,
    overdue_tables=health.overdue_count,
    stranded_bot_turns=health.stranded_bot_turns,
    sweep_ages=health.sweep_ages,
)


@never_cache
@require_safe
def metrics(request: HttpRequest) -> HttpResponse:
    # A live process (uvicorn) adds its open streams and channels (live.hub).
    return metrics_response(request, [ReadingsCollector(READINGS), HubCollector()])
