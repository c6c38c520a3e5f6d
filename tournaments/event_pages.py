"""The event page: what a player sees of a tournament and does there (same services as the API)."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from common.errors import NotFound, ServiceError
from common.http import fragment_response
from common.players import request_player, visitor_player
from games.models import Player, Table

from . import event_reads, services
from .models import Registration, Tournament

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
    "losses": "losses",
    "eliminated_in": "out in",
}


def tournament_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    try:
        page = event_reads.event_page(tournament_id, visitor_player(request), TIEBREAK_LABELS)
    except NotFound:
        raise Http404("no such tournament") from None
    context = {"t": page.t, "page": page}
    fragment = request.GET.get("fragment")
    if fragment == "top":  # the facts, announcements and "your game is ready", polled live
        return fragment_response(request, "tournaments/_event_top.html", context)
    if fragment:  # rounds, standings, bracket and players, polled live
        return fragment_response(request, "tournaments/_tournament_body.html", context)
    return render(request, "tournaments/tournament.html", context)


def _places(t: Tournament) -> str:
    taken = Registration.objects.filter(tournament=t).exclude(status=Registration.Status.WITHDRAWN).count()
    if t.max_players is not None:
        return f"{taken} of {t.max_players} places taken"
    return f"{taken} player{'s' if taken != 1 else ''} registered"


def _act(request: HttpRequest, tournament_id: int, action: Callable[[Player], str]) -> HttpResponse:
    """Run one of the viewer's actions; say what happened (or the service's refusal); back to the page."""
    if not Tournament.objects.filter(pk=tournament_id).exists():
        raise Http404("no such tournament")
    try:
        messages.success(request, action(request_player(request)))
    except ServiceError as exc:
        messages.error(request, exc.detail)
    return redirect("tournament", tournament_id=tournament_id)


@login_required
@require_POST
def register_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    def act(player: Player) -> str:
        services.register(tournament_id=tournament_id, player=player)
        t = Tournament.objects.get(pk=tournament_id)
        then = " Check in before the start: only players who checked in are paired." if t.check_in else ""
        return f"You are registered for {t.name}: {_places(t)}.{then}"

    return _act(request, tournament_id, act)


@login_required
@require_POST
def withdraw_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    def act(player: Player) -> str:
        playing = Table.objects.filter(
            round_table__round__tournament_id=tournament_id,
            status=Table.Status.ACTIVE,
            seats__player=player,
            seats__state="playing",
        ).count()
        services.withdraw(tournament_id=tournament_id, player=player, by=player)
        t = Tournament.objects.get(pk=tournament_id)
        if t.status == Tournament.Status.RUNNING:
            resigned = " Your game being played was resigned." if playing else ""
            return f"You have withdrawn from {t.name}: you will not be paired again.{resigned}"
        return f"You have withdrawn from {t.name}: your place is free again ({_places(t)})."

    return _act(request, tournament_id, act)


@login_required
@require_POST
def check_in_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    def act(player: Player) -> str:
        services.check_in(tournament_id=tournament_id, player=player)
        t = Tournament.objects.get(pk=tournament_id)
        return f"You are checked in for {t.name}: you will be paired when it starts."

    return _act(request, tournament_id, act)
