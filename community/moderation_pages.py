"""The moderation page, ``/moderation/``: the open reports (each with its message and a few around
it), the mutes in force and the log, for staff and clubs' organisers (others: 403). Its forms post
to the same services as the API (``community.moderation``) and come back here with a message.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy
from django.views.decorators.http import require_POST

from common.errors import InvalidInput, ServiceError
from common.players import request_player
from common.validation import ascii_int_or_none
from games.models import Player
from tournaments.models import League

from . import chat, moderation, rooms
from . import moderation_selectors as reads
from .models import Mute

TABS = {
    "reports": pgettext_lazy("moderation tab", "Open reports"),
    "mutes": pgettext_lazy("moderation tab", "Mutes in force"),
    "log": pgettext_lazy("moderation tab", "Log"),
    "clubs": pgettext_lazy("moderation tab", "Club chat settings"),
}
#: The lengths a mute is given on the page, in minutes.
DURATIONS = [
    (60, pgettext_lazy("mute length", "1 hour")),
    (24 * 60, pgettext_lazy("mute length", "1 day")),
    (7 * 24 * 60, pgettext_lazy("mute length", "1 week")),
    (30 * 24 * 60, pgettext_lazy("mute length", "30 days")),
]


def _moderator(request: HttpRequest) -> Player:
    me = request_player(request)
    if not reads.is_moderator(player=me):
        raise PermissionDenied(_("the moderation queue is for staff and clubs' organisers"))
    return me


def _back(request: HttpRequest, tab: str = "reports") -> HttpResponse:
    return redirect(f"{reverse('moderation')}?tab={tab}")


def _scopes(*, me: Player, item: reads.QueueItem) -> list[dict[str, Any]]:
    """The mute scopes this moderator may choose for a report: its message's room, its club, the site."""
    out = []
    if item.room is not None and moderation.may_mute(by=me, scope="room", room=item.room, league=None):
        out.append({"value": "room", "label": _("this room: %(room)s") % {"room": item.room_label}})
    league = item.report.league
    if league is not None and moderation.may_mute(by=me, scope="league", room=None, league=league):
        out.append({"value": "league", "label": _("all the rooms of %(club)s") % {"club": league.name}})
    if me.user.is_staff:
        out.append({"value": "site", "label": str(Mute.Scope.SITE.label)})
    return out


@login_required
def moderation_page(request: HttpRequest) -> HttpResponse:
    me = _moderator(request)
    tab = request.GET.get("tab", "reports")
    tab = tab if tab in TABS else "reports"
    player_id = ascii_int_or_none(request.GET.get("player"))
    context: dict[str, Any] = {
        "tab": tab,
        "tabs": list(TABS.items()),
        "open_count": reads.open_count(moderator=me),
        "durations": DURATIONS,
        "player_filter": Player.objects.filter(pk=player_id).first() if player_id else None,
    }
    if tab == "reports":
        items = reads.reports(moderator=me, status="open", player_id=player_id)
        context["items"] = [{"item": i, "scopes": _scopes(me=me, item=i)} for i in items]
    elif tab == "mutes":
        mutes = reads.active_mutes(moderator=me)
        context["mutes"] = [{"mute": m, "where": reads.mute_where(mute=m)} for m in mutes]
    elif tab == "clubs":
        clubs = League.objects.order_by("name")
        context["clubs"] = clubs[:200] if me.user.is_staff else clubs.filter(organisers=me)
    else:
        context["actions"] = [
            {"action": a, "where": reads.mute_where(mute=a.mute) if a.mute is not None else _log_where(a)}
            for a in reads.log(moderator=me)
        ]
    return render(request, "community/moderation.html", context)


def _log_where(action: Any) -> str:
    if action.room is not None:
        return rooms.room_label(room=action.room)
    return action.league.name if action.league is not None else ""


def _run(request: HttpRequest, tab: str, done: str, act: Any) -> HttpResponse:
    """Run a moderation action: its words on success, the refusal's otherwise, back to the tab."""
    try:
        act()
    except ServiceError as exc:
        messages.error(request, exc.detail)
    else:
        messages.success(request, done)
    return _back(request, tab)


@login_required
@require_POST
def message_delete_page(request: HttpRequest, message_id: int) -> HttpResponse:
    me = _moderator(request)
    reason = request.POST.get("reason", "")
    return _run(
        request,
        "reports",
        _("The message is removed; its author is told why."),
        lambda: moderation.message_delete(message_id=message_id, by=me, reason=reason),
    )


@login_required
@require_POST
def mute_page(request: HttpRequest) -> HttpResponse:
    me = _moderator(request)
    p = request.POST

    def act() -> None:
        player_id = ascii_int_or_none(p.get("player"))
        minutes = ascii_int_or_none(p.get("minutes"))
        if player_id is None or minutes is None:
            raise InvalidInput(_("choose the player and how long the mute lasts"))
        room_id = ascii_int_or_none(p.get("room"))
        league_id = ascii_int_or_none(p.get("league"))
        moderation.mute(
            by=me,
            player_id=player_id,
            scope=p.get("scope", ""),
            minutes=minutes,
            reason=p.get("reason", ""),
            room=reads.room_for_mute(room_id=room_id) if p.get("scope") == "room" else None,
            league=League.objects.filter(pk=league_id).first() if league_id else None,
            report_id=ascii_int_or_none(p.get("report")),
        )

    return _run(request, "reports", _("The player is muted; they are told until when and why."), act)


@login_required
@require_POST
def unmute_page(request: HttpRequest, mute_id: int) -> HttpResponse:
    me = _moderator(request)
    reason = request.POST.get("reason", "")
    return _run(
        request,
        "mutes",
        _("The mute is lifted; the player may write again."),
        lambda: moderation.unmute(mute_id=mute_id, by=me, reason=reason),
    )


@login_required
@require_POST
def report_dismiss_page(request: HttpRequest, report_id: int) -> HttpResponse:
    me = _moderator(request)
    reason = request.POST.get("reason", "")
    return _run(
        request,
        "reports",
        _("The report is dismissed; the reporter is told."),
        lambda: moderation.report_dismiss(report_id=report_id, by=me, reason=reason),
    )


@login_required
@require_POST
def club_links_page(request: HttpRequest, slug: str) -> HttpResponse:
    me = _moderator(request)
    allowed = request.POST.get("links") == "on"

    def act() -> None:
        league = League.objects.filter(slug=slug).first()
        if league is None:
            raise InvalidInput(_("there is no league %(slug)s") % {"slug": slug})
        chat.links_set(league=league, by=me, allowed=allowed)

    done = (
        _("Links in the club's chat rooms are shown as links.")
        if allowed
        else _("Links in the club's chat rooms are shown as plain text.")
    )
    return _run(request, "clubs", done, act)
