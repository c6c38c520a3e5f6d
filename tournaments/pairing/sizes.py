"""How many tables, of which sizes, for a number of players."""

from __future__ import annotations

import math


def table_sizes(players: int, seats: int) -> tuple[list[int], int]:
    """Table sizes (largest first) and the number of byes.

    Two seats: pairs, and one bye when the count is odd. Three or four seats:
    no byes; the fewest tables of at most ``seats`` players, their sizes
    differing by at most one (10 players at 4 → 4, 3, 3; 5 at 4 → 3, 2).
    """
    if seats not in (2, 3, 4):
        raise ValueError("tables have 2, 3 or 4 seats")
    if players < 2:
        raise ValueError("a round needs at least two players")
    if seats == 2:
        return [2] * (players // 2), players % 2
    tables = math.ceil(players / seats)
    base, extra = divmod(players, tables)
    return [base + 1] * extra + [base] * (tables - extra), 0
