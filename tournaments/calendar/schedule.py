"""An event's round schedule, as pure reckoning on its settings: when a round's deadline falls,
when the next round is due, and whether a finished round must wait for it; and the checks of a
schedule an organiser sets (``check_schedule``, used by ``competitions.services.tournament_create``).

Round 1 is paired at the start. With ``round_start`` "interval" each next round is due
``round_interval_minutes`` after the start of the one before; with "times" round N is due at
``round_times[N - 1]``. A round due before the last one ended is paired as soon as it ends. Rounds
with ``round_deadline_minutes`` must be finished that long after they were paired: the calendar's
sweep (:mod:`tournaments.calendar.rounds`) settles the tables still unfinished then.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from itertools import pairwise
from typing import Any

from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from common.errors import InvalidInput

from ..models import Tournament

#: The shortest round deadline (minutes), and the longest (also of an interval): 60 days.
MIN_DEADLINE_MINUTES = 5
MAX_DEADLINE_MINUTES = 60 * 24 * 60
#: Check-in opens 5 minutes to 24 hours before the start.
CHECK_IN_MINUTES = (5, 24 * 60)
#: The reminder before a round's deadline.
REMINDER = timedelta(hours=24)


def round_times(t: Tournament) -> list[datetime]:
    """The event's set times (aware datetimes), round 1 first; [] when it has none."""
    out = []
    for value in t.round_times or []:
        at = value if isinstance(value, datetime) else parse_datetime(str(value))
        if at is not None:
            out.append(at)
    return out


def round_deadline(t: Tournament, paired_at: datetime) -> datetime | None:
    """When a round paired at ``paired_at`` must be finished (None: no deadline)."""
    if not t.round_deadline_minutes:
        return None
    return paired_at + timedelta(minutes=t.round_deadline_minutes)


def next_round_time(t: Tournament, number: int, paired_at: datetime) -> datetime | None:
    """When round ``number + 1`` is due, round ``number`` having been paired at ``paired_at``
    (None: as soon as round ``number`` ends)."""
    if t.round_start == Tournament.RoundStart.INTERVAL and t.round_interval_minutes:
        return paired_at + timedelta(minutes=t.round_interval_minutes)
    if t.round_start == Tournament.RoundStart.TIMES:
        times = round_times(t)
        return times[number] if number < len(times) else None
    return None


def waits(t: Tournament, now: datetime) -> bool:
    """Whether the next round waits for its time (the current one being over)."""
    return (
        t.round_start != Tournament.RoundStart.ASAP and t.next_round_at is not None and now < t.next_round_at
    )


# -------------------------------------------------------------------- checks


def _aware(value: Any, what: str) -> datetime:
    at = value if isinstance(value, datetime) else parse_datetime(str(value)) if value else None
    if at is None:
        raise InvalidInput(
            _("%(what)s must be a date and time such as 2026-12-04T19:00:00Z, not %(value)s")
            % {"what": what, "value": repr(value)}
        )
    if timezone.is_naive(at):
        raise InvalidInput(
            _("%(what)s needs a time zone (e.g. 2026-12-04T19:00:00Z for UTC): %(value)s")
            % {"what": what, "value": value}
        )
    return at


def check_start(
    *,
    now: datetime,
    starts_at: Any,
    registration_closes: Any,
    min_players: int,
    max_players: int | None,
    check_in_minutes: int,
) -> datetime | None:
    """Check when the event starts and how many must come; returns ``starts_at`` as a datetime."""
    start = _aware(starts_at, _("the start time")) if starts_at else None
    if start is not None and start <= now:
        raise InvalidInput(_("the start time must be in the future: %(at)s has passed") % {"at": start})
    closes = _aware(registration_closes, _("the registration close")) if registration_closes else None
    if start is not None and closes is not None and closes > start:
        raise InvalidInput(
            _("registration cannot close after the event starts: it closes at the start at the latest")
        )
    top = max_players if max_players is not None else 10_000
    if not 2 <= min_players <= top:
        raise InvalidInput(
            _("the minimum number of players must be 2 to %(top)s (the most the event takes), not %(n)s")
            % {"top": top, "n": min_players}
        )
    low, high = CHECK_IN_MINUTES
    if not low <= check_in_minutes <= high:
        raise InvalidInput(
            _("check-in opens %(low)s to %(high)s minutes (24 hours) before the start, not %(n)s")
            % {"low": low, "high": high, "n": check_in_minutes}
        )
    return start


def check_schedule(
    *,
    now: datetime,
    starts_at: datetime | None,
    format: str,
    rounds: int,
    round_start: str,
    round_interval_minutes: int | None,
    round_times: Sequence[Any] | None,
    round_deadline_minutes: int | None,
    deadline_rule: str,
) -> list[str] | None:
    """Check the round schedule; returns the set times as stored (ISO, UTC), or None."""
    if round_start not in Tournament.RoundStart.values:
        raise InvalidInput(
            _("rounds start %(kinds)s, not %(value)s")
            % {"kinds": ", ".join(Tournament.RoundStart.values), "value": repr(round_start)}
        )
    if deadline_rule not in Tournament.DeadlineRule.values:
        raise InvalidInput(
            _("the deadline rule is one of %(rules)s, not %(value)s")
            % {"rules": ", ".join(Tournament.DeadlineRule.values), "value": repr(deadline_rule)}
        )
    if round_deadline_minutes is not None and not (
        MIN_DEADLINE_MINUTES <= round_deadline_minutes <= MAX_DEADLINE_MINUTES
    ):
        raise InvalidInput(
            _("a round deadline is %(low)s minutes to 60 days after the round is paired, not %(n)s minutes")
            % {"low": MIN_DEADLINE_MINUTES, "n": round_deadline_minutes}
        )
    if round_start == Tournament.RoundStart.INTERVAL:
        _check_interval(round_interval_minutes)
    if round_start != Tournament.RoundStart.TIMES:
        return None
    return _checked_times(now=now, starts_at=starts_at, format=format, rounds=rounds, times=round_times)


def _check_interval(minutes: int | None) -> None:
    if minutes is None:
        raise InvalidInput(
            _("rounds at a fixed interval need the interval: how many minutes apart they start")
        )
    if not 1 <= minutes <= MAX_DEADLINE_MINUTES:
        raise InvalidInput(_("rounds start 1 minute to 60 days apart, not %(n)s minutes") % {"n": minutes})


def _checked_times(
    *, now: datetime, starts_at: datetime | None, format: str, rounds: int, times: Sequence[Any] | None
) -> list[str]:
    parsed = [_aware(v, _("a round's time")) for v in times or []]
    if not parsed:
        raise InvalidInput(_("rounds at set times need the times: one per round, round 1 first"))
    if format == Tournament.Format.SWISS and len(parsed) < rounds:
        raise InvalidInput(
            ngettext(
                "a Swiss of %(rounds)d round needs %(rounds)d time, and %(n)d were given",
                "a Swiss of %(rounds)d rounds needs %(rounds)d times, one per round, and %(n)d were given",
                rounds,
            )
            % {"rounds": rounds, "n": len(parsed)}
        )
    first = starts_at or now
    if parsed[0] < first:
        raise InvalidInput(
            _("round 1's time (%(at)s) is before the event starts (%(start)s)")
            % {"at": parsed[0], "start": first}
        )
    for n, (a, b) in enumerate(pairwise(parsed), start=2):
        if b <= a:
            raise InvalidInput(
                _("the round times must increase: round %(n)s (%(at)s) is not after round %(before)s")
                % {"n": n, "at": b, "before": n - 1}
            )
    return [at.astimezone(UTC).isoformat() for at in parsed]


def checked_fields(
    *,
    now: datetime,
    format: str,
    rounds: int,
    max_players: int | None,
    registration_closes: Any,
    starts_at: Any = None,
    min_players: int = 2,
    check_in_minutes: int = 30,
    round_start: str = Tournament.RoundStart.ASAP,
    round_interval_minutes: int | None = None,
    round_times: Sequence[Any] | None = None,
    round_deadline_minutes: int | None = None,
    deadline_rule: str = Tournament.DeadlineRule.SCORE,
) -> dict[str, Any]:
    """Check an event's start and round schedule; returns the ``Tournament`` fields to set
    (``InvalidInput`` with the reason, if one is wrong)."""
    start = check_start(
        now=now,
        starts_at=starts_at,
        registration_closes=registration_closes,
        min_players=min_players,
        max_players=max_players,
        check_in_minutes=check_in_minutes,
    )
    times = check_schedule(
        now=now,
        starts_at=start,
        format=format,
        rounds=rounds,
        round_start=round_start,
        round_interval_minutes=round_interval_minutes,
        round_times=round_times,
        round_deadline_minutes=round_deadline_minutes,
        deadline_rule=deadline_rule,
    )
    interval = round_start == Tournament.RoundStart.INTERVAL
    return {
        "starts_at": start,
        "min_players": min_players,
        "check_in_minutes": check_in_minutes,
        "round_start": round_start,
        "round_interval_minutes": round_interval_minutes if interval else None,
        "round_times": times,
        "round_deadline_minutes": round_deadline_minutes,
        "deadline_rule": deadline_rule,
    }


#: The calendar's settings of ``tournament_create`` (the arguments of :func:`checked_fields`).
FIELDS = {
    "starts_at",
    "min_players",
    "check_in_minutes",
    "round_start",
    "round_interval_minutes",
    "round_times",
    "round_deadline_minutes",
    "deadline_rule",
}
