"""Team seasons: a divisions season (``Season.team_boards`` set) whose entries are teams. Each
division is a team event (team round robin or team Swiss over ``team_boards`` boards) of the
season's game and calendar; at the close each team's place in its division's team standings
decides promotion and relegation into the next season, as for players (``seasons.placement``).

The season's own services (``seasons.services``) call in here: ``season_start`` and
``season_close`` dispatch to :func:`start_team_season` and :func:`close_team_divisions` (then
:func:`carry_over`) for a team season, under the season's row lock. Registration is the team's:
its captain or vice-captain (or an organiser of the season's league) registers and withdraws it
while registration is open; once the season runs a team leaves through its division's event.

The choices made here:

* **Which teams**: the teams of the season's club, and open teams (no club); another club's
  teams play that club's seasons.
* **Placement** (``placement.ordered``): returning teams by the level they arrive at; newcomers
  at the bottom, or by the rating average of their regulars in the season's game (``rating``).
* **Seeds**: each division's teams are entered in their placement order (seed 1 first), which is
  the team standings' last tie-break.
* **Withdrawn teams** (from the division's event): they go down, out of the next season, and
  take one of the relegation places, as a player who withdrew does.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from common.errors import Conflict, Forbidden, NotFound
from games.models import Player

from ..models import Division, Season, Team, TeamEntry, TeamEvent, TeamSeasonEntry, Tournament
from ..seasons import placement
from ..seasons.news import division_name
from ..selectors import is_organiser
from . import event_reads, pairing
from . import events as team_events
from . import selectors as team_selectors
from .services import can_manage

DONE = (TeamEvent.Status.FINISHED, TeamEvent.Status.CANCELLED)


# ------------------------------------------------------------------ settings
def check_switch(*, season: Season, team_boards: int | None) -> None:
    """A season with players registered cannot become a team season, nor one with teams
    registered a season of players (``season_update``)."""
    if bool(team_boards) == bool(season.team_boards):
        return
    if team_boards and season.entries.filter(status="registered").exists():
        raise Conflict(
            _("players are registered for %(season)s already: it cannot become a season of teams")
            % {"season": season.name}
        )
    if not team_boards and TeamSeasonEntry.objects.filter(season=season, withdrawn=False).exists():
        raise Conflict(
            _("teams are registered for %(season)s already: it cannot become a season of players")
            % {"season": season.name}
        )


def refuse_players(*, season: Season) -> None:
    """A player cannot enter a team season by themself (``season_register``, ``set_unavailable``)."""
    if season.team_boards:
        raise Conflict(
            _(
                "%(season)s is a season of teams: a team's captain registers the team, and the "
                "captain picks who plays each round"
            )
            % {"season": season.name}
        )


# ------------------------------------------------------------------ registration
def _locked_season(season_id: int) -> Season:
    season = (
        Season.objects.select_for_update(of=("self",)).select_related("league").filter(pk=season_id).first()
    )
    if season is None:
        raise NotFound(_("there is no season %(id)s") % {"id": season_id})
    return season


def _team(team_id: int) -> Team:
    team = Team.objects.select_related("league").filter(pk=team_id).first()
    if team is None:
        raise NotFound(_("there is no team %(id)s") % {"id": team_id})
    return team


def _require_team_season(season: Season) -> None:
    if not season.team_boards:
        raise Conflict(
            _("%(season)s is a season of players: players register themselves, not teams")
            % {"season": season.name}
        )


def _require_open(season: Season, doing: str) -> None:
    if season.status != Season.Status.REGISTRATION:
        raise Conflict(
            _("%(season)s is %(status)s: teams %(doing)s only while registration is open")
            % {"season": season.name, "status": season.get_status_display(), "doing": doing}
        )


def _require_manager(season: Season, team: Team, by: Player) -> None:
    if not (can_manage(team=team, player=by) or is_organiser(season.league, by)):
        raise Forbidden(
            _(
                "only the captain and vice-captain of %(team)s, or the organisers of %(league)s, may "
                "register or withdraw the team"
            )
            % {"team": team.name, "league": season.league.name}
        )


@transaction.atomic
def team_season_register(*, season_id: int, team_id: int, by: Player) -> TeamSeasonEntry:
    """Register a team for a team season open for registration (again, after withdrawing)."""
    season = _locked_season(season_id)
    team = _team(team_id)
    _require_manager(season, team, by)
    _require_team_season(season)
    _require_open(season, _("register"))
    if team.league_id is not None and team.league_id != season.league_id:
        raise Conflict(
            _(
                "%(team)s is a team of %(club)s: the seasons of %(league)s are for its own teams "
                "and open teams"
            )
            % {"team": team.name, "club": team.league.name, "league": season.league.name}
        )
    entry = TeamSeasonEntry.objects.select_for_update().filter(season=season, team=team).first()
    if entry is not None and not entry.withdrawn:
        raise Conflict(
            _("%(team)s is registered for %(season)s already") % {"team": team.name, "season": season.name}
        )
    if entry is None:
        return TeamSeasonEntry.objects.create(season=season, team=team, arrived=placement.NEW)
    entry.withdrawn = False
    entry.save(update_fields=["withdrawn"])
    return entry


@transaction.atomic
def team_season_withdraw(*, season_id: int, team_id: int, by: Player) -> TeamSeasonEntry:
    """Take a team's registration back before the season starts (once it runs, the team
    withdraws from its division's event instead, and goes down at the close)."""
    season = _locked_season(season_id)
    team = _team(team_id)
    _require_manager(season, team, by)
    _require_team_season(season)
    _require_open(season, _("withdraw from a season"))
    entry = TeamSeasonEntry.objects.select_for_update().filter(season=season, team=team).first()
    if entry is None or entry.withdrawn:
        raise Conflict(
            _("%(team)s is not registered for %(season)s (or has withdrawn)")
            % {"team": team.name, "season": season.name}
        )
    entry.withdrawn = True
    entry.save(update_fields=["withdrawn"])
    return entry


# ------------------------------------------------------------------ start
def _arrivals(season: Season, entries: list[TeamSeasonEntry]) -> list[placement.Arrival]:
    last: dict[int, tuple[int, int | None]] = {}
    if season.previous_id:
        rows = TeamSeasonEntry.objects.filter(season_id=season.previous_id, division__isnull=False)
        last = {t: (lv, place) for t, lv, place in rows.values_list("team_id", "division__level", "place")}
    rated = []
    for e in entries:
        average = team_selectors.rating_average(team=e.team, game=season.game)
        rating = round(average) if average is not None else team_selectors.NEWCOMER
        rated.append((e.team_id, rating, e.arrived))
    return placement.arrivals(rated, last)


def _check_calendar(season: Season, levels: list[list[list[int]]]) -> None:
    """Every division's rounds have a time on the calendar (when it has one)."""

    def rounds(group: list[int]) -> int:
        if season.format == TeamEvent.Format.SWISS:
            return season.rounds or Tournament.DEFAULT_SWISS_ROUNDS
        return len(pairing.schedule(teams=group, seats=season.seats))

    times = len(season.round_times or [])
    if short := placement.too_many_rounds(levels, times=times, rounds=rounds):
        raise Conflict(
            _(
                "a division of %(teams)s teams at level %(level)s plays %(rounds)s rounds, but "
                "the calendar has %(times)s round times: add times, or make divisions smaller"
            )
            % {"teams": short[0], "level": short[1], "rounds": short[2], "times": times}
        )


def start_team_season(*, season: Season, organiser: Player, by: Player | None, now: datetime) -> None:
    """Place the registered teams into divisions and start each division's team event (its first
    round paired, line-ups open until the first round time). Called by ``season_start`` under the
    season's row lock; ``by`` None: the calendar started the season."""
    entries = list(
        TeamSeasonEntry.objects.select_for_update(of=("self",))
        .filter(season=season, withdrawn=False)
        .select_related("team")
        .order_by("registered_at", "id")
    )
    if len(entries) < 2:
        raise Conflict(_("a team season needs at least two registered teams"))
    order = placement.ordered(_arrivals(season, entries), newcomers=season.newcomers)
    levels = placement.divisions(order, size=season.division_size, seats=season.seats)
    _check_calendar(season, levels)
    by_team = {e.team_id: e for e in entries}
    for level, groups in enumerate(levels, start=1):
        for i, group in enumerate(groups):
            letter = chr(ord("A") + i) if len(groups) > 1 else ""
            division = Division.objects.create(season=season, level=level, group=letter)
            event = _division_event(season, division, organiser=organiser)
            for seed, team_id in enumerate(group, start=1):
                team_events.team_event_enter(event_id=event.pk, team_id=team_id, by=organiser, seed=seed)
            TeamSeasonEntry.objects.filter(pk__in=[by_team[t].pk for t in group]).update(division=division)
            team_events.team_event_start(event_id=event.pk, by=by, now=now)


def _division_event(season: Season, division: Division, *, organiser: Player) -> TeamEvent:
    swiss = season.format == TeamEvent.Format.SWISS
    event = team_events.team_event_create(
        league=season.league,
        by=organiser,
        name=f"{season.name}: {division_name(level=division.level, group=division.group)}"[:100],
        game=season.game,
        seats=season.seats,
        boards=season.team_boards or 1,
        format=season.format,
        rounds=(season.rounds or Tournament.DEFAULT_SWISS_ROUNDS) if swiss else 0,
        time_control=season.time_control or None,
        rated=season.rated,
        points_scale=season.points_scale,
        round_times=list(season.round_times or []) or None,
        edition=season.edition,
        season=season,
    )
    division.team_event = event
    division.save(update_fields=["team_event"])
    return event


# ------------------------------------------------------------------ close
def unfinished(*, season: Season) -> list[TeamEvent]:
    """The season's team events still to be played or finished."""
    rows = TeamEvent.objects.filter(season=season).exclude(status__in=DONE).order_by("pk")
    return list(rows.only("pk", "name", "status"))


def _left_event(event: TeamEvent) -> set[int]:
    return set(TeamEntry.objects.filter(event=event, withdrawn=True).values_list("team_id", flat=True))


def close_team_divisions(*, season: Season) -> None:
    """Each team's place in its division (the team standings) and where it takes the team; refused
    while a division's team event is unfinished. Called by ``season_close`` under the row lock."""
    left = unfinished(season=season)
    if left:
        raise Conflict(
            _("%(event)s is still %(status)s: a season closes when all its divisions have finished")
            % {"event": left[0].name, "status": left[0].get_status_display()}
        )
    divisions = list(Division.objects.filter(season=season).select_related("team_event"))
    bottom = max((d.level for d in divisions), default=1)
    for d in divisions:
        members = list(TeamSeasonEntry.objects.select_for_update().filter(season=season, division=d))
        if d.team_event is None or not members:
            continue
        rank = {row.team: i for i, row in enumerate(event_reads.standings(event=d.team_event))}
        withdrawn = {e.team_id for e in members if e.withdrawn} | _left_event(d.team_event)
        members.sort(key=lambda e: (e.team_id in withdrawn, rank.get(e.team_id, len(rank)), e.pk))
        moves = placement.movements(
            [e.team_id for e in members],
            withdrawn=withdrawn,
            level=d.level,
            bottom=bottom,
            promote=season.promote,
            relegate=season.relegate,
        )
        for place, e in enumerate(members, start=1):
            e.place, e.movement, e.withdrawn = place, moves[e.team_id], e.team_id in withdrawn
            e.save(update_fields=["place", "movement", "withdrawn"])


def carry_over(*, season: Season, nxt: Season) -> None:
    """The next season opens with every team still in (``arrived`` as its movement)."""
    stays = TeamSeasonEntry.objects.filter(season=season, withdrawn=False).order_by("place", "id")
    TeamSeasonEntry.objects.bulk_create(
        [TeamSeasonEntry(season=nxt, team_id=e.team_id, arrived=e.movement or placement.STAY) for e in stays]
    )


# ------------------------------------------------------------------ reads
@dataclass(frozen=True)
class TeamDivisionRef:
    id: int
    level: int
    group: str
    name: str
    team_event_id: int | None
    team_event_status: str
    tournament_id: None = None
    tournament_status: str = ""


@dataclass(frozen=True)
class TeamTableRow:
    team_id: int
    name: str
    slug: str
    place: int
    match_points: float
    game_points: float
    played: int
    won: int
    drawn: int
    lost: int
    movement: str  # up, down, stay (provisional while running); "" before round 1
    arrived: str  # up, down, stay, new, or ""
    withdrawn: bool = False


@dataclass(frozen=True)
class TeamDivisionTable:
    division: TeamDivisionRef
    rows: list[TeamTableRow]
    #: True after the season's close (places and movement stored); else live, movement provisional.
    final: bool = False


def team_entries(*, season: Season) -> list[TeamSeasonEntry]:
    rows = TeamSeasonEntry.objects.filter(season=season).select_related("team", "division")
    return list(rows.order_by("id"))


def team_season_table(*, season: Season) -> list[TeamDivisionTable]:
    """Each division's team standings, top level first: live from the division's team event while
    the season runs (movement provisional once round 1 is paired), final after the close."""
    found = list(
        Division.objects.filter(season=season).select_related("team_event").order_by("level", "group")
    )
    bottom = max((d.level for d in found), default=1)
    members: dict[int, list[TeamSeasonEntry]] = {}
    for e in team_entries(season=season):
        if e.division_id:
            members.setdefault(e.division_id, []).append(e)
    final = season.status == Season.Status.FINISHED
    return [_division_table(season, d, members.get(d.pk, []), bottom, final) for d in found]


def _division_table(
    season: Season, d: Division, members: list[TeamSeasonEntry], bottom: int, final: bool
) -> TeamDivisionTable:
    event = d.team_event
    started = event is not None and event.status in (TeamEvent.Status.RUNNING, TeamEvent.Status.FINISHED)
    rows = event_reads.standings(event=event) if event is not None and started else []
    by_team = {r.team: r for r in rows}
    rank = {r.team: i for i, r in enumerate(rows)}
    withdrawn = {e.team_id for e in members if e.withdrawn} | (_left_event(event) if event else set())
    if final:
        members = sorted(members, key=lambda e: (e.place or len(members) + 1, e.pk))
        moves = {e.team_id: e.movement for e in members}
    else:
        members = sorted(
            members, key=lambda e: (e.team_id in withdrawn, rank.get(e.team_id, len(rank)), e.pk)
        )
        moves = (
            placement.movements(
                [e.team_id for e in members],
                withdrawn=withdrawn,
                level=d.level,
                bottom=bottom,
                promote=season.promote,
                relegate=season.relegate,
            )
            if event is not None and event.current_round > 0
            else {}
        )
    ref = TeamDivisionRef(
        d.pk,
        d.level,
        d.group,
        division_name(level=d.level, group=d.group, name=d.name),
        d.team_event_id,
        event.status if event is not None else "",
    )
    out = []
    for i, e in enumerate(members, start=1):
        row = by_team.get(e.team_id)
        out.append(
            TeamTableRow(
                team_id=e.team_id,
                name=e.team.name,
                slug=e.team.slug,
                place=(e.place or i) if final else i,
                match_points=row.match_points if row else 0.0,
                game_points=row.game_points if row else 0.0,
                played=row.played if row else 0,
                won=row.won if row else 0,
                drawn=row.drawn if row else 0,
                lost=row.lost if row else 0,
                movement=moves.get(e.team_id, ""),
                arrived=e.arrived,
                withdrawn=e.team_id in withdrawn,
            )
        )
    return TeamDivisionTable(ref, out, final)


def managed_teams(*, season: Season, player: Player | None) -> tuple[list[Team], list[TeamSeasonEntry]]:
    """The teams ``player`` captains (or vice-captains) that may register for ``season`` and are
    not registered, and the registered entries of the teams they captain."""
    if player is None or not season.team_boards:
        return [], []
    mine = Team.objects.filter(captain=player) | Team.objects.filter(vice_captain=player)
    mine = mine.filter(league__isnull=True) | mine.filter(league=season.league)
    teams = list(mine.distinct().order_by("name", "id"))
    entries = {
        e.team_id: e
        for e in TeamSeasonEntry.objects.filter(season=season, team__in=teams).select_related(
            "team", "division"
        )
    }
    free = [t for t in teams if t.pk not in entries or entries[t.pk].withdrawn]
    return free, [e for e in entries.values() if not e.withdrawn]


# ------------------------------------------------------------------ the season page
def page_context(*, season: Season, player: Player | None) -> dict[str, Any]:
    """What the season page shows of a team season: each division's team standings (each row's
    zone: its movement, provisional while the season runs), the registered teams, and the
    reader's teams (to register, or registered)."""
    tables = []
    for t in team_season_table(season=season):
        rows = [
            {"row": r, "zone": r.movement if r.movement in ("up", "down") and not r.withdrawn else ""}
            for r in t.rows
        ]
        tables.append({"division": t.division, "name": t.division.name, "rows": rows, "final": t.final})
    free, mine = managed_teams(season=season, player=player)
    for e in mine:
        d = e.division
        e.division_name = division_name(level=d.level, group=d.group, name=d.name) if d else ""  # type: ignore[attr-defined]
        e.event_url = f"/team-events/{d.team_event_id}/" if d and d.team_event_id else ""  # type: ignore[attr-defined]
    registered = [e for e in team_entries(season=season) if not e.withdrawn]
    return {
        "team_tables": tables,
        "team_entries": registered,
        "entries": len(registered),
        "my_free_teams": free,
        "my_team_entries": mine,
    }


def page_action(*, season: Season, player: Player, action: str, team: str) -> str:
    """The season page's team forms: register or withdraw the team posted; the message to show."""
    team_id = int(team) if team.isascii() and team.isdigit() else 0
    if action == "register":
        entry = team_season_register(season_id=season.pk, team_id=team_id, by=player)
        return _("%(team)s is registered for %(season)s") % {"team": entry.team.name, "season": season.name}
    entry = team_season_withdraw(season_id=season.pk, team_id=team_id, by=player)
    return _("%(team)s withdrew from %(season)s") % {"team": entry.team.name, "season": season.name}
