"""iCalendar feeds (RFC 5545, written with the ``icalendar`` library): a league's public feed and a
player's private one (``/calendar/<secret>.ics``), and the private feed's secret address.

The rows come from :mod:`tournaments.calendar.agenda` (which says what each UID is). Every VEVENT
has a UID that survives edits, DTSTART in UTC, DTEND (an estimate, ``agenda.event_minutes``) where
the thing lasts, SUMMARY, DESCRIPTION, URL (absolute), DTSTAMP, SEQUENCE and LAST-MODIFIED; a
called-off event stays in the feed with STATUS:CANCELLED so calendar clients remove it.
"""

from __future__ import annotations

import datetime as dt
import secrets

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from icalendar import Calendar, Event

from common.site import site_url
from games.models import Player

from ..models import CalendarFeed, League
from . import agenda

PRODID = "-//Pacru ladder//calendar feeds//EN"
#: Calendar clients that honour it refresh a subscribed feed this often (X-PUBLISHED-TTL says the same).
REFRESH = dt.timedelta(hours=1)


def _utc(when: dt.datetime) -> dt.datetime:
    return when.astimezone(dt.UTC)


def _vevent(item: agenda.Item, *, stamp: dt.datetime) -> Event:
    ev = Event()
    ev.add("uid", item.uid)
    ev.add("dtstamp", stamp)
    ev.add("dtstart", _utc(item.starts))
    if item.ends is not None and item.ends > item.starts:
        ev.add("dtend", _utc(item.ends))
    ev.add("summary", item.title)
    words = [item.description, item.detail, item.league]
    ev.add("description", "\n".join(w for w in words if w))
    ev.add("url", site_url(item.path))
    ev.add("sequence", item.sequence)
    if item.modified is not None:
        ev.add("last-modified", _utc(item.modified))
    ev.add("status", "CANCELLED" if item.cancelled else "CONFIRMED")
    ev.add("transp", "TRANSPARENT" if item.kind.endswith("deadline") else "OPAQUE")
    ev.add("categories", [item.kind_text])
    return ev


def _calendar(name: str, items: list[agenda.Item], *, now: dt.datetime) -> bytes:
    cal = Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("method", "PUBLISH")
    cal.add("x-wr-calname", name)
    cal.add("refresh-interval", REFRESH, parameters={"VALUE": "DURATION"})
    cal.add("x-published-ttl", "PT1H")
    stamp = _utc(now).replace(microsecond=0)
    for item in items:
        cal.add_component(_vevent(item, stamp=stamp))
    return cal.to_ical()


def league_calendar(league: League, *, now: dt.datetime | None = None) -> bytes:
    """The league's public feed: its scheduled events, recurring occurrences, season rounds and
    round deadlines."""
    now = now or timezone.now()
    return _calendar(league.name, agenda.league_items(league, now=now), now=now)


def player_calendar(player: Player, *, now: dt.datetime | None = None) -> bytes:
    """A player's private feed: only their own events, season rounds and deadlines."""
    now = now or timezone.now()
    name = _("%(name)s on Pacru ladder") % {"name": player.display_name}
    return _calendar(name, agenda.player_items(player, now=now), now=now)


# ------------------------------------------------------------------ the private address
def new_secret() -> str:
    return secrets.token_urlsafe(32)


def feed_for(*, player: Player) -> CalendarFeed:
    """The player's private feed, created with a fresh secret the first time it is asked for."""
    found = CalendarFeed.objects.filter(player=player).first()
    if found is not None:
        return found
    try:
        with transaction.atomic():
            return CalendarFeed.objects.create(player=player, secret=new_secret())
    except IntegrityError:  # created meanwhile by another request of the same player
        return CalendarFeed.objects.get(player=player)


@transaction.atomic
def feed_reset(*, player: Player) -> CalendarFeed:
    """Give the player's feed a new secret: the old address stops working at once."""
    feed = CalendarFeed.objects.select_for_update().filter(player=player).first()
    if feed is None:
        return CalendarFeed.objects.create(player=player, secret=new_secret())
    feed.secret = new_secret()
    feed.save(update_fields=["secret"])
    return feed


def feed_owner(*, secret: str) -> Player | None:
    """Whose feed this secret opens (``None``: nobody's, or an address that was reset)."""
    if not secret or len(secret) > 64:
        return None
    feed = CalendarFeed.objects.select_related("player").filter(secret=secret).first()
    return feed.player if feed is not None else None
