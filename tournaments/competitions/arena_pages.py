"""An arena's page actions on the event page: join, pause, resume and withdraw. Each calls the
arena's service (``tournaments.arena.services``, the API's too), says what happened or why not,
and goes back to the event page. (Berserk is the table page's: ``web.pages.table_action_page``.)"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from common.errors import ServiceError
from common.players import request_player
from games.models import Player

from ..arena import services as arena
from ..models import Tournament


def _words(action: str, t: Tournament) -> str:
    said = {"event": t.name}
    if action == "join":
        if t.status == Tournament.Status.RUNNING:
            return _("You joined %(event)s: you are paired as soon as a table can be made.") % said
        return _("You joined %(event)s: you are paired as soon as it starts.") % said
    if action == "pause":
        return (
            _(
                "You paused in %(event)s: you are not paired again until you resume. A table you are "
                "playing goes on."
            )
            % said
        )
    if action == "resume":
        return _("You are back in %(event)s: you are paired again as soon as you are free.") % said
    return _("You left %(event)s: you are not paired again. Your points stay on the leaderboard.") % said


ACTIONS: dict[str, Callable[..., object]] = {
    "join": arena.arena_join,
    "pause": arena.arena_pause,
    "resume": arena.arena_resume,
    "withdraw": arena.arena_withdraw,
}


@login_required
@require_POST
def arena_action_page(request: HttpRequest, tournament_id: int, action: str) -> HttpResponse:
    """Join, pause, resume or withdraw (the viewer's own); back to the event page with a message."""
    service = ACTIONS.get(action)
    t = Tournament.objects.filter(pk=tournament_id).first()
    if service is None or t is None:
        raise Http404("no such arena action")
    player: Player = request_player(request)
    try:
        if action == "join":  # a team battle: the team chosen in the form (or the only one)
            arena.arena_join(
                tournament_id=tournament_id, player=player, team=request.POST.get("team") or None
            )
        else:
            service(tournament_id=tournament_id, player=player)
    except ServiceError as exc:
        messages.error(request, exc.detail)
    else:
        messages.success(request, _words(action, t))
    return redirect("tournament", tournament_id=tournament_id)
