"""Outside bots: accounts played by a program of their own through the API (as on lichess).

A house bot (``Player.is_house_bot``) has an engine level and the service moves for it. An
*outside* bot (``Player.is_outside_bot``: ``is_bot`` with no ``bot_level``) is an ordinary account
whose owner runs a program that signs in with the account's token, reads its events from
``GET /api/v1/stream/`` and plays with ``POST /api/v1/tables/<id>/moves/``
(``examples/random_bot.py`` is a small one). Staff mark accounts in the admin ("Mark as outside
bot account"); a player turns a fresh account into one with ``POST /api/v1/account/bot/``.

Outside bots follow the house bots' rating policy: unrated tables only. They open and join
casual tables and invite house bots there; rated tables, events and ladders refuse them
(``games.guests.require_verified_email``), so no rating moves for a game against a program.
Their names follow the rules for people: the house bots' names stay reserved to the house bots.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from drf_spectacular.utils import extend_schema
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.auth import forget_tokens
from common.errors import Conflict
from common.players import request_player
from common.schema import ERROR
from games import selectors
from games.guests import forbid_guest
from games.models import Player, Seat, Table
from games.serializers import PlayerOut
from tournaments.models import LadderMember, OrganiserRole, Registration


class NotFresh(Conflict):
    code = "account_not_fresh"


def _history(player: Player) -> list[str]:
    """What keeps ``player`` from becoming a bot: its play and roles so far (empty: fresh)."""
    found = []
    seats = Seat.objects.filter(player=player).count()
    if seats:
        found.append(
            ngettext("it has sat at %(n)d table", "it has sat at %(n)d tables", seats) % {"n": seats}
        )
    opened = Table.objects.filter(created_by=player).count()
    if opened:
        found.append(
            ngettext("it has opened %(n)d table", "it has opened %(n)d tables", opened) % {"n": opened}
        )
    if Registration.objects.filter(player=player).exists():
        found.append(_("it has registered for an event"))
    if LadderMember.objects.filter(player=player).exists():
        found.append(_("it has joined a ladder"))
    if player.user.is_staff or OrganiserRole.objects.filter(player=player).exists():
        found.append(_("it is a staff or organiser account (bots cannot organise)"))
    return found


@transaction.atomic
def become_outside_bot(player: Player) -> Player:
    """Make ``player`` an outside bot account, if it is fresh: it has never sat at or opened a
    table, registered for an event or joined a ladder, and holds no staff or organiser role
    (409 ``account_not_fresh`` naming what it has done). Asking again as an outside bot changes
    nothing; a guest is told to make an account (403)."""
    player = Player.objects.select_for_update().select_related("user").get(pk=player.pk)
    # Translators: ends the sentence "guests can play casual games against bots; create an account to …"
    forbid_guest(player, _("run a bot account"))
    if player.is_outside_bot:
        return player
    if player.is_house_bot:
        raise Conflict(_("this is a house bot: the service plays it"))
    history = _history(player)
    if history:
        raise NotFresh(
            # Translators: %(reasons)s lists what the account has done, e.g. "it has joined a ladder"
            _(
                "only a fresh account can become a bot account, and %(reasons)s: "
                "make a new account for your bot"
            )
            % {"reasons": "; ".join(history)},
            reasons=history,
        )
    player.is_bot, player.bot_level = True, ""
    player.save(update_fields=["is_bot", "bot_level"])
    # This process's token cache holds the player as it was; other processes' read the row where
    # it matters (games.guests.require_verified_email).
    transaction.on_commit(forget_tokens)
    return player


class AccountBotApi(APIView):
    """Turn the signed-in account into an outside bot account, played by a program through the
    API (``GET /api/v1/stream/`` for its events, ``POST /api/v1/tables/<id>/moves/`` to play).

    Only a fresh account can: one that has never sat at or opened a table, registered for an
    event or joined a ladder, and holds no staff or organiser role (else 409
    ``account_not_fresh``, saying why). It cannot be undone here. Outside bots play **unrated
    tables only**, like the house bots: they open and join casual tables (``"rated": false``) and
    invite house bots there; rated tables, events and ladders refuse them (403). Calling again
    as a bot changes nothing (200)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={200: PlayerOut, 401: ERROR, 403: ERROR, 409: ERROR})
    def post(self, request: Request) -> Response:
        player = become_outside_bot(request_player(request))
        return Response(PlayerOut(selectors.player_list().get(pk=player.pk)).data)
