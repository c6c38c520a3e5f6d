"""Recurring events: a series (``EventSeries``) creates each next occurrence ahead of time, with
registration open, and the organiser edits or skips one occurrence.

Occurrences are computed in the series' local time (``dateutil.rrule``) and turned into UTC with
``zoneinfo``, so a daylight-saving change keeps the local hour players know: Friday 19:00
Europe/Madrid is 18:00 UTC in winter and 17:00 UTC in summer. A local time the clocks skip (the
spring-forward hour) moves to the first minute after the gap; a time they pass twice (the autumn
hour) is the first of the two.

:func:`sweep` (the calendar tick) creates every occurrence starting within the series'
``create_days_ahead`` exactly once: the series row is locked, and the unique constraint on
(series, occurrence) backs the lock. A created occurrence is an ordinary event (renamed, postponed
or called off like any); it keeps its ``occurrence`` date, so it is never created twice. Changes to
a series apply to the occurrences not yet created.
"""

from __future__ import annotations

import inspect
import logging
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from functools import cache
from typing import Any
from zoneinfo import ZoneInfo, available_timezones

from dateutil import rrule
from django.db import IntegrityError, transaction
from django.utils import dateformat, timezone
from django.utils.translation import gettext as _

from common.errors import Conflict, InvalidInput, NotFound, ServiceError
from games.models import Player

from ..competitions.services import setup
from ..models import EventSeries, League, Tournament
from ..selectors import is_organiser
from . import schedule, starts

log = logging.getLogger(__name__)

RULE_FREQUENCY = {
    EventSeries.Frequency.DAILY: rrule.DAILY,
    EventSeries.Frequency.WEEKLY: rrule.WEEKLY,
    EventSeries.Frequency.MONTHLY: rrule.MONTHLY,
}
#: What a series may change (``series_update``), besides its event settings.
FIELDS = (
    "name",
    "event",
    "frequency",
    "interval",
    "weekdays",
    "local_time",
    "time_zone",
    "first_date",
    "until",
    "create_days_ahead",
)
#: ``tournament_create``'s arguments a series does not keep in its event settings: the series
#: names and dates each occurrence itself (absolute registration times would not recur).
NOT_EVENT_SETTINGS = {
    "organiser",
    "league",
    "name",
    "season",
    "open_registration",
    "registration_opens",
    "registration_closes",
    "starts_at",
    "series",
    "occurrence",
    "now",
    "round_times",
}
MAX_DAYS_AHEAD = 90
MAX_INTERVAL = 99


@dataclass(frozen=True)
class Occurrence:
    date: date  # the local date
    starts_at: datetime  # UTC


# --------------------------------------------------------------- the dates


def local_to_utc(moment: datetime, zone: ZoneInfo) -> datetime:
    """A naive local time in ``zone`` as a UTC datetime: a time the clocks skip moves to the first
    valid minute after the gap; a time they pass twice is the first (``fold=0``)."""
    aware = moment.replace(tzinfo=zone, fold=0)
    if aware.astimezone(UTC).astimezone(zone).replace(tzinfo=None) == moment:
        return aware.astimezone(UTC)
    probe = moment.replace(second=0, microsecond=0)
    for _minute in range(48 * 60):  # gaps are an hour or so; a skipped day (Samoa, 2011) at most
        probe += timedelta(minutes=1)
        aware = probe.replace(tzinfo=zone)
        if aware.astimezone(UTC).astimezone(zone).replace(tzinfo=None) == probe:
            return aware.astimezone(UTC)
    return moment.replace(tzinfo=zone).astimezone(UTC)  # pragma: no cover - no zone has such a gap


def _rule(series: EventSeries) -> rrule.rrule:
    weekly = series.frequency == EventSeries.Frequency.WEEKLY
    return rrule.rrule(
        RULE_FREQUENCY[EventSeries.Frequency(series.frequency)],
        dtstart=datetime.combine(series.first_date, series.local_time),
        interval=series.interval,
        byweekday=sorted(series.weekdays) if weekly and series.weekdays else None,
        until=datetime.combine(series.until, time.max) if series.until else None,
    )


def occurrences(series: EventSeries, *, start: datetime, end: datetime) -> list[Occurrence]:
    """The series' occurrences starting from ``start`` to ``end`` (both included, aware datetimes),
    skipped dates left out, in order."""
    zone = ZoneInfo(series.time_zone)
    margin = timedelta(days=2)  # the window in local time, wide enough for any offset
    local_start = start.astimezone(zone).replace(tzinfo=None) - margin
    local_end = end.astimezone(zone).replace(tzinfo=None) + margin
    skipped = set(series.skipped or [])
    found = []
    for moment in _rule(series).between(local_start, local_end, inc=True):
        if moment.date().isoformat() in skipped:
            continue
        at = local_to_utc(moment, zone)
        if start <= at <= end:
            found.append(Occurrence(date=moment.date(), starts_at=at))
    return found


def occurrence_on(series: EventSeries, day: date) -> Occurrence | None:
    """The series' occurrence on the local date ``day`` (skipped or not), if the rule has one."""
    zone = ZoneInfo(series.time_zone)
    midnight = datetime.combine(day, time.min)
    for moment in _rule(series).between(midnight, midnight + timedelta(days=1), inc=True):
        if moment.date() == day:
            return Occurrence(date=day, starts_at=local_to_utc(moment, zone))
    return None


@dataclass(frozen=True)
class Upcoming:
    date: date
    starts_at: datetime  # the event's own start once created (it may have been moved)
    tournament_id: int | None
    status: str  # "" until created


def upcoming(series: EventSeries, *, now: datetime, count: int = 5) -> list[Upcoming]:
    """The next ``count`` occurrences, each with its event once created."""
    ahead = {"daily": 1, "weekly": 7, "monthly": 31}[series.frequency] * series.interval * (count + 1)
    first = datetime.combine(series.first_date, time.min, tzinfo=UTC) - timedelta(days=1)
    start = max(now, first)  # a series beginning later: its first dates
    dates = occurrences(series, start=start, end=start + timedelta(days=ahead + 7))[:count]
    made = {
        t.occurrence: t
        for t in Tournament.objects.filter(series=series, occurrence__in=[o.date for o in dates]).only(
            "pk", "occurrence", "starts_at", "status"
        )
    }
    out = []
    for o in dates:
        t = made.get(o.date)
        out.append(
            Upcoming(
                date=o.date,
                starts_at=(t.starts_at or o.starts_at) if t else o.starts_at,
                tournament_id=t.pk if t else None,
                status=t.status if t else "",
            )
        )
    return out


# --------------------------------------------------------------- the sweep


def sweep(*, now: datetime) -> dict[str, int]:
    """Create every active series' occurrences starting within its ``create_days_ahead`` of
    ``now`` and not created yet (each exactly once; past ones never)."""
    created = failed = 0
    for series_id in EventSeries.objects.filter(active=True).values_list("pk", flat=True):
        made, refused = _sweep_series(series_id, now=now)
        created += made
        failed += refused
    return {k: v for k, v in {"created": created, "failed": failed}.items() if v}


@transaction.atomic
def _sweep_series(series_id: int, *, now: datetime) -> tuple[int, int]:
    series = EventSeries.objects.select_for_update().filter(pk=series_id, active=True).first()
    if series is None:
        return 0, 0
    due = [
        o
        for o in occurrences(series, start=now, end=now + timedelta(days=series.create_days_ahead))
        if o.starts_at > now
    ]
    have = _created(series, [o.date for o in due])
    created = failed = 0
    for o in due:
        if o.date in have:
            continue
        try:
            with transaction.atomic():
                _create_occurrence(series, o, now=now)
            created += 1
        except IntegrityError:  # a racing tick created it: the constraint keeps it once
            continue
        except (ServiceError, TypeError) as exc:  # the league or the event's rules changed since
            log.warning("series %s: occurrence %s not created: %s", series.pk, o.date, exc)
            failed += 1
    return created, failed


def _created(series: EventSeries, dates: list[date]) -> set[date]:
    """Which of these occurrences exist (moved ones too: they keep their date)."""
    rows = Tournament.objects.filter(series=series, occurrence__in=dates)
    return set(rows.values_list("occurrence", flat=True))


def occurrence_name(series: EventSeries, day: date) -> str:
    """ "Friday Blitz Swiss — 4 Dec"."""
    suffix = f" — {dateformat.format(day, 'j M')}"
    return series.name[: 100 - len(suffix)] + suffix


def _create_occurrence(series: EventSeries, o: Occurrence, *, now: datetime) -> Tournament:
    t = setup.tournament_create(
        organiser=_organiser(series),
        league=series.league,
        name=occurrence_name(series, o.date),
        open_registration=True,
        starts_at=o.starts_at,
        now=now,
        **series.event,
    )
    t.series, t.occurrence = series, o.date
    t.save(update_fields=["series", "occurrence"])
    setup.audit(
        t=t,
        by=None,
        action="series_occurrence",
        detail={"series": series.pk, "occurrence": o.date.isoformat()},
    )
    return t


def _organiser(series: EventSeries) -> Player:
    """Who creates the occurrence: the series' author while an organiser, else the league's first."""
    if is_organiser(series.league, series.created_by):
        return series.created_by
    return series.league.organisers.order_by("pk").first() or series.created_by


# --------------------------------------------------------------- the checks


@cache
def known_zones() -> frozenset[str]:
    return frozenset(available_timezones())


@cache
def event_keys() -> frozenset[str]:
    """The event settings a series keeps: ``tournament_create``'s (its calendar settings too), less
    those it names itself."""
    named = {
        p.name
        for p in inspect.signature(setup.tournament_create).parameters.values()
        if p.kind is not inspect.Parameter.VAR_KEYWORD
    }
    return frozenset(named | schedule.FIELDS) - NOT_EVENT_SETTINGS


CHECKED_KEYS = frozenset(inspect.signature(setup.event_settings_check).parameters)


def _checked_event(event: Any) -> dict[str, Any]:
    """The event settings, checked as ``tournament_create`` checks them (creating nothing)."""
    if not isinstance(event, dict):
        raise InvalidInput(_("the event settings must be an object: game, seats, format, rounds, …"))
    unknown = sorted(set(event) - event_keys())
    if unknown:
        raise InvalidInput(
            _("a recurring event cannot set %(names)s; its events take %(known)s")
            % {"names": ", ".join(unknown), "known": ", ".join(sorted(event_keys()))}
        )
    if "game" not in event or "seats" not in event:
        raise InvalidInput(_("the event settings need at least a game and the players per table (seats)"))
    for flag in ("rated", "check_in", "berserk"):
        if flag in event and not isinstance(event[flag], bool):
            raise InvalidInput(_("%(name)s must be true or false") % {"name": flag})
    try:
        rounds, tc, _edition = setup.event_settings_check(
            **{k: v for k, v in event.items() if k in CHECKED_KEYS}
        )
        # An arena's duration and berserk, as ``tournament_create`` checks them (other formats: none).
        setup._checked_arena(
            format=event.get("format", Tournament.Format.SWISS),
            rounds=rounds,
            duration_minutes=event.get("duration_minutes"),
            berserk=event.get("berserk", True),
            tc=tc,
            points_scale=event.get("points_scale"),
            calendar={k: v for k, v in event.items() if k in schedule.FIELDS},
        )
        schedule.checked_fields(
            now=timezone.now(),
            format=event.get("format", Tournament.Format.SWISS),
            rounds=rounds,
            max_players=event.get("max_players"),
            registration_closes=None,
            **{k: v for k, v in event.items() if k in schedule.FIELDS},
        )
    except (TypeError, AttributeError, ValueError):
        raise InvalidInput(_("an event setting has the wrong type: numbers for seats and rounds")) from None
    return dict(event)


def _check_rule(s: EventSeries) -> None:
    """The schedule's fields, each with what was wrong."""
    if not s.name or not s.name.strip() or len(s.name) > 100:
        raise InvalidInput(_("a recurring event needs a name of 1 to 100 characters"))
    if s.frequency not in EventSeries.Frequency.values:
        raise InvalidInput(
            _("frequency must be one of %(values)s") % {"values": ", ".join(EventSeries.Frequency.values)}
        )
    if not isinstance(s.interval, int) or not 1 <= s.interval <= MAX_INTERVAL:
        raise InvalidInput(
            _("the interval must be 1 to %(max)d (every 1 to %(max)d days, weeks or months)")
            % {"max": MAX_INTERVAL}
        )
    _check_weekdays(s)
    if not isinstance(s.local_time, time) or s.local_time.tzinfo is not None:
        raise InvalidInput(_("the time must be a local time of day, such as 19:00"))
    if s.time_zone not in known_zones():
        raise InvalidInput(
            _("%(zone)s is not a time zone: give an IANA name such as Europe/Madrid")
            % {"zone": repr(s.time_zone)}
        )
    if not isinstance(s.first_date, date):
        raise InvalidInput(_("the first date must be a date (YYYY-MM-DD)"))
    if s.until is not None and s.until <= s.first_date:
        raise InvalidInput(_("the last date (until) must come after the first date"))
    if not isinstance(s.create_days_ahead, int) or not 1 <= s.create_days_ahead <= MAX_DAYS_AHEAD:
        raise InvalidInput(
            _("each event is created 1 to %(max)d days before it starts, not %(n)s")
            % {"max": MAX_DAYS_AHEAD, "n": s.create_days_ahead}
        )


def _check_weekdays(s: EventSeries) -> None:
    days = s.weekdays
    if not isinstance(days, list) or any(isinstance(d, bool) or not isinstance(d, int) for d in days):
        raise InvalidInput(_("weekdays must be a list of day numbers, 0 (Monday) to 6 (Sunday)"))
    if any(not 0 <= d <= 6 for d in days) or len(set(days)) != len(days):
        raise InvalidInput(_("weekdays must be different days, 0 (Monday) to 6 (Sunday)"))
    if days and s.frequency != EventSeries.Frequency.WEEKLY:
        raise InvalidInput(_("days of the week apply to a weekly series only"))


# --------------------------------------------------------------- the services


def _locked(series_id: int, by: Player) -> EventSeries:
    series = EventSeries.objects.select_for_update().select_related("league").filter(pk=series_id).first()
    if series is None:
        raise NotFound(_("there is no recurring event %(id)s") % {"id": series_id})
    setup.require_organiser(league=series.league, player=by)
    return series


@transaction.atomic
def series_create(
    *,
    league: League,
    by: Player,
    name: str,
    event: dict[str, Any],
    frequency: str,
    local_time: time,
    time_zone: str,
    first_date: date,
    interval: int = 1,
    weekdays: list[int] | None = None,
    until: date | None = None,
    create_days_ahead: int = 7,
) -> EventSeries:
    """A recurring event in the league (its organisers only); its occurrences are created by the
    calendar tick, each ``create_days_ahead`` days before it starts."""
    setup.require_organiser(league=league, player=by)
    series = EventSeries(
        league=league,
        name=(name or "").strip(),
        frequency=frequency,
        interval=interval,
        weekdays=list(weekdays or []),
        local_time=local_time,
        time_zone=time_zone,
        first_date=first_date,
        until=until,
        create_days_ahead=create_days_ahead,
        created_by=by,
    )
    _check_rule(series)
    series.event = _checked_event(event)
    series.save()
    return series


@transaction.atomic
def series_update(*, series_id: int, by: Player, **changes: Any) -> EventSeries:
    """Change a series: the changes apply to the occurrences not created yet (created ones are
    ordinary events, edited one by one)."""
    series = _locked(series_id, by)
    unknown = sorted(set(changes) - set(FIELDS))
    if unknown:
        raise InvalidInput(_("a recurring event has no setting %(names)s") % {"names": ", ".join(unknown)})
    for field, value in changes.items():
        setattr(series, field, value.strip() if field == "name" and isinstance(value, str) else value)
    if changes.get("weekdays") is None and series.frequency != EventSeries.Frequency.WEEKLY:
        series.weekdays = []  # no longer weekly: its days go (a weekly one's stay unless given)
    _check_rule(series)
    series.event = _checked_event(series.event)
    series.save()
    return series


@transaction.atomic
def series_skip(*, series_id: int, date: date, by: Player, now: datetime | None = None) -> Tournament | None:
    """Skip the occurrence on the local ``date``: it is not created; if it was and has not started,
    it is called off and its players are told. The called-off event, if any."""
    series = _locked(series_id, by)
    now = now or timezone.now()
    t = Tournament.objects.select_for_update().filter(series=series, occurrence=date).first()
    due = occurrence_on(series, date)
    if t is None and due is None:
        raise InvalidInput(
            _("%(series)s has no occurrence on %(date)s") % {"series": series.name, "date": date.isoformat()}
        )
    if t is not None and t.status in (Tournament.Status.RUNNING, Tournament.Status.FINISHED):
        raise Conflict(_("%(event)s has already started: it cannot be skipped") % {"event": t.name})
    if t is None and due is not None and due.starts_at <= now:
        raise Conflict(_("the occurrence on %(date)s is past") % {"date": date.isoformat()})
    if date.isoformat() not in series.skipped:
        series.skipped = sorted([*series.skipped, date.isoformat()])
        series.save(update_fields=["skipped"])
    if t is not None and t.status != Tournament.Status.CANCELLED:
        _call_off(t, series, by)
        return t
    return None


def _call_off(t: Tournament, series: EventSeries, by: Player) -> None:
    """Call off a skipped occurrence; its registered players are told why."""
    reason = _("the organisers skipped this date of %(series)s") % {"series": series.name}
    starts.call_off_locked(t=t, by=by, reason=reason)


@transaction.atomic
def series_pause(*, series_id: int, by: Player) -> EventSeries:
    """No more occurrences are created until resumed (created ones stay)."""
    series = _locked(series_id, by)
    series.active = False
    series.save(update_fields=["active"])
    return series


@transaction.atomic
def series_resume(*, series_id: int, by: Player) -> EventSeries:
    """Occurrences are created again (the next tick catches up on those due, past ones never)."""
    series = _locked(series_id, by)
    series.active = True
    series.save(update_fields=["active"])
    return series


@transaction.atomic
def series_delete(*, series_id: int, by: Player) -> None:
    """The series stops: occurrences not created are never created; created ones stay as
    ordinary events (no longer linked to it)."""
    series = _locked(series_id, by)
    series.delete()
