"""Pairing for tables of 2–4: pure functions over plain data, tested without a database."""

from .knockout import knockout_advancers, knockout_round
from .round_robin import round_robin
from .seats import assign_seats
from .sizes import table_sizes
from .swiss import swiss_round
from .types import Entrant, Round, Table

__all__ = [
    "Entrant",
    "Round",
    "Table",
    "assign_seats",
    "knockout_advancers",
    "knockout_round",
    "round_robin",
    "swiss_round",
    "table_sizes",
]
