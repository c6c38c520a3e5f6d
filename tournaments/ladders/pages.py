"""The ladder page: positions, challenges and the matchmaking queue, and the player's actions on
them (the same services as the API: join, leave, queue, unqueue, challenge; accept, decline,
cancel). Actions are POST only, with CSRF, for players who are logged in; each answers with a
message saying what happened (or the service's reason for refusing) and redirects."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from common.errors import NotFound, ServiceError
from common.http import fragment_response
from common.players import request_player, visitor_player
from games.models import Player

from ..models import Challenge, Ladder, LadderMember, QueueEntry
from ..selectors import find_player
from . import queue, selectors, services
from .reads import ladder_view


def ladder_page(request: HttpRequest, ladder_id: int) -> HttpResponse:
    try:
        view = ladder_view(ladder_id, visitor_player(request))
    except NotFound:
        raise Http404("no such ladder") from None
    context = {"ladder": view.ladder, "view": view}
    if request.GET.get("fragment"):
        return fragment_response(request, "tournaments/_ladder_body.html", context)
    return render(request, "tournaments/ladder.html", context)


def _ladder(ladder_id: int) -> Ladder:
    try:
        return selectors.ladder(ladder_id)
    except NotFound:
        raise Http404("no such ladder") from None


@login_required
@require_POST
def ladder_action_page(request: HttpRequest, ladder_id: int, action: str) -> HttpResponse:
    """join, leave, queue, unqueue, challenge (form field ``player``: the id of whom to challenge)."""
    ladder, me = _ladder(ladder_id), request_player(request)
    back = redirect("ladder", ladder_id=ladder.pk)
    act = LADDER_ACTIONS.get(action)
    if act is None:
        raise Http404("no such ladder action")
    try:
        act(request, ladder, me)
    except ServiceError as exc:
        messages.error(request, exc.detail)
    return back


def _join(request: HttpRequest, ladder: Ladder, me: Player) -> None:
    member = services.ladder_join(ladder=ladder, player=me)
    count = LadderMember.objects.filter(ladder=ladder).count()
    if member.position is not None:
        messages.success(
            request,
            _("You joined %(ladder)s: you are in place %(place)d of %(n)d")
            % {"ladder": ladder, "place": member.position, "n": count},
        )
    else:
        messages.success(
            request,
            ngettext(
                "You joined %(ladder)s: %(n)d player on the ladder, ordered by rating",
                "You joined %(ladder)s: %(n)d players on the ladder, ordered by rating",
                count,
            )
            % {"ladder": ladder, "n": count},
        )


def _leave(request: HttpRequest, ladder: Ladder, me: Player) -> None:
    """Leave the ladder; the player's pending challenges are cancelled with it (the message counts them)."""
    mine = Q(challenger=me) | Q(challenged=me)
    pending = Challenge.objects.filter(ladder=ladder, status=Challenge.Status.PENDING).filter(mine).count()
    services.ladder_leave(ladder=ladder, player=me)
    if pending:
        left = ngettext(
            "You left %(ladder)s; your %(n)d open challenge cancelled",
            "You left %(ladder)s; your %(n)d open challenges cancelled",
            pending,
        )
    else:
        left = _("You left %(ladder)s")
    messages.success(request, left % {"ladder": ladder, "n": pending})


def _queue(request: HttpRequest, ladder: Ladder, me: Player) -> None:
    queue.queue_join(ladder=ladder, player=me)
    waiting = QueueEntry.objects.filter(ladder=ladder).count()
    messages.success(
        request,
        ngettext(
            "You joined the queue of %(ladder)s: %(n)d player waiting for a table of %(seats)d",
            "You joined the queue of %(ladder)s: %(n)d players waiting for a table of %(seats)d",
            waiting,
        )
        % {"ladder": ladder, "n": waiting, "seats": ladder.seats},
    )


def _unqueue(request: HttpRequest, ladder: Ladder, me: Player) -> None:
    if not QueueEntry.objects.filter(ladder=ladder, player=me).exists():
        messages.info(request, _("You were not in the queue of %(ladder)s") % {"ladder": ladder})
    else:
        queue.queue_leave(ladder=ladder, player=me)
        messages.success(request, _("You left the queue of %(ladder)s") % {"ladder": ladder})


def _challenge(request: HttpRequest, ladder: Ladder, me: Player) -> None:
    target = find_player(request.POST.get("player", ""))
    if target is None:
        messages.error(request, _("there is no such player"))
        return
    c = services.challenge_create(ladder=ladder, challenger=me, challenged=target)
    messages.success(
        request,
        _("You challenged %(name)s: they have until %(when)s %(zone)s to answer")
        % {
            "name": target.display_name,
            "when": date_format(timezone.localtime(c.expires_at), "SHORT_DATETIME_FORMAT"),
            "zone": timezone.get_current_timezone_name(),
        },
    )


#: The ladder page's actions (the last part of the address): each calls its service and says what
#: happened in a message.
LADDER_ACTIONS: dict[str, Callable[[HttpRequest, Ladder, Player], None]] = {
    "join": _join,
    "leave": _leave,
    "queue": _queue,
    "unqueue": _unqueue,
    "challenge": _challenge,
}


@login_required
@require_POST
def challenge_action_page(request: HttpRequest, challenge_id: int, action: str) -> HttpResponse:
    """accept (leads to the new table), decline (the challenged player), cancel (the challenger)."""
    if action not in ("accept", "decline", "cancel"):
        raise Http404("no such challenge action")
    c = Challenge.objects.select_related("challenger", "challenged").filter(pk=challenge_id).first()
    if c is None:
        raise Http404("no such challenge")
    me = request_player(request)
    back = redirect("ladder", ladder_id=c.ladder_id)
    opponent = c.challenger if me.pk == c.challenged_id else c.challenged
    try:
        if action == "accept":
            table = services.challenge_accept(challenge_id=c.pk, by=me)
            messages.success(
                request,
                _("Challenge accepted: your game against %(name)s is ready")
                % {"name": opponent.display_name},
            )
            return redirect("table", table_id=table.pk)
        services.challenge_answer(challenge_id=c.pk, by=me, decision=action)
    except ServiceError as exc:
        messages.error(request, exc.detail)
        return back
    if action == "decline":
        messages.success(request, _("You declined %(name)s's challenge") % {"name": opponent.display_name})
    else:
        messages.success(
            request, _("You cancelled your challenge to %(name)s") % {"name": opponent.display_name}
        )
    return back
