"""The chat panel the pages show (``templates/community/_chat.html``, run by ``static/js/chat.js``).

A page names the rooms it shows (:func:`table_rooms` picks a table's for the viewer) and
:func:`chat_panel` turns them into what the template needs: for each room its id, kind, label, API
address, live topic and whether the viewer may write there (or the sentence why not) or moderate it,
and the panel's words in the viewer's language as a JSON block for the script (which holds no
English of its own). The messages themselves are never rendered here: the script reads them from
the chat API, so one path (with its permission checks, blocks and "chat off") serves pages and
programs alike, and a message's text is only ever set as text. With push, new messages come in the
room's stream (``/live/chat/<room id>/``, ``stream`` in the config), which leaves out the same
authors the API does.

Pages in ``tournaments`` (below this app) show their room through the template tags of
``community.templatetags.community_chat``.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from common.players import visitor_player
from games.models import Player, Table

from . import rooms as chat_rooms
from . import selectors
from .models import Mute, Report, Room

#: How long a moderator may mute from the panel (minutes), as the moderation queue offers.
MUTE_MINUTES = (60, 24 * 60, 7 * 24 * 60, 30 * 24 * 60)
#: The table states in which the players may read their spectators' room.
OVER = (Table.Status.FINISHED, Table.Status.ABORTED)


def table_rooms(*, table: Table, player: Player | None) -> list[Room]:
    """The rooms the game page shows ``player`` at ``table``, the first one open: a seated player
    their players' room (and, once the game is over, the spectators' room beside it); everyone else
    the spectators' room, and a moderator the players' room too. Only rooms the viewer may read."""
    seated = player is not None and any(s.player_id == player.pk for s in table.seats.all())
    kinds = [Room.Kind.PLAYERS, Room.Kind.SPECTATORS] if seated else [Room.Kind.SPECTATORS]
    if player is not None and not seated:
        kinds.append(Room.Kind.PLAYERS)  # shown only to its moderators (may_read below)
    found = [chat_rooms.table_room(table=table, kind=kind) for kind in kinds]
    return [room for room in found if chat_rooms.may_read(room=room, player=player)]


def _api(room: Room) -> tuple[str, str]:
    """The room's chat API address and the query naming the room (tables have two)."""
    if room.kind in (Room.Kind.PLAYERS, Room.Kind.SPECTATORS):
        return reverse("api-table-chat", args=[room.table_id]), f"room={room.kind}"
    if room.kind == Room.Kind.EVENT:
        return reverse("api-tournament-chat", args=[room.tournament_id]), ""
    if room.kind == Room.Kind.LADDER:
        return reverse("api-ladder-chat", args=[room.ladder_id]), ""
    assert room.league is not None, "a club's room has its club"
    return reverse("api-league-chat", args=[room.league.slug]), ""


def _tab(kind: str) -> str:
    if kind == Room.Kind.PLAYERS:
        # Translators: the tab of a table's chat that only its players read.
        return pgettext("chat tab", "Players")
    if kind == Room.Kind.SPECTATORS:
        # Translators: the tab of a table's chat for the people watching the game.
        return pgettext("chat tab", "Spectators")
    return pgettext("chat tab", "Chat")


def _room(room: Room, player: Player | None) -> dict[str, Any]:
    """The room as the API describes it to ``player`` (``selectors.room_out``), with where the
    script reads it and its tab's name."""
    api, query = _api(room)
    out = selectors.room_out(room=room, player=player)
    return {
        **out,
        "may_write": player is not None and out["may_write"],
        "refusal": out["refusal"] if player is not None else None,
        "tab": _tab(room.kind),
        "api": api,
        "query": query,
        "league": room.league.slug if room.league is not None else None,
    }


def _strings() -> dict[str, str]:
    """The panel's words for the script, in the active language."""
    return {
        "older": _("Show older messages"),
        # Translators: the characters typed so far and the most a message may have, as "12 / 500".
        "counter": _("%(count)s / %(max)s"),
        "too_long": _("This message is too long: at most %(max)s characters."),
        "sending": _("Sending…"),
        # Translators: shown when the chat's server refused a message too many (HTTP 429).
        "throttled": _("You are sending messages too fast: wait %(seconds)s seconds and try again."),
        "throttled_now": _("You are sending messages too fast: wait a moment and try again."),
        "sign_in": _("Sign in to chat."),
        "refused": _("The chat refused this: %(detail)s"),
        "failed": _("The chat could not be reached (connection lost?): try again."),
        "reconnecting": _("reconnecting"),
        "switch_off": _("Switch chat off"),
        "switch_on": _("Switch chat on"),
        "removed": _("message removed by a moderator"),
        "deleted": _("deleted message"),
        "menu": _("More about the message from %(name)s"),
        "menu_short": pgettext("chat message menu", "More"),
        "report": pgettext("chat", "Report"),
        "report_title": _("Report this message to the moderators"),
        "reason": _("Reason"),
        "details": _("Details (optional)"),
        "reported": _("Thank you: the moderators will look at this message."),
        "remove": pgettext("chat moderation", "Remove"),
        "remove_title": _("Remove this message for everyone"),
        "removed_done": _("The message is removed."),
        "mute": pgettext("chat moderation", "Mute"),
        "mute_title": _("Mute %(name)s"),
        "muted_done": _("%(name)s is muted until %(until)s."),
        "mute_where": _("Where"),
        "mute_for": _("For how long"),
        "why": _("Why (the player is told)"),
        "why_needed": _("Say why: the player is told, and the log keeps it."),
        "cancel": _("Cancel"),
        "confirm": _("Confirm"),
        "mention": _("mentions you"),
        "new_below": _("New messages below"),
    }


def chat_panel(*, request: HttpRequest, rooms: list[Room]) -> dict[str, Any]:
    """The chat panel's context (``templates/community/_chat.html``) for ``rooms`` as the visitor of
    ``request`` sees them: the template renders the rooms' tabs and send boxes, the script reads
    ``config`` (the same rooms, the viewer, the limits and the words) from a JSON block."""
    player = visitor_player(request)
    return _panel(request, [_room(room, player) for room in rooms])


def page_panel(
    *, request: HttpRequest, kind: str, api: str, label: str, league: str | None
) -> dict[str, Any]:
    """The panel of one room read without a query: an event's, a ladder's or a club's page shows
    its room this way (their pages count their queries; the room is made by the API's first
    read). What the viewer may do there is left open (``None``) until the script's first read of
    the room answers it: a signed-in visitor's send box stays hidden until then (and the room's
    stream is opened after that read). ``league`` is the slug of the club moderating the room,
    when the page has it at hand (muting in the whole club is offered with it)."""
    room = {
        "id": None,
        "kind": kind,
        "label": label,
        "topic": None,
        "may_write": None,
        "refusal": None,
        "may_moderate": None,
        "links": None,
        "chat_off": False,
        "tab": _tab(kind),
        "api": api,
        "query": "",
        "league": league,
    }
    return _panel(request, [room])


def _panel(request: HttpRequest, shown: list[dict[str, Any]]) -> dict[str, Any]:
    player = visitor_player(request)
    staff = bool(request.user.is_authenticated and request.user.is_staff)
    login = reverse("login") + "?next=" + request.get_full_path()
    max_length = settings.CHAT_MESSAGE_MAX_LENGTH
    reasons = [{"value": v, "label": str(label)} for v, label in Report.Reason.choices]
    scopes = [
        {"value": v, "label": str(label)} for v, label in Mute.Scope.choices if v != Mute.Scope.SITE or staff
    ]
    minutes = [
        {"value": MUTE_MINUTES[0], "label": _("1 hour")},
        {"value": MUTE_MINUTES[1], "label": _("1 day")},
        {"value": MUTE_MINUTES[2], "label": _("1 week")},
        {"value": MUTE_MINUTES[3], "label": _("30 days")},
    ]
    me = {"id": player.pk, "name": player.display_name} if player is not None else None
    return {
        "rooms": shown,
        #: What the template shows, a pane each: the rooms (and a table's room for later).
        "panes": list(shown),
        "signed_in": player is not None,
        "login_url": login,
        "max_length": max_length,
        "config": {
            "rooms": shown,
            "me": me,
            "guest": bool(player is not None and player.is_guest),
            "maxLength": max_length,
            "reports": "/api/v1/reports/",
            "mutes": "/api/v1/mutes/",
            "messages": "/api/v1/chat/messages/",
            "stream": "/live/chat/",
            "reasons": reasons,
            "scopes": scopes,
            "minutes": minutes,
            "strings": _strings(),
        },
    }


def table_panel(*, request: HttpRequest, table: Table) -> dict[str, Any]:
    """The game page's chat panel (:func:`table_rooms`). A seated player of a game not over yet
    gets ``later``: the spectators' room's tab, hidden, which the script opens when the game ends
    while the page is open (the API answers it from then on)."""
    player = visitor_player(request)
    panel = chat_panel(request=request, rooms=table_rooms(table=table, player=player))
    kinds = {room["kind"] for room in panel["rooms"]}
    if Room.Kind.PLAYERS in kinds and Room.Kind.SPECTATORS not in kinds and table.status not in OVER:
        later = {
            "kind": Room.Kind.SPECTATORS.value,
            "tab": _tab(Room.Kind.SPECTATORS),
            "api": reverse("api-table-chat", args=[table.pk]),
            "query": f"room={Room.Kind.SPECTATORS.value}",
        }
        panel["later"] = later
        panel["panes"].append({**later, "later": True, "may_write": True, "refusal": None})
        panel["config"]["later"] = later
    return panel
