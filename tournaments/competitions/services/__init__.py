"""Leagues and tournaments: every write, with its permission check, in one transaction.

Rounds are paired by the pure functions of :mod:`tournaments.pairing` and
played on ordinary tables created through ``games.services``. A round ends
when its last table finishes (the ``game_finished`` event, through a Celery
task); the next round is then paired at once, or the tournament ends. The modules, by role:

* :mod:`.setup` – leagues, creating an event, opening registration, the audit trail;
* :mod:`.entries` – registration, bots, check-in, withdrawals, byes asked for, late entries;
* :mod:`.rounds` – the start, seeds, pause and resume, pairing rounds, finished tables.
"""

from .entries import (
    MISSED_ROUNDS,
    check_in,
    displayed_rating,
    give_bye,
    late_entry,
    late_entry_answer,
    places_taken,
    register,
    register_bot,
    withdraw,
)
from .rounds import (
    next_round,
    pause,
    reopen_if_undecided,
    repair_refusal,
    repair_round,
    resume,
    set_seeds,
    start,
    table_finished,
)
from .setup import audit, league_create, league_join, registration_open, require_organiser, tournament_create

__all__ = [
    "MISSED_ROUNDS",
    "audit",
    "check_in",
    "displayed_rating",
    "give_bye",
    "late_entry",
    "late_entry_answer",
    "league_create",
    "league_join",
    "next_round",
    "pause",
    "places_taken",
    "register",
    "register_bot",
    "registration_open",
    "reopen_if_undecided",
    "repair_refusal",
    "repair_round",
    "require_organiser",
    "resume",
    "set_seeds",
    "start",
    "table_finished",
    "tournament_create",
    "withdraw",
]
