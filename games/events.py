"""Events other apps subscribe to; games never calls into them directly.

``game_finished`` is sent once, after the transaction that finished a table commits, with
``result``: a :class:`games.results.GameResult` (per seat: player, rank, markers and how the
seat ended). Receivers (ratings, tournaments) must be safe to run twice: they schedule
idempotent work.
"""

import logging

from django.db import transaction
from django.dispatch import Signal

game_finished = Signal()

table_changed = Signal()
"""Something a viewer sees of a table may have changed (sent after commit by every write to a
table: moves, joins, starts, timeouts, results): ``table_id``, and ``players`` who took or left
a seat. Live pages listen."""

turn_started = Signal()
"""A seat's turn began (sent after commit, by every write that hands the turn to a human seat):
``table_id``, ``ply``, ``seat`` and ``clock`` (the time control's kind). Notifications listen."""


def send_after_commit(signal: Signal, **kwargs: object) -> None:
    """Send ``signal`` once the current transaction commits; a failing receiver is logged and
    never fails the write that sent it."""

    def fire() -> None:
        for receiver, outcome in signal.send_robust(sender=None, **kwargs):
            if isinstance(outcome, Exception):
                logging.getLogger(__name__).error(
                    "receiver %s failed: %s",
                    getattr(receiver, "__qualname__", receiver),
                    outcome,
                    exc_info=outcome,
                )

    transaction.on_commit(fire)
