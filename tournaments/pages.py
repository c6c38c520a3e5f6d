"""Server-rendered pages: the leagues, and the lists of events, ladders and leagues."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_POST

from common.errors import NotFound, ServiceError
from common.pages import before_id, keyset_page
from common.players import request_player, visitor_player
from games.models import GameKind

from . import selectors as league_selectors
from .competitions import selectors, services
from .ladders import selectors as ladder_selectors
from .models import Tournament


def league_page(request: HttpRequest, slug: str) -> HttpResponse:
    """A league: its description, organisers and members, its events (drafts left out) and ladders,
    and a button to join it."""
    try:
        league = selectors.league_detail(slug)
    except NotFound:
        raise Http404("no such league") from None
    me = visitor_player(request)
    # Events open for registration first, then the running ones, then the finished.
    order = {Tournament.Status.REGISTRATION: 0, Tournament.Status.RUNNING: 1, Tournament.Status.FINISHED: 2}
    context = {
        "league": league,
        "tournaments": sorted(
            (t for t in league.tournaments.all() if t.status != Tournament.Status.DRAFT),
            key=lambda t: order.get(t.status, 9),
        ),
        "organisers": league.organisers.all(),
        "members": league.member_count,  # type: ignore[attr-defined]
        "ladders": league.ladders.annotate(players=Count("members")).order_by("game", "pk"),
        "is_member": me is not None and league.members.filter(pk=me.pk).exists(),
    }
    return render(request, "tournaments/league.html", context)


@login_required
@require_POST
def league_join_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Join a league (``tournaments.competitions.services.league_join``)."""
    try:
        league = league_selectors.league(slug)
    except NotFound:
        raise Http404("no such league") from None
    me = request_player(request)
    if league.members.filter(pk=me.pk).exists():
        messages.info(request, _("You are a member of %(league)s already") % {"league": league.name})
        return redirect("league", slug=league.slug)
    try:
        services.league_join(league=league, player=me)
    except ServiceError as exc:
        messages.error(request, exc.detail)
    else:
        messages.success(request, _("You joined %(league)s") % {"league": league.name})
    return redirect("league", slug=league.slug)


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
        (Tournament.Status.REGISTRATION, pgettext("events list section", "Registration open")),
        (Tournament.Status.RUNNING, pgettext("events list section", "Running")),
        (Tournament.Status.FINISHED, pgettext("events list section", "Finished")),
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
    context = {
        "ladders": ladder_selectors.ladder_directory(game or None),
        "games": GameKind.choices,
        "game": game,
    }
    return render(request, "tournaments/ladder_list.html", context)


def league_list_page(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/league_list.html", {"leagues": league_selectors.league_directory()})
