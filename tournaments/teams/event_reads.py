"""Reading team events: the standings, a match's boards and results, a round's matches, an event
with its entries (for the API and the pages)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from games import selectors as game_reads
from games.models import Player

from ..models import League, TeamBoard, TeamEntry, TeamEvent, TeamMatch, TeamMatchSide, TeamRound
from . import scoring


def standings(*, event: TeamEvent) -> list[scoring.TeamRow]:
    """The team standings from the matches finished so far and the byes given (withdrawn teams
    get no row, but count as the opponents they were)."""
    entries = list(TeamEntry.objects.filter(event=event))
    teams = [e.team_id for e in entries if not e.withdrawn]
    seeds = {e.team_id: e.seed for e in entries if e.seed is not None}
    by_match: dict[int, list[TeamMatchSide]] = {}
    sides = TeamMatchSide.objects.filter(match__round__event=event, match__status=TeamMatch.Status.FINISHED)
    for side in sides.select_related("match__round").order_by("match_id", "order"):
        by_match.setdefault(side.match_id, []).append(side)
    matches = [
        scoring.MatchRecord(
            round=group[0].match.round.number,
            game_points={s.team_id: s.game_points for s in group},
            match_points={s.team_id: s.match_points or 0.0 for s in group},
        )
        for group in by_match.values()
    ]
    byes: dict[int, list[int]] = {}
    for number, given in TeamRound.objects.filter(event=event).values_list("number", "byes"):
        for team in given or []:
            byes.setdefault(team, []).append(number)
    return scoring.team_standings(
        teams=teams,
        matches=matches,
        byes=byes,
        seats=event.seats,
        boards=event.boards,
        tiebreak=event.tiebreak,
        seeds=seeds,
        scale=event.points_scale,
        match_scale=event.match_points,
    )


def _names(ids: set[int]) -> dict[int, str]:
    return dict(Player.objects.filter(pk__in=ids).values_list("pk", "display_name"))


def match_detail(*, match: TeamMatch) -> dict[str, Any]:
    """A match: its sides (team, order, game points, place, match points) and boards (number,
    table, players with names and seats, status, points)."""
    sides = list(TeamMatchSide.objects.filter(match=match).select_related("team").order_by("order"))
    boards = list(TeamBoard.objects.filter(match=match).select_related("table").order_by("number"))
    names = _names({p for b in boards for p in b.players if p is not None})
    seats = game_reads.seatings([b.table_id for b in boards if b.table_id])
    results = game_reads.game_results(
        [b.table_id for b in boards if b.table_id and b.table.status == "finished"]
    )
    out_boards = []
    for b in boards:
        at = seats.get(b.table_id, []) if b.table_id else []
        ranks = results[b.table_id].ranks() if b.table_id in results else {}
        players = []
        for side, player in zip(sides, b.players, strict=False):
            players.append(
                {
                    "team_id": side.team_id,
                    "player_id": player,
                    "name": names.get(player, "") if player is not None else "",
                    "seat": at.index(player) + 1 if player in at else None,
                    "rank": ranks.get(player) if player is not None else None,
                    "points": b.points.get(str(side.team_id)) if b.counted else None,
                    "forfeit": side.team_id in b.forfeits,
                }
            )
        out_boards.append(
            {
                "number": b.number,
                "table_id": b.table_id,
                "status": b.table.status if b.table_id else ("counted" if b.counted else "waiting"),
                "counted": b.counted,
                "players": players,
            }
        )
    rnd = match.round
    return {
        "id": match.pk,
        "event_id": rnd.event_id,
        "event": rnd.event.name,
        "round": rnd.number,
        "round_id": rnd.pk,
        "number": match.number,
        "status": match.status,
        "starts_at": rnd.starts_at,
        "sides": [
            {
                "team_id": s.team_id,
                "name": s.team.name,
                "slug": s.team.slug,
                "order": s.order,
                "game_points": s.game_points,
                "place": s.place,
                "match_points": s.match_points,
            }
            for s in sides
        ],
        "boards": out_boards,
    }


def round_matches(*, rnd: TeamRound) -> list[dict[str, Any]]:
    """A round's matches in short: number, status, sides with their scores."""
    rows: dict[int, dict[str, Any]] = {}
    sides = (
        TeamMatchSide.objects.filter(match__round=rnd)
        .select_related("team", "match")
        .order_by("match__number", "order")
    )
    for s in sides:
        row = rows.setdefault(
            s.match_id, {"id": s.match_id, "number": s.match.number, "status": s.match.status, "sides": []}
        )
        row["sides"].append(
            {
                "team_id": s.team_id,
                "name": s.team.name,
                "slug": s.team.slug,
                "order": s.order,
                "game_points": s.game_points,
                "place": s.place,
                "match_points": s.match_points,
            }
        )
    return list(rows.values())


def round_detail(*, rnd: TeamRound) -> dict[str, Any]:
    return {
        "id": rnd.pk,
        "event_id": rnd.event_id,
        "number": rnd.number,
        "status": rnd.status,
        "starts_at": rnd.starts_at,
        "started_at": rnd.started_at,
        "finished_at": rnd.finished_at,
        "byes": list(rnd.byes or []),
        "matches": round_matches(rnd=rnd),
    }


def event_list(*, league: League | None = None, status: str = "") -> QuerySet[TeamEvent]:
    events = TeamEvent.objects.select_related("league")
    if league is not None:
        events = events.filter(league=league)
    if status:
        events = events.filter(status=status)
    return events.order_by("-created", "-id")


def event_detail(*, event: TeamEvent) -> dict[str, Any]:
    """The event's settings, state, entries (with their places) and rounds."""
    entries = (
        TeamEntry.objects.filter(event=event).select_related("team").order_by("seed", "registered_at", "id")
    )
    return {
        "id": event.pk,
        "name": event.name,
        "league": event.league.slug,
        "season_id": event.season_id,
        "game": event.game,
        "edition": event.edition,
        "seats": event.seats,
        "boards": event.boards,
        "format": event.format,
        "rounds": event.rounds,
        "time_control": event.time_control,
        "rated": event.rated,
        "points_scale": event.points_scale,
        "match_points": event.match_points,
        "tiebreak": event.tiebreak,
        "status": event.status,
        "starts_at": event.starts_at,
        "round_times": event.round_times,
        "round_gap_minutes": event.round_gap_minutes,
        "current_round": event.current_round,
        "started_at": event.started_at,
        "finished_at": event.finished_at,
        "entries": [
            {
                "team_id": e.team_id,
                "name": e.team.name,
                "slug": e.team.slug,
                "seed": e.seed,
                "withdrawn": e.withdrawn,
                "place": e.place,
            }
            for e in entries
        ],
        "rounds_played": [
            {"id": r.pk, "number": r.number, "status": r.status, "starts_at": r.starts_at}
            for r in TeamRound.objects.filter(event=event).order_by("number")
        ],
    }
