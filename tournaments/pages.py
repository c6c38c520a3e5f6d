"""Server-rendered pages: the leagues, and the lists of events, ladders and leagues."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from common.errors import NotFound
from common.pages import before_id, keyset_page
from games.models import GameKind

from . import selectors
from .models import Tournament


def league_page(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        league = selectors.league_detail(slug)
    except NotFound:
        raise Http404("no such league") from None
    context = {
        "league": league,
        "tournaments": league.tournaments.all(),
        "organisers": league.organisers.all(),
        "members": league.member_count,  # type: ignore[attr-defined]
    }
    return render(request, "tournaments/league.html", context)


# ------------------------------------------------------------------ list pages
#: Rows per section of the events list; finished events page back by id ("Older events").
EVENTS_PER_PAGE = 20


def _choice(request: HttpRequest, name: str, choices: list[tuple[str, str]]) -> str:
    """A filter value from the query string, or '' when absent or not one of ``choices``."""
    value = request.GET.get(name, "")
    return value if value in {c for c, _ in choices} else ""


def tournament_list_page(request: HttpRequest) -> HttpResponse:
    """Upcoming, running and finished events, filtered by game and status; the finished ones a
    page at a time, newest first (keyset by id, so any page costs what the first does)."""
    game = _choice(request, "game", GameKind.choices)
    shown = [(s, label) for s, label in Tournament.Status.choices if s != Tournament.Status.DRAFT]
    status = _choice(request, "status", shown)
    events = selectors.tournament_list(game=game or None).exclude(status=Tournament.Status.DRAFT)
    before = before_id(request.GET.get("before"))
    sections = []
    for key, title in (
        (Tournament.Status.REGISTRATION, "Registration open"),
        (Tournament.Status.RUNNING, "Running"),
        (Tournament.Status.FINISHED, "Finished"),
    ):
        if status and status != key:
            continue
        rows = events.filter(status=key).order_by("-id")
        if key == Tournament.Status.FINISHED and before is not None:
            rows = rows.filter(pk__lt=before)
        page, older = keyset_page(lambda n, rows=rows: rows[:n], EVENTS_PER_PAGE)
        sections.append({"key": key, "title": title, "rows": page, "older": older})
    context = {
        "sections": sections,
        "games": GameKind.choices,
        "statuses": shown,
        "game": game,
        "status": status,
    }
    return render(request, "tournaments/tournament_list.html", context)


def ladder_list_page(request: HttpRequest) -> HttpResponse:
    game = _choice(request, "game", GameKind.choices)
    context = {"ladders": selectors.ladder_directory(game or None), "games": GameKind.choices, "game": game}
    return render(request, "tournaments/ladder_list.html", context)


def league_list_page(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/league_list.html", {"leagues": selectors.league_directory()})
