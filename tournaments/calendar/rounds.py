"""Rounds on a schedule and correspondence deadlines, carried out by the calendar's tick.

* **Due rounds.** A running, unpaused event whose next round is due (``next_round_at``, see
  :mod:`.schedule`) and whose current round is over gets its next round paired (or ends).
* **Deadlines.** A round whose deadline passed has its unfinished tables settled by the event's
  ``deadline_rule``: "score" ranks the seats as the engine's scores do from the position, "draw"
  gives everyone still in a shared first place, "forfeit" puts whoever is on move last of those
  still in and the others level above. Each table is ended through games' own adjudication
  (``games.services.table_adjudicate``), so ``game_finished`` fires and ratings, standings and
  the round's end follow as for any finished table; each is written in the event's audit log.
* **Reminders.** 24 hours before a deadline (for rounds longer than that) the players with an
  unfinished table are told, once (``round_deadline_near``).

Each is done exactly once: the event (then the round) is locked and what made it due is read
again under the lock; a round's ``deadline_applied`` is set in the transaction that settles it.
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils.translation import gettext as _

import engine
from common.errors import Conflict, InvalidInput
from games import selectors as game_reads
from games import services as games
from games.events import announce_after_commit
from games.models import Table

from ..competitions.services import audit, table_finished
from ..competitions.services.rounds import _advance
from ..competitions.services.setup import _locked
from ..events import DeadlineNear, PairedTable, round_deadline_near
from ..models import AuditEntry, Round, RoundTable, Tournament
from . import schedule

log = logging.getLogger(__name__)

#: The audit log's actions written here.
SETTLED = "deadline"
REMINDED = "deadline reminder"
UNFINISHED = (Table.Status.OPEN, Table.Status.ACTIVE)


def sweep(*, now: datetime) -> dict[str, int]:
    """Settle the deadlines passed, pair the rounds due, send the reminders due (counts of each)."""
    settled = sum(settle_round(round_id=r, now=now) for r in _deadlines_passed(now))
    paired = sum(pair_due(tournament_id=t, now=now) for t in _rounds_due(now))
    reminded = sum(remind(round_id=r, now=now) for r in _reminders_due(now))
    return {"settled": settled, "paired": paired, "reminded": reminded}


# ------------------------------------------------------------- due rounds


def _current_round_over() -> Exists:
    return Exists(
        Round.objects.filter(
            tournament=OuterRef("pk"), number=OuterRef("current_round"), status=Round.Status.FINISHED
        )
    )


def _rounds_due(now: datetime) -> list[int]:
    rows = Tournament.objects.filter(
        status=Tournament.Status.RUNNING, paused=False, next_round_at__lte=now
    ).filter(_current_round_over())
    return list(rows.values_list("pk", flat=True))


@transaction.atomic
def pair_due(*, tournament_id: int, now: datetime) -> int:
    """Pair the next round of an event whose round is due (or end the event): 1 if done, 0 if
    it was not (or no longer) due."""
    t = _locked(tournament_id)
    if t.status != Tournament.Status.RUNNING or t.paused or t.next_round_at is None or t.next_round_at > now:
        return 0
    current = Round.objects.filter(tournament=t, number=t.current_round).first()
    if current is None or current.status != Round.Status.FINISHED:
        return 0
    _advance(t, now=now)
    return 1


# -------------------------------------------------------------- deadlines


def _deadlines_passed(now: datetime) -> list[int]:
    rows = Round.objects.filter(deadline__lte=now, deadline_applied=False).order_by("deadline", "pk")
    return list(rows.values_list("pk", flat=True))


def deadline_ranks(state: engine.State, rule: str) -> dict[int, int]:
    """The ranks (seat -> rank) that ``rule`` gives a game in ``state`` (an engine state being
    played). Seats that are out keep their places below everyone still in, as the engine ranks them."""
    ranking = state.ranking()
    active = state.active_seats
    if rule == Tournament.DeadlineRule.SCORE:
        return ranking
    out = {s: r for s, r in ranking.items() if s not in active}
    if rule == Tournament.DeadlineRule.DRAW or len(active) < 2:
        return {**dict.fromkeys(active, 1), **out}
    mover = state.to_move
    return {**{s: 1 for s in active if s != mover}, mover: len(active), **out}


@transaction.atomic
def settle_round(*, round_id: int, now: datetime) -> int:
    """Apply a passed deadline to round ``round_id`` once: its unfinished tables are ended by the
    event's rule. Returns the number of tables settled."""
    tournament_id = Round.objects.filter(pk=round_id).values_list("tournament_id", flat=True).first()
    if tournament_id is None:
        return 0
    t = _locked(tournament_id)  # the event first, then the round: the order ``table_finished`` locks in
    rnd = Round.objects.select_for_update().get(pk=round_id)
    if rnd.deadline_applied or rnd.deadline is None or rnd.deadline > now:
        return 0
    rnd.deadline_applied = True
    rnd.save(update_fields=["deadline_applied"])
    if t.status != Tournament.Status.RUNNING or rnd.status != Round.Status.RUNNING:
        return 0  # over before its deadline (or called off): nothing to settle
    settled = []
    for rt in RoundTable.objects.filter(round=rnd).order_by("number"):
        if _settle_table(t, rnd, rt):
            settled.append(rt.table_id)
    for table_id in settled:  # counted now, as an organiser's result is: the round may end here
        table_finished(table_id=table_id)
    return len(settled)


def _settle_table(t: Tournament, rnd: Round, rt: RoundTable) -> bool:
    table = Table.objects.select_for_update().get(pk=rt.table_id)
    if table.status != Table.Status.ACTIVE:
        if table.status == Table.Status.OPEN:
            log.warning("round %s: table %s never started; left to the organiser", rnd.pk, table.pk)
        return False
    ranks = deadline_ranks(game_reads.current_state(table), t.deadline_rule)
    seats = game_reads.seated_players([table.pk]).get(table.pk, {})
    try:
        games.table_adjudicate(table_id=table.pk, ranks=ranks)
    except (Conflict, InvalidInput) as exc:
        log.warning("round %s: table %s could not be settled: %s", rnd.pk, table.pk, exc)
        return False
    audit(
        t=t,
        by=None,
        action=SETTLED,
        table_id=table.pk,
        reason=_("The round's deadline passed: the game was %(rule)s.")
        % {"rule": t.get_deadline_rule_display()},
        detail={
            "round": rnd.number,
            "board": rt.number,
            "rule": t.deadline_rule,
            "before": {str(p.id): None for p in seats.values()},
            "after": {str(p.id): ranks[n] for n, p in seats.items()},
        },
    )
    return True


# -------------------------------------------------------------- reminders


def _reminders_due(now: datetime) -> list[int]:
    rows = Round.objects.filter(
        deadline__gt=now,
        deadline__lte=now + schedule.REMINDER,
        deadline_applied=False,
        status=Round.Status.RUNNING,
    ).values_list("pk", "tournament_id", "number", "deadline", "started_at")
    candidates = [r for r in rows if r[3] - r[4] > schedule.REMINDER]  # a round longer than a day
    done = {
        (e.tournament_id, (e.detail or {}).get("round"))
        for e in AuditEntry.objects.filter(
            action=REMINDED, tournament_id__in={r[1] for r in candidates}
        ).only("tournament_id", "detail")
    }
    return [r[0] for r in candidates if (r[1], r[2]) not in done]


@transaction.atomic
def remind(*, round_id: int, now: datetime) -> int:
    """Tell the players of round ``round_id``'s unfinished tables that 24 hours are left, once:
    1 if told now, 0 if not due or told before."""
    tournament_id = Round.objects.filter(pk=round_id).values_list("tournament_id", flat=True).first()
    if tournament_id is None:
        return 0
    t = _locked(tournament_id)
    rnd = Round.objects.select_for_update().get(pk=round_id)
    if rnd.deadline is None or rnd.deadline_applied or rnd.status != Round.Status.RUNNING:
        return 0
    if not rnd.deadline - schedule.REMINDER <= now < rnd.deadline:
        return 0
    if AuditEntry.objects.filter(tournament=t, action=REMINDED, detail__round=rnd.number).exists():
        return 0
    table_ids = list(
        Table.objects.filter(round_table__round=rnd, status__in=UNFINISHED)
        .order_by("round_table__number")
        .values_list("pk", flat=True)
    )
    audit(t=t, by=None, action=REMINDED, detail={"round": rnd.number, "tables": len(table_ids)})
    if table_ids:
        announce_after_commit(round_deadline_near, lambda: {"near": _deadline_near(t, rnd, table_ids)})
    return 1


def _deadline_near(t: Tournament, rnd: Round, table_ids: list[int]) -> DeadlineNear:
    """The reminder's payload: the round, and who sits at each unfinished table (read after the commit)."""
    assert rnd.deadline is not None
    seated = game_reads.seated_players(table_ids)
    return DeadlineNear(
        round_id=rnd.pk,
        tournament_id=t.pk,
        event=t.name,
        number=rnd.number,
        deadline=rnd.deadline,
        rule=t.deadline_rule,
        tables=tuple(PairedTable(table_id=i, players=tuple(seated.get(i, {}).values())) for i in table_ids),
    )
