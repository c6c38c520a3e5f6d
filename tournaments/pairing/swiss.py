"""Swiss rounds for tables of 2, 3 or 4.

Players are ranked by score, then rating (then id, for determinism).

**Two seats.** With an odd count, the bye goes to the lowest-ranked player
among those with the fewest byes (so byes rotate). Pairing walks down the
ranking: each unpaired player meets the highest-ranked unpaired player they
have not met, looking within a window of candidates first (which keeps pairs
inside score groups and lets odd players float down one group). A player whose
every remaining opponent is a rematch takes the nearest one, and a repair pass
then swaps partners between pairs to remove such rematches where a swap makes
both pairs new. Work is linear in the players times the window, so a round of
1,000 players takes milliseconds. In each pair the player who has had seat 1
(the first move) less often gets it; on a tie, the lower-ranked one.

**Three or four seats.** Tables are filled from the top of the ranking: each
table starts with the best-ranked unseated player and takes, from a window of
the next candidates, the one who has met those already seated the fewest
times; then players are swapped between neighbouring tables (close in score)
while that lowers the repeated meetings. Seat order is then chosen by
:func:`assign_seats`.
"""

from __future__ import annotations

from collections.abc import Sequence

from .seats import assign_seats
from .sizes import table_sizes
from .types import Entrant, Round, Table

WINDOW = 24


def _rank(entrants: Sequence[Entrant]) -> list[Entrant]:
    return sorted(entrants, key=lambda e: (-e.score, -e.rating, e.id))


def _met(a: Entrant, b: Entrant) -> bool:
    return bool(a.meetings.get(b.id))


def swiss_round(entrants: Sequence[Entrant], seats: int) -> Round:
    ordered = _rank(entrants)
    if len(ordered) < 2:
        return Round((), tuple(e.id for e in ordered))
    if seats == 2:
        return _two_seats(ordered)
    sizes, _ = table_sizes(len(ordered), seats)
    history = {e.id: e.seat_history for e in ordered}
    remaining = list(ordered)
    groups: list[list[Entrant]] = []
    for size in sizes:
        table = [remaining.pop(0)]
        while len(table) < size:
            window = remaining[:WINDOW]
            pick = min(
                range(len(window)), key=lambda i: (sum(window[i].meetings.get(p.id, 0) for p in table), i)
            )
            table.append(remaining.pop(pick))
        groups.append(table)
    _spread(groups)
    return Round(tuple(Table(assign_seats([p.id for p in g], history)) for g in groups))


def _cost(group: list[Entrant]) -> int:
    """Repeated meetings at a table, squared so that one triple repeat weighs more than two doubles."""
    return sum(a.meetings.get(b.id, 0) ** 2 for i, a in enumerate(group) for b in group[i + 1 :])


def _spread(groups: list[list[Entrant]], reach: int = 2, passes: int = 4) -> None:
    """Swap players between neighbouring tables (similar scores) while that lowers repeats."""
    for _ in range(passes):
        improved = False
        for i in range(len(groups)):
            for j in range(i + 1, min(len(groups), i + 1 + reach)):
                gi, gj = groups[i], groups[j]
                base = _cost(gi) + _cost(gj)
                if not base:
                    continue
                for a in range(len(gi)):
                    for b in range(len(gj)):
                        gi[a], gj[b] = gj[b], gi[a]
                        new = _cost(gi) + _cost(gj)
                        if new < base:
                            base, improved = new, True
                        else:
                            gi[a], gj[b] = gj[b], gi[a]
        if not improved:
            return


def _two_seats(ordered: list[Entrant]) -> Round:
    byes: tuple[int, ...] = ()
    if len(ordered) % 2:
        fewest = min(e.byes for e in ordered)
        bye = next(e for e in reversed(ordered) if e.byes == fewest)
        ordered = [e for e in ordered if e is not bye]
        byes = (bye.id,)
    unpaired = list(ordered)
    pairs: list[list[Entrant]] = []
    while unpaired:
        a = unpaired.pop(0)
        pick = next((i for i, b in enumerate(unpaired[:WINDOW]) if not _met(a, b)), None)
        if pick is None:
            pick = next((i for i, b in enumerate(unpaired) if not _met(a, b)), 0)
        pairs.append([a, unpaired.pop(pick)])
    _repair(pairs)
    return Round(tuple(Table(_first_move(a, b, ordered)) for a, b in pairs), byes)


def _repair(pairs: list[list[Entrant]]) -> None:
    """Swap partners between pairs to undo rematches where both new pairs are fresh."""
    for i, pair in enumerate(pairs):
        if not _met(*pair):
            continue
        a, b = pair
        for j in sorted(range(len(pairs)), key=lambda j: abs(j - i)):
            if j == i:
                continue
            c, d = pairs[j]
            if not _met(a, c) and not _met(b, d):
                pairs[i], pairs[j] = [a, c], [b, d]
                break
            if not _met(a, d) and not _met(b, c):
                pairs[i], pairs[j] = [a, d], [b, c]
                break


def _first_move(a: Entrant, b: Entrant, ordered: list[Entrant]) -> tuple[int, int]:
    firsts_a = sum(1 for s in a.seat_history if s == 1)
    firsts_b = sum(1 for s in b.seat_history if s == 1)
    if firsts_a != firsts_b:
        return (a.id, b.id) if firsts_a < firsts_b else (b.id, a.id)
    rank = {e.id: i for i, e in enumerate(ordered)}
    return (a.id, b.id) if rank[a.id] > rank[b.id] else (b.id, a.id)
