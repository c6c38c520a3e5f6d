"""Running an event: the start, seeds, pause and resume, pairing each round, and what a finished
table leads to (the next round, or the end).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from common.errors import Conflict, InvalidInput
from games import selectors as game_reads
from games import services as games
from games.events import announce_after_commit
from games.models import Player, Table
from games.results import GameResult
from ratings import selectors as ratings

from ... import pairing
from ...arena.start import start_arena
from ...calendar import schedule
from ...events import event_changed, round_paired
from ...models import AuditEntry, Registration, Round, RoundTable, Tournament
from ...pairing import double_elim
from ...pairing.bracket import BracketError, bracket, bracket_round, seed_order, table_advancers
from ...standings import standings
from .. import news
from ..selectors import History, history, late_entries, requested_byes, unplayed_rounds
from .setup import _locked, audit, refuse_arena, require_organiser


@transaction.atomic
def start(*, tournament_id: int, by: Player) -> Tournament:
    """An organiser starts the event now (also a scheduled one, before its time)."""
    t = _locked(tournament_id)
    require_organiser(league=t.league, player=by)
    return start_locked(t=t, by=by)


def start_locked(*, t: Tournament, by: Player | None, now: datetime | None = None) -> Tournament:
    """Start ``t``, locked by the caller, who checked who may: an organiser (``start``), or the
    calendar at ``starts_at`` (``by=None``, audited as "auto_start"; ``now``: its clock)."""
    if t.status not in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION):
        raise Conflict(_("the tournament is %(status)s") % {"status": t.get_status_display()})
    players = _players(t)
    arena = t.format == Tournament.Format.ARENA  # no rounds: players join until its end, and are paired
    if len(players) < 2 and not arena:
        raise Conflict(_("at least two registered (and checked-in) players are needed"))
    if t.format == Tournament.Format.ROUND_ROBIN:
        schedule = pairing.round_robin([p.pk for p in players], t.seats)
        t.schedule = [[list(tb.players) for tb in r.tables] for r in schedule]
        t.rounds = len(schedule)
    if t.format == Tournament.Format.KNOCKOUT:
        try:
            t.rounds = len(bracket(len(players), t.seats, t.advance))
        except BracketError as exc:
            raise Conflict(_("this knockout cannot start: %(error)s") % {"error": exc}) from None
        t.seeds = _seeded(t, players)
    if t.format == Tournament.Format.DOUBLE_ELIMINATION:
        t.rounds = double_elim.planned_rounds(len(players))
        t.seeds = _seeded(t, players)
    if t.check_in:  # only the checked in are paired: who did not check in is out from the start
        Registration.objects.filter(tournament=t, status=Registration.Status.REGISTERED).update(
            status=Registration.Status.WITHDRAWN
        )
    t.status = Tournament.Status.RUNNING
    t.started_at = now or timezone.now()
    t.save()
    _announce_event(t.pk, state="started")
    if arena:  # the next pairing wave (``tournaments.arena.wave``) seats them
        start_arena(t=t, players=_players(t), now=t.started_at)
    else:
        _pair_round(t, now=now)
    audit(t=t, by=by, action="start" if by else "auto_start", detail={"players": len(players)})
    return t


def _seeded(t: Tournament, players: list[Player]) -> list[int]:
    """The bracket's seed order: the organiser's seeds first (``Registration.seed``, 1 = top), then
    everyone else by rating (``seed_order``: conservative rating, highest first, then id)."""
    rating_of = ratings.conservative_ratings(t.game, [p.pk for p in players])
    by_rating = seed_order([pairing.Entrant(p.pk, rating=rating_of.get(p.pk, 0.0)) for p in players])
    seed_of = dict(
        Registration.objects.filter(tournament=t, seed__isnull=False).values_list("player_id", "seed")
    )
    seeded = sorted((p for p in by_rating if p in seed_of), key=lambda p: (seed_of[p], by_rating.index(p)))
    return seeded + [p for p in by_rating if p not in seed_of]


@transaction.atomic
def set_seeds(*, tournament_id: int, seeds: dict[int, int | None], by: Player) -> Tournament:
    """The organiser seeds players before the start (player id -> seed, 1 = top; ``None`` clears one).

    Seeds must be distinct positive numbers; players not named keep theirs."""
    t = _locked(tournament_id)
    require_organiser(league=t.league, player=by)
    refuse_arena(t=t)
    if t.status not in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION):
        raise Conflict(
            _("seeds are set before the start, and the event is %(status)s")
            % {"status": t.get_status_display()}
        )
    regs = {
        r.player_id: r
        for r in Registration.objects.filter(tournament=t)
        .exclude(status=Registration.Status.WITHDRAWN)
        .select_related("player")
    }
    for player_id, seed in seeds.items():
        if player_id not in regs:
            raise InvalidInput(
                _("player %(id)s is not registered for %(event)s") % {"id": player_id, "event": t.name}
            )
        if seed is not None and seed < 1:
            raise InvalidInput(
                _("a seed is 1 or more, not %(seed)s (%(name)s)")
                % {"seed": seed, "name": regs[player_id].player.display_name}
            )
    after = {p: r.seed for p, r in regs.items()} | seeds
    taken: dict[int, int] = {}
    for player_id, seed in after.items():
        if seed is None:
            continue
        if seed in taken:
            first, second = regs[taken[seed]].player.display_name, regs[player_id].player.display_name
            raise InvalidInput(
                _("seed %(seed)s is given twice: to %(first)s and %(second)s")
                % {"seed": seed, "first": first, "second": second}
            )
        taken[seed] = player_id
    changed = []
    for player_id, seed in seeds.items():
        if regs[player_id].seed != seed:
            regs[player_id].seed = seed
            changed.append(regs[player_id])
    Registration.objects.bulk_update(changed, ["seed"])
    if changed:
        audit(t=t, by=by, action="seeds", detail={"seeds": {str(r.player_id): r.seed for r in changed}})
    return t


@transaction.atomic
def pause(*, tournament_id: int, by: Player) -> Tournament:
    """Pause a running event: when the current round ends, the next one is not paired until
    :func:`resume` (tables being played go on)."""
    t = _locked(tournament_id)
    require_organiser(league=t.league, player=by)
    if t.status != Tournament.Status.RUNNING:
        raise Conflict(
            _("only a running event can be paused, and %(event)s is %(status)s")
            % {"event": t.name, "status": t.get_status_display()}
        )
    if t.paused:
        raise Conflict(_("%(event)s is paused already") % {"event": t.name})
    t.paused = True
    t.save(update_fields=["paused"])
    audit(t=t, by=by, action="pause", detail={"round": t.current_round})
    return t


@transaction.atomic
def resume(*, tournament_id: int, by: Player) -> Round | None:
    """Resume a paused event; if its current round is over, the next round is paired at once (or
    the event ends). Returns the round paired now, if any."""
    t = _locked(tournament_id)
    require_organiser(league=t.league, player=by)
    if not t.paused:
        raise Conflict(_("%(event)s is not paused") % {"event": t.name})
    t.paused = False
    t.save(update_fields=["paused"])
    audit(t=t, by=by, action="resume", detail={"round": t.current_round})
    if t.status != Tournament.Status.RUNNING:
        return None
    current = Round.objects.filter(tournament=t, number=t.current_round).first()
    if current is not None and current.status == Round.Status.FINISHED:
        before = t.current_round
        _advance(t)
        if t.current_round > before:
            return Round.objects.get(tournament=t, number=t.current_round)
    return None


@transaction.atomic
def next_round(*, tournament_id: int, by: Player) -> Round:
    """Start the next round by hand (the current one must be over)."""
    t = _locked(tournament_id)
    require_organiser(league=t.league, player=by)
    refuse_arena(t=t)
    if t.status != Tournament.Status.RUNNING:
        raise Conflict(_("the tournament is %(status)s") % {"status": t.get_status_display()})
    current = Round.objects.filter(tournament=t, number=t.current_round).first()
    if current is not None and current.status != Round.Status.FINISHED:
        raise Conflict(_("round %(number)s is still being played") % {"number": current.number})
    if not _more_rounds(t):
        raise Conflict(_("every round has been played"))
    return _pair_round(t)


@transaction.atomic
def repair_round(*, tournament_id: int, by: Player) -> Round:
    """Pair the current round again, while none of its tables has a move or a result: pairing again
    deletes every table of the round, so a result entered (by an organiser, or a table ended by
    no-shows) would be thrown away. Such a round is refused whole, not re-paired around the finished
    tables: the others' pairings were made together with them."""
    t = _locked(tournament_id)
    require_organiser(league=t.league, player=by)
    refuse_arena(t=t)
    current = Round.objects.filter(tournament=t, number=t.current_round).first()
    if current is None or current.status != Round.Status.RUNNING:
        raise Conflict(_("there is no round being played to pair again"))
    refusal = repair_refusal(rnd=current)
    if refusal:
        raise Conflict(refusal)
    tables = Table.objects.filter(round_table__round=current)
    for tb in tables:
        tb.delete()
    current.delete()
    t.current_round -= 1
    t.save(update_fields=["current_round"])
    return _pair_round(t)


def repair_refusal(*, rnd: Round) -> str:
    """Why round ``rnd`` cannot be paired again ("" when it can): a table has a move or a result."""
    links = RoundTable.objects.filter(round=rnd).select_related("table").order_by("number")
    for rt in links:
        words = {"round": rnd.number, "board": rt.number}
        if rt.table.status in (Table.Status.FINISHED, Table.Status.ABORTED):
            return (
                _(
                    "round %(round)s cannot be paired again: board %(board)s already has a result, and "
                    "pairing again would throw it away. To change a result, correct it under Results; "
                    "the round's other tables play on."
                )
                % words
            )
        if rt.table.actions:
            return (
                _(
                    "round %(round)s cannot be paired again: board %(board)s has started playing, and "
                    "pairing again would throw its moves away. Enter a result for it under Results instead."
                )
                % words
            )
    return ""


# ------------------------------------------------------------------- rounds


def _players(t: Tournament) -> list[Player]:
    regs = Registration.objects.filter(tournament=t).exclude(status=Registration.Status.WITHDRAWN)
    if t.check_in and t.status != Tournament.Status.RUNNING:
        regs = regs.filter(status=Registration.Status.CHECKED_IN)
    return [r.player for r in regs.select_related("player__user")]


def _more_rounds(t: Tournament) -> bool:
    if t.format == Tournament.Format.KNOCKOUT and t.seeds is None:  # started before knockouts were planned
        last = Round.objects.filter(tournament=t, number=t.current_round).first()
        return last is None or last.tables.count() > 1
    if t.format == Tournament.Format.DOUBLE_ELIMINATION:  # until the bracket has a winner (reset: +1)
        active = [p.pk for p in _players(t)]
        return not double_elim.plan_next(t.seeds or [], history(t).rounds, active).finished
    return t.current_round < t.rounds


def _pair_round(t: Tournament, *, now: datetime | None = None) -> Round:
    """Pair the next round of ``t`` by its format, seat its tables, and announce it; its deadline
    and the next round's time follow the event's schedule (``calendar.schedule``), from ``now``."""
    number = t.current_round + 1
    past = history(t)
    manual, later = _round_exceptions(t, number)
    players = [p for p in _players(t) if p.pk not in later]
    entrants = _entrants(t, past, players, exclude=manual)
    if t.format == Tournament.Format.SWISS:
        plan = pairing.swiss_round(entrants, t.seats)
    elif t.format == Tournament.Format.ROUND_ROBIN:
        plan = _scheduled_round(t, number, {e.id for e in entrants}, past.seat_history)
    elif t.format == Tournament.Format.DOUBLE_ELIMINATION:
        plan = _double_elim_round(t, number, past.rounds, entrants)
    else:
        plan = _knockout_round(t, entrants)
    paired_at = now or timezone.now()
    rnd = Round.objects.create(
        tournament=t,
        number=number,
        byes=sorted([*plan.byes, *manual]),
        deadline=schedule.round_deadline(t, paired_at),
    )
    _seat_tables(t, rnd, plan.tables, {p.pk: p for p in players})
    t.current_round = number
    t.next_round_at = schedule.next_round_time(t, number, paired_at)
    t.save(update_fields=["current_round", "next_round_at"])
    round_id = rnd.pk
    announce_after_commit(round_paired, lambda: {"paired": news.round_paired(round_id)})
    if not plan.tables:
        _finish_round(t, rnd, now=now)
    return rnd


def _round_exceptions(t: Tournament, number: int) -> tuple[set[int], set[int]]:
    """Who has the organiser's bye in round ``number``, and who entered late for a later round (the
    round is being paired again): neither is paired."""
    manual, later = set(), set()
    for r in Registration.objects.filter(tournament=t).exclude(status="withdrawn"):
        if number in r.manual_byes:
            manual.add(r.player_id)
        if r.joined_round > number:
            later.add(r.player_id)
    return manual, later


def _entrants(
    t: Tournament, past: History, players: list[Player], *, exclude: set[int]
) -> list[pairing.Entrant]:
    """What the pairing knows of each player to pair: score, rating (or seed), who they met, their
    seats, byes and floats so far."""
    unplayed = unplayed_rounds(t, past.rounds, late_entries(t), requested=requested_byes(t))
    ids = [p.pk for p in players]
    rows = {
        row.player: row
        for row in standings(
            ids, past.results, t.seats, scale=t.points_scale, unplayed=unplayed, rounds=t.rounds
        )
    }
    rating_of = ratings.conservative_ratings(t.game, ids)
    if (
        t.format == Tournament.Format.SWISS
        and Registration.objects.filter(tournament=t, seed__isnull=False).exists()
    ):
        # The organiser's seeds order each score group (seeded players by seed, then the rest by
        # rating, as ``_seeded``): the pairing orders a group by ``rating``, so it gets the seed order.
        rating_of = {p: -float(i) for i, p in enumerate(_seeded(t, players))}
    two_seat_swiss = t.format == Tournament.Format.SWISS and t.seats == 2
    floated = _last_floats(t, past, ids) if two_seat_swiss else {}
    return [
        pairing.Entrant(
            id=p.pk,
            score=rows[p.pk].points if p.pk in rows else 0.0,
            rating=rating_of.get(p.pk, 0.0),
            meetings=dict(past.meetings.get(p.pk, {})),
            seat_history=tuple(past.seat_history.get(p.pk, ())),
            byes=past.byes[p.pk],
            small_tables=past.small_tables[p.pk],
            last_seats=past.last_seats[p.pk],
            floated=floated.get(p.pk, 0),
        )
        for p in players
        if p.pk not in exclude
    ]


def _seat_tables(
    t: Tournament, rnd: Round, tables: tuple[pairing.Table, ...], by_id: dict[int, Player]
) -> None:
    """Open each planned table of the round and seat its players in the planned order."""
    for n, table_plan in enumerate(tables, start=1):
        table = games.table_create(
            creator=t.created_by,
            game=t.game,
            players=len(table_plan.players),
            edition=t.edition,
            rated=t.rated,
            join=False,
            time_control=t.time_control,
            no_show="timeout",
        )
        RoundTable.objects.create(round=rnd, table=table, number=n)
        for seat, player_id in enumerate(table_plan.players, start=1):
            games.seat_join(table_id=table.pk, player=by_id[player_id], seat=seat, event=True)


def _scheduled_round(
    t: Tournament, number: int, active: set[int], seats_taken: dict[int, list[int]]
) -> pairing.Round:
    """Round ``number`` of the schedule fixed at the start. A full table keeps the schedule's seat order:
    ``pairing.round_robin`` chose seat 1 and the last seat over the whole schedule, each player's
    count within one of every other's, which seating round by round would undo. A table someone has
    left since (withdrawn, or given a bye) is seated afresh from the seats taken so far."""
    tables, byes = [], []
    for players in (t.schedule or [])[number - 1]:
        present = [p for p in players if p in active]
        if len(present) == len(players):
            tables.append(pairing.Table(tuple(present)))
        elif len(present) >= 2:
            tables.append(pairing.Table(pairing.assign_seats(present, seats_taken)))
        else:
            byes.extend(present)
    return pairing.Round(tuple(tables), tuple(byes))


def _last_floats(t: Tournament, past: Any, players: list[int]) -> dict[int, int]:
    """How each player floated in the last round (``pairing.Entrant.floated``): +1 up (met a higher
    score), -1 down (a lower score, or a bye); players who did neither are left out."""
    if not past.rounds:
        return {}
    last = past.rounds[-1]
    earlier = [r for r in past.results if r.round < last.number]
    unplayed = unplayed_rounds(
        t, past.rounds, late_entries(t), upto=last.number - 1, requested=requested_byes(t)
    )
    before: dict[int, float] = {}  # nothing played before the last round: everyone on 0
    if earlier or any(unplayed.values()):
        rows = standings(players, earlier, t.seats, scale=t.points_scale, unplayed=unplayed, rounds=t.rounds)
        before = {row.player: row.points for row in rows}
    out = dict.fromkeys(last.byes, -1)
    for table in last.tables:
        if len(table.players) == 2:
            a, b = table.players
            if before.get(a, 0.0) != before.get(b, 0.0):
                out[a] = 1 if before.get(a, 0.0) < before.get(b, 0.0) else -1
                out[b] = -out[a]
    return out


def _knockout_round(t: Tournament, entrants: list[pairing.Entrant]) -> pairing.Round:
    """The next round of the bracket planned at the start (``tournaments.pairing.bracket``): round 1's
    field is the seeds, a later one those who went through the last round (table by table, ties at
    the cut to the better seed) or had a bye there; a player who withdrew is left out."""
    last = Round.objects.filter(tournament=t, number=t.current_round).first()
    if t.seeds is None:  # started before knockouts were planned: the old unplanned rounds
        if last is None:
            return pairing.knockout_round(entrants, t.seats)
        table_ids = list(last.tables.order_by("number").values_list("table_id", flat=True))
        finished = game_reads.game_results(table_ids)
        ranks = [finished[tid].ranks() if tid in finished else {} for tid in table_ids]
        advancing = set(pairing.knockout_advancers(ranks, t.advance)) | set(last.byes)
        return pairing.knockout_round([e for e in entrants if e.id in advancing], t.seats)
    seed = {p: i for i, p in enumerate(t.seeds, start=1)}
    if last is None:
        going = set(t.seeds)
    else:
        table_ids = list(last.tables.order_by("number").values_list("table_id", flat=True))
        finished = game_reads.game_results(table_ids)
        going = set(last.byes)
        for tid in table_ids:
            if tid in finished:
                going.update(table_advancers(finished[tid].ranks(), t.advance, seed))
    active = {e.id: e for e in entrants}
    field = [p for p in t.seeds if p in going and p in active]
    planned = bracket(len(t.seeds), t.seats, t.advance)[t.current_round]
    return bracket_round(field, planned, {p: e.seat_history for p, e in active.items()})


def _double_elim_round(
    t: Tournament, number: int, rounds: list[Any], entrants: list[pairing.Entrant]
) -> pairing.Round:
    """The next round of a double elimination (``tournaments.pairing.double_elim``), both brackets
    at once; a bracket reset's second final makes the event one round longer than planned."""
    plan = double_elim.plan_next(t.seeds or [], rounds, [e.id for e in entrants])
    if plan.tables and number > t.rounds:
        t.rounds = number
        t.save(update_fields=["rounds"])
    return pairing.Round(plan.tables, plan.byes)


def _finish_round(t: Tournament, rnd: Round, *, now: datetime | None = None) -> None:
    rnd.status = Round.Status.FINISHED
    rnd.finished_at = timezone.now()
    rnd.save(update_fields=["status", "finished_at"])
    if t.paused and _more_rounds(t):
        return  # the organiser resumes the event (``resume``), or starts the next round by hand
    _advance(t, now=now)


def _advance(t: Tournament, *, now: datetime | None = None) -> None:
    """The current round is over: pair the next one (unless it is due later: the calendar's sweep
    pairs it then, ``tournaments.calendar.rounds``), or end the event."""
    planned = (
        t.format in (Tournament.Format.KNOCKOUT, Tournament.Format.DOUBLE_ELIMINATION) and t.seeds is not None
    )
    if _more_rounds(t) and schedule.waits(t, now or timezone.now()):
        return
    if _more_rounds(t) and (planned or len(_players(t)) >= 2):
        # A knockout plays its planned rounds out: a lone player left walks over to the title.
        _pair_round(t, now=now)
    else:
        t.status = Tournament.Status.FINISHED
        t.finished_at = timezone.now()
        t.next_round_at = None
        t.save(update_fields=["status", "finished_at", "next_round_at"])
        reopened = AuditEntry.objects.filter(tournament=t, action="reopen").exists()
        again = t.current_round if reopened else 0
        _announce_event(t.pk, state="finished", again=again)


def reopen_if_undecided(*, t: Tournament, by: Player) -> Round | None:
    """After a result of a finished elimination event was corrected (``t`` locked by the caller):
    if the corrected bracket has more to play -- a double elimination's grand final now won by the
    losers-bracket champion needs the bracket reset -- the event runs again, as if it had never
    finished: status running, no finish time, the next round paired at once (unless the event is
    paused: then on ``resume``). The standings and final places are read from the tables, so they
    follow; the players are told (``event_changed`` "reopened", then "finished" again at the end).
    Returns the round paired, if any; ``None`` and no change when the event stays finished."""
    planned = t.format in (Tournament.Format.KNOCKOUT, Tournament.Format.DOUBLE_ELIMINATION)
    if t.status != Tournament.Status.FINISHED or not planned or t.seeds is None:
        return None
    t.status = Tournament.Status.RUNNING  # who takes part is read as for a running event (check-in done)
    if not _more_rounds(t):
        t.status = Tournament.Status.FINISHED
        return None
    t.finished_at = None
    t.save(update_fields=["status", "finished_at"])
    audit(t=t, by=by, action="reopen", detail={"round": t.current_round})
    _announce_event(t.pk, state="reopened", again=t.current_round)
    if t.paused:
        return None
    return _pair_round(t)


def table_finished(*, table_id: int, result: GameResult | None = None) -> str:
    """A table ended: count no-shows, and when its round is complete, pair the next one (idempotent).

    ``result`` is the one ``game_finished`` carried; without it (an aborted table, a task sent
    by hand) it is read from games' public results."""
    rt = RoundTable.objects.select_related("round").filter(table_id=table_id).first()
    if rt is None:
        return "not a tournament table"
    with transaction.atomic():
        t = _locked(rt.round.tournament_id)
        rnd = Round.objects.select_for_update().get(pk=rt.round_id)
        rt = RoundTable.objects.select_for_update().get(pk=rt.pk)
        status = game_reads.table_status(table_id)
        if not rt.counted and status in (Table.Status.FINISHED, Table.Status.ABORTED):
            result = result or game_reads.game_result(table_id)
            if result is not None:
                _count_no_shows(t, result)
            rt.counted = True
            rt.save(update_fields=["counted"])
        if rnd.status == Round.Status.FINISHED:
            return "round already finished"
        open_tables = Table.objects.filter(round_table__round=rnd).exclude(
            status__in=[Table.Status.FINISHED, Table.Status.ABORTED]
        )
        if open_tables.exists():
            return "round still running"
        if t.status != Tournament.Status.RUNNING or rnd.number != t.current_round:
            return "not the current round"
        _finish_round(t, rnd)
        return "round finished"


def _count_no_shows(t: Tournament, result: GameResult) -> None:
    """A seat that lost on time without ever moving at the table is a no-show; two withdraw the player."""
    for player_id in result.no_shows():
        reg = Registration.objects.filter(tournament=t, player_id=player_id).first()
        if reg is None or reg.status == Registration.Status.WITHDRAWN:
            continue
        reg.no_shows += 1
        if reg.no_shows >= 2:
            reg.status = Registration.Status.WITHDRAWN
        reg.save(update_fields=["no_shows", "status"])


def _announce_event(tournament_id: int, *, state: str, again: int = 0) -> None:
    """After commit, tell the entrants (and the event's pages) that the event started, finished
    or reopened; the payload (with the final places) is read from the committed rows."""
    announce_after_commit(
        event_changed, lambda: {"event": news.event_news(tournament_id, state=state, again=again)}
    )
