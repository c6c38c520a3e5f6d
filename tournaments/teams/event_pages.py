"""The team event pages: the list of team events, an event (standings, rounds and matches, the
round's line-up status, the captains' entry buttons and the organisers' start and cancel), a
match (the live score and each board), and the captain's line-up form for a round. Same services
as the API (``events``, ``lineups``, ``event_reads``); the pages only read and present."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy
from django.views.decorators.http import require_POST

from common.errors import ServiceError
from common.http import fragment_response
from common.players import request_player, visitor_player
from common.validation import ascii_int_or_none
from games.clocks import TimeControl
from games.models import Player, Table

from ..models import LineUp, Team, TeamEntry, TeamEvent, TeamMatch, TeamMatchSide, TeamRound
from ..selectors import is_organiser
from . import event_reads, events, lineups, scoring, selectors
from .pairing import board_order

#: Each team tiebreak's column heading (the standings show the event's chosen one).
TIEBREAK_HEADS = {
    "game_points": pgettext_lazy("team tie-break", "GP"),
    "direct": pgettext_lazy("team tie-break", "Direct"),
    "buchholz": pgettext_lazy("team tie-break", "Buchholz"),
    "sonneborn_berger": pgettext_lazy("team tie-break", "S-B"),
}


def points(value: float | None) -> str:
    """A score as people write it: 2½, ½, 3, 1.25 (``–`` for none)."""
    if value is None:
        return "–"
    whole, rest = divmod(round(value * 4) / 4, 1)
    if rest == 0:
        return f"{whole:.0f}"
    if rest == 0.5:
        return "½" if whole == 0 else f"{whole:.0f}½"
    return f"{value:g}"


# ------------------------------------------------------------------ shared reads
def _event_or_404(event_id: int) -> TeamEvent:
    event = TeamEvent.objects.select_related("league", "season").filter(pk=event_id).first()
    if event is None:
        raise Http404("no such team event")
    return event


def _organises(event: TeamEvent, me: Player | None) -> bool:
    return me is not None and is_organiser(event.league, me)


def _managed_teams(event: TeamEvent, me: Player | None) -> list[Team]:
    """The teams ``me`` may enter or withdraw: those they captain or vice-captain, and for the
    club's organisers (and staff) the club's teams."""
    if me is None:
        return []
    mine = (Q(captain=me) | Q(vice_captain=me)) & (Q(league=event.league) | Q(league__isnull=True))
    if _organises(event, me):
        mine |= Q(league=event.league)
    return list(Team.objects.filter(mine).select_related("league").order_by("name", "id"))


def _scale_text(values: Any) -> str:
    return " / ".join(points(float(v)) for v in values)


def _match_points_text(event: TeamEvent) -> str:
    """The match points in words: "win 2, draw 1, loss 0", or by place at 3–4 teams a match."""
    scale = [float(v) for v in event.match_points or scoring.DEFAULT_MATCH_POINTS.get(event.seats, ())]
    if len(scale) == 2:
        return _("win %(win)s, draw %(draw)s, loss %(loss)s") % {
            "win": points(scale[0]),
            "draw": points(sum(scale) / 2),
            "loss": points(scale[1]),
        }
    # Translators: match points by place at 3–4 teams a match, e.g. "1st 3 · 2nd 2 · 3rd 1 · 4th 0".
    return " · ".join(
        _("place %(place)d: %(points)s") % {"place": n, "points": points(v)} for n, v in enumerate(scale, 1)
    )


def _round_timing(event: TeamEvent) -> str:
    if event.round_times:
        n = len(event.round_times)
        return _("set times for %(n)d rounds (see each round)") % {"n": n}
    return _("each round starts %(minutes)d minutes after the last one ends") % {
        "minutes": event.round_gap_minutes
    }


def _facts(event: TeamEvent) -> dict[str, Any]:
    return {
        "clock": TimeControl.from_dict(event.time_control or {}).describe(),
        "match_points": _match_points_text(event),
        "board_points": _scale_text(event.points_scale) if event.points_scale else "",
        "round_timing": _round_timing(event),
    }


# ------------------------------------------------------------------ the list
def team_event_list_page(request: HttpRequest) -> HttpResponse:
    """Team events: running, then open for entries, then finished (and called off)."""
    rows = TeamEvent.objects.select_related("league").order_by("-created", "-id")
    groups = {"running": [], "registration": [], "finished": []}
    for event in rows[:300]:
        key = "finished" if event.status == TeamEvent.Status.CANCELLED else event.status
        groups[key].append(event)
    entered = dict(
        TeamEntry.objects.filter(withdrawn=False, event__in=[e for g in groups.values() for e in g])
        .values("event")
        .annotate(n=Count("id"))
        .values_list("event", "n")
    )
    for group in groups.values():
        for event in group:
            event.teams = entered.get(event.pk, 0)  # type: ignore[attr-defined]
    sections = [
        ("running", _("Running"), groups["running"]),
        ("upcoming", _("Open for entries"), groups["registration"]),
        ("finished", _("Finished"), groups["finished"]),
    ]
    return render(request, "teams/event_list.html", {"sections": sections})


# ------------------------------------------------------------------ an event
@dataclass
class StandingRow:
    place: int
    team: Team
    played: int
    won: int
    drawn: int
    lost: int
    match_points: str
    game_points: str
    tiebreak: str
    mine: bool = False


@dataclass
class MatchRow:
    match: TeamMatch
    sides: list[TeamMatchSide]
    score: str
    mine: bool = False


@dataclass
class RoundRow:
    round: TeamRound
    matches: list[MatchRow]
    byes: list[Team]
    current: bool


@dataclass
class LineupRow:
    team: Team
    lineup: LineUp | None
    manage: bool


@dataclass
class EventView:
    event: TeamEvent
    facts: dict[str, Any]
    standings: list[StandingRow]
    tiebreak_head: str
    tiebreak_help: str
    rounds: list[RoundRow]
    current: TeamRound | None
    lineup_rows: list[LineupRow]
    entries: list[TeamEntry]
    winners: list[Team] = field(default_factory=list)


def _standings(event: TeamEvent, teams: dict[int, Team], mine: set[int]) -> list[StandingRow]:
    shown = event.tiebreak if event.tiebreak != "game_points" else "direct"
    rows = []
    for row in event_reads.standings(event=event):
        team = teams.get(row.team)
        if team is None:
            continue
        rows.append(
            StandingRow(
                place=row.place,
                team=team,
                played=row.played,
                won=row.won,
                drawn=row.drawn,
                lost=row.lost,
                match_points=points(row.match_points),
                game_points=points(row.game_points),
                tiebreak=points(row.tiebreaks.get(shown)),
                mine=row.team in mine,
            )
        )
    return rows


def _rounds(event: TeamEvent, teams: dict[int, Team], mine: set[int]) -> list[RoundRow]:
    rounds = list(event.round_set.order_by("number"))
    sides: dict[int, list[TeamMatchSide]] = {}
    matches = TeamMatch.objects.filter(round__event=event).order_by("round__number", "number")
    for side in TeamMatchSide.objects.filter(match__round__event=event).order_by("match", "order"):
        side.team = teams.get(side.team_id) or side.team
        sides.setdefault(side.match_id, []).append(side)
    by_round: dict[int, list[MatchRow]] = {}
    for m in matches:
        ms = sides.get(m.pk, [])
        by_round.setdefault(m.round_id, []).append(
            MatchRow(
                match=m,
                sides=ms,
                score=" – ".join(points(s.game_points) for s in ms),
                mine=any(s.team_id in mine for s in ms),
            )
        )
    out = []
    for r in reversed(rounds):  # the newest round first
        byes = [teams[t] for t in r.byes or [] if t in teams]
        out.append(RoundRow(r, by_round.get(r.pk, []), byes, current=r.number == event.current_round))
    return out


def _lineup_rows(current: TeamRound | None, entries: list[TeamEntry], me: Player | None) -> list[LineupRow]:
    if current is None:
        return []
    playing = {s.team_id for s in TeamMatchSide.objects.filter(match__round=current)}
    found = {x.team_id: x for x in LineUp.objects.filter(round=current).select_related("submitted_by")}
    return [
        LineupRow(
            team=e.team,
            lineup=found.get(e.team_id),
            manage=lineups.may_manage(event=current.event, team=e.team, player=me),
        )
        for e in entries
        if e.team_id in playing
    ]


def event_view(event: TeamEvent, me: Player | None) -> EventView:
    entries = list(
        TeamEntry.objects.filter(event=event).select_related("team").order_by("withdrawn", "seed", "id")
    )
    teams = {e.team_id: e.team for e in entries}
    managed = {t.pk for t in _managed_teams(event, me)}
    mine = {t.pk for t in Team.objects.filter(members__player=me)} if me else set()
    rounds = _rounds(event, teams, mine | managed)
    current = next((r.round for r in rounds if r.current and r.round.status != "finished"), None)
    shown = event.tiebreak if event.tiebreak != "game_points" else "direct"
    view = EventView(
        event=event,
        facts=_facts(event),
        standings=_standings(event, teams, mine | managed) if rounds else [],
        tiebreak_head=str(TIEBREAK_HEADS[shown]),
        tiebreak_help=str(TeamEvent.Tiebreak(shown).label),
        rounds=rounds,
        current=current,
        lineup_rows=_lineup_rows(current, [e for e in entries if not e.withdrawn], me),
        entries=entries,
    )
    if event.status == TeamEvent.Status.FINISHED:
        view.winners = [e.team for e in entries if e.place == 1]
    return view


def team_event_page(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event_or_404(event_id)
    me = visitor_player(request)
    view = event_view(event, me)
    context: dict[str, Any] = {"event": event, "view": view, "now": timezone.now()}
    if request.GET.get("fragment"):  # standings, rounds and line-ups, polled live
        return fragment_response(request, "teams/_event_body.html", context)
    managed = _managed_teams(event, me)
    entered = {e.team_id for e in view.entries if not e.withdrawn}
    context.update(
        organiser=_organises(event, me),
        can_enter=[t for t in managed if t.pk not in entered],
        can_withdraw=[t for t in managed if t.pk in entered],
    )
    return render(request, "teams/event.html", context)


def _say_done(event: TeamEvent, action: str, team: Team | None) -> str:
    words = {"event": event.name, "team": team.name if team else ""}
    if action == "enter":
        return _("%(team)s is entered in %(event)s") % words
    if action == "withdraw":
        return _("%(team)s has withdrawn from %(event)s") % words
    if action == "start":
        return _("%(event)s has started: round 1 is paired, captains can set their line-ups") % words
    return _("%(event)s is called off") % words


@login_required
@require_POST
def team_event_action(request: HttpRequest, event_id: int, action: str) -> HttpResponse:
    """Enter or withdraw a team (its captain), start or call off the event (its organisers)."""
    event = _event_or_404(event_id)
    if action not in ("enter", "withdraw", "start", "cancel"):
        raise Http404("no such action")
    me = request_player(request)
    team = None
    try:
        if action in ("enter", "withdraw"):
            team_id = ascii_int_or_none(request.POST.get("team"))
            team = Team.objects.filter(pk=team_id).first() if team_id is not None else None
            if team is None:
                raise Http404("no such team")
            if action == "enter":
                events.team_event_enter(event_id=event.pk, team_id=team.pk, by=me)
            else:
                events.team_event_withdraw(event_id=event.pk, team_id=team.pk, by=me)
        elif request.POST.get("confirm") != "yes":
            messages.error(
                request, _("%(event)s was not changed: tick the box to confirm") % {"event": event.name}
            )
            return redirect("team-event", event_id=event.pk)
        elif action == "start":
            events.team_event_start(event_id=event.pk, by=me)
        else:
            events.team_event_cancel(event_id=event.pk, by=me)
    except ServiceError as exc:
        messages.error(request, exc.detail)
    else:
        messages.success(request, _say_done(event, action, team))
    return redirect("team-event", event_id=event.pk)


# ------------------------------------------------------------------ a match
@dataclass
class SeatView:
    team: Team
    order: int
    name: str
    player_id: int | None
    rating: int | None
    seat: int  # 1: moves first
    points: str
    forfeit: bool


@dataclass
class BoardView:
    number: int
    seats: list[SeatView]  # in side order (the columns of the page)
    table_id: int | None
    state: str  # waiting, playing, finished, forfeit
    score: str


def _board_state(board: dict[str, Any] | None, rnd: TeamRound) -> str:
    """waiting (the round has not started), playing, finished, or forfeit (no game was played)."""
    if board is None or rnd.status == TeamRound.Status.LINEUPS:
        return "waiting"
    if board["counted"]:
        return "finished" if board["table_id"] else "forfeit"
    if board["status"] == Table.Status.ACTIVE:
        return "playing"
    return "finished" if board["status"] in (Table.Status.FINISHED, Table.Status.ABORTED) else "waiting"


def _boards(
    detail: dict[str, Any], sides: list[TeamMatchSide], event: TeamEvent, rnd: TeamRound
) -> list[BoardView]:
    """Every board of the match (``event_reads.match_detail``), in side order; before the round
    starts the boards wait and the line-ups stay private."""
    revealed = rnd.status != TeamRound.Status.LINEUPS
    found = {b["number"]: b for b in detail["boards"]} if revealed else {}
    ids = [p["player_id"] for b in found.values() for p in b["players"] if p["player_id"]]
    rated = selectors.ratings(game=event.game, player_ids=ids)
    team_ids = [s.team_id for s in sides]
    out = []
    for number in range(1, event.boards + 1):
        board = found.get(number)
        state = _board_state(board, rnd)
        by_team = {p["team_id"]: p for p in board["players"]} if board else {}
        # The seats the pairing gives (side 1 first on odd boards), or those taken at the table.
        seat_of = {t: i + 1 for i, t in enumerate(board_order(sides=team_ids, board=number))}
        seats = []
        for side in sides:
            p = by_team.get(side.team_id, {})
            pid = p.get("player_id")
            got = p.get("points")
            seats.append(
                SeatView(
                    team=side.team,
                    order=side.order,
                    name=p.get("name", ""),
                    player_id=pid,
                    rating=rated.get(pid) if pid else None,
                    seat=p.get("seat") or seat_of[side.team_id],
                    points=points(got) if got is not None else "",
                    forfeit=board is not None
                    and state != "waiting"
                    and (bool(p.get("forfeit")) or pid is None),
                )
            )
        score = " – ".join(x.points for x in seats) if board and board["counted"] else ""
        out.append(BoardView(number, seats, board["table_id"] if board else None, state, score))
    return out


def match_view(match: TeamMatch) -> dict[str, Any]:
    sides = list(TeamMatchSide.objects.filter(match=match).select_related("team").order_by("order"))
    event = match.round.event
    for s in sides:
        s.shown = points(s.game_points)  # type: ignore[attr-defined]
        s.match_points_text = points(s.match_points)  # type: ignore[attr-defined]
        # Translators' plural: "1 match point", else "2 match points" (also for ½ or 1½).
        s.match_points_count = 1 if s.match_points == 1 else 2  # type: ignore[attr-defined]
    boards = _boards(event_reads.match_detail(match=match), sides, event, match.round)
    firsts = [s for s in sides if s.place == 1]
    finished = match.status == TeamMatch.Status.FINISHED
    return {
        "match": match,
        "round": match.round,
        "event": event,
        "sides": sides,
        "boards": boards,
        "done": sum(1 for b in boards if b.state in ("finished", "forfeit")),
        "finished": finished,
        "winner": firsts[0] if finished and len(firsts) == 1 else None,
    }


def team_match_page(request: HttpRequest, match_id: int) -> HttpResponse:
    match = TeamMatch.objects.select_related("round__event__league").filter(pk=match_id).first()
    if match is None:
        raise Http404("no such team match")
    context = match_view(match)
    if request.GET.get("fragment"):
        return fragment_response(request, "teams/_match_body.html", context)
    return render(request, "teams/match.html", context)


# ------------------------------------------------------------------ the line-up
def _lineup_context(rnd: TeamRound, team: Team, me: Player) -> dict[str, Any]:
    event = rnd.event
    candidates = lineups.lineup_candidates(event=event, team=team)
    members = {m.player_id: m for m in selectors.board_order(team=team, game=event.game)}
    lineup = LineUp.objects.filter(round=rnd, team=team).select_related("submitted_by").first()
    chosen = list(lineup.players) if lineup is not None else lineups.default_lineup(event=event, team=team)
    chosen = (chosen + [None] * event.boards)[: event.boards]
    rated = selectors.ratings(game=event.game, player_ids=[p.pk for p in candidates])
    options = [
        {
            "id": p.pk,
            "name": p.display_name,
            "rating": rated.get(p.pk),
            "alternate": bool(members.get(p.pk) and members[p.pk].alternate),
        }
        for p in candidates
    ]
    closed = rnd.status != TeamRound.Status.LINEUPS or timezone.now() >= rnd.starts_at
    sides = list(
        TeamMatchSide.objects.filter(match__round=rnd, match__sides__team=team)
        .order_by("order")
        .values_list("team_id", flat=True)
    )
    opponents = list(
        Team.objects.filter(match_sides__match__round=rnd, match_sides__match__sides__team=team)
        .exclude(pk=team.pk)
        .order_by("match_sides__order")
    )
    first = {
        n: len(sides) > 1 and board_order(sides=sides, board=n)[0] == team.pk
        for n in range(1, event.boards + 1)
    }
    return {
        "round": rnd,
        "event": event,
        "team": team,
        "options": options,
        "boards": [{"number": n, "chosen": c, "first": first[n]} for n, c in enumerate(chosen, start=1)],
        "lineup": lineup,
        "opponents": opponents,
        "closed": closed,
        "names": {p.pk: p.display_name for p in candidates},
    }


def _posted_players(request: HttpRequest, boards: int) -> list[int | None]:
    out: list[int | None] = []
    for n in range(1, boards + 1):
        out.append(ascii_int_or_none(request.POST.get(f"board{n}") or None))
    return out


@login_required
def lineup_page(request: HttpRequest, round_id: int, slug: str) -> HttpResponse:
    """The captain's line-up for a round: one player per board, until the round starts."""
    rnd = TeamRound.objects.select_related("event__league").filter(pk=round_id).first()
    team = Team.objects.select_related("league").filter(slug=slug).first()
    if rnd is None or team is None:
        raise Http404("no such round or team")
    if not TeamEntry.objects.filter(event=rnd.event, team=team).exists():
        raise Http404("this team is not in this event")
    me = request_player(request)
    if not lineups.may_manage(event=rnd.event, team=team, player=me):
        raise PermissionDenied(
            _("only the captain and vice-captain of %(team)s (or its club's organisers) set its line-up")
            % {"team": team.name}
        )
    error = ""
    if request.method == "POST":
        players = _posted_players(request, rnd.event.boards)
        try:
            lineups.lineup_submit(round_id=rnd.pk, team_id=team.pk, by=me, players=players)
        except ServiceError as exc:
            error = exc.detail
        else:
            messages.success(
                request,
                _("Line-up of %(team)s for round %(round)d saved") % {"team": team.name, "round": rnd.number},
            )
            return redirect("team-lineup", round_id=rnd.pk, slug=team.slug)
    context = _lineup_context(rnd, team, me)
    if error:
        context["error"] = error
        for board, chosen in zip(context["boards"], _posted_players(request, rnd.event.boards), strict=True):
            board["chosen"] = chosen
    return render(request, "teams/lineup.html", context, status=400 if error else 200)
