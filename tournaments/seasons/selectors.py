"""Reads of seasons: the divisions' tables (live from the division events' standings while the
season runs, final after the close), a points series' table (the best ``best_of`` results
counting), the calendar, the prizes and a league's archive of seasons."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from common.errors import NotFound
from games.models import Player
from ratings import display as rating_display
from ratings.models import Rating, RatingChange

from ..competitions import selectors as event_reads
from ..models import Division, League, Registration, Season, SeasonEntry, Tournament
from . import placement


@dataclass(frozen=True)
class DivisionRef:
    id: int
    level: int
    group: str
    name: str
    tournament_id: int | None
    tournament_status: str


@dataclass(frozen=True)
class TableRow:
    player_id: int
    name: str
    place: int
    points: float
    games: int
    movement: str  # up, down, stay; "" before the division's first round
    arrived: str  # up, down, stay, new, or ""
    withdrawn: bool = False


@dataclass(frozen=True)
class DivisionTable:
    division: DivisionRef
    rows: list[TableRow]
    #: True after the season's close (places and movement stored); else live, movement provisional.
    final: bool = False


@dataclass(frozen=True)
class SeriesResult:
    tournament_id: int
    event: str
    place: int
    points: float
    counted: bool  # one of the player's best ``best_of``


@dataclass(frozen=True)
class SeriesRow:
    player_id: int
    name: str
    total: float
    place: int
    results: list[SeriesResult] = field(default_factory=list)


@dataclass(frozen=True)
class ScheduledRound:
    number: int
    starts_at: datetime
    deadline: datetime | None


@dataclass(frozen=True)
class PrizePlayer:
    player_id: int
    name: str
    place: int  # the place among the players the prize is for
    rating: int  # the displayed rating at the season's start


@dataclass(frozen=True)
class PrizeAward:
    label: str
    places: tuple[int, int]
    rating_max: int | None
    players: list[PrizePlayer]


@dataclass(frozen=True)
class SeasonSummary:
    id: int
    name: str
    slug: str
    kind: str
    status: str
    starts: date | None
    ends: date | None
    started_at: datetime | None
    finished_at: datetime | None
    winner_id: int | None
    winner: str


def season(season_id: int) -> Season:
    found = Season.objects.select_related("league", "previous").filter(pk=season_id).first()
    if found is None:
        raise NotFound(_("there is no season %(id)s") % {"id": season_id})
    return found


def divisions(season: Season) -> QuerySet[Division]:
    return Division.objects.filter(season=season).select_related("tournament").order_by("level", "group")


def entries(season: Season) -> QuerySet[SeasonEntry]:
    return SeasonEntry.objects.filter(season=season).select_related("player", "division").order_by("id")


# ------------------------------------------------------------------ tables


def season_table(season: Season) -> list[DivisionTable]:
    """Each division's table, top level first (groups A, B ... in order)."""
    found = list(divisions(season))
    bottom = max((d.level for d in found), default=1)
    members: dict[int, list[SeasonEntry]] = {}
    for e in entries(season).filter(division__isnull=False):
        members.setdefault(e.division_id or 0, []).append(e)
    final = season.status == Season.Status.FINISHED
    return [_division_table(season, d, members.get(d.pk, []), bottom, final) for d in found]


def _division_table(
    season: Season, d: Division, members: list[SeasonEntry], bottom: int, final: bool
) -> DivisionTable:
    t = d.tournament
    rows = event_reads.tournament_standings(t) if t is not None else []
    by_player = {r.player: r for r in rows}
    rank = {r.player: i for i, r in enumerate(rows)}
    left = set()
    if t is not None:
        left = set(
            Registration.objects.filter(tournament=t, status=Registration.Status.WITHDRAWN).values_list(
                "player_id", flat=True
            )
        )
    withdrawn = {e.player_id for e in members if e.status == SeasonEntry.Status.WITHDRAWN} | left
    if final:
        members = sorted(members, key=lambda e: (e.place or len(members) + 1, e.pk))
        moves = {e.player_id: e.movement for e in members}
    else:
        members = sorted(
            members, key=lambda e: (e.player_id in withdrawn, rank.get(e.player_id, len(rank)), e.pk)
        )
        started = t is not None and t.current_round > 0
        moves = (
            placement.movements(
                [e.player_id for e in members],
                withdrawn=withdrawn,
                level=d.level,
                bottom=bottom,
                promote=season.promote,
                relegate=season.relegate,
            )
            if started
            else {}
        )
    ref = DivisionRef(d.pk, d.level, d.group, d.name, d.tournament_id, t.status if t is not None else "")
    out = []
    for i, e in enumerate(members, start=1):
        row = by_player.get(e.player_id)
        out.append(
            TableRow(
                player_id=e.player_id,
                name=e.player.display_name,
                place=(e.place or i) if final else i,
                points=row.points if row else 0.0,
                games=row.played if row else 0,
                movement=moves.get(e.player_id, ""),
                arrived=e.arrived,
                withdrawn=e.player_id in withdrawn,
            )
        )
    return DivisionTable(ref, out, final)


def series_points(season: Season, place: int) -> float:
    """The points a place in one of the series' events is worth (0 past the organiser's table)."""
    scale = season.series_points or []
    return float(scale[place - 1]) if 1 <= place <= len(scale) else 0.0


def series_table(season: Season) -> list[SeriesRow]:
    """A points series: each player's points from every finished event of the season (by final
    place, ``series_points``), the best ``best_of`` counting (all when empty; between equal results
    the earlier event), the total, and the place (equal totals share a place)."""
    events = list(
        Tournament.objects.filter(season=season, status=Tournament.Status.FINISHED).order_by(
            "finished_at", "pk"
        )
    )
    places = event_reads.final_places(events)
    results: dict[int, list[SeriesResult]] = {}
    for t in events:
        for player, place in places.get(t.pk, {}).items():
            results.setdefault(player, []).append(
                SeriesResult(t.pk, t.name, place, series_points(season, place), False)
            )
    names = dict(Player.objects.filter(pk__in=list(results)).values_list("pk", "display_name"))
    rows = []
    for player, got in results.items():
        best = sorted(range(len(got)), key=lambda i: (-got[i].points, i))[: season.best_of or len(got)]
        marked = [
            SeriesResult(r.tournament_id, r.event, r.place, r.points, i in best) for i, r in enumerate(got)
        ]
        total = sum(r.points for r in marked if r.counted)
        rows.append((player, names.get(player, ""), total, marked))
    rows.sort(key=lambda r: (-r[2], r[1].lower(), r[0]))
    out: list[SeriesRow] = []
    for i, (player, name, total, marked) in enumerate(rows, start=1):
        place = out[-1].place if out and out[-1].total == total else i
        out.append(SeriesRow(player, name, total, place, marked))
    return out


def schedule(season: Season) -> list[ScheduledRound]:
    """The season's calendar: each round's start and, with a deadline, when its games are settled."""
    minutes = season.round_deadline_minutes
    out = []
    for number, stamp in enumerate(season.round_times or [], start=1):
        at = datetime.fromisoformat(stamp)
        out.append(ScheduledRound(number, at, at + timedelta(minutes=minutes) if minutes else None))
    return out


# ------------------------------------------------------------------ prizes


def ratings_at(game: str, player_ids: list[int], moment: datetime) -> dict[int, int]:
    """Each player's displayed rating in ``game`` as it stood at ``moment`` (from their rating
    changes; no change before it: the rating before their first one, or now; none: 1500)."""
    mu = dict(Rating.objects.filter(game=game, player_id__in=player_ids).values_list("player_id", "mu"))
    before: dict[int, float] = {}
    first: dict[int, float] = {}
    changes = RatingChange.objects.filter(game=game, player_id__in=player_ids).order_by("at", "pk")
    for player, at, mu_before, mu_after in changes.values_list("player_id", "at", "mu_before", "mu_after"):
        first.setdefault(player, mu_before)
        if at <= moment:
            before[player] = mu_after
    return {p: rating_display.rating(before.get(p, first.get(p, mu.get(p, 25.0)))) for p in player_ids}


def _season_game(season: Season) -> str:
    if season.game:
        return season.game
    return (
        Tournament.objects.filter(season=season).values_list("game", flat=True).order_by("pk").first() or ""
    )


def standing_order(season: Season) -> list[tuple[int, str]]:
    """Everyone still in the season, best first: a series by its table; divisions by level, then
    place, then group (the winners of groups A and B before the seconds)."""
    if season.kind == Season.Kind.SERIES:
        return [(r.player_id, r.name) for r in series_table(season)]
    rows = [
        (table.division.level, row.place, table.division.group, row.player_id, row.name)
        for table in season_table(season)
        for row in table.rows
        if not row.withdrawn
    ]
    return [(r[3], r[4]) for r in sorted(rows)]


def prize_winners(season: Season) -> list[PrizeAward]:
    """Each prize's players: places ``[first, last]`` of the season's order, overall or among the
    players whose rating at the season's start was at most ``rating_max`` (a rating band)."""
    if not season.prizes:
        return []
    order = standing_order(season)
    game = _season_game(season)
    rating = ratings_at(game, [p for p, _ in order], season.started_at or timezone.now()) if game else {}
    out = []
    for prize in season.prizes:
        cap = prize.get("rating_max")
        band = [(p, n) for p, n in order if cap is None or rating.get(p, 1500) <= cap]
        first, last = prize["places"]
        players = [
            PrizePlayer(p, n, place, rating.get(p, 1500))
            for place, (p, n) in enumerate(band, start=1)
            if first <= place <= last
        ]
        out.append(PrizeAward(prize["label"], (first, last), cap, players))
    return out


# ----------------------------------------------------------------- archive


def league_seasons(league: League) -> list[SeasonSummary]:
    """A league's seasons, newest first, each with its winner once finished (level 1's first, or
    the series' first)."""
    seasons = list(Season.objects.filter(league=league).order_by("-pk"))
    winners = SeasonEntry.objects.filter(season__in=seasons, place=1, season__status=Season.Status.FINISHED)
    found: dict[int, tuple[int, str]] = {}
    for sid, kind, level, pid, name in winners.values_list(
        "season_id", "season__kind", "division__level", "player_id", "player__display_name"
    ).order_by("division__level", "division__group", "pk"):
        if sid not in found and (kind == Season.Kind.SERIES or level == 1):
            found[sid] = (pid, name)
    return [
        SeasonSummary(
            s.pk,
            s.name,
            s.slug,
            s.kind,
            s.status,
            s.starts,
            s.ends,
            s.started_at,
            s.finished_at,
            found.get(s.pk, (None, ""))[0],
            found.get(s.pk, (None, ""))[1],
        )
        for s in seasons
    ]
