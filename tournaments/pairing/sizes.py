"""How many tables a round needs, and of which sizes.

**Two seats.** Players are paired; with an odd count one player sits out (a
bye), so the answer is ``players // 2`` tables of two and ``players % 2`` byes.

**Three or four seats.** Nobody sits out. The round uses the fewest tables that
can hold everyone (``ceil(players / seats)``), and shares the players out as
evenly as possible, so table sizes differ by at most one; the larger tables come
first (they are the top tables of a Swiss round). Because the count of tables
is the fewest possible, no table has fewer than two players: 5 players at
4 seats give 3 + 2, 10 give 4 + 3 + 3, 7 players at 3 seats give 3 + 2 + 2.

Fewer than two players, or a seat count outside 2..4, is a ``ValueError``.
"""

from __future__ import annotations

import math


def table_sizes(players: int, seats: int) -> tuple[list[int], int]:
    """Table sizes (largest first) and the number of byes for ``players`` at tables of ``seats``.

    >>> table_sizes(10, 4)
    ([4, 3, 3], 0)
    >>> table_sizes(7, 2)
    ([2, 2, 2], 1)
    """
    if seats not in (2, 3, 4):
        raise ValueError(f"tables have 2, 3 or 4 seats, not {seats}")
    if players < 2:
        raise ValueError(f"a round needs at least two players, not {players}")
    if seats == 2:
        return [2] * (players // 2), players % 2
    tables = math.ceil(players / seats)
    base, extra = divmod(players, tables)
    # base >= 2: with t = ceil(p / s) tables and p >= 2, p / t > s - 1 >= 2 unless t == 1 (then base = p).
    return [base + 1] * extra + [base] * (tables - extra), 0
