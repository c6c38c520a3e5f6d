"""The rounds of a team event: pairing a round, opening its boards at its start, and moving on
when its matches are over (the next round, or the event's end).

* **Pairing** (:func:`pair_round`): a round robin takes its round from the schedule fixed at the
  start (a withdrawn team's place is left out: the team left alone in a match of two has a bye);
  a Swiss pairs the teams still in by match points (``pairing.swiss_matches``: ratings are the
  teams' regulars' average in the event's game, meetings and side orders from earlier matches).
  The round's line-ups are open until ``TeamRound.starts_at`` (``round_times[r-1]``, else the
  round gap after the event's start or the previous round's end).
* **Opening** (:func:`open_round`, by the calendar at ``starts_at``): each team's line-up (the one
  set, else the default, stored with ``submitted_by`` empty), each board's players seated in the
  board's seat order (``pairing.board_order``) at an ordinary table; a board with fewer than two
  players present is counted at once (forfeits).
* **Progress** (:func:`board_counted`, from ``finished.board_finished``): a match whose boards are
  all counted gets its places and match points; a round whose matches are all over finishes, and
  the next is paired or the event finishes (each entry's place from the standings).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from common.errors import Conflict, NotFound, ServiceError
from games import services as games
from games.events import announce_after_commit
from games.guests import require_verified_email
from games.models import Player

from .. import pairing as base_pairing
from ..events import team_event_changed
from ..models import (
    LineUp,
    Team,
    TeamBoard,
    TeamEntry,
    TeamEvent,
    TeamMatch,
    TeamMatchSide,
    TeamMember,
    TeamRound,
)
from . import event_reads, news, pairing, scoring, selectors
from .lineups import default_lineup

log = logging.getLogger(__name__)


def announce(
    *, event: TeamEvent, state: str, round_id: int | None = None, table_ids: tuple[int, ...] = ()
) -> None:
    """Tell the pages and the people concerned, once committed (``news.team_event_news``)."""
    event_id = event.pk
    announce_after_commit(
        team_event_changed,
        lambda: {
            "news": news.team_event_news(
                event_id=event_id, state=state, round_id=round_id, table_ids=table_ids
            )
        },
    )


# ------------------------------------------------------------------ pairing
def round_start(*, event: TeamEvent, number: int, now: datetime) -> datetime:
    """When round ``number`` starts: its set time, else the round gap after ``now`` (the event's
    start or the previous round's end)."""
    times = event.round_times or []
    if len(times) >= number:
        at = parse_datetime(times[number - 1])
        if at is not None:
            return at
    return now + timedelta(minutes=event.round_gap_minutes)


def active_teams(event: TeamEvent) -> list[int]:
    """The teams still in, in seed order (then entry order)."""
    entries = list(TeamEntry.objects.filter(event=event, withdrawn=False))
    entries.sort(key=lambda e: (e.seed is None, e.seed or 0, e.registered_at, e.pk))
    return [e.team_id for e in entries]


def start_locked(*, event: TeamEvent, now: datetime) -> TeamEvent:
    """Start a locked event open for registration (at least two teams, else ``Conflict``)."""
    teams = active_teams(event)
    if len(teams) < 2:
        raise Conflict(
            _("%(event)s has %(n)s team(s) entered: a team event needs at least two")
            % {"event": event.name, "n": len(teams)}
        )
    if event.format == TeamEvent.Format.ROUND_ROBIN:
        try:
            event.schedule = pairing.schedule(teams=teams, seats=event.seats)
        except ValueError as exc:
            raise Conflict(str(exc)) from None
        event.rounds = len(event.schedule)
    event.status = TeamEvent.Status.RUNNING
    event.started_at = now
    event.save(update_fields=["schedule", "rounds", "status", "started_at"])
    announce(event=event, state="started")
    pair_round(event=event, number=1, now=now)
    return event


def _scheduled(event: TeamEvent, number: int, active: list[int]) -> tuple[list[list[int]], list[int]]:
    """The schedule's round ``number`` among the teams still in: its matches, and the byes."""
    matches, byes = [], []
    still = set(active)
    for teams in (event.schedule or [])[number - 1]:
        present = [t for t in teams if t in still]
        if len(present) >= 2:
            matches.append(present)
        else:
            byes.extend(present)
    playing = {t for m in matches for t in m}
    byes.extend(t for t in active if t not in playing and t not in byes)
    return matches, byes


def _entrants(event: TeamEvent, active: list[int]) -> list[base_pairing.Entrant]:
    """What the Swiss pairing knows of each team: match points, rating average, meetings, side
    orders and byes so far."""
    rows = {row.team: row for row in event_reads.standings(event=event)}
    meetings: dict[int, dict[int, int]] = {t: {} for t in active}
    orders: dict[int, list[int]] = {t: [] for t in active}
    sides = TeamMatchSide.objects.filter(match__round__event=event).order_by("match__round__number", "order")
    by_match: dict[int, list[TeamMatchSide]] = {}
    for side in sides:
        by_match.setdefault(side.match_id, []).append(side)
    for group in by_match.values():
        for side in group:
            if side.team_id not in meetings:
                continue
            orders[side.team_id].append(side.order)
            for other in group:
                if other.team_id != side.team_id:
                    meetings[side.team_id][other.team_id] = meetings[side.team_id].get(other.team_id, 0) + 1
    byes: dict[int, int] = {}
    for rnd_byes in TeamRound.objects.filter(event=event).values_list("byes", flat=True):
        for t in rnd_byes or []:
            byes[t] = byes.get(t, 0) + 1
    teams = Team.objects.in_bulk(active)
    out = []
    for t in active:
        average = selectors.rating_average(team=teams[t], game=event.game)
        row = rows.get(t)
        out.append(
            base_pairing.Entrant(
                id=t,
                score=row.match_points if row else 0.0,
                rating=float(average or 0.0),
                meetings=meetings[t],
                seat_history=tuple(orders[t]),
                byes=byes.get(t, 0),
            )
        )
    return out


def pair_round(*, event: TeamEvent, number: int, now: datetime) -> TeamRound | None:
    """Pair round ``number`` of a locked, running event (line-ups open until its start); with
    fewer than two teams left, the event finishes instead (None)."""
    active = active_teams(event)
    if len(active) < 2:
        finish_event(event=event, now=now)
        return None
    if event.format == TeamEvent.Format.ROUND_ROBIN:
        matches, byes = _scheduled(event, number, active)
    else:
        plan = pairing.swiss_matches(teams=_entrants(event, active), seats=event.seats)
        matches, byes = [list(t.players) for t in plan.tables], list(plan.byes)
    rnd = TeamRound.objects.create(
        event=event, number=number, starts_at=round_start(event=event, number=number, now=now), byes=byes
    )
    for n, teams in enumerate(matches, start=1):
        match = TeamMatch.objects.create(round=rnd, number=n)
        TeamMatchSide.objects.bulk_create(
            [TeamMatchSide(match=match, team_id=t, order=order) for order, t in enumerate(teams, start=1)]
        )
    event.current_round = number
    event.save(update_fields=["current_round"])
    announce(event=event, state="paired", round_id=rnd.pk)
    if not matches:
        finish_round(event=event, rnd=rnd, now=now)
    return rnd


# ------------------------------------------------------------------ opening
def _may_sit(player: Player, rated: bool) -> bool:
    """Whether the player can take a seat at the board's table (a rated one needs what rated play needs)."""
    if not player.user.is_active:
        return False
    if rated:
        try:
            require_verified_email(player, "play rated games")
        except ServiceError:
            return False
    return True


def _lineups(event: TeamEvent, rnd: TeamRound, sides: list[TeamMatchSide]) -> dict[int, list[int | None]]:
    """Each side's line-up for the round: the one set (players no longer members left out), else
    the default (stored so); a withdrawn team's is empty."""
    withdrawn = set(TeamEntry.objects.filter(event=event, withdrawn=True).values_list("team_id", flat=True))
    stored = {lu.team_id: lu for lu in LineUp.objects.filter(round=rnd)}
    taken = {p for lu in stored.values() for p in lu.players if p is not None}
    out: dict[int, list[int | None]] = {}
    for side in sides:
        if side.team_id in withdrawn:  # it plays no more: every board forfeited
            out[side.team_id] = [None] * event.boards
            if side.team_id not in stored:
                LineUp.objects.create(round=rnd, team_id=side.team_id, players=out[side.team_id])
            continue
        if side.team_id in stored:
            players = list(stored[side.team_id].players)
            members = set(TeamMember.objects.filter(team_id=side.team_id).values_list("player_id", flat=True))
            out[side.team_id] = [p if p in members else None for p in players]
            continue
        chosen = default_lineup(event=event, team=side.team, taken=taken)
        taken |= {p for p in chosen if p is not None}
        LineUp.objects.create(round=rnd, team_id=side.team_id, players=chosen, submitted_by=None)
        out[side.team_id] = chosen
    return out


def open_round(*, round_id: int, now: datetime | None = None) -> TeamRound:
    """Open the round's boards at its start (idempotent: a round open already is left as it is)."""
    moment = now or timezone.now()
    with transaction.atomic():
        found = TeamRound.objects.filter(pk=round_id).values_list("event_id", flat=True).first()
        if found is None:
            raise NotFound(_("there is no team round %(id)s") % {"id": round_id})
        event = TeamEvent.objects.select_for_update().get(pk=found)
        rnd = TeamRound.objects.select_for_update().get(pk=round_id)
        if rnd.status != TeamRound.Status.LINEUPS or event.status != TeamEvent.Status.RUNNING:
            return rnd
        if moment < rnd.starts_at:
            raise Conflict(
                _("round %(round)s starts at %(time)s: its line-ups are open until then")
                % {"round": rnd.number, "time": rnd.starts_at.isoformat()}
            )
        rnd.status, rnd.started_at = TeamRound.Status.PLAYING, moment
        rnd.save(update_fields=["status", "started_at"])
        tables: list[int] = []
        for match in TeamMatch.objects.filter(round=rnd).order_by("number"):
            sides = list(TeamMatchSide.objects.filter(match=match).select_related("team").order_by("order"))
            lineups = _lineups(event, rnd, sides)
            match.status = TeamMatch.Status.PLAYING
            match.save(update_fields=["status"])
            for b in range(1, event.boards + 1):
                tables += _open_board(event, match, sides, b, {t: lu[b - 1] for t, lu in lineups.items()})
            if not TeamBoard.objects.filter(match=match, counted=False).exists():
                settle_match(event=event, match=match, now=moment)
        announce(event=event, state="opened", round_id=rnd.pk, table_ids=tuple(tables))
        finish_round_if_done(event=event, rnd=rnd, now=moment)
    return rnd


def _open_board(
    event: TeamEvent, match: TeamMatch, sides: list[TeamMatchSide], number: int, chosen: dict[int, int | None]
) -> list[int]:
    """Board ``number``: its players in seat order at a new table, or counted at once with fewer
    than two present. The table's id, if one was opened."""
    teams = [s.team_id for s in sides]
    people = Player.objects.select_related("user").in_bulk([p for p in chosen.values() if p is not None])
    present = {
        t: chosen[t] for t in teams if chosen[t] is not None and _may_sit(people[chosen[t]], event.rated)
    }
    board = TeamBoard.objects.create(
        match=match,
        number=number,
        players=[chosen[t] for t in teams],
        forfeits=[t for t in teams if t not in present],
    )
    if len(present) < 2:
        ranks = {t: 1 for t in present}
        count_board(event=event, board=board, sides=sides, ranks=ranks)
        return []
    seated = [t for t in pairing.board_order(sides=teams, board=number) if t in present]
    # The table is the event's (its organiser's); an organiser who may not play rated games
    # (no verified address) would keep the round shut at every tick: the first player opens it.
    creator = event.created_by
    if not _may_sit(creator, event.rated):
        creator = people[present[seated[0]]]
    table = games.table_create(
        creator=creator,
        game=event.game,
        players=len(seated),
        edition=event.edition,
        rated=event.rated,
        join=False,
        time_control=event.time_control,
        no_show="timeout",
    )
    board.table = table
    board.save(update_fields=["table"])
    for seat, team in enumerate(seated, start=1):
        games.seat_join(table_id=table.pk, player=people[present[team]], seat=seat, event=True)
    return [table.pk]


# ------------------------------------------------------------------ progress
def count_board(
    *, event: TeamEvent, board: TeamBoard, sides: list[TeamMatchSide], ranks: dict[int, int]
) -> None:
    """Count a locked board once: each team's place points (``scoring.board_points``), added to
    its side's game points; teams missing from ``ranks`` forfeited it."""
    teams = [s.team_id for s in sides]
    points = scoring.board_points(seats=event.seats, teams=teams, ranks=ranks, scale=event.points_scale)
    board.points = {str(t): v for t, v in points.items()}
    board.forfeits = sorted(set(board.forfeits) | {t for t in teams if t not in ranks})
    board.counted = True
    board.save(update_fields=["points", "forfeits", "counted"])
    for side in sides:
        side.game_points = round(side.game_points + points[side.team_id], 9)
        side.save(update_fields=["game_points"])


def settle_match(*, event: TeamEvent, match: TeamMatch, now: datetime) -> None:
    """A match whose boards are all counted: each side's place and match points."""
    sides = list(TeamMatchSide.objects.select_for_update().filter(match=match).order_by("order"))
    result = scoring.match_result(
        seats=event.seats, game_points={s.team_id: s.game_points for s in sides}, scale=event.match_points
    )
    for side in sides:
        side.place, side.match_points = result[side.team_id]
        side.save(update_fields=["place", "match_points"])
    match.status, match.finished_at = TeamMatch.Status.FINISHED, now
    match.save(update_fields=["status", "finished_at"])


def finish_round_if_done(*, event: TeamEvent, rnd: TeamRound, now: datetime) -> bool:
    if TeamMatch.objects.filter(round=rnd).exclude(status=TeamMatch.Status.FINISHED).exists():
        return False
    finish_round(event=event, rnd=rnd, now=now)
    return True


def finish_round(*, event: TeamEvent, rnd: TeamRound, now: datetime) -> None:
    """The round is over: the next round is paired, or the event finishes."""
    rnd.status, rnd.finished_at = TeamRound.Status.FINISHED, now
    rnd.save(update_fields=["status", "finished_at"])
    announce(event=event, state="round_finished", round_id=rnd.pk)
    if event.status != TeamEvent.Status.RUNNING:
        return
    if rnd.number < event.rounds:
        pair_round(event=event, number=rnd.number + 1, now=now)
    else:
        finish_event(event=event, now=now)


def finish_event(*, event: TeamEvent, now: datetime) -> None:
    """The event is over: each team still in gets its place in the standings."""
    for row in event_reads.standings(event=event):
        TeamEntry.objects.filter(event=event, team_id=row.team).update(place=row.place)
    event.status, event.finished_at = TeamEvent.Status.FINISHED, now
    event.save(update_fields=["status", "finished_at"])
    announce(event=event, state="finished")


# ------------------------------------------------------------------ the calendar
def sweep(*, now: datetime) -> int:
    """The calendar's part "teams": start the events due (too few teams: called off), open the
    rounds due. Each in its own transaction; returns how many were handled."""
    return sum(calendar_part(now=now).values())


def calendar_part(*, now: datetime) -> dict[str, int]:
    """:func:`sweep`'s counts, as the calendar's tick reports them: started, called_off, opened."""
    done = {"started": 0, "called_off": 0, "opened": 0}
    due = TeamEvent.objects.filter(status=TeamEvent.Status.REGISTRATION, starts_at__lte=now)
    for event_id in list(due.values_list("pk", flat=True)[:100]):
        with transaction.atomic():
            event = TeamEvent.objects.select_for_update().get(pk=event_id)
            if event.status != TeamEvent.Status.REGISTRATION:
                continue
            try:
                with transaction.atomic():
                    start_locked(event=event, now=now)
                done["started"] += 1
            except Conflict as exc:
                log.info("team event %s called off at its start: %s", event_id, exc.detail)
                event.status, event.finished_at = TeamEvent.Status.CANCELLED, now
                event.save(update_fields=["status", "finished_at"])
                announce(event=event, state="cancelled")
                done["called_off"] += 1
    rounds = TeamRound.objects.filter(
        status=TeamRound.Status.LINEUPS, starts_at__lte=now, event__status=TeamEvent.Status.RUNNING
    )
    for round_id in list(rounds.order_by("starts_at", "pk").values_list("pk", flat=True)[:100]):
        try:
            open_round(round_id=round_id, now=now)
            done["opened"] += 1
        except Exception:  # one round that fails to open never keeps the others shut
            log.exception("team round %s could not be opened", round_id)
    return done
