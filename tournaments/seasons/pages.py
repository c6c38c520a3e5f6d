"""The season pages: a season (its tables, schedule, prizes and the player's own actions) and a
league's seasons archive. The organiser's season pages are ``tournaments.organising.seasons``."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from common.errors import ServiceError
from common.players import request_player, visitor_player
from games.models import Player

from .. import selectors as league_selectors
from ..models import League, Season, SeasonEntry
from ..standings import requested_bye_value
from ..teams import seasons as team_seasons
from . import selectors as season_selectors
from . import services as season_services
from .news import division_name


def _league(slug: str) -> League:
    league = League.objects.filter(slug=slug).first()
    if league is None:
        raise Http404("no such league")
    return league


def _season(league: League, season_id: int) -> Season:
    season = Season.objects.filter(pk=season_id, league=league).select_related("previous").first()
    if season is None:
        raise Http404("no such season")
    return season


# ------------------------------------------------------------------ reads
def division_tables(season: Season) -> list[dict[str, Any]]:
    """Each division's table (``selectors.season_table``) with its name and each row's zone: the
    movement, provisional while the season runs, final after the close."""
    tables = []
    for t in season_selectors.season_table(season):
        d = t.division
        name = division_name(level=d.level, group=d.group, name=d.name)
        rows = [
            {"row": r, "zone": r.movement if r.movement in ("up", "down") and not r.withdrawn else ""}
            for r in t.rows
        ]
        tables.append({"division": d, "name": name, "rows": rows, "final": t.final})
    return tables


def prize_rows(season: Season) -> list[Any]:
    """The season's prizes with their players (``selectors.prize_winners``); before the season
    starts, the prizes as set, nobody named yet."""
    if season.status == Season.Status.REGISTRATION:
        return [
            {"label": p["label"], "places": p["places"], "rating_max": p.get("rating_max"), "players": []}
            for p in season.prizes or []
        ]
    return list(season_selectors.prize_winners(season))


def bye_value(season: Season, entry: SeasonEntry | None) -> float:
    """What a requested bye pays in the player's division (the season's seats and scale)."""
    rule = "half"
    if entry is not None and entry.division_id and entry.division and entry.division.tournament:
        rule = entry.division.tournament.requested_bye
    return requested_bye_value(season.seats or 2, season.points_scale, rule)


def _paired(entry: SeasonEntry | None) -> int:
    """The rounds of the player's division already paired (they can no longer be marked)."""
    t = entry.division.tournament if entry is not None and entry.division else None
    return t.current_round if t is not None else 0


# ------------------------------------------------------------------ pages
def season_page(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    """A season: header, tables per division with movement, schedule, prizes, series points and
    the reader's own actions (register, withdraw, rounds they cannot play)."""
    league = _league(slug)
    season = _season(league, season_id)
    me = visitor_player(request)
    entry = None
    if me is not None:
        entry = (
            SeasonEntry.objects.filter(season=season, player=me)
            .select_related("division__tournament")
            .first()
        )
    registered = entry is not None and entry.status == SeasonEntry.Status.REGISTERED
    context = {
        "league": league,
        "season": season,
        "tables": division_tables(season) if season.kind == Season.Kind.DIVISIONS else [],
        "series": season_selectors.series_table(season) if season.kind == Season.Kind.SERIES else [],
        "schedule": season_selectors.schedule(season),
        "prizes": prize_rows(season),
        "entry": entry,
        "entry_division": (
            division_name(level=entry.division.level, group=entry.division.group, name=entry.division.name)
            if entry is not None and entry.division
            else ""
        ),
        "registered": registered,
        "unavailable": set(entry.unavailable or []) if entry else set(),
        "bye_value": f"{bye_value(season, entry):g}",
        "paired": _paired(entry),
        "can_register": season.status != Season.Status.FINISHED,
        "is_organiser": me is not None and league_selectors.is_organiser(league, me),
        "entries": SeasonEntry.objects.filter(season=season, status=SeasonEntry.Status.REGISTERED).count(),
    }
    if season.team_boards:  # a season of teams: team standings, the reader's teams
        context.update(team_seasons.page_context(season=season, player=me))
    return render(request, "seasons/season.html", context)


def league_seasons_page(request: HttpRequest, slug: str) -> HttpResponse:
    """A league's seasons: the current ones first, then the past ones with their winners."""
    league = _league(slug)
    rows = season_selectors.league_seasons(league)
    me = visitor_player(request)
    context = {
        "league": league,
        "current": [r for r in rows if r.status != Season.Status.FINISHED],
        "past": [r for r in rows if r.status == Season.Status.FINISHED],
        "kinds": dict(Season.Kind.choices),
        "statuses": dict(Season.Status.choices),
        "is_organiser": me is not None and league_selectors.is_organiser(league, me),
    }
    return render(request, "seasons/archive.html", context)


# ------------------------------------------------------------------ the player's actions
def _rounds_posted(request: HttpRequest) -> list[int]:
    """The round numbers ticked (the service says which are not on the calendar)."""
    return sorted({int(raw) for raw in request.POST.getlist("round") if raw.isascii() and raw.isdigit()})


def _register(season: Season, me: Player) -> str:
    season_services.season_register(season_id=season.pk, player=me)
    return _("You are registered for %(season)s") % {"season": season.name}


def _withdraw(season: Season, me: Player) -> str:
    season_services.season_withdraw(season_id=season.pk, player=me)
    return _("You withdrew from %(season)s") % {"season": season.name}


def _unavailable(request: HttpRequest, season: Season, me: Player) -> str:
    rounds = _rounds_posted(request)
    season_services.set_unavailable(season_id=season.pk, player=me, rounds=rounds)
    if not rounds:
        return _("Saved: you can play every round of %(season)s") % {"season": season.name}
    listed = ", ".join(str(n) for n in rounds)
    return ngettext(
        "Saved: you cannot play round %(rounds)s (a requested bye)",
        "Saved: you cannot play rounds %(rounds)s (a requested bye each)",
        len(rounds),
    ) % {"rounds": listed}


@login_required
@require_POST
def season_action(request: HttpRequest, slug: str, season_id: int, action: str) -> HttpResponse:
    """Register, withdraw, or say which rounds one cannot play; a message says what happened."""
    league = _league(slug)
    season = _season(league, season_id)
    me = request_player(request)
    handlers = {
        "register": lambda: _register(season, me),
        "withdraw": lambda: _withdraw(season, me),
        "unavailable": lambda: _unavailable(request, season, me),
        "team-register": lambda: team_seasons.page_action(
            season=season, player=me, action="register", team=request.POST.get("team", "")
        ),
        "team-withdraw": lambda: team_seasons.page_action(
            season=season, player=me, action="withdraw", team=request.POST.get("team", "")
        ),
    }
    handler = handlers.get(action)
    if handler is None:
        raise Http404("no such action")
    try:
        done = handler()
    except ServiceError as exc:
        messages.error(request, exc.detail)
    else:
        messages.success(request, done)
    return redirect("season", slug=league.slug, season_id=season.pk)
