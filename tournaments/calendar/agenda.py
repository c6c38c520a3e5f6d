"""What is on a league's or a player's calendar, as :class:`Item` rows: the source of the iCalendar
feeds (``tournaments.calendar.feeds``), the league's calendar page and the "What's next" block of
"My page". Reads only.

Each item has a UID that stays the same across edits (a renamed or moved event keeps it), so a
calendar client updates the entry in place:

* ``event-<id>@host`` – an event with a start time (``Tournament.starts_at``);
* ``series-<id>-<local date>@host`` – a recurring event's occurrence, created or not yet: the
  occurrence keeps its series' UID once it is created, so it never appears twice;
* ``season-<id>-round-<n>@host`` – a round of a divisions season (``Season.round_times``);
* ``round-<id>-deadline@host`` – a correspondence round's deadline (``Round.deadline``);
* ``table-<id>-move@host`` – a player's next correspondence move (their table's ``deadline``).

How long an event lasts is an estimate (``DTEND``): see :func:`event_minutes`.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from django.conf import settings
from django.db.models import Count, Max, QuerySet
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from games.clocks import TimeControl
from games.models import Player, Seat, Table

from ..models import (
    AuditEntry,
    Division,
    EventSeries,
    League,
    Registration,
    Round,
    Season,
    SeasonEntry,
    Tournament,
)
from ..seasons import news as seasons_news
from . import recurring

#: Feeds keep what started this long ago (calendar clients keep the recent past).
PAST = dt.timedelta(days=30)
#: Recurring occurrences not created yet are listed this far ahead.
HORIZON = dt.timedelta(days=56)
#: A game's length when the clock gives no better idea (untimed), and the pause between rounds.
UNTIMED_GAME_MINUTES = 30
BETWEEN_ROUNDS_MINUTES = 5
#: Moves a timed game is reckoned to last per player, for the increment's share.
MOVES_PER_PLAYER = 40

KINDS = {
    "event": pgettext("calendar item", "event"),
    "occurrence": pgettext("calendar item", "recurring event"),
    "season_round": pgettext("calendar item", "season round"),
    "round_deadline": pgettext("calendar item", "round deadline"),
    "move_deadline": pgettext("calendar item", "move deadline"),
}


@dataclass
class Item:
    uid: str
    kind: str  # a key of KINDS
    title: str
    starts: dt.datetime  # aware
    path: str  # the page, a site path
    ends: dt.datetime | None = None
    description: str = ""
    cancelled: bool = False
    sequence: int = 0
    modified: dt.datetime | None = None
    league: str = ""
    detail: str = ""  # "Division 2", "round 3 of 5"
    extra: dict[str, str] = field(default_factory=dict)

    @property
    def kind_text(self) -> str:
        return str(KINDS[self.kind])


def host() -> str:
    """The site's host name for UIDs ("pacru.example.org")."""
    return urlsplit(settings.SITE_URL).hostname or "localhost"


# ------------------------------------------------------------------ how long things last
def game_minutes(time_control: dict | None, seats: int) -> int:
    """A game's expected length: every player's base time plus the increment (or delay) for
    ``MOVES_PER_PLAYER`` moves, or ``UNTIMED_GAME_MINUTES`` untimed; byo-yomi adds one period per
    player. Correspondence games are not reckoned here (their rounds have deadlines)."""
    try:
        tc = TimeControl.from_dict(time_control)
    except ValueError:
        return UNTIMED_GAME_MINUTES
    if tc.kind in ("untimed", "correspondence"):
        return UNTIMED_GAME_MINUTES
    per_player = tc.base + MOVES_PER_PLAYER * (tc.increment + tc.delay) + tc.periods * tc.period
    return max(5, math.ceil(seats * per_player / 60))


def event_minutes(t: Tournament) -> int:
    """The estimated length of an event, for ``DTEND``: with set round times, from the start to the
    last round's start plus one game; at an interval, the rounds times the interval; with
    correspondence deadlines, the rounds times the deadline; else the rounds (the Swiss default
    when the format computes them) times one game and a short pause."""
    rounds = t.rounds or Tournament.DEFAULT_SWISS_ROUNDS
    game = game_minutes(t.time_control, t.seats)
    times = _parsed(t.round_times or [])
    if times and t.starts_at:
        return max(game, int((times[-1] - t.starts_at).total_seconds() // 60) + game)
    if t.round_deadline_minutes:
        return rounds * t.round_deadline_minutes
    if t.round_start == Tournament.RoundStart.INTERVAL and t.round_interval_minutes:
        return (rounds - 1) * t.round_interval_minutes + game
    return rounds * game + (rounds - 1) * BETWEEN_ROUNDS_MINUTES


def _parsed(values: Iterable[str]) -> list[dt.datetime]:
    """ISO datetimes (UTC when naive), in order; what does not parse is left out."""
    out = []
    for v in values:
        when = parse_datetime(v) if isinstance(v, str) else None
        if when is not None:
            out.append(when if timezone.is_aware(when) else when.replace(tzinfo=dt.UTC))
    return sorted(out)


# ------------------------------------------------------------------ events and occurrences
def series_uid(series_id: int, day: dt.date) -> str:
    return f"series-{series_id}-{day.isoformat()}@{host()}"


def _modified(t: Tournament, last_audit: dt.datetime | None) -> dt.datetime:
    """When the event last changed: its newest audit line (every organiser action writes one: a
    postponement, a call-off, a start), start or finish; never before it was created."""
    stamps = [t.created, last_audit, t.started_at, t.finished_at]
    return max(s for s in stamps if s is not None)


def event_item(t: Tournament, *, sequence: int = 0, modified: dt.datetime | None = None) -> Item:
    """An event with a start time. ``SEQUENCE`` is the number of audit lines the event has: each
    change an organiser makes writes one, so it grows with every change (RFC 5545 §3.8.7.4)."""
    assert t.starts_at is not None
    if t.series_id and t.occurrence:
        uid, kind = series_uid(t.series_id, t.occurrence), "occurrence"
    else:
        uid, kind = f"event-{t.pk}@{host()}", "event"
    rounds = t.rounds or Tournament.DEFAULT_SWISS_ROUNDS
    words = _("%(game)s, %(format)s, tables of %(seats)d, %(clock)s") % {
        "game": t.get_game_display(),
        "format": t.get_format_display(),
        "seats": t.seats,
        "clock": t.time_control_text,
    }
    return Item(
        uid=uid,
        kind=kind,
        title=t.name,
        starts=t.starts_at,
        ends=t.starts_at + dt.timedelta(minutes=event_minutes(t)),
        path=reverse("tournament", args=[t.pk]),
        description=words,
        cancelled=t.status == Tournament.Status.CANCELLED,
        sequence=sequence,
        modified=modified or t.created,
        league=t.league.name,
        detail=ngettext("%(rounds)d round", "%(rounds)d rounds", rounds) % {"rounds": rounds},
    )


def event_items(events: Iterable[Tournament]) -> list[Item]:
    events = list(events)
    audits = {
        row["tournament"]: row
        for row in AuditEntry.objects.filter(tournament__in=[t.pk for t in events])
        .values("tournament")
        .annotate(last=Max("at"), n=Count("id"))
    }
    out = []
    for t in events:
        row = audits.get(t.pk, {})
        out.append(event_item(t, sequence=row.get("n", 0), modified=_modified(t, row.get("last"))))
    return out


Planned = list[tuple[dt.date, dt.datetime]]


def _planned(series: EventSeries, *, start: dt.datetime, end: dt.datetime) -> Planned:
    """The series' occurrences from ``start`` to ``end`` as (local date, start in UTC), skipped
    dates left out (``recurring.occurrences``)."""
    return [(o.date, o.starts_at) for o in recurring.occurrences(series, start=start, end=end)]


def occurrence_items(serieses: Iterable[EventSeries], *, now: dt.datetime) -> list[Item]:
    """The recurring events' occurrences not created yet (each under the UID it keeps once created)."""
    out = []
    for s in serieses:
        created = {d for d in s.occurrences.values_list("occurrence", flat=True) if d}
        skipped = set(s.skipped or [])
        for day, when in _planned(s, start=now, end=now + HORIZON):
            if day in created or day.isoformat() in skipped:
                continue
            out.append(
                Item(
                    uid=series_uid(s.pk, day),
                    kind="occurrence",
                    title=s.name,
                    starts=when,
                    ends=when + dt.timedelta(minutes=_series_minutes(s)),
                    path=reverse("league", args=[s.league.slug]),
                    description=_("A recurring event: registration opens %(days)d days before it starts.")
                    % {"days": s.create_days_ahead},
                    modified=s.created,
                    league=s.league.name,
                )
            )
    return out


def _series_minutes(s: EventSeries) -> int:
    spec = s.event or {}
    shape = Tournament(
        rounds=int(spec.get("rounds") or 0),
        seats=int(spec.get("seats") or 2),
        time_control=spec.get("time_control") or {},
        round_start=spec.get("round_start") or Tournament.RoundStart.ASAP,
        round_interval_minutes=spec.get("round_interval_minutes"),
        round_deadline_minutes=spec.get("round_deadline_minutes"),
    )
    return event_minutes(shape)


# ------------------------------------------------------------------ seasons and deadlines
def season_items(season: Season, *, division: str = "", path: str = "") -> list[Item]:
    """A divisions season's rounds (``Season.round_times``), each until the next one starts (or its
    deadline, or one game)."""
    times = _parsed(season.round_times or [])
    game = game_minutes(season.time_control, season.seats)
    out = []
    for n, when in enumerate(times, start=1):
        if season.round_deadline_minutes:
            ends = when + dt.timedelta(minutes=season.round_deadline_minutes)
        elif n < len(times):
            ends = times[n]
        else:
            ends = when + dt.timedelta(minutes=game)
        out.append(
            Item(
                uid=f"season-{season.pk}-round-{n}@{host()}",
                kind="season_round",
                title=_("%(season)s: round %(number)d") % {"season": season.name, "number": n},
                starts=when,
                ends=ends,
                path=path or season_path(season),
                description=_("%(season)s: round %(number)d of %(rounds)d.")
                % {"number": n, "rounds": len(times), "season": season.name},
                modified=season.started_at,
                league=season.league.name,
                detail=division,
            )
        )
    return out


def season_path(season: Season) -> str:
    """The season's page, or its league's while there is no season page."""
    try:
        return reverse("season", args=[season.league.slug, season.pk])
    except NoReverseMatch:
        return reverse("league", args=[season.league.slug])


def deadline_item(rnd: Round) -> Item:
    t = rnd.tournament
    assert rnd.deadline is not None
    return Item(
        uid=f"round-{rnd.pk}-deadline@{host()}",
        kind="round_deadline",
        title=_("%(event)s: round %(number)d deadline") % {"event": t.name, "number": rnd.number},
        starts=rnd.deadline,
        path=reverse("tournament", args=[t.pk]),
        description=_("Games of round %(number)d still unfinished then are %(rule)s.")
        % {"number": rnd.number, "rule": t.get_deadline_rule_display()},
        modified=rnd.started_at,
        league=t.league.name,
    )


def move_item(table: Table, event: str) -> Item:
    assert table.deadline is not None
    return Item(
        uid=f"table-{table.pk}-move@{host()}",
        kind="move_deadline",
        title=_("Your move is due: %(where)s") % {"where": event or _("table %(id)d") % {"id": table.pk}},
        starts=table.deadline,
        path=reverse("table", args=[table.pk]),
        description=_("Move before then or your clock runs out."),
        sequence=table.ply,
        modified=table.turn_started_at,
    )


# ------------------------------------------------------------------ a league's, a player's
SCHEDULED = [
    Tournament.Status.REGISTRATION,
    Tournament.Status.RUNNING,
    Tournament.Status.FINISHED,
    Tournament.Status.CANCELLED,
]
OPEN_SEASONS = [Season.Status.REGISTRATION, Season.Status.RUNNING]


def _events() -> QuerySet[Tournament]:
    """Events with a start time; a season's division events are left out: their rounds are the
    season's (``season_items``), so the start would show twice."""
    return Tournament.objects.select_related("league").filter(
        status__in=SCHEDULED, starts_at__isnull=False, division__isnull=True
    )


def league_items(league: League, *, now: dt.datetime) -> list[Item]:
    """Everything on a league's calendar from ``PAST`` ago on, in time order."""
    events = _events().filter(league=league, starts_at__gte=now - PAST)
    seasons = league.seasons.filter(kind=Season.Kind.DIVISIONS, status__in=OPEN_SEASONS).select_related(
        "league"
    )
    rounds = Round.objects.select_related("tournament__league").filter(
        tournament__league=league, deadline__isnull=False, deadline_applied=False, **LIVE_ROUND
    )
    items = event_items(events)
    items += occurrence_items(league.event_series.filter(active=True).select_related("league"), now=now)
    for s in seasons:
        items += season_items(s)
    items += [deadline_item(r) for r in rounds]
    return sorted(items, key=lambda i: (i.starts, i.uid))


#: A round whose deadline is still to come: being played, in a running event (a round all played
#: before its deadline has no deadline left to meet).
LIVE_ROUND = {"status": Round.Status.RUNNING, "tournament__status": Tournament.Status.RUNNING}


def division_name(d: Division) -> str:
    return seasons_news.division_name(level=d.level, group=d.group, name=d.name)


def player_items(player: Player, *, now: dt.datetime) -> list[Item]:
    """A player's own calendar: the events they are registered in, the rounds of their seasons (with
    their division), their events' round deadlines and their correspondence moves due."""
    mine = Registration.objects.filter(player=player).exclude(status=Registration.Status.WITHDRAWN)
    events = _events().filter(pk__in=mine.values("tournament"), starts_at__gte=now - PAST)
    items = event_items(events)
    entries = SeasonEntry.objects.filter(
        player=player,
        status=SeasonEntry.Status.REGISTERED,
        season__kind=Season.Kind.DIVISIONS,
        season__status__in=OPEN_SEASONS,
    ).select_related("season__league", "division")
    for e in entries:
        d = e.division
        name = division_name(d) if d else ""
        path = reverse("tournament", args=[d.tournament_id]) if d and d.tournament_id else ""
        items += season_items(e.season, division=name, path=path)
    rounds = Round.objects.select_related("tournament__league").filter(
        tournament__in=mine.values("tournament"), deadline__isnull=False, deadline_applied=False, **LIVE_ROUND
    )
    items += [deadline_item(r) for r in rounds]
    items += _moves_due(player)
    return sorted(items, key=lambda i: (i.starts, i.uid))


def _moves_due(player: Player) -> list[Item]:
    """The player's correspondence tables where it is their move, with the time it is due by."""
    seats = Seat.objects.filter(
        player=player,
        table__status=Table.Status.ACTIVE,
        table__deadline__isnull=False,
        table__time_control__kind="correspondence",
    ).select_related("table")
    tables = [s.table for s in seats if s.table.to_move == s.number]
    events = dict(
        Round.objects.filter(tables__table__in=tables).values_list("tables__table", "tournament__name")
    )
    return [move_item(t, events.get(t.pk, "")) for t in tables]


def upcoming(items: Iterable[Item], *, now: dt.datetime) -> list[Item]:
    """What is still to come (or under way: an event that started and has not ended)."""
    return [i for i in items if (i.ends or i.starts) >= now and not (i.cancelled and i.starts < now)]


def next_of_each(items: Iterable[Item], *, now: dt.datetime) -> dict[str, Item]:
    """The next item of each kind that starts after ``now`` (called-off ones left out)."""
    out: dict[str, Item] = {}
    for i in sorted(items, key=lambda i: i.starts):
        if i.starts >= now and not i.cancelled:
            out.setdefault(i.kind, i)
    return out
