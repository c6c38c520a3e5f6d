"""The calendar's pages and feeds: a league's calendar page and public ``.ics`` feed, a player's
private feed (by its secret, no session needed) and the reset of that secret."""

from __future__ import annotations

import datetime as dt
from itertools import groupby

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from common.players import request_player
from common.site import site_url
from games.wording import time_left_text

from ..models import League
from . import agenda, feeds

#: What a page shows at most (the feeds have everything).
PAGE_ITEMS = 100
ICS = "text/calendar; charset=utf-8"


def _league(slug: str) -> League:
    league = League.objects.filter(slug=slug).first()
    if league is None:
        raise Http404("no such league")
    return league


def ics_response(body: bytes, *, filename: str, public: bool) -> HttpResponse:
    """An iCalendar answer (also the private feed's, served by ``accounts.pages.calendar_feed``)."""
    response = HttpResponse(body, content_type=ICS)
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    # Calendar clients poll every few hours at most; a private feed stays out of shared caches.
    response["Cache-Control"] = "public, max-age=900" if public else "private, max-age=300"
    if not public:
        response["X-Robots-Tag"] = "noindex"
        response["Referrer-Policy"] = "no-referrer"
    return response


@require_safe
def league_feed(request: HttpRequest, slug: str) -> HttpResponse:
    league = _league(slug)
    return ics_response(feeds.league_calendar(league), filename=f"{league.slug}.ics", public=True)


@login_required
@require_POST
def feed_reset(request: HttpRequest) -> HttpResponse:
    """Replace the player's private feed address; the old one stops working."""
    feeds.feed_reset(player=request_player(request))
    messages.success(
        request, _("Your calendar feed has a new address: the old one no longer works. Subscribe again.")
    )
    return redirect(reverse("settings-account") + "#calendar-feed")


def day_groups(items: list[agenda.Item]) -> list[tuple[dt.date, list[agenda.Item]]]:
    """The items by day in the reader's time zone (the active one), in time order."""
    return [
        (day, list(rows)) for day, rows in groupby(items, key=lambda i: timezone.localtime(i.starts).date())
    ]


def league_calendar_page(request: HttpRequest, slug: str) -> HttpResponse:
    """What is next in a league, by day in the reader's time zone, the next thing with a countdown."""
    league = _league(slug)
    now = timezone.now()
    items = agenda.upcoming(agenda.league_items(league, now=now), now=now)[:PAGE_ITEMS]
    following = next((i for i in items if i.starts >= now and not i.cancelled), None)
    feed = reverse("league-calendar-feed", args=[league.slug])
    context = {
        "league": league,
        "days": day_groups(items),
        "next": following,
        "countdown": time_left_text((following.starts - now).total_seconds()) if following else "",
        "now": now,
        "feed_url": site_url(feed),
        "webcal_url": "webcal://" + site_url(feed).split("://", 1)[-1],
        "zone": timezone.get_current_timezone_name(),
    }
    return render(request, "calendar/league.html", context)
