"""The event page: what a player sees of a tournament and does there (same services as the API)."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext_lazy
from django.views.decorators.http import require_POST

from common.errors import NotFound, ServiceError
from common.http import fragment_response
from common.players import request_player, visitor_player
from games.models import Player, Table

from ..calendar.schedule_view import event_schedule
from ..models import Registration, Tournament
from . import reads, selectors, services
from .arena_view import arena_view

#: Each tie-break's column heading in the standings.
TIEBREAK_LABELS = {
    "buchholz": pgettext_lazy("tie-break", "Buchholz"),
    "median_buchholz": pgettext_lazy("tie-break", "median Buchholz"),
    "sonneborn_berger": pgettext_lazy("tie-break", "Sonneborn-Berger"),
    "wins": pgettext_lazy("tie-break", "wins"),
    "opponents_points": pgettext_lazy("tie-break", "opponents' points"),
    "markers": pgettext_lazy("tie-break", "markers"),
    "average_place": pgettext_lazy("tie-break", "average place"),
    "exit_place": pgettext_lazy("tie-break", "place at the last table"),
    "seed": pgettext_lazy("tie-break", "seed"),
    "losses": pgettext_lazy("tie-break", "losses"),
    # Translators: a double elimination's tie-break: the round in which the player went out.
    "eliminated_in": pgettext_lazy("tie-break", "out in"),
}


def tournament_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    try:
        page = reads.event_page(tournament_id, visitor_player(request), TIEBREAK_LABELS)
    except NotFound:
        raise Http404("no such tournament") from None
    context = {"t": page.t, "page": page, "schedule": event_schedule(page.t, page.t.round_set.all())}
    if page.t.format == Tournament.Format.ARENA:  # no rounds: the time left and the leaderboard
        context["arena"] = arena_view(page.t, visitor_player(request))
    fragment = request.GET.get("fragment")
    if fragment == "top":  # the facts, announcements and "your game is ready", polled live
        return fragment_response(request, "tournaments/_event_top.html", context)
    if fragment:  # rounds, standings, bracket and players, polled live
        return fragment_response(request, "tournaments/_tournament_body.html", context)
    return render(request, "tournaments/tournament.html", context)


def _places(t: Tournament) -> str:
    taken = Registration.objects.filter(tournament=t).exclude(status=Registration.Status.WITHDRAWN).count()
    if t.max_players is not None:
        return ngettext(
            "%(taken)d of %(n)d place taken", "%(taken)d of %(n)d places taken", t.max_players
        ) % {
            "taken": taken,
            "n": t.max_players,
        }
    return ngettext("%(n)d player registered", "%(n)d players registered", taken) % {"n": taken}


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
        words = {"event": t.name, "places": _places(t)}
        if t.check_in:
            return (
                _(
                    "You are registered for %(event)s: %(places)s. Check in before the start: only players "
                    "who checked in are paired."
                )
                % words
            )
        return _("You are registered for %(event)s: %(places)s.") % words

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
            if playing:
                return _(
                    "You have withdrawn from %(event)s: you will not be paired again. Your game being played "
                    "was resigned."
                ) % {"event": t.name}
            return _("You have withdrawn from %(event)s: you will not be paired again.") % {"event": t.name}
        return _("You have withdrawn from %(event)s: your place is free again (%(places)s).") % {
            "event": t.name,
            "places": _places(t),
        }

    return _act(request, tournament_id, act)


@login_required
@require_POST
def check_in_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    def act(player: Player) -> str:
        services.check_in(tournament_id=tournament_id, player=player)
        t = Tournament.objects.get(pk=tournament_id)
        return _("You are checked in for %(event)s: you will be paired when it starts.") % {"event": t.name}

    return _act(request, tournament_id, act)


@login_required
@require_POST
def late_entry_answer_page(request: HttpRequest, tournament_id: int, action: str) -> HttpResponse:
    """Accept or decline the organiser's invitation to enter this event late (the viewer's own)."""
    if action not in ("accept", "decline"):
        raise Http404("no such action")

    def act(player: Player) -> str:
        t = Tournament.objects.get(pk=tournament_id)
        invitation = selectors.pending_late_invitation(t, player)
        if invitation is None:
            raise NotFound(_("there is no invitation waiting for your answer in this event"))
        services.late_entry_answer(invitation_id=invitation.pk, by=player, accept=action == "accept")
        if action == "decline":
            return _("You declined to enter %(event)s: you are not entered.") % {"event": t.name}
        reg = Registration.objects.get(tournament=t, player=player)
        return _("You are entered into %(event)s: you play from round %(round)s.") % {
            "event": t.name,
            "round": reg.joined_round,
        }

    return _act(request, tournament_id, act)
