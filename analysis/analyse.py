"""Analysis of finished games: asked for by players (one table) or organisers (a round), made once
on the slow queue, kept.

* :func:`request_analysis` and :func:`request_round_analysis` create the :class:`Analysis` row of
  a table at a depth (or find it: ``(table, depth)`` is unique, so duplicate requests share one)
  and send the task ``analysis.tasks.analyse_table`` once the request's transaction has committed.
* :func:`run_analysis` (the task) computes it **exactly once**: it claims the row with a
  conditional ``UPDATE`` (queued → running, or a running row whose worker has held it longer than
  :data:`LEASE` → running again, ``attempts`` + 1), computes outside any transaction, and stores
  the result with a conditional ``UPDATE`` only a running row of the same attempt passes. A
  duplicate task finds the row running or done and returns.

The depth (:data:`DEPTHS`, 3 to 8) names the work each position is searched with
(:data:`engine.analysis.WORK`), so an analysis is the same on any machine. The engine's part is
:mod:`engine.analysis`.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from rest_framework import status

from common.errors import Conflict, Forbidden, InvalidInput, NotFound, ServiceError
from common.tasks import send
from engine import analysis as engine_analysis
from games.models import Move, Player, Table
from games.selectors import initial_state
from tournaments.models import Round, RoundTable, Tournament
from tournaments.selectors import is_organiser

from .models import Analysis

log = logging.getLogger(__name__)

#: The task that runs :func:`run_analysis` (``analysis.tasks``; the slow queue).
ANALYSE_TABLE = "analysis.tasks.analyse_table"
#: The depths offered (:data:`engine.analysis.WORK`).
DEPTHS = tuple(sorted(engine_analysis.WORK))
DEFAULT_DEPTH = 5
#: The task's own time limits (seconds): a long game at depth 8 takes many minutes.
SOFT_TIME_LIMIT = 3600
TIME_LIMIT = SOFT_TIME_LIMIT + 60
#: How long a worker holds a running analysis before another may take it over (a lost worker):
#: longer than the task may run.
LEASE = timedelta(seconds=TIME_LIMIT + 300)
#: Takes after which a running analysis whose worker was lost each time is given up as failed.
MAX_ATTEMPTS = 3
#: A queued analysis whose task has not started this long after it was sent is sent again, by the
#: sweep (:func:`resend_lost`) or when asked again (the broker may have lost it; a duplicate task
#: does nothing).
RESEND_AFTER = timedelta(minutes=10)
#: Analyses a player may have waiting (queued or running) at once.
MAX_WAITING_PER_PLAYER = 3
#: How often a running analysis writes its progress (seconds).
PROGRESS_EVERY = 2.0


class TableNotFinished(Conflict):
    code = "table_not_finished"


class TooManyAnalyses(ServiceError):
    status_code = status.HTTP_429_TOO_MANY_REQUESTS
    code = "too_many_analyses"


def check_depth(depth: int) -> int:
    """``depth`` if it is one of :data:`DEPTHS`, else a refusal."""
    if depth not in DEPTHS:
        raise InvalidInput(
            _("depth: choose a depth from %(low)s to %(high)s") % {"low": DEPTHS[0], "high": DEPTHS[-1]}
        )
    return depth


def work_for(depth: int, game: str) -> int:
    """The search work per position at ``depth`` in ``game`` (positions searched)."""
    return engine_analysis.work(depth, game)


# ---------------------------------------------------------------- requests
def _player_of(user: AbstractBaseUser | AnonymousUser) -> Player:
    if not user.is_authenticated:
        raise Forbidden(_("sign in to ask for an analysis"))
    player: Player = user.player  # type: ignore[union-attr]
    return player


def _table(table_id: int) -> Table:
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise NotFound(_("there is no table %(table)s") % {"table": table_id})
    return table


def _ensure(table: Table, depth: int, user: AbstractBaseUser | None, limit: int | None) -> Analysis:
    """The table's analysis at ``depth``: made (queued) if there was none, queued again if it
    failed; its task sent after the commit when it was (re)queued or looks lost. ``limit``: how
    many waiting analyses the asker may have (``None``: no limit)."""
    now = timezone.now()
    analysis = Analysis.objects.select_for_update().filter(table=table, depth=depth).first()
    fresh = analysis is None or analysis.status == Analysis.Status.FAILED
    if fresh and limit is not None and user is not None:
        waiting = Analysis.objects.filter(
            requested_by=user, status__in=[Analysis.Status.QUEUED, Analysis.Status.RUNNING]
        ).count()
        if waiting >= limit:
            words = ngettext(
                "you have %(n)s analysis waiting: ask for another when it is done",
                "you have %(n)s analyses waiting: ask for another when one of them is done",
                waiting,
            )
            raise TooManyAnalyses(words % {"n": waiting})
    if analysis is None:
        analysis, created = Analysis.objects.get_or_create(
            table=table, depth=depth, defaults={"requested_by": user, "requested_at": now}
        )
        if created:
            _send_after_commit(analysis.pk)
        return analysis
    if analysis.status == Analysis.Status.FAILED:
        analysis.status = Analysis.Status.QUEUED
        analysis.requested_by = user
        analysis.requested_at = now
        analysis.attempts = 0
        analysis.error = ""
        analysis.save(update_fields=["status", "requested_by", "requested_at", "attempts", "error"])
        _send_after_commit(analysis.pk)
    elif (
        analysis.status == Analysis.Status.QUEUED
        and (analysis.sent_at or analysis.requested_at) < now - RESEND_AFTER
    ) or (
        analysis.status == Analysis.Status.RUNNING
        and analysis.started_at is not None
        and analysis.started_at < now - LEASE
    ):
        _send_after_commit(analysis.pk)
    return analysis


def _send_after_commit(analysis_id: int) -> None:
    Analysis.objects.filter(pk=analysis_id).update(sent_at=timezone.now())
    transaction.on_commit(lambda: send(ANALYSE_TABLE, (analysis_id,)))


#: Analyses the sweep sends again at most per run.
SWEEP_BATCH = 200


def resend_lost(*, now: datetime | None = None) -> int:
    """Send again the tasks of analyses that look lost (the periodic sweep, ``analysis_sweep``):
    queued ones whose task was last sent over :data:`RESEND_AFTER` ago (the broker may have lost
    it) and running ones whose worker has held them past :data:`LEASE` (the worker was lost; the
    next take counts an attempt, and after :data:`MAX_ATTEMPTS` the analysis fails). A resent
    task that meets the first one finds the analysis taken and returns, so nothing is computed
    twice. Rows another sweep holds are skipped. How many were sent."""
    now = now or timezone.now()
    stale = now - RESEND_AFTER
    lost = Q(status=Analysis.Status.QUEUED) & (
        Q(sent_at__lt=stale) | Q(sent_at__isnull=True, requested_at__lt=stale)
    )
    lost |= Q(status=Analysis.Status.RUNNING, started_at__lt=now - LEASE) & (
        Q(sent_at__lt=stale) | Q(sent_at__isnull=True)
    )
    with transaction.atomic():
        ids = list(
            Analysis.objects.select_for_update(skip_locked=True)
            .filter(lost)
            .order_by("requested_at", "pk")
            .values_list("pk", flat=True)[:SWEEP_BATCH]
        )
        for analysis_id in ids:
            _send_after_commit(analysis_id)
    if ids:
        log.info("analysis sweep: sent %d lost analyses again", len(ids))
    return len(ids)


class NotRequested(NotFound):
    code = "not_requested"


def find_analysis(*, table_id: int, depth: int | None) -> Analysis:
    """The analysis of a table to show: the one at ``depth``; without it the deepest finished one,
    else the last one asked for. ``NotFound`` without a table, ``NotRequested`` without any."""
    _table(table_id)
    rows = Analysis.objects.select_related("table").filter(table_id=table_id)
    if depth is not None:
        found = rows.filter(depth=depth).first()
    else:
        found = rows.filter(status=Analysis.Status.DONE).order_by("-depth").first()
        found = found or rows.order_by("-requested_at", "-pk").first()
    if found is None:
        raise NotRequested(_("nobody has asked for an analysis of table %(table)s yet") % {"table": table_id})
    return found


def request_analysis(
    *, table_id: int, user: AbstractBaseUser | AnonymousUser, depth: int = DEFAULT_DEPTH
) -> Analysis:
    """Ask for the analysis of a finished table at ``depth`` (any signed-in player, guests too:
    every table can be watched). Asking again, by anyone, gives the same analysis; a failed one
    is queued again. At most :data:`MAX_WAITING_PER_PLAYER` new analyses waiting per player."""
    check_depth(depth)
    _player_of(user)
    with transaction.atomic():
        table = _table(table_id)
        if table.status != Table.Status.FINISHED:
            raise TableNotFinished(
                _("table %(table)s is %(status)s: only finished games are analysed")
                % {"table": table.pk, "status": table.status_word}
            )
        analysis = _ensure(table, depth, user, MAX_WAITING_PER_PLAYER)  # type: ignore[arg-type]
    analysis.refresh_from_db()  # with tasks eager, the analysis ran on the commit
    return analysis


def request_round_analysis(
    *,
    tournament_id: int,
    round_number: int,
    user: AbstractBaseUser | AnonymousUser,
    depth: int = DEFAULT_DEPTH,
) -> list[Analysis]:
    """Ask for the analysis of every finished table of a round (the event's organisers and staff)."""
    check_depth(depth)
    player = _player_of(user)
    tournament = Tournament.objects.select_related("league").filter(pk=tournament_id).first()
    if tournament is None:
        raise NotFound(_("there is no tournament %(id)s") % {"id": tournament_id})
    if not is_organiser(tournament.league, player):
        raise Forbidden(_("only organisers of %(league)s may do this") % {"league": tournament.league.name})
    round_ = Round.objects.filter(tournament=tournament, number=round_number).first()
    if round_ is None:
        raise NotFound(
            _("%(event)s has no round %(number)s") % {"event": tournament.name, "number": round_number}
        )
    tables = (
        RoundTable.objects.filter(round=round_, table__status=Table.Status.FINISHED)
        .order_by("number")
        .values_list("table_id", flat=True)
    )
    ids: list[int] = []
    with transaction.atomic():
        for table in Table.objects.filter(pk__in=list(tables)).order_by("pk"):
            ids.append(_ensure(table, depth, user, None).pk)  # type: ignore[arg-type]
    return list(Analysis.objects.filter(pk__in=ids).order_by("table_id"))


# ---------------------------------------------------------------- the task
def _claim(analysis_id: int) -> int | None:
    """Take the analysis for this worker: its attempt number, or ``None`` when it is done, failed,
    or being made by a worker whose lease still runs."""
    now = timezone.now()
    stale = Q(status=Analysis.Status.RUNNING, started_at__lt=now - LEASE)
    takeable = Q(status=Analysis.Status.QUEUED) | stale
    claimed = Analysis.objects.filter(takeable, pk=analysis_id, attempts__lt=MAX_ATTEMPTS).update(
        status=Analysis.Status.RUNNING, started_at=now, attempts=F("attempts") + 1
    )
    if not claimed:
        # A worker was lost on every attempt: give it up, so the page stops waiting.
        Analysis.objects.filter(stale, pk=analysis_id, attempts__gte=MAX_ATTEMPTS).update(
            status=Analysis.Status.FAILED,
            finished_at=now,
            error=f"the analysis was taken {MAX_ATTEMPTS} times and never finished",
        )
        return None
    return Analysis.objects.filter(pk=analysis_id).values_list("attempts", flat=True).get()


def _mine(analysis_id: int, attempt: int) -> Any:
    return Analysis.objects.filter(pk=analysis_id, status=Analysis.Status.RUNNING, attempts=attempt)


def run_analysis(*, analysis_id: int) -> bool:
    """Compute and store the analysis, once: whether this call did (see the module docstring)."""
    attempt = _claim(analysis_id)
    if attempt is None:
        return False
    analysis = Analysis.objects.select_related("table").get(pk=analysis_id)
    last = [time.monotonic()]

    def progress(done: int, total: int) -> None:
        if time.monotonic() - last[0] >= PROGRESS_EVERY:
            last[0] = time.monotonic()
            _mine(analysis_id, attempt).update(summary={"progress": {"done": done, "total": total}})

    try:
        plies, summary = compute(analysis.table, analysis.depth, progress=progress)
    except Exception as exc:  # the engine's failure, or the task's soft time limit
        log.exception("analysis %s of table %s failed", analysis_id, analysis.table_id)
        _mine(analysis_id, attempt).update(
            status=Analysis.Status.FAILED,
            finished_at=timezone.now(),
            error=f"{type(exc).__name__}: {exc}"[:2000],
        )
        return False
    stored = _mine(analysis_id, attempt).update(
        status=Analysis.Status.DONE, plies=plies, summary=summary, finished_at=timezone.now(), error=""
    )
    return bool(stored)


def compute(table: Table, depth: int, *, progress: Any = None) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The analysis of ``table`` at ``depth``: the plies and the summary as stored (no writes)."""
    actions = [m.action for m in Move.objects.filter(table=table).order_by("seq")]
    work = work_for(depth, table.game)
    started = time.perf_counter()
    result = engine_analysis.analyse(
        actions, start=initial_state(table), iterations=work, seed=table.pk, progress=progress
    )
    seconds = time.perf_counter() - started
    summary: dict[str, Any] = {
        "start": result.start,
        "seats": engine_analysis.summary(result.plies, table.players),
        "work": work,
        "seconds": round(seconds, 3),
    }
    return [p.to_dict() for p in result.plies], summary
