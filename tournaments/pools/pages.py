"""The lobby's "Play now": the quick pairing block (a live fragment of the lobby page) and the
player's actions on it, join and leave (the same services as the API). Actions are POST only,
with CSRF, for players who are signed in; each says what happened (or the service's reason for
refusing) in a message and goes back to the lobby's block."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from common.errors import ServiceError
from common.http import fragment_response
from common.players import request_player, visitor_player

from ..models import PoolEntry
from . import selectors, services

TEMPLATE = "tournaments/_play_now.html"


def play_now_context(request: HttpRequest) -> dict[str, object]:
    """What the block shows the visitor (the lobby page includes it with this context)."""
    me = visitor_player(request)
    return {"me": me, "play": selectors.play_now(me)}


def play_now_fragment(request: HttpRequest) -> HttpResponse:
    """The block alone, as the lobby's live fragment reads it (``304`` while unchanged)."""
    return fragment_response(request, TEMPLATE, play_now_context(request))


def _back() -> HttpResponse:
    return redirect(reverse("home") + "#play-now")


@login_required
@require_POST
def pool_join_page(request: HttpRequest, pool_id: int) -> HttpResponse:
    me = request_player(request)
    try:
        entry = services.pool_join(player=me, pool_id=pool_id)
    except ServiceError as exc:
        messages.error(request, exc.detail)
        return _back()
    waiting = PoolEntry.objects.filter(pool_id=entry.pool_id).count()
    messages.success(
        request,
        ngettext(
            "You are waiting for a table in %(pool)s: %(n)d player waiting",
            "You are waiting for a table in %(pool)s: %(n)d players waiting",
            waiting,
        )
        % {"pool": selectors.describe(entry.pool), "n": waiting},
    )
    return _back()


@login_required
@require_POST
def pool_leave_page(request: HttpRequest) -> HttpResponse:
    left = services.pool_leave(player=request_player(request))
    if left is None:
        messages.info(request, _("You were not waiting in any pool"))
    else:
        messages.success(request, _("You stopped waiting in %(pool)s") % {"pool": selectors.describe(left)})
    return _back()
