"""Team battles in arenas: an arena (``Tournament.team_battle_top`` set) whose players join *for a
team* among its ``battle_teams``; a team scores the points of its ``team_battle_top`` (K) best
scorers.

* **Setting one up**: K from 1 to :data:`MAX_TOP`, at least two teams (given by slug or id), an
  arena only (:func:`checked_battle`, called by ``tournament_create``).
* **Joining**: a player joins for a team of the battle they are a member of (:func:`join_team`):
  the one named, or the only one they are on; none: refused. Once joined the team is fixed: a
  player who leaves and comes back plays for the same team. Before the start the choice is kept
  on the player's arena row, made at the join (``tournaments.arena.services.arena_join``).
* **The team leaderboard** (:func:`team_leaderboard`; its pure part :func:`tally`): a team's
  points are the sum of the K best arena points among its players (withdrawn players' points
  count, as they stay on the individual leaderboard); teams are ordered by those points, then by
  the sum of all their players' points, then by name; teams level on both share a place. The
  performance shown is the mean of the counting players' performances.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _

from common.errors import Conflict, Forbidden, InvalidInput
from games.models import Player

from ..models import ArenaPlayer, Team, TeamMember, Tournament

#: The most best scorers a team battle may count.
MAX_TOP = 20


# ------------------------------------------------------------------ the pure part


@dataclass(frozen=True)
class Entry:
    """One arena player as the team tally sees them."""

    player: int
    team: int
    points: int
    #: Their performance (None: no table counted yet).
    performance: float | None = None
    name: str = ""


@dataclass(frozen=True)
class Counted:
    """A player whose points count for their team."""

    player: int
    name: str
    points: int
    performance: int | None


@dataclass(frozen=True)
class Tally:
    """A team's line of the team leaderboard (team ids; :class:`TeamBattleRow` has the team)."""

    team: int
    place: int
    #: The sum of the ``top`` best players' points.
    points: int
    #: The sum of all its players' points (the first tie-break).
    total: int
    counting: tuple[Counted, ...]
    #: How many play (or played) for the team.
    players: int
    #: The mean performance of the counting players who have one (None: none has).
    performance: int | None


def tally(*, teams: Mapping[int, str], entries: Sequence[Entry], top: int) -> list[Tally]:
    """The team leaderboard of ``teams`` (id → name) from the arena's ``entries``, given best first
    as the individual leaderboard orders them (that order picks who counts among players level on
    points at the cut): each team's ``top`` best players' points, best team first. Entries of a
    team not in ``teams`` are left out; a team without players scores 0."""
    by_team: dict[int, list[Entry]] = {team: [] for team in teams}
    for entry in entries:
        if entry.team in by_team:
            by_team[entry.team].append(entry)
    lines = []
    for team, rows in by_team.items():
        best = sorted(rows, key=lambda e: -e.points)[: max(top, 0)]  # stable: leaderboard order
        perfs = [e.performance for e in best if e.performance is not None]
        lines.append(
            (
                team,
                sum(e.points for e in best),
                sum(e.points for e in rows),
                tuple(
                    Counted(
                        e.player,
                        e.name,
                        e.points,
                        round(e.performance) if e.performance is not None else None,
                    )
                    for e in best
                ),
                len(rows),
                round(sum(perfs) / len(perfs)) if perfs else None,
            )
        )
    lines.sort(key=lambda line: (-line[1], -line[2], teams[line[0]].casefold(), line[0]))
    out: list[Tally] = []
    for n, (team, points, total, counting, players, perf) in enumerate(lines, start=1):
        shared = out and (out[-1].points, out[-1].total) == (points, total)
        place = out[-1].place if shared else n
        out.append(Tally(team, place, points, total, counting, players, perf))
    return out


# ------------------------------------------------------------------ reading


def is_team_battle(t: Tournament) -> bool:
    return t.format == Tournament.Format.ARENA and bool(t.team_battle_top)


@dataclass(frozen=True)
class TeamBattleRow:
    """A line of a team battle's leaderboard."""

    team: Team
    place: int
    points: int
    total: int
    counting: list[Counted]
    players: int
    performance: int | None


def _order_key(row: ArenaPlayer) -> tuple[float, float, datetime, int]:
    """The individual leaderboard's order (``tournaments.arena.selectors.leaderboard``)."""
    perf = row.performance
    return (-row.points, -(perf if perf is not None else float("-inf")), row.joined, row.pk)


def team_leaderboard(*, tournament: Tournament) -> list[TeamBattleRow]:
    """The team battle's leaderboard, best team first (empty: not a team battle)."""
    if not is_team_battle(tournament):
        return []
    teams = {team.pk: team for team in tournament.battle_teams.all()}
    rows = sorted(
        ArenaPlayer.objects.filter(tournament=tournament, team__in=list(teams)).select_related("player"),
        key=_order_key,
    )
    entries = [
        Entry(r.player_id, r.team_id or 0, r.points, r.performance, r.player.display_name) for r in rows
    ]
    lines = tally(
        teams={pk: team.name for pk, team in teams.items()},
        entries=entries,
        top=tournament.team_battle_top or 0,
    )
    return [
        TeamBattleRow(
            team=teams[line.team],
            place=line.place,
            points=line.points,
            total=line.total,
            counting=list(line.counting),
            players=line.players,
            performance=line.performance,
        )
        for line in lines
    ]


def team_names(teams: Iterable[Team]) -> str:
    """The teams' names for a sentence ("Rooks, Knights")."""
    return ", ".join(team.name for team in teams)


def member_teams(*, tournament: Tournament, player: Player | None) -> list[Team]:
    """The battle's teams ``player`` is a member of (none for a visitor)."""
    if player is None or player.pk is None or not is_team_battle(tournament):
        return []
    return list(tournament.battle_teams.filter(members__player=player).distinct().order_by("name", "pk"))


# ------------------------------------------------------------------ setting one up


def _team_refs(values: Any) -> tuple[set[int], set[str]]:
    if isinstance(values, str):
        values = values.replace(",", " ").split()
    if not isinstance(values, list | tuple | set):
        raise InvalidInput(_("battle_teams must be a list of team slugs or ids"))
    ids: set[int] = set()
    slugs: set[str] = set()
    for value in values:
        if isinstance(value, bool):
            raise InvalidInput(_("battle_teams must be a list of team slugs or ids"))
        if isinstance(value, int):
            ids.add(value)
        elif isinstance(value, str) and value.strip():
            text = value.strip()
            if text.isascii() and text.isdigit() and len(text) < 10:
                ids.add(int(text))
            else:
                slugs.add(text.lower())
        else:
            raise InvalidInput(_("battle_teams must be a list of team slugs or ids"))
    return ids, slugs


def checked_battle(*, format: str, top: int | None, teams: Any) -> tuple[int | None, list[Team]]:
    """A team battle's settings checked (``InvalidInput`` with the reason): K (``top``, 1 to
    :data:`MAX_TOP`) and the teams (slugs or ids, at least two), for an arena only. Neither given:
    no team battle, ``(None, [])``."""
    if top is None and not teams:
        return None, []
    if format != Tournament.Format.ARENA:
        raise InvalidInput(_("only an arena can be a team battle"))
    if top is None:
        raise InvalidInput(
            _("a team battle needs team_battle_top: how many of each team's best scorers count, 1 to %(n)d")
            % {"n": MAX_TOP}
        )
    if isinstance(top, bool) or not isinstance(top, int) or not 1 <= top <= MAX_TOP:
        raise InvalidInput(
            _("a team battle counts each team's 1 to %(n)d best scorers, not %(value)s")
            % {"n": MAX_TOP, "value": top}
        )
    ids, slugs = _team_refs(teams or [])
    found = list(Team.objects.filter(pk__in=ids)) + list(Team.objects.filter(slug__in=slugs))
    missing = sorted([str(i) for i in ids - {t.pk for t in found}] + sorted(slugs - {t.slug for t in found}))
    if missing:
        raise InvalidInput(_("there is no team %(teams)s") % {"teams": ", ".join(missing)})
    chosen = sorted({t.pk: t for t in found}.values(), key=lambda t: (t.name, t.pk))
    if len(chosen) < 2:
        raise InvalidInput(_("a team battle needs at least 2 teams"))
    return top, chosen


# ------------------------------------------------------------------ joining


def _battle_team(t: Tournament, value: int | str) -> Team:
    ids, slugs = _team_refs([value])
    found = t.battle_teams.filter(pk__in=ids).first() or t.battle_teams.filter(slug__in=slugs).first()
    if found is None:
        raise InvalidInput(
            _("%(team)s is not a team of this battle: choose one of %(teams)s")
            % {"team": value, "teams": team_names(t.battle_teams.order_by("name", "pk"))}
        )
    return found


def join_team(
    *, t: Tournament, player: Player, row: ArenaPlayer | None, team: int | str | None = None
) -> Team | None:
    """The team ``player`` joins the arena ``t`` for (None: not a team battle). ``row``: their arena
    row if they have one (their team is fixed: ``team`` may only name it again); ``team``: a
    team's id or slug, needed when they are on several of the battle's teams. Refusals:
    ``Forbidden`` for a player on none of the teams, ``InvalidInput`` for a team not of the battle
    or a choice missing, ``Conflict`` for another team than the one they joined for."""
    if not is_team_battle(t):
        return None
    if row is not None and row.team_id is not None:
        if team not in (None, "") and _battle_team(t, team).pk != row.team_id:
            raise Conflict(
                _("you play for %(team)s in this arena: a player's team is fixed once they join")
                % {"team": row.team.name if row.team else row.team_id}
            )
        return row.team
    mine = member_teams(tournament=t, player=player)
    if not mine:
        raise Forbidden(
            _("this arena is a team battle: only members of %(teams)s can join")
            % {"teams": team_names(t.battle_teams.order_by("name", "pk"))}
        )
    if team not in (None, ""):
        chosen = _battle_team(t, team)  # type: ignore[arg-type]
        if chosen.pk not in {m.pk for m in mine}:
            raise Forbidden(
                _("you are not a member of %(team)s: you can join for %(teams)s")
                % {"team": chosen.name, "teams": team_names(mine)}
            )
        return chosen
    if len(mine) > 1:
        raise InvalidInput(
            _("you are on several teams of this battle (%(teams)s): say which one you play for")
            % {"teams": team_names(mine)}
        )
    return mine[0]


def start_teams(*, t: Tournament) -> None:
    """At a team battle's start: a player entered without a team (registered by an organiser) plays
    for the battle's team they are on when there is exactly one (else for none: their points do
    not count for a team)."""
    if not is_team_battle(t):
        return
    battle = set(t.battle_teams.values_list("pk", flat=True))
    for row in ArenaPlayer.objects.filter(tournament=t, team__isnull=True):
        teams = set(
            TeamMember.objects.filter(player_id=row.player_id, team_id__in=battle).values_list(
                "team_id", flat=True
            )
        )
        if len(teams) == 1:
            row.team_id = teams.pop()
            row.save(update_fields=["team"])
