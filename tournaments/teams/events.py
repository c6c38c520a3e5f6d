"""Team events: creating a team round robin or team Swiss, entering and withdrawing teams,
starting and calling it off (the rounds themselves: ``rounds``; line-ups: ``lineups``).

Who may do what:

* **create**, **start**, **cancel**: the organisers of the event's league (and staff);
  ``team_event_start`` with ``by=None`` is the calendar (``rounds.sweep``) or a season starting.
* **enter**, **withdraw** a team: its captain or vice-captain (``services.can_manage``: also
  staff and the team's club's organisers), or an organiser of the event's league. Teams enter
  while registration is open; a team leaves at any time before the event ends (from then on its
  boards are forfeited: its line-ups are empty, and a Swiss pairs it no more).

Which teams: the teams of the event's club and open teams (no club); a team needs members.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

import engine
from common.errors import Conflict, Forbidden, InvalidInput, NotFound
from games.clocks import TimeControl
from games.models import GameKind, Player

from ..competitions.services.setup import require_organiser
from ..models import League, Season, Team, TeamEntry, TeamEvent, TeamMember
from ..selectors import is_organiser
from . import rounds, scoring
from .services import can_manage

#: The largest seed the entry's column holds (a larger one would fail in the database).
SEED_MAX = 2**31 - 1

MAX_BOARDS = 12
MAX_SWISS_ROUNDS = 30
MAX_GAP_MINUTES = 7 * 24 * 60
DONE = (TeamEvent.Status.FINISHED, TeamEvent.Status.CANCELLED)


# ------------------------------------------------------------------ settings
def _round_times(values: Any) -> list[str]:
    """ISO datetimes (with their offset), in order, as UTC ISO strings."""
    if values in (None, ""):
        return []
    if not isinstance(values, list | tuple):
        raise InvalidInput(_("round_times must be a list of ISO date-times, round 1 first"))
    out: list[datetime] = []
    for value in values:
        at = (
            value
            if isinstance(value, datetime)
            else parse_datetime(value)
            if isinstance(value, str)
            else None
        )
        if at is None or timezone.is_naive(at):
            raise InvalidInput(
                _(
                    "round_times: %(value)s is no ISO date-time with its offset "
                    "(e.g. 2026-05-01T18:00:00+00:00)"
                )
                % {"value": repr(value)}
            )
        if out and at <= out[-1]:
            raise InvalidInput(_("round_times must be in order, each after the one before"))
        out.append(at)
    return [at.astimezone(UTC).isoformat() for at in out]


def _check_scales(*, seats: int, boards: int, points_scale: Any, match_points: Any) -> None:
    for name, values in (("points_scale", points_scale), ("match_points", match_points)):
        if values is None:
            continue
        if not isinstance(values, list | tuple) or len(values) != seats:
            raise InvalidInput(
                _("%(name)s needs %(n)s numbers (one per place, best first)") % {"name": name, "n": seats}
            )
        if any(isinstance(v, bool) or not isinstance(v, int | float) for v in values):
            raise InvalidInput(_("%(name)s holds numbers only") % {"name": name})
    try:
        scoring.bye_points(seats=seats, boards=boards, scale=points_scale, match_scale=match_points)
    except ValueError as exc:
        raise InvalidInput(str(exc)) from None


def checked_settings(
    *,
    game: str,
    seats: int,
    boards: int,
    format: str,
    rounds: int,
    time_control: dict[str, Any] | None,
    points_scale: Any,
    match_points: Any,
    tiebreak: str,
    round_times: Any,
    round_gap_minutes: int,
    edition: str,
) -> tuple[int, TimeControl, str, list[str]]:
    """Check a team event's settings (``InvalidInput`` with the reason): its rounds, time
    control, edition and round times as stored."""
    if game not in GameKind.values:
        raise InvalidInput(_("game must be shacru, azacru or pacru, not %(game)s") % {"game": repr(game)})
    if seats not in (2, 3, 4):
        raise InvalidInput(_("a team match sets 2, 3 or 4 teams against each other: seats must be 2, 3 or 4"))
    if not isinstance(boards, int) or not 1 <= boards <= MAX_BOARDS:
        raise InvalidInput(
            _("a team plays on 1 to %(max)s boards, not %(n)s") % {"max": MAX_BOARDS, "n": boards}
        )
    if format not in TeamEvent.Format.values:
        raise InvalidInput(
            _("format must be one of %(formats)s") % {"formats": ", ".join(TeamEvent.Format.values)}
        )
    if format == TeamEvent.Format.SWISS and not 1 <= (rounds or 0) <= MAX_SWISS_ROUNDS:
        raise InvalidInput(_("a team Swiss needs 1 to %(max)s rounds") % {"max": MAX_SWISS_ROUNDS})
    if format == TeamEvent.Format.ROUND_ROBIN:
        rounds = 0  # the schedule sets them at the start
    if tiebreak not in TeamEvent.Tiebreak.values:
        raise InvalidInput(
            _("tiebreak must be one of %(names)s") % {"names": ", ".join(TeamEvent.Tiebreak.values)}
        )
    if not isinstance(round_gap_minutes, int) or not 0 <= round_gap_minutes <= MAX_GAP_MINUTES:
        raise InvalidInput(
            _("round_gap_minutes is 0 to %(max)s minutes between rounds") % {"max": MAX_GAP_MINUTES}
        )
    _check_scales(seats=seats, boards=boards, points_scale=points_scale, match_points=match_points)
    try:
        tc = TimeControl.from_dict(time_control)
        edition = engine.variant(game).edition_for(edition)
    except ValueError as exc:
        raise InvalidInput(str(exc)) from None
    return rounds, tc, edition, _round_times(round_times)


@transaction.atomic
def team_event_create(
    *,
    league: League,
    by: Player,
    name: str,
    game: str,
    seats: int = 2,
    boards: int = 4,
    format: str = "round_robin",
    rounds: int = 0,
    time_control: dict[str, Any] | None = None,
    rated: bool = True,
    points_scale: list[float] | None = None,
    match_points: list[float] | None = None,
    tiebreak: str = "game_points",
    starts_at: datetime | None = None,
    round_times: list[str] | None = None,
    round_gap_minutes: int = 10,
    edition: str = "",
    season: Season | None = None,
) -> TeamEvent:
    """A new team event of ``league``, open for teams to enter; ``by``: an organiser of it."""
    require_organiser(league=league, player=by)
    name = " ".join((name or "").split())
    if not name or len(name) > 100:
        raise InvalidInput(_("a team event needs a name of 1 to 100 characters"))
    rounds, tc, edition, times = checked_settings(
        game=game,
        seats=seats,
        boards=boards,
        format=format,
        rounds=rounds,
        time_control=time_control,
        points_scale=points_scale,
        match_points=match_points,
        tiebreak=tiebreak,
        round_times=round_times,
        round_gap_minutes=round_gap_minutes,
        edition=edition,
    )
    if starts_at is not None and (not isinstance(starts_at, datetime) or timezone.is_naive(starts_at)):
        raise InvalidInput(_("starts_at must be a date-time with its offset"))
    if season is not None and season.league_id != league.pk:
        raise InvalidInput(_("the season belongs to another league"))
    return TeamEvent.objects.create(
        league=league,
        season=season,
        name=name,
        game=game,
        edition=edition,
        seats=seats,
        boards=boards,
        format=format,
        rounds=rounds,
        time_control=tc.to_dict(),
        rated=bool(rated),
        points_scale=list(points_scale) if points_scale is not None else None,
        match_points=list(match_points) if match_points is not None else None,
        tiebreak=tiebreak,
        starts_at=starts_at,
        round_times=times,
        round_gap_minutes=round_gap_minutes,
        created_by=by,
    )


# ------------------------------------------------------------------ entries
def locked_event(event_id: int) -> TeamEvent:
    event = TeamEvent.objects.select_for_update().select_related("league").filter(pk=event_id).first()
    if event is None:
        raise NotFound(_("there is no team event %(id)s") % {"id": event_id})
    return event


def _team(team_id: int) -> Team:
    team = Team.objects.select_related("league").filter(pk=team_id).first()
    if team is None:
        raise NotFound(_("there is no team %(id)s") % {"id": team_id})
    return team


def _require_team_or_organiser(event: TeamEvent, team: Team, by: Player) -> None:
    if not (can_manage(team=team, player=by) or is_organiser(event.league, by)):
        raise Forbidden(
            _("only the captain or vice-captain of %(team)s, or an organiser of %(league)s, may do this")
            % {"team": team.name, "league": event.league.name}
        )


@transaction.atomic
def team_event_enter(*, event_id: int, team_id: int, by: Player, seed: int | None = None) -> TeamEntry:
    """Enter ``team`` (registration open only); ``seed`` (an organiser's) orders the teams."""
    event = locked_event(event_id)
    team = _team(team_id)
    _require_team_or_organiser(event, team, by)
    if event.status != TeamEvent.Status.REGISTRATION:
        raise Conflict(
            _("%(event)s is %(status)s: teams enter only while registration is open")
            % {"event": event.name, "status": event.get_status_display()}
        )
    if team.league_id not in (None, event.league_id):
        raise Forbidden(
            _("%(team)s is a team of another club: %(event)s is for the teams of %(league)s and open teams")
            % {"team": team.name, "event": event.name, "league": event.league.name}
        )
    if not TeamMember.objects.filter(team=team).exists():
        raise Conflict(_("%(team)s has no members: a team needs players to enter") % {"team": team.name})
    if seed is not None:
        if not is_organiser(event.league, by):
            raise Forbidden(_("only the event's organisers seed teams"))
        if isinstance(seed, bool) or not isinstance(seed, int) or not 1 <= seed <= SEED_MAX:
            raise InvalidInput(_("a seed is a whole number from 1"))
    entry = TeamEntry.objects.select_for_update().filter(event=event, team=team).first()
    if entry is not None and not entry.withdrawn:
        raise Conflict(
            _("%(team)s is entered in %(event)s already") % {"team": team.name, "event": event.name}
        )
    if entry is None:
        return TeamEntry.objects.create(event=event, team=team, seed=seed)
    entry.withdrawn, entry.seed = False, seed if seed is not None else entry.seed
    entry.save(update_fields=["withdrawn", "seed"])
    return entry


@transaction.atomic
def team_event_withdraw(*, event_id: int, team_id: int, by: Player) -> TeamEntry:
    """Take ``team`` out: before the start it is simply out; once running it plays no more (its
    boards in rounds already paired are forfeited, a Swiss pairs it no more)."""
    event = locked_event(event_id)
    team = _team(team_id)
    _require_team_or_organiser(event, team, by)
    if event.status in DONE:
        raise Conflict(
            _("%(event)s is %(status)s: there is nothing to withdraw from")
            % {"event": event.name, "status": event.get_status_display()}
        )
    entry = TeamEntry.objects.select_for_update().filter(event=event, team=team, withdrawn=False).first()
    if entry is None:
        raise Conflict(_("%(team)s is not entered in %(event)s") % {"team": team.name, "event": event.name})
    entry.withdrawn = True
    entry.save(update_fields=["withdrawn"])
    return entry


# ------------------------------------------------------------------ start, cancel
@transaction.atomic
def team_event_start(*, event_id: int, by: Player | None = None, now: datetime | None = None) -> TeamEvent:
    """Start the event: at least two teams; a round robin fixes its schedule; round 1 is paired
    (line-ups open until its start). ``by`` None: the calendar or a season."""
    event = locked_event(event_id)
    if by is not None:
        require_organiser(league=event.league, player=by)
    if event.status != TeamEvent.Status.REGISTRATION:
        raise Conflict(
            _("%(event)s is %(status)s: only an event open for registration can start")
            % {"event": event.name, "status": event.get_status_display()}
        )
    return rounds.start_locked(event=event, now=now or timezone.now())


@transaction.atomic
def team_event_cancel(*, event_id: int, by: Player) -> TeamEvent:
    """Call the event off (not once finished); tables already playing play on as ordinary games."""
    event = locked_event(event_id)
    require_organiser(league=event.league, player=by)
    if event.status in DONE:
        raise Conflict(
            _("%(event)s is %(status)s already") % {"event": event.name, "status": event.get_status_display()}
        )
    event.status = TeamEvent.Status.CANCELLED
    event.finished_at = timezone.now()
    event.save(update_fields=["status", "finished_at"])
    rounds.announce(event=event, state="cancelled")
    return event
