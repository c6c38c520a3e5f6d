"""Pairing for tables of 2–4 players: pure functions over plain data (no Django).

* :func:`table_sizes` – how a round's players split into tables (:mod:`.sizes`);
* :func:`swiss_round` – one Swiss round (:mod:`.swiss`; its rules in :mod:`.swiss_rules`, the
  two-seat search in :mod:`.swiss_matching`, tables of 3–4 in :mod:`.swiss_tables`);
* :func:`round_robin` – a whole round-robin schedule (:mod:`.round_robin`);
* :func:`knockout_round`, :func:`knockout_advancers` – knockout (:mod:`.knockout`);
* :func:`assign_seats` – seat order at a table (:mod:`.seats`).

Each module's docstring states its rules. The data types are in :mod:`.types`.
"""

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
