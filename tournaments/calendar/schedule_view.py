"""The event page's "Schedule" block: when the event starts (and check-in opens), how its rounds
are paired, when the next one is due, each round's deadline and what happens at it, in words.
Times stay datetimes: the template writes them in the reader's time zone."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..models import Round, Tournament
from .schedule import round_times


@dataclass(frozen=True)
class RoundDeadline:
    number: int
    deadline: datetime
    settled: bool  # passed with tables unfinished, which were settled
    finished: bool  # the round is over (in time, unless ``settled``)


@dataclass(frozen=True)
class EventSchedule:
    called_off: bool
    #: Before the start: when it starts by itself, and when check-in opens (with check-in).
    starts_at: datetime | None
    check_in_opens: datetime | None
    min_players: int
    pairing_words: str  # how each next round is paired
    next_round: int  # the number of the round due at ``next_round_at``
    next_round_at: datetime | None
    times: list[tuple[int, datetime]] = field(default_factory=list)  # set times: (round, when)
    deadline_words: str = ""  # "Each round must be finished within 3 days of its pairing."
    rule_words: str = ""  # what happens to a game unfinished at the deadline
    deadlines: list[RoundDeadline] = field(default_factory=list)

    @property
    def shown(self) -> bool:
        """Whether the event has a schedule worth a block (not a hand-run event with no deadline)."""
        return bool(
            self.called_off
            or self.starts_at
            or self.next_round_at
            or self.times
            or self.deadline_words
            or self.pairing_words
        )


def duration_words(minutes: int) -> str:
    """A duration an organiser set, in the unit it was most likely set in ("3 days", "36 hours")."""
    if minutes % (24 * 60) == 0:
        days = minutes // (24 * 60)
        return ngettext("%(n)d day", "%(n)d days", days) % {"n": days}
    if minutes % 60 == 0:
        hours = minutes // 60
        return ngettext("%(n)d hour", "%(n)d hours", hours) % {"n": hours}
    return ngettext("%(n)d minute", "%(n)d minutes", minutes) % {"n": minutes}


def every_words(minutes: int) -> str:
    """How often rounds start ("every day", "every 2 hours", "every 90 minutes")."""
    if minutes % (24 * 60) == 0:
        days = minutes // (24 * 60)
        return ngettext("every day", "every %(n)d days", days) % {"n": days}
    if minutes % 60 == 0:
        hours = minutes // 60
        return ngettext("every hour", "every %(n)d hours", hours) % {"n": hours}
    return ngettext("every minute", "every %(n)d minutes", minutes) % {"n": minutes}


def rule_words(rule: str) -> str:
    if rule == Tournament.DeadlineRule.DRAW:
        return _("At the deadline, unfinished games count as a draw: everyone still in shares the place.")
    if rule == Tournament.DeadlineRule.FORFEIT:
        return _(
            "At the deadline, an unfinished game is lost by whoever is on move; the others still in "
            "share the place above."
        )
    return _(
        "At the deadline, unfinished games are scored from the position: the places go by the "
        "markers on the board, as the engine counts them."
    )


def _pairing_words(t: Tournament) -> str:
    if t.round_start == Tournament.RoundStart.INTERVAL and t.round_interval_minutes:
        return _(
            "A new round %(every)s: each is paired %(time)s after the last one started, or as soon as "
            "the last one ends if that is later."
        ) % {"every": every_words(t.round_interval_minutes), "time": duration_words(t.round_interval_minutes)}
    if t.round_start == Tournament.RoundStart.TIMES:
        return _(
            "Rounds start at set times; a round whose time has come starts as soon as the last one ends."
        )
    if t.round_deadline_minutes:
        return _("Each round is paired as soon as the last one ends.")
    return ""


def _settled(r: Round) -> bool:
    """The deadline was applied to a round still being played then (one over in time is marked
    applied too, with nothing to settle)."""
    return bool(
        r.deadline_applied and (r.finished_at is None or r.deadline is None or r.finished_at >= r.deadline)
    )


def event_schedule(t: Tournament, rounds: Iterable[Round]) -> EventSchedule:
    """The schedule of ``t`` (``rounds``: its rounds, as the page read them)."""
    before = t.status in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION)
    starts_at = t.starts_at if before else None
    opens = starts_at - timedelta(minutes=t.check_in_minutes) if starts_at and t.check_in else None
    running = t.status == Tournament.Status.RUNNING
    deadlines = [
        RoundDeadline(r.number, r.deadline, _settled(r), r.status == Round.Status.FINISHED)
        for r in sorted(rounds, key=lambda r: r.number)
        if r.deadline is not None
    ]
    times = list(enumerate(round_times(t), start=1)) if t.round_start == Tournament.RoundStart.TIMES else []
    deadline = ""
    if t.round_deadline_minutes:
        deadline = _("Each round must be finished within %(time)s of its pairing.") % {
            "time": duration_words(t.round_deadline_minutes)
        }
    return EventSchedule(
        called_off=t.status == Tournament.Status.CANCELLED,
        starts_at=starts_at,
        check_in_opens=opens,
        min_players=t.min_players,
        pairing_words=_pairing_words(t),
        next_round=t.current_round + 1,
        next_round_at=t.next_round_at if running else None,
        times=times,
        deadline_words=deadline,
        rule_words=rule_words(t.deadline_rule) if t.round_deadline_minutes else "",
        deadlines=deadlines,
    )
