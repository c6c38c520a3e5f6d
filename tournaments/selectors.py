"""Reads of leagues, tournaments and ladders: what the API and the pages show.

Services use these too (pairing needs the history of the rounds so far). Results come from
games' public result contract (``games.selectors.game_results``), never from its tables.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from games import selectors as games
from games.models import Player

from .models import League, Registration, Round, RoundTable, Tournament
from .standings import StandingRow, TableResult, standings


def is_organiser(league: League, player: Player) -> bool:
    return player.user.is_staff or league.organisers.filter(pk=player.pk).exists()


@dataclass
class History:
    """What the rounds so far (or up to a round) have been: who met whom, who sat where, the
    finished results and the byes."""

    meetings: dict[int, Counter[int]]
    seat_history: dict[int, list[int]]
    results: list[TableResult]
    byes: Counter[int]


def history(t: Tournament, after_round: int | None = None) -> History:
    """The history of an event's rounds in three queries, however many rounds and tables."""
    rounds = Round.objects.filter(tournament=t).order_by("number")
    if after_round is not None:
        rounds = rounds.filter(number__lte=after_round)
    round_list = list(rounds)
    links = list(
        RoundTable.objects.filter(round__in=round_list)
        .order_by("round__number", "number")
        .values_list("round__number", "table_id")
    )
    table_ids = [table_id for _, table_id in links]
    seated = games.seatings(table_ids)
    finished = games.game_results(table_ids)
    out = History({}, {}, [], Counter())
    for rnd in round_list:
        out.byes.update(rnd.byes)
    for number, table_id in links:
        order = seated.get(table_id, [])
        for i, p in enumerate(order):
            out.seat_history.setdefault(p, []).append(i + 1)
            out.meetings.setdefault(p, Counter()).update(q for q in order if q != p)
        result = finished.get(table_id)
        if result is not None:
            out.results.append(TableResult(round=number, ranks=result.ranks(), markers=result.markers()))
    return out


def current_standings(t: Tournament, after_round: int | None = None) -> list[StandingRow]:
    """Standings now, or as they stood after round ``after_round``."""
    players = list(Registration.objects.filter(tournament=t).values_list("player_id", flat=True))
    past = history(t, after_round)
    return standings(players, past.results, t.seats, byes=dict(past.byes), scale=t.points_scale)
