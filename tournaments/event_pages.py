"""The event page: what a player sees of a tournament and does there (same services as the API)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from common.errors import NotFound
from common.http import fragment_response

from . import selectors

TIEBREAK_LABELS = {
    "buchholz": "Buchholz",
    "median_buchholz": "median Buchholz",
    "sonneborn_berger": "Sonneborn-Berger",
    "wins": "wins",
    "opponents_points": "opponents' points",
    "markers": "markers",
    "average_place": "average place",
    "exit_place": "place at the last table",
    "seed": "seed",
}


def tournament_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    try:
        t = selectors.tournament_detail(tournament_id, standings_after_rounds=True)
    except NotFound:
        raise Http404("no such tournament") from None
    standings = [
        (row, [(TIEBREAK_LABELS.get(k, k), v) for k, v in row.tiebreaks.items()])
        for row in t.standings  # type: ignore[attr-defined]
    ]
    context = {"t": t, "standings": standings, "rounds": t.round_set.all()}
    if request.GET.get("fragment"):
        return fragment_response(request, "tournaments/_tournament_body.html", context)
    return render(request, "tournaments/tournament.html", context)


