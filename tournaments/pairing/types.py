"""The plain data the pairing functions take and give back.

Everything here is immutable and free of Django: the service layer builds
:class:`Entrant` values from the database, calls a pairing function, and turns
the :class:`Round` it gets back into tables.

Player ids are plain integers. ``meetings`` counts how many times two players
already sat at the same table in this event (any table size); ``seat_history``
lists the seat numbers (1-based) a player took, round after round, and is what
seat balancing works from. Seat 1 moves first. ``small_tables`` counts the earlier
rounds of the event in which the player sat at a *small table*: one with fewer
players than the largest table of that round (a three-player table in a round
of 4 + 3 + 3); a 3–4 seat Swiss rotates the small tables by it. It defaults to
0, so a caller that does not track it gets no rotation. ``floated`` tells how
the player's most recent round went against their score group: +1 if they met
a player with a higher score then (floated up), -1 if a lower one or they had a
bye (floated down), 0 otherwise; a 2-seat Swiss avoids floating a player the
same way twice running. It defaults to 0 (no float known). ``last_seats``
counts the earlier rounds in which the player sat in the last seat of their
table (seat 2 of 2, 3 of 3, 4 of 4); a 3–4 seat Swiss rotates the first and last
seats by it. Left at None, it is read from ``seat_history`` as the seats at
least as high as the size of the table being seated.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Entrant:
    """A player as the pairing sees them before a round."""

    id: int  # player id
    score: float = 0.0  # tournament points so far
    rating: float = 0.0  # conservative rating: orders players within a score group
    meetings: Mapping[int, int] = field(default_factory=dict)  # opponent id -> times met at a table so far
    seat_history: tuple[int, ...] = ()  # seats (1-based) taken in earlier rounds, in order
    byes: int = 0  # byes received so far
    small_tables: int = 0  # earlier rounds at a table smaller than that round's largest (see above)
    floated: int = 0  # last round: +1 floated up, -1 floated down (or a bye), 0 neither (see above)
    last_seats: int | None = None  # earlier rounds in the last seat of the table (see above)


@dataclass(frozen=True)
class Table:
    """One table of a round."""

    players: tuple[int, ...]  # in seat order: players[0] takes seat 1 (moves first)


@dataclass(frozen=True)
class Round:
    """The tables of one round, and who sits it out."""

    tables: tuple[Table, ...]
    byes: tuple[int, ...] = ()  # players who sit out this round (2-seat events only)
