"""The player page: ratings and their history (``ratings.pages``), with the player's events and
ladder positions (tournaments' reads: ``web`` may read every app, ``ratings`` may not).

Everything is read in a fixed number of queries, however many events, rounds, tables and
ladder members there are: the final places of finished events are computed from the rounds of
all those events read at once, with the same standings functions the event page uses.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games import selectors as game_reads
from ratings.pages import player_context
from tournaments.models import Ladder, LadderMember, Registration, Round, RoundTable, Tournament
from tournaments.pairing import double_elim
from tournaments.pairing.bracket import RoundRecord, TableRecord, knockout_standings
from tournaments.selectors import ladder_places, unplayed_rounds
from tournaments.standings import TableResult, standings

#: Events listed on the page (the most recent registrations); a note says when there are more.
EVENTS_SHOWN = 12


@dataclass
class EventLine:
    tournament: Tournament
    state: str  # "registered", "checked in", "withdrawn", "playing round 3", "finished"
    place: int | None = None  # the final place, once the event is finished
    entrants: int = 0


@dataclass
class LadderLine:
    ladder: Ladder
    name: str
    position: int | None
    members: int


def player_page(request: HttpRequest, player_id: int) -> HttpResponse:
    context = player_context(request, player_id)
    player = context["player"]
    events, total = player_events(player.pk)
    context.update(
        events=events,
        events_total=total,
        events_more=total > len(events),
        ladders=ladder_positions(player.pk),
    )
    return render(request, "ratings/player.html", context)


# ---------------------------------------------------------------- events
def player_events(player_id: int, limit: int = EVENTS_SHOWN) -> tuple[list[EventLine], int]:
    """The player's latest events (drafts left out), newest first, with where they stand; and how
    many events the player has in all."""
    regs = (
        Registration.objects.filter(player_id=player_id)
        .exclude(tournament__status=Tournament.Status.DRAFT)
        .select_related("tournament", "tournament__league")
        .order_by("-tournament__created", "-tournament_id")
    )
    shown = list(regs[: limit + 1])
    total = len(shown) if len(shown) <= limit else regs.count()
    shown = shown[:limit]
    finished = [r.tournament for r in shown if r.tournament.status == Tournament.Status.FINISHED]
    places = final_places(finished, player_id)
    lines = []
    for r in shown:
        t = r.tournament
        line = EventLine(tournament=t, state=_state(t, r))
        if t.pk in places:
            line.place, line.entrants = places[t.pk]
        lines.append(line)
    return lines, total


def _state(t: Tournament, r: Registration) -> str:
    if r.status == Registration.Status.WITHDRAWN:
        return "withdrawn"
    if t.status == Tournament.Status.FINISHED:
        return "finished"
    if t.status == Tournament.Status.RUNNING:
        return f"playing: round {t.current_round}" + (" (paused)" if t.paused else "")
    return "checked in" if r.status == Registration.Status.CHECKED_IN else "registered"


def final_places(events: list[Tournament], player_id: int) -> dict[int, tuple[int, int]]:
    """Tournament id → (the player's final place, the number of players in the standings) for these
    finished events: the standings of ``tournaments.selectors.current_standings``, computed for all
    of them from six queries."""
    if not events:
        return {}
    ids = [t.pk for t in events]
    regs: dict[int, list[tuple[int, str, int, float]]] = defaultdict(list)
    for tid, pid, status, joined, missed in (
        Registration.objects.filter(tournament_id__in=ids)
        .order_by("registered_at", "pk")
        .values_list("tournament_id", "player_id", "status", "joined_round", "missed_points")
    ):
        regs[tid].append((pid, status, joined, missed))
    byes: dict[int, list[tuple[int, list[int]]]] = defaultdict(list)
    for tid, number, round_byes in (
        Round.objects.filter(tournament_id__in=ids)
        .order_by("number")
        .values_list("tournament_id", "number", "byes")
    ):
        byes[tid].append((number, list(round_byes or [])))
    links = list(
        RoundTable.objects.filter(round__tournament_id__in=ids)
        .order_by("round__number", "number")
        .values_list("round__tournament_id", "round__number", "table_id")
    )
    table_ids = [table_id for *_, table_id in links]
    seated = game_reads.seatings(table_ids)
    results = game_reads.game_results(table_ids)
    tables: dict[tuple[int, int], list[TableRecord]] = defaultdict(list)
    table_results: dict[int, list[TableResult]] = defaultdict(list)
    for tid, number, table_id in links:
        result = results.get(table_id)
        ranks = result.ranks() if result is not None else None
        tables[tid, number].append(TableRecord(tuple(seated.get(table_id, [])), ranks))
        if result is not None:
            table_results[tid].append(TableResult(round=number, ranks=ranks or {}, markers=result.markers()))
    out = {}
    for t in events:
        entries = regs.get(t.pk, [])
        players = [pid for pid, *_ in entries]
        rounds = [RoundRecord(n, tuple(b), tuple(tables.get((t.pk, n), []))) for n, b in byes.get(t.pk, [])]
        places = _places(t, entries, players, rounds, table_results.get(t.pk, []))
        if player_id in places:
            out[t.pk] = (places[player_id], len(places))
    return out


def _places(
    t: Tournament,
    entries: list[tuple[int, str, int, float]],
    players: list[int],
    rounds: list[RoundRecord],
    results: list[TableResult],
) -> dict[int, int]:
    """Player id → place, as ``tournaments.selectors`` computes the standings of ``t``."""
    if t.format == Tournament.Format.KNOCKOUT:
        seeds = t.seeds if t.seeds is not None else players
        last = t.rounds or max((r.number for r in rounds), default=0)
        return {r.player: r.place for r in knockout_standings(players, seeds, rounds, t.advance, last)}
    if t.format == Tournament.Format.DOUBLE_ELIMINATION:
        left = {pid for pid, status, *_ in entries if status == Registration.Status.WITHDRAWN}
        seeds = t.seeds if t.seeds is not None else []
        active = [p for p in [*seeds, *players] if p not in left]
        return {r.player: r.place for r in double_elim.standings(players, seeds, rounds, active)}
    late = {pid: (joined, missed) for pid, _, joined, missed in entries if joined > 1}
    unplayed = unplayed_rounds(t, rounds, late)
    rows = standings(players, results, t.seats, scale=t.points_scale, unplayed=unplayed, rounds=t.rounds)
    return {r.player: r.place for r in rows}


# ---------------------------------------------------------------- ladders
def ladder_positions(player_id: int) -> list[LadderLine]:
    """The ladders the player is on, by name, with their place (as ``tournaments.selectors.
    ladder_order`` orders the members) and the number of members (three queries)."""
    mine = list(LadderMember.objects.filter(player_id=player_id).select_related("ladder", "ladder__league"))
    if not mine:
        return []
    places = ladder_places([m.ladder for m in mine], player_id)
    lines = []
    for m in mine:
        position, count = places[m.ladder_id]
        lines.append(LadderLine(ladder=m.ladder, name=str(m.ladder), position=position, members=count))
    return sorted(lines, key=lambda line: line.name.lower())
