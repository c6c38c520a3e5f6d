"""Events that start by themselves at ``Tournament.starts_at``, and the organiser's say over them.

Every calendar tick (:func:`sweep`, with ``now`` injected by tests):

* a draft whose ``registration_opens`` has come (and whose registration has not closed) opens
  for registration, as the organiser's "Open registration" would: players then register
  themselves within the window, as ``register`` checks;
* an event not started, starting within the hour, reminds everyone registered once ("starts
  within the hour"); with check-in, those not checked in yet are told once when check-in opens
  (``check_in_minutes`` before the start). Each is told once per start time: a postponed event
  reminds again for its new time (an audit line keyed by the start time marks it done);
* an event not started whose ``starts_at`` has come starts with no organiser (``start_locked``,
  audited "auto_start") when enough players came: registered, or checked in when the event uses
  check-in, and at least ``max(2, min_players)``. Otherwise it is called off and everyone
  registered is told how many came and how many were needed.

Each event is taken under its row lock (``select_for_update(skip_locked=True)``: one busy with a
concurrent tick or an organiser is left to them) and its status checked again under it, so the
status change makes a second tick, a redelivered task or a restarted worker a no-op: each event
starts (or is called off) exactly once.

The organiser may start a scheduled event early (the ordinary start), :func:`postpone` it to a new
time, or :func:`call_off` it.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from common.errors import Conflict, InvalidInput, ServiceError
from games.events import announce_after_commit
from games.models import Player

from ..competitions import news
from ..competitions.services.rounds import start_locked
from ..competitions.services.setup import _locked, audit, require_organiser
from ..events import event_changed
from ..models import AuditEntry, Registration, Tournament

log = logging.getLogger(__name__)

#: The most events one tick takes for each step; more wait for the next tick (10 s later).
BATCH = 50
#: How long before the start the "starts within the hour" reminder goes out.
REMINDER = timedelta(hours=1)
NOT_STARTED = (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION)
#: The longest check-in window (``check_in_minutes`` is a small integer of minutes).
LONGEST_CHECK_IN = timedelta(minutes=32767)
#: The most characters of an organiser's reason for calling an event off.
MAX_REASON = 1000


def sweep(*, now: datetime) -> dict[str, int]:
    """One tick's work (see the module's docstring); the counts of what it did."""
    opened = _open_registrations(now)
    reminded = _tell_each(_reminders_due(now), "starts_soon", now)
    check_ins = _tell_each(_check_ins_due(now), "check_in_open", now)
    started, called_off = _due_starts(now)
    done = {
        "opened": opened,
        "reminded": reminded,
        "check_in_opened": check_ins,
        "started": started,
        "called_off": called_off,
    }
    return {what: n for what, n in done.items() if n}


# ------------------------------------------------------------------ the sweep


def _open_registrations(now: datetime) -> int:
    """Drafts whose registration window has opened (and not closed) open for registration. One
    conditional UPDATE: a second tick finds no draft left to open."""
    return (
        Tournament.objects.filter(status=Tournament.Status.DRAFT, registration_opens__lte=now)
        .filter(Q(registration_closes__isnull=True) | Q(registration_closes__gt=now))
        .update(status=Tournament.Status.REGISTRATION)
    )


def present(*, t: Tournament) -> int:
    """How many players the event would pair now: registered, or checked in with check-in."""
    regs = Registration.objects.filter(tournament=t).exclude(status=Registration.Status.WITHDRAWN)
    if t.check_in:
        regs = regs.filter(status=Registration.Status.CHECKED_IN)
    return regs.count()


def needed(*, t: Tournament) -> int:
    """The fewest players the event starts by itself with: ``min_players``, and never fewer than two."""
    return max(2, t.min_players)


def _due_starts(now: datetime) -> tuple[int, int]:
    due = (
        Tournament.objects.filter(status__in=NOT_STARTED, starts_at__lte=now)
        .order_by("starts_at", "pk")
        .values_list("pk", flat=True)[:BATCH]
    )
    started = called_off = 0
    for pk in list(due):
        try:
            outcome = _start_or_call_off(pk, now)
        except Exception:  # one event's failure must not hold up the others: logged, tried next tick
            log.exception("calendar: event %s could not be started", pk)
            continue
        started += outcome == "started"
        called_off += outcome == "called_off"
    return started, called_off


@transaction.atomic
def _start_or_call_off(pk: int, now: datetime) -> str:
    t = (
        Tournament.objects.select_for_update(skip_locked=True)
        .filter(pk=pk, status__in=NOT_STARTED, starts_at__lte=now)
        .first()
    )
    if t is None:
        return ""  # started by hand, postponed or called off meanwhile, or another tick holds it
    came, least = present(t=t), needed(t=t)
    if came < least:
        call_off_locked(t=t, by=None, came=came, needed=least)
        log.info("calendar: %s called off (%s of %s players)", t.pk, came, least)
        return "called_off"
    try:
        with transaction.atomic():  # a refusal (a knockout's bracket cannot take this many) undoes it
            start_locked(t=t, by=None, now=now)
    except ServiceError as exc:
        call_off_locked(t=t, by=None, reason=exc.detail)
        log.info("calendar: %s called off: %s", t.pk, exc.detail)
        return "called_off"
    log.info("calendar: %s started by itself with %s players", t.pk, came)
    return "started"


def _reminders_due(now: datetime) -> list[int]:
    """Events not started that start within the hour."""
    return list(
        Tournament.objects.filter(status__in=NOT_STARTED, starts_at__gt=now, starts_at__lte=now + REMINDER)
        .order_by("starts_at", "pk")
        .values_list("pk", flat=True)[: BATCH * 4]
    )


def _check_ins_due(now: datetime) -> list[int]:
    """Events with check-in, not started, whose check-in window has opened."""
    rows = Tournament.objects.filter(
        status__in=NOT_STARTED, check_in=True, starts_at__gt=now, starts_at__lte=now + LONGEST_CHECK_IN
    ).values_list("pk", "starts_at", "check_in_minutes")
    return [pk for pk, at, minutes in rows if at - timedelta(minutes=minutes) <= now][: BATCH * 4]


def _tell_each(ids: Iterable[int], state: str, now: datetime) -> int:
    """Tell each event's players ``state`` once per start time: events whose audit already has it
    for their current start are left out in one query, the rest taken one by one under lock."""
    ids = list(ids)
    if not ids:
        return 0
    told = set(
        AuditEntry.objects.filter(tournament_id__in=ids, action=state).values_list(
            "tournament_id", "detail__starts_at"
        )
    )
    starts = dict(Tournament.objects.filter(pk__in=ids).values_list("pk", "starts_at"))
    count = 0
    for pk in ids:
        if starts.get(pk) is not None and (pk, starts[pk].isoformat()) not in told:
            count += _tell_once(pk, state, now)
    return count


@transaction.atomic
def _tell_once(pk: int, state: str, now: datetime) -> bool:
    t = (
        Tournament.objects.select_for_update(skip_locked=True)
        .filter(pk=pk, status__in=NOT_STARTED, starts_at__gt=now)
        .first()
    )
    if t is None or t.starts_at is None:
        return False
    stamp = t.starts_at.isoformat()
    if AuditEntry.objects.filter(tournament=t, action=state, detail__starts_at=stamp).exists():
        return False
    audit(t=t, by=None, action=state, detail={"starts_at": stamp})
    _announce(t.pk, state=state)
    return True


def _announce(tournament_id: int, *, state: str, reason: str = "", came: int = 0, needed: int = 0) -> None:
    announce_after_commit(
        event_changed,
        lambda: {
            "event": news.calendar_news(tournament_id, state=state, reason=reason, came=came, needed=needed)
        },
    )


# ---------------------------------------------------------------- services


def call_off_locked(
    *, t: Tournament, by: Player | None, reason: str = "", came: int = 0, needed: int = 0
) -> None:
    """Call ``t`` off (locked by the caller, not started): status "called off", an audit line, and
    everyone registered told why (``reason``; or, at the start time, ``came`` of ``needed``)."""
    t.status = Tournament.Status.CANCELLED
    t.save(update_fields=["status"])
    detail = {"came": came, "needed": needed} if needed else {}
    audit(t=t, by=by, action="called_off", reason=reason, detail=detail)
    _announce(t.pk, state="called_off", reason=reason, came=came, needed=needed)


def _require_not_started(t: Tournament, refusal: str) -> None:
    if t.status not in NOT_STARTED:
        raise Conflict(refusal % {"event": t.name, "status": t.get_status_display()})


@transaction.atomic
def postpone(
    *, tournament_id: int, starts_at: datetime, by: Player, now: datetime | None = None
) -> Tournament:
    """The organiser moves a scheduled event (or gives an event started by hand a start time): the
    new time must be in the future and after registration opens. Everyone registered is told; the
    reminders go out again for the new time."""
    t = _locked(tournament_id)
    require_organiser(league=t.league, player=by)
    _require_not_started(t, _("only an event not started yet can be postponed, and %(event)s is %(status)s"))
    moment = now or timezone.now()
    if timezone.is_naive(starts_at):
        starts_at = timezone.make_aware(starts_at)
    if starts_at <= moment:
        raise InvalidInput(
            _("the new start time must be in the future, and %(when)s has passed")
            % {"when": _written(starts_at)}
        )
    if t.registration_opens and starts_at <= t.registration_opens:
        raise InvalidInput(
            _("the event cannot start before registration opens (%(opens)s)")
            % {"opens": _written(t.registration_opens)}
        )
    if t.starts_at == starts_at:
        raise InvalidInput(
            _("%(event)s already starts at %(when)s") % {"event": t.name, "when": _written(starts_at)}
        )
    was = t.starts_at
    t.starts_at = starts_at
    t.save(update_fields=["starts_at"])
    audit(
        t=t,
        by=by,
        action="postpone",
        detail={"was": was.isoformat() if was else None, "starts_at": starts_at.isoformat()},
    )
    _announce(t.pk, state="postponed")
    return t


@transaction.atomic
def call_off(*, tournament_id: int, by: Player, reason: str = "") -> Tournament:
    """The organiser calls off an event not started yet; everyone registered is told (with the
    reason, if one is given)."""
    t = _locked(tournament_id)
    require_organiser(league=t.league, player=by)
    _require_not_started(t, _("only an event not started yet can be called off, and %(event)s is %(status)s"))
    reason = (reason or "").strip()
    if len(reason) > MAX_REASON:
        raise InvalidInput(
            _("the reason is %(n)d characters long: at most %(max)d, please")
            % {"n": len(reason), "max": MAX_REASON}
        )
    call_off_locked(t=t, by=by, reason=reason)
    return t


def _written(at: datetime) -> str:
    """A moment in the active time zone and language, for an error."""
    return formats.date_format(timezone.localtime(at), "DATETIME_FORMAT")
