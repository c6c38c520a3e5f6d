"""Events other apps subscribe to; games never calls into them directly.

Every event is announced after the transaction that made it commits, through one path
(:func:`send_after_commit`, or :func:`announce_after_commit` when the payload is read after the
commit): each receiver runs on its own, and one that raises is logged and counted
(``pacru_event_receiver_failures``) while the others still run and the write that announced it
keeps its answer. A committed move or resignation never answers 500 because a listener failed.

``game_finished`` is sent once, after the transaction that finished a table commits, with
``result``: a :class:`games.results.GameResult` (per seat: player, rank, markers and how the
seat ended). Receivers (ratings, tournaments) must be safe to run twice: they schedule
idempotent work.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

from django.db import transaction
from django.dispatch import Signal

from common import metrics

log = logging.getLogger(__name__)


class Event(Signal):
    """A signal with a name, so a failing receiver's log line and metric say which event."""

    def __init__(self, name: str):
        super().__init__()
        self.name = name


game_finished = Event("game_finished")

table_changed = Event("table_changed")
"""Something a viewer sees of a table may have changed (sent after commit by every write to a
table: moves, joins, starts, timeouts, results): ``table_id``, and ``players`` who took or left
a seat. Live pages listen."""

turn_started = Event("turn_started")
"""A seat's turn began (sent after commit, by every write that hands the turn to a human seat):
``table_id``, ``ply``, ``seat`` and ``clock`` (the time control's kind). Notifications listen."""


def announce(signal: Signal, *, sender: Any = None, **kwargs: object) -> None:
    """Send ``signal`` now to every receiver, each isolated: a failure is logged (by Django's
    ``send_robust``, with its traceback) and counted, never raised to the caller."""
    event = getattr(signal, "name", type(signal).__name__)
    for receiver, outcome in signal.send_robust(sender=sender, **kwargs):
        if isinstance(outcome, Exception):
            name = getattr(receiver, "__qualname__", repr(receiver))
            metrics.receiver_failed(event, f"{getattr(receiver, '__module__', '')}.{name}")


def send_after_commit(signal: Signal, *, sender: Any = None, **kwargs: object) -> None:
    """Announce ``signal`` with ``kwargs`` once the current transaction commits (at once outside
    one); a failing receiver never fails the write that sent it."""
    transaction.on_commit(lambda: announce(signal, sender=sender, **kwargs))


def announce_after_commit(
    signal: Signal, payload: Callable[[], Mapping[str, object]], *, sender: Any = None
) -> None:
    """Like :func:`send_after_commit`, with a payload read once the transaction has committed
    (e.g. a finished table's result, read back from the committed rows)."""

    def fire() -> None:
        try:
            kwargs = payload()
        except Exception as exc:  # the write is committed: say so, never fail it
            metrics.receiver_failed(getattr(signal, "name", "event"), "payload")
            log.error(
                "event %s: its payload could not be read: %s",
                getattr(signal, "name", signal),
                exc,
                exc_info=exc,
            )
            return
        announce(signal, sender=sender, **kwargs)

    transaction.on_commit(fire)
