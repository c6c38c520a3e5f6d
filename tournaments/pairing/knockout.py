"""Knockout with tables of k: seed by rating in snake order; the top m of each table advance.

Round after round the advancers are seeded again, until a round has a single
table: the final. With two seats and an odd count, the best seeds get the
byes (they advance without playing).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .sizes import table_sizes
from .types import Entrant, Round, Table


def knockout_round(entrants: Sequence[Entrant], seats: int) -> Round:
    ordered = sorted(entrants, key=lambda e: (-e.rating, -e.score, e.id))
    if len(ordered) < 2:
        return Round((), tuple(e.id for e in ordered))
    sizes, byes = table_sizes(len(ordered), seats)
    bye_ids = tuple(e.id for e in ordered[:byes])
    playing = ordered[byes:]
    tables: list[list[int]] = [[] for _ in sizes]
    order = list(range(len(sizes)))
    i = 0
    while i < len(playing):
        for t in order:
            if i < len(playing) and len(tables[t]) < sizes[t]:
                tables[t].append(playing[i].id)
                i += 1
        order.reverse()
    return Round(tuple(Table(tuple(t)) for t in tables), bye_ids)


def knockout_advancers(ranks_by_table: Sequence[Mapping[int, int]], advance: int) -> list[int]:
    """The best ``advance`` of each table by rank; equal ranks keep the table's seat order."""
    out: list[int] = []
    for ranks in ranks_by_table:
        order = sorted(ranks, key=lambda p: (ranks[p], list(ranks).index(p)))
        out.extend(order[:advance])
    return out
