"""The pools' pairing wave, as a pure function over plain data (``tournaments.pools.wave`` applies it).

Rules, as lichess's pools have them, for tables of 2 to 4:

* **Rating range.** A player accepts table mates whose displayed rating is close to theirs; the
  gap they accept (:func:`rating_range`) starts narrow and widens every few seconds they wait, up
  to a cap. A table's rating spread (highest minus lowest) must fit the range of *every* player at
  it, so nobody is seated far from their level before they have waited for it.
* **Anchors.** The longest-waiting player is seated first (ties: the lower player id), with the
  closest-rated players who fit; then the next one still waiting, and so on. A player no table
  fits for waits for the next wave, and the players behind them are still tried.
* **Blocks.** Two players of a block pair (either direction) never sit at one table.
* **Rematches.** A player's ``avoid`` holds the other players of their last table: a table that
  seats two of them again (either one's ``avoid`` naming the other) is taken only when the anchor
  has no other table; then the one with the fewest such pairs.
* **Choice.** Among the tables that fit: fewest rematch pairs, then the smallest rating spread,
  then the longest total wait, then the lowest player ids. The result does not depend on the
  order ``waiting`` is given in.

The search looks at the :data:`CANDIDATES` closest-rated players for each anchor, so a wave of a
thousand players stays well under a second.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Collection, Sequence
from dataclasses import dataclass

#: The rating gap a player who has just joined accepts.
START_RANGE = 100.0
#: The range widens by this much every :data:`WIDEN_SECONDS` of waiting…
WIDEN_BY = 50.0
WIDEN_SECONDS = 5.0
#: …up to this gap.
MAX_RANGE = 500.0
#: How many of the closest-rated players are tried with each anchor.
CANDIDATES = 12


@dataclass(frozen=True)
class Waiting:
    """A player waiting in a pool, as the planner sees them."""

    player: int
    #: Displayed rating in the pool's game (the ratings' display scale, about 1500 at the start).
    rating: float
    #: Seconds in the pool.
    waited: float
    #: The other players of their last table (no immediate rematch while avoidable).
    avoid: frozenset[int] = frozenset()


def rating_range(waited: float) -> float:
    """The rating gap a player accepts after ``waited`` seconds: :data:`START_RANGE`, plus
    :data:`WIDEN_BY` for every full :data:`WIDEN_SECONDS`, at most :data:`MAX_RANGE`."""
    steps = int(max(waited, 0.0) // WIDEN_SECONDS)
    return min(START_RANGE + steps * WIDEN_BY, MAX_RANGE)


def _rematches(group: Sequence[Waiting]) -> int:
    return sum(1 for a, b in itertools.combinations(group, 2) if b.player in a.avoid or a.player in b.avoid)


def _blocked(group: Sequence[Waiting], blocks: set[frozenset[int]]) -> bool:
    return any(frozenset((a.player, b.player)) in blocks for a, b in itertools.combinations(group, 2))


def _fits(group: Sequence[Waiting]) -> bool:
    ratings = [w.rating for w in group]
    spread = max(ratings) - min(ratings)
    return all(spread <= rating_range(w.waited) for w in group)


def _choose(
    anchor: Waiting, candidates: list[Waiting], seats: int, blocks: set[frozenset[int]]
) -> tuple[Waiting, ...] | None:
    """The best table for ``anchor`` among ``candidates`` (see the module's *Choice*), or None."""
    best: tuple[Waiting, ...] | None = None
    best_key: tuple[int, float, float, tuple[int, ...]] | None = None
    for others in itertools.combinations(candidates, seats - 1):
        group = (anchor, *others)
        if not _fits(group) or _blocked(group, blocks):
            continue
        ratings = [w.rating for w in group]
        key = (
            _rematches(group),
            max(ratings) - min(ratings),
            -sum(w.waited for w in group),
            tuple(sorted(w.player for w in group)),
        )
        if best_key is None or key < best_key:
            best, best_key = group, key
    return best


def _candidates(
    anchor: Waiting, free: list[Waiting], blocks: set[frozenset[int]]
) -> tuple[list[Waiting], list[Waiting]]:
    """The players who could sit with ``anchor`` (within both one's range, not blocked with them),
    closest-rated first, in two lists: who would be no rematch for the anchor, and who would. A
    rematch with the anchor so never crowds a fresh table mate out of the search.

    ``free`` is sorted by (rating, player); the search walks out from the anchor's place in it and
    stops once it has :data:`CANDIDATES` fresh players (and every other one as close as the last).
    """
    reach = rating_range(anchor.waited)
    at = bisect.bisect_left(free, (anchor.rating, anchor.player), key=lambda w: (w.rating, w.player))
    below, above = at - 1, at
    near: list[Waiting] = []
    fresh = 0
    last = -1.0
    while below >= 0 or above < len(free):
        down = anchor.rating - free[below].rating if below >= 0 else float("inf")
        up = free[above].rating - anchor.rating if above < len(free) else float("inf")
        gap = min(down, up)
        if gap > reach or (fresh >= CANDIDATES and gap > last):
            break
        if down <= up:
            w, below = free[below], below - 1
        else:
            w, above = free[above], above + 1
        if w.player == anchor.player:
            continue
        if gap > rating_range(w.waited) or frozenset((anchor.player, w.player)) in blocks:
            continue
        near.append(w)
        last = gap
        if w.player not in anchor.avoid and anchor.player not in w.avoid:
            fresh += 1
    near.sort(key=lambda w: (abs(w.rating - anchor.rating), -w.waited, w.player))
    again = [w for w in near if w.player in anchor.avoid or anchor.player in w.avoid]
    return [w for w in near if w not in again][:CANDIDATES], again[:CANDIDATES]


def plan_wave(
    waiting: Sequence[Waiting], *, seats: int, blocks: Collection[tuple[int, int]] = ()
) -> list[list[int]]:
    """The tables to seat from the players ``waiting`` in one pool (see the module's rules).

    Returns the tables in the order they are formed, each a list of player ids: the anchor first,
    then the others closest-rated first (``assign_seats`` chooses the seat order).
    """
    if not 2 <= seats <= 4:
        raise ValueError(f"a pool's table seats 2 to 4 players, not {seats}")
    pairs = {frozenset(pair) for pair in blocks if len(set(pair)) == 2}
    order = sorted({w.player: w for w in waiting}.values(), key=lambda w: (-w.waited, w.player))
    free = sorted(order, key=lambda w: (w.rating, w.player))
    seated: set[int] = set()
    tables: list[list[int]] = []
    for anchor in order:
        if anchor.player in seated:
            continue
        if len(free) < seats:
            break
        fresh, again = _candidates(anchor, free, pairs)
        group = _choose(anchor, fresh, seats, pairs)
        if group is None or _rematches(group):
            # No table free of rematches among the fresh ones: try them with the anchor's last
            # table mates too (the fewest rematch pairs still wins).
            group = _choose(anchor, fresh + again, seats, pairs) or group
        if group is None:
            continue
        ids = [w.player for w in group]
        seated.update(ids)
        free = [w for w in free if w.player not in seated]
        tables.append(ids)
    return tables
