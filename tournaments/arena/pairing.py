"""An arena's pairing wave, as a pure function over plain data (``tournaments.arena.wave`` applies it).

Whoever is free (not at a table, not paused, not withdrawn) is paired at once with other free
players, at full tables of the arena's size:

* **Order.** The free players are ranked by points, then rating (best first; then the longest
  waiting, then the lower id): neighbours in that order meet, so leaders meet leaders.
* **Who waits.** When the free players do not fill whole tables, the ones freed last (the shortest
  ``waited``) wait for the next wave, which comes a few seconds later with the players whose
  tables ended meanwhile.
* **No same opponents back to back.** A player's ``last_opponents`` are the other players of their
  last table. Each table is formed around the best-ranked player still free (the anchor) from the
  :data:`WINDOW` players ranked next: the choice with the fewest repeated pairs (either player's
  ``last_opponents`` naming the other), then the closest in the ranking. Then players are swapped
  between tables near one another in the ranking while a swap leaves fewer repeats (a greedy first
  table may leave the next one nothing but repeats). A repeat happens only when none of this
  avoids it (in a small arena, say).
* **Patience before a repeat.** While other players of the arena are still at their tables
  (``others_playing``), a table that would repeat a pair is not seated until all its players have
  waited :data:`REMATCH_PATIENCE` seconds: a wave holds few players (those whose tables just
  ended), and the next waves may bring others. ``bench/arena.py`` measured what it buys.

The result is deterministic and does not depend on the order ``free`` is given in.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

#: How many of the next-ranked players are tried with each anchor, per seat to fill.
WINDOW_PER_SEAT = 3
#: Tables this far apart in the ranking may swap players to avoid repeats.
SWAP_REACH = 2
#: Seconds, by table size, that players wait for other opponents before a table that repeats a
#: pair of their last tables is seated (only while others still play). ``bench/arena.py``, 200
#: players for 60 minutes: at 2 seats 20 s takes repeats from 30 % of tables to under 1 %; at 3-4
#: seats 45 s takes them from 70-87 % to a few %, for a few % more of the players' time waiting.
REMATCH_PATIENCE = {2: 20.0, 3: 45.0, 4: 45.0}


@dataclass(frozen=True)
class Free:
    """A free player of an arena, as the pairing sees them."""

    player: int
    points: int
    #: Displayed rating in the arena's game (the ratings' display scale, about 1500 at the start).
    rating: float
    #: Seconds since they became free.
    waited: float
    #: The other players of their last table.
    last_opponents: frozenset[int] = frozenset()


def _ranked(free: Sequence[Free]) -> list[Free]:
    return sorted(free, key=lambda f: (-f.points, -f.rating, -f.waited, f.player))


def _repeats(group: Sequence[Free]) -> int:
    return sum(
        1
        for a, b in itertools.combinations(group, 2)
        if b.player in a.last_opponents or a.player in b.last_opponents
    )


def plan_arena_tables(
    free: Sequence[Free], *, seats: int, others_playing: bool = False, patience: float | None = None
) -> list[list[int]]:
    """Tables of ``seats`` player ids, best-ranked table first, each in ranking order; the free
    players who fill no whole table are left out (they wait), and so are, while
    ``others_playing``, the players of a table repeating a pair who have not all waited
    ``patience`` seconds (default :data:`REMATCH_PATIENCE` for the size)."""
    if seats < 2:
        raise ValueError(f"tables have 2 to 4 seats, not {seats}")
    ranked = _ranked(free)
    extra = len(ranked) % seats
    if extra:
        position = {f.player: i for i, f in enumerate(ranked)}
        waiting = sorted(ranked, key=lambda f: (f.waited, -position[f.player]))[:extra]
        left_out = {f.player for f in waiting}
        ranked = [f for f in ranked if f.player not in left_out]
    order = {f.player: i for i, f in enumerate(ranked)}
    groups: list[list[Free]] = []
    window = WINDOW_PER_SEAT * (seats - 1)
    while ranked:
        anchor, rest = ranked[0], ranked[1:]
        best: tuple[int, int, tuple[int, ...]] | None = None
        for picks in itertools.combinations(range(min(window, len(rest))), seats - 1):
            cost = (_repeats([anchor, *(rest[i] for i in picks)]), sum(picks), picks)
            if best is None or cost < best:
                best = cost
                if cost[0] == 0 and cost[1] == sum(range(seats - 1)):
                    break  # the nearest neighbours, no repeat: nothing is better
        assert best is not None
        chosen = [anchor, *(rest[i] for i in best[2])]
        groups.append(chosen)
        taken = {f.player for f in chosen}
        ranked = [f for f in ranked if f.player not in taken]
    tables = _fewer_repeats(groups, order)
    if others_playing:
        wait = REMATCH_PATIENCE.get(seats, max(REMATCH_PATIENCE.values())) if patience is None else patience
        tables = [t for t in tables if not _repeats(t) or min(f.waited for f in t) >= wait]
    return [[f.player for f in table] for table in tables]


def _fewer_repeats(tables: list[list[Free]], order: dict[int, int]) -> list[list[Free]]:
    """Swap one player of a table with one of a table up to :data:`SWAP_REACH` further down while
    that leaves the two tables fewer repeats between them (first such swap in ranking order, until
    none is left: each swap lowers the total, so this ends)."""
    improved = True
    while improved:
        improved = False
        for i, j in itertools.combinations(range(len(tables)), 2):
            if j - i > SWAP_REACH or not (_repeats(tables[i]) or _repeats(tables[j])):
                continue
            before = _repeats(tables[i]) + _repeats(tables[j])
            for a, b in itertools.product(range(len(tables[i])), range(len(tables[j]))):
                one = [*tables[i][:a], tables[j][b], *tables[i][a + 1 :]]
                two = [*tables[j][:b], tables[i][a], *tables[j][b + 1 :]]
                if _repeats(one) + _repeats(two) < before:
                    tables[i] = sorted(one, key=lambda f: order[f.player])
                    tables[j] = sorted(two, key=lambda f: order[f.player])
                    improved = True
                    break
            if improved:
                break
    return tables
