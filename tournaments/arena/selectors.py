"""What an arena's pages and API read: the leaderboard, the podium, one player's own situation."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from games.models import Player
from ratings import display as rating_display
from ratings.models import Rating

from ..models import ArenaPlayer, ArenaTable, Registration, Tournament
from .scoring import ON_FIRE

#: A newcomer's displayed rating (no rating yet in the game).
NEWCOMER = rating_display.rating(25.0)


def displayed_ratings(game: str, player_ids: Iterable[int]) -> dict[int, float]:
    """Each player's displayed rating in ``game`` (a newcomer's without one), in one query."""
    ids = list(player_ids)
    found = dict(Rating.objects.filter(game=game, player_id__in=ids).values_list("player_id", "mu"))
    return {p: float(rating_display.rating(found[p])) if p in found else float(NEWCOMER) for p in ids}


@dataclass(frozen=True)
class Row:
    """One line of an arena's leaderboard."""

    rank: int
    player: Player
    points: int
    games: int
    wins: int
    streak: int
    #: Two wins in a row or more: the next table pays double.
    on_fire: bool
    #: The mean of the opponents' ratings ±400 (None before a table counted).
    performance: int | None
    #: Each table's points in order, with their marks ("4s" on a streak, "3b" berserk).
    sheet: list[str]
    #: The table they play at now (None: free, paused or gone).
    table_id: int | None
    paused: bool
    withdrawn: bool
    berserks: int
    joined: datetime
    #: A team battle: the team they play for (None: no team battle, or no team).
    team_id: int | None = None
    team_name: str = ""


def _rank_key(row: ArenaPlayer) -> tuple[float, float, datetime, int]:
    perf = row.performance
    return (-row.points, -(perf if perf is not None else float("-inf")), row.joined, row.pk)


def leaderboard(tournament: Tournament) -> list[Row]:
    """The arena's players, best first: points, then performance, then who joined first (nobody
    before the start: a team battle's players have their rows from the join, to keep their team)."""
    if tournament.status in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION):
        return []
    rows = sorted(
        ArenaPlayer.objects.filter(tournament=tournament).select_related("player", "team"), key=_rank_key
    )
    return [
        Row(
            rank=n,
            player=r.player,
            points=r.points,
            games=r.games,
            wins=r.wins,
            streak=r.streak,
            on_fire=r.streak >= ON_FIRE,
            performance=round(r.performance) if r.performance is not None else None,
            sheet=list(r.sheet),
            table_id=r.table_id,
            paused=r.paused,
            withdrawn=r.withdrawn,
            berserks=r.berserks,
            joined=r.joined,
            team_id=r.team_id,
            team_name=r.team.name if r.team else "",
        )
        for n, r in enumerate(rows, start=1)
    ]


def podium(tournament: Tournament) -> list[Row]:
    """The first three of a finished arena (nothing while it runs), among those who played."""
    if tournament.status != Tournament.Status.FINISHED:
        return []
    return [r for r in leaderboard(tournament) if r.games][:3]


@dataclass(frozen=True)
class Mine:
    """One player's own situation in an arena."""

    #: Entered (registered before the start, or playing), and not withdrawn.
    entered: bool
    #: Their leaderboard line (None before the start, or never joined).
    row: Row | None
    #: The table they play at now.
    table_id: int | None
    #: Since when they wait for their next table (None: at a table, paused, gone or not started).
    waiting_since: datetime | None


def my_arena(tournament: Tournament, player: Player | None) -> Mine:
    """``player``'s entry, line, current table and wait in ``tournament`` (anonymous: nothing)."""
    if player is None or player.pk is None:
        return Mine(entered=False, row=None, table_id=None, waiting_since=None)
    entered = (
        Registration.objects.filter(tournament=tournament, player=player)
        .exclude(status=Registration.Status.WITHDRAWN)
        .exists()
    )
    mine = ArenaPlayer.objects.filter(tournament=tournament, player=player).first()
    if mine is None:
        return Mine(entered=entered, row=None, table_id=None, waiting_since=None)
    row = next((r for r in leaderboard(tournament) if r.player.pk == player.pk), None)
    return Mine(entered=entered, row=row, table_id=mine.table_id, waiting_since=mine.free_since)


def arena_tables(tournament: Tournament) -> list[ArenaTable]:
    """The arena's tables, newest first."""
    return list(ArenaTable.objects.filter(tournament=tournament).select_related("table"))
