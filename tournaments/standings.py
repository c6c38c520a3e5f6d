"""Tournament standings: points per finishing place and tiebreaks (pure).

**Points.** A table of m players scores its places by a scale, best first:
two players: 1, 0 (a shared first place is a draw: ½ each); three: 2, 1, 0;
four: 3, 2, 1, 0. An event may set its own scale for full tables; tables
smaller than the event's seat count use the default scale of their size.
Players sharing a rank share the average of the points of the places they
cover (two players tied for second at a 4-player table get (2 + 1) / 2 each).
A bye scores a win unless the event says otherwise.

**Tiebreaks**, in this order.
Two seats: Buchholz (the sum of the opponents' points), median Buchholz
(Buchholz without the best and the worst opponent, when there are at least
three), Sonneborn-Berger (the points of the opponents beaten, plus half of
those drawn with), wins.
Three or four seats: the opponents' points (summed once per meeting), total
markers on the board at the end of the player's tables, and the average place
(lower is better: it sorts ascending).
Players share a place only when their points and every tiebreak are equal.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

DEFAULT_SCALES: dict[int, list[float]] = {2: [1.0, 0.0], 3: [2.0, 1.0, 0.0], 4: [3.0, 2.0, 1.0, 0.0]}


@dataclass(frozen=True)
class TableResult:
    round: int
    ranks: Mapping[int, int]
    markers: Mapping[int, int] = field(default_factory=dict)


@dataclass(frozen=True)
class StandingRow:
    player: int
    place: int
    points: float
    tiebreaks: dict[str, float]
    played: int
    wins: int


def place_points(
    seats: int, ranks: Mapping[int, int], scale: Sequence[float] | None = None
) -> dict[int, float]:
    """Points of each player at one table (``seats`` is the event's table size)."""
    size = len(ranks)
    points = list(scale) if scale is not None and size == seats else DEFAULT_SCALES[size]
    out = {}
    for player, rank in ranks.items():
        sharing = sum(1 for r in ranks.values() if r == rank)
        covered = points[rank - 1 : rank - 1 + sharing]
        out[player] = sum(covered) / len(covered)
    return out


def standings(
    players: Sequence[int],
    results: Sequence[TableResult],
    seats: int,
    byes: Mapping[int, int] | None = None,
    scale: Sequence[float] | None = None,
    bye_points: float | None = None,
) -> list[StandingRow]:
    if bye_points is None:
        bye_points = (list(scale) if scale else DEFAULT_SCALES[seats])[0]
    points: dict[int, float] = defaultdict(float)
    wins: dict[int, int] = defaultdict(int)
    played: dict[int, int] = defaultdict(int)
    markers: dict[int, int] = defaultdict(int)
    places: dict[int, list[int]] = defaultdict(list)
    games: dict[int, list[tuple[int, float]]] = defaultdict(list)  # opponent, score against them
    for player, count in (byes or {}).items():
        points[player] += bye_points * count
    for res in results:
        scored = place_points(seats, res.ranks, scale)
        best = min(res.ranks.values())
        alone = sum(1 for r in res.ranks.values() if r == best) == 1
        for p, rank in res.ranks.items():
            points[p] += scored[p]
            played[p] += 1
            places[p].append(rank)
            markers[p] += res.markers.get(p, 0)
            if rank == best and alone:
                wins[p] += 1
            for q, other in res.ranks.items():
                if q != p:
                    score = 1.0 if rank < other else 0.5 if rank == other else 0.0
                    games[p].append((q, score))
    rows = []
    for p in players:
        opp = [points[q] for q, _ in games[p]]
        if seats == 2:
            trimmed = sorted(opp)[1:-1] if len(opp) >= 3 else opp
            tiebreaks = {
                "buchholz": sum(opp),
                "median_buchholz": sum(trimmed),
                "sonneborn_berger": sum(points[q] * s for q, s in games[p]),
                "wins": float(wins[p]),
            }
        else:
            tiebreaks = {
                "opponents_points": sum(opp),
                "markers": float(markers[p]),
                "average_place": sum(places[p]) / len(places[p]) if places[p] else 0.0,
            }
        rows.append((p, points[p], tiebreaks))

    def key(row: tuple[int, float, dict[str, float]]) -> tuple[float, ...]:
        _, pts, tb = row
        return (-pts, *(v if k == "average_place" else -v for k, v in tb.items()))

    rows.sort(key=lambda r: (key(r), r[0]))
    out: list[StandingRow] = []
    for i, (p, pts, tb) in enumerate(rows):
        place = out[-1].place if out and key(rows[i - 1]) == key(rows[i]) else i + 1
        out.append(StandingRow(p, place, pts, tb, played[p], wins[p]))
    return out
