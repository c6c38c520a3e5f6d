"""The chat panel on the pages of ``tournaments`` (an event, a ladder, a club), which sits below
this app and so cannot build the panel itself: ``{% load community_chat %}{% event_chat t %}``
renders ``templates/community/_chat.html`` with :func:`community.pages.page_panel` for the
object's room, without a query (those pages count theirs: the script reads the room from the chat
API). The game page builds its panel in its view (``web.pages.table_page``)."""

from __future__ import annotations

from typing import Any

from django import template
from django.db.models import Model
from django.urls import reverse

from tournaments.models import Ladder, League, Tournament

from ..models import Room
from ..pages import page_panel

register = template.Library()


def _club(obj: Model) -> str | None:
    """The slug of the club of ``obj`` when the page read it already (no query otherwise)."""
    field = obj._meta.get_field("league")
    if not field.is_cached(obj):  # type: ignore[union-attr]
        return None
    league = getattr(obj, "league", None)
    return league.slug if league is not None else None


def _context(context: template.Context, panel: dict[str, Any]) -> dict[str, Any]:
    return {"chat": panel, "csrf_token": context.get("csrf_token")}


@register.inclusion_tag("community/_chat.html", takes_context=True)
def event_chat(context: template.Context, tournament: Tournament) -> dict[str, Any]:
    """The event's chat room."""
    api = reverse("api-tournament-chat", args=[tournament.pk])
    panel = page_panel(
        request=context["request"],
        kind=Room.Kind.EVENT.value,
        api=api,
        label=tournament.name,
        league=_club(tournament),
    )
    return _context(context, panel)


@register.inclusion_tag("community/_chat.html", takes_context=True)
def ladder_chat(context: template.Context, ladder: Ladder) -> dict[str, Any]:
    """The ladder's chat room."""
    api = reverse("api-ladder-chat", args=[ladder.pk])
    panel = page_panel(
        request=context["request"],
        kind=Room.Kind.LADDER.value,
        api=api,
        label=str(ladder),
        league=_club(ladder),
    )
    return _context(context, panel)


@register.inclusion_tag("community/_chat.html", takes_context=True)
def league_chat(context: template.Context, league: League) -> dict[str, Any]:
    """The club's chat room."""
    api = reverse("api-league-chat", args=[league.slug])
    panel = page_panel(
        request=context["request"],
        kind=Room.Kind.LEAGUE.value,
        api=api,
        label=league.name,
        league=league.slug,
    )
    return _context(context, panel)
