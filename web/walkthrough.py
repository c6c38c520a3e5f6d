"""The first-game walkthrough: ``/learn/`` says what will happen, and its Start button opens a casual,
untimed two-player Pacru table against the random house bot (the newcomer in seat 1). The table page
then shows the coach panel (``templates/games/_coach.html`` + ``static/js/coach.js``) when its
address carries ``?coach=1``."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from common.errors import ServiceError
from common.players import visitor_player
from games import services
from games.guests import guest_creation_allowed

#: The table the walkthrough opens: the random bot is the gentlest opponent.
WALKTHROUGH_TABLE = {"game": "pacru", "players": 2, "rated": False, "seat": 1, "bot": "random", "bots": 1}


@require_http_methods(["GET", "POST"])
def learn(request: HttpRequest) -> HttpResponse:
    """GET: the explanation and the Start button. POST (Start): the walkthrough table, then its page
    with the coach. A visitor gets a guest account when guest play is on, else goes to log in."""
    if request.method == "GET":
        needs_login = not request.user.is_authenticated and not settings.GUEST_PLAY
        return render(request, "games/learn.html", {"needs_login": needs_login})
    if not request.user.is_authenticated:
        if not settings.GUEST_PLAY:
            return redirect(f"{reverse('login')}?next={reverse('learn')}")
        if not guest_creation_allowed(request):
            messages.error(
                request, _("too many guest accounts from your address: try again later, or sign up")
            )
            return redirect("learn")
        guest = services.guest_create()
        login(request, guest.user, backend="django.contrib.auth.backends.ModelBackend")
    player = visitor_player(request)
    assert player is not None
    try:
        table = services.table_create(creator=player, time_control={"kind": "untimed"}, **WALKTHROUGH_TABLE)
    except ServiceError as exc:
        messages.error(request, str(exc))
        return redirect("learn")
    return redirect(f"{reverse('table', args=[table.pk])}?coach=1")
