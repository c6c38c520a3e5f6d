"""Knockout rounds on tables of 2, 3 or 4: seeding, snake dealing, advancing.

A knockout event is planned up front by :mod:`.bracket` (which round has which
byes and table sizes, the final a single table); the services pair each round
with :func:`.bracket.bracket_round`, which deals players with
:func:`deal_snake`. :func:`knockout_round` below is one round on its own,
without a plan (table sizes from :func:`table_sizes`): it is not used to run
events, because rounds paired that way alone need not end with one winner.

**Seeding.** Entrants are seeded by rating (highest first; then score, then id
on equal ratings). Table sizes come from :func:`table_sizes`. Seeds are dealt
to the tables in *snake* order: seed 1 to table 1, seed 2 to table 2, ..., one
per table to the last table, then back from the last table to the first, and so
on, skipping tables that are full. Every table thus gets a fair share of strong
and weak seeds (8 players at 4 seats: seeds 1, 4, 5, 8 and 2, 3, 6, 7).

With two seats and an odd count, the best seed sits out the round (a bye) and
goes through as if they had won. With one entrant left there is nothing to play:
they are returned as the round's only bye.

Seat order at each table comes from :func:`assign_seats`, given the seeds in
order, so without a seat history the best seed takes seat 1.

**Advancing.** :func:`knockout_advancers` takes, from each table, the ``advance``
best players by rank (1 best), table after table, best first. Players with
equal ranks keep the order in which the table's mapping lists them, so when a
tie straddles the cut, the one listed first goes through: a caller who wants,
say, the earlier seat to win such a tie lists the players in seat order. A table
with ``advance`` players or fewer sends everyone through. Rounds follow each
other (seeded again each time) until a round has a single table: the final.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .seats import assign_seats
from .sizes import table_sizes
from .types import Entrant, Round, Table


def knockout_round(entrants: Sequence[Entrant], seats: int) -> Round:
    """One knockout round: tables of ``seats`` seeded in snake order by rating."""
    if seats not in (2, 3, 4):
        raise ValueError(f"tables have 2, 3 or 4 seats, not {seats}")
    ordered = sorted(entrants, key=lambda e: (-e.rating, -e.score, e.id))
    if len(ordered) < 2:
        return Round((), tuple(e.id for e in ordered))
    sizes, byes = table_sizes(len(ordered), seats)
    bye_ids = tuple(e.id for e in ordered[:byes])
    tables = deal_snake([e.id for e in ordered[byes:]], sizes)
    history = {e.id: e.seat_history for e in ordered}
    return Round(tuple(Table(assign_seats(t, history)) for t in tables), bye_ids)


def deal_snake(players: Sequence[int], sizes: Sequence[int]) -> list[list[int]]:
    """Deal ``players`` (best seed first) to tables of ``sizes`` in snake order, skipping full tables.

    >>> deal_snake([1, 2, 3, 4, 5, 6, 7, 8], [4, 4])
    [[1, 4, 5, 8], [2, 3, 6, 7]]
    """
    if len(players) > sum(sizes):
        raise ValueError(f"{len(players)} players do not fit tables of {list(sizes)}")
    tables: list[list[int]] = [[] for _ in sizes]
    forward = True
    i = 0
    while i < len(players):
        for t in range(len(sizes)) if forward else range(len(sizes) - 1, -1, -1):
            if i < len(players) and len(tables[t]) < sizes[t]:
                tables[t].append(players[i])
                i += 1
        forward = not forward
    return tables


def knockout_advancers(
    ranks_by_table: Sequence[Mapping[int, int]], advance: int, seed: Mapping[int, int] | None = None
) -> list[int]:
    """The best ``advance`` of each table, table by table, best first.

    Equal ranks go by ``seed`` (id → seed, 1 best) when given, else keep the mapping's order
    (see the module docstring).

    >>> knockout_advancers([{1: 2, 2: 1, 3: 2}, {4: 1, 5: 1}], 1)
    [2, 4]
    >>> knockout_advancers([{4: 1, 5: 1}], 1, seed={4: 2, 5: 1})
    [5]
    """
    if advance < 1:
        raise ValueError("at least one player must advance from each table")
    order = seed or {}
    out: list[int] = []
    for ranks in ranks_by_table:
        # sorted() is stable: without a seed, equal ranks keep the mapping's order.
        out.extend(sorted(ranks, key=lambda p: (ranks[p], order.get(p, len(order) + 1)))[:advance])
    return out
