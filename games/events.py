"""Events other apps subscribe to; games never calls into them directly.

Every event is announced after the transaction that made it commits, through one path
(:func:`send_after_commit`, or :func:`announce_after_commit` when the payload is read after the
commit): each receiver runs on its own, and one that raises is logged and counted
(``pacru_event_receiver_failures``) while the others still run and the write that announced it
keeps its answer. A committed move or resignation never answers 500 because a listener failed.

Each event carries typed, plain data (frozen dataclasses) with what its listeners need, so that
a listener reads nothing of the announcer's tables in the common case:

* ``game_finished``: ``result``, a :class:`games.results.GameResult` (per seat: player, rank,
  markers and how the seat ended), and ``players``: seat number → :class:`PlayerRef`. Sent once,
  after the transaction that finished a table commits; receivers (ratings, tournaments) must be
  safe to run twice: they schedule idempotent work.
* ``table_changed``: ``table_id``, and ``players`` (ids) who took or left a seat.
* ``turn_started``: ``turn``, a :class:`TurnStarted`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.dispatch import Signal

from common import metrics

if TYPE_CHECKING:
    from .models import Player, Table

log = logging.getLogger(__name__)


class Event(Signal):
    """A signal with a name, so a failing receiver's log line and metric say which event."""

    def __init__(self, name: str):
        super().__init__()
        self.name = name


@dataclass(frozen=True)
class PlayerRef:
    """A player as events name them: their id, their name, and the account to tell (``user_id``;
    None for a house bot or a guest, who have nobody to notify)."""

    id: int
    name: str
    user_id: int | None = None

    @classmethod
    def of(cls, player: Player) -> PlayerRef:
        person = not (player.is_bot or player.is_guest)
        return cls(id=player.pk, name=player.display_name, user_id=player.user_id if person else None)


@dataclass(frozen=True)
class TurnStarted:
    """A human seat's turn began at a table (at ``ply``), under a clock of kind ``clock``
    ("correspondence", "untimed", …) that runs out at ``deadline`` (None: no clock runs)."""

    table_id: int
    game: str
    ply: int
    seat: int
    clock: str
    deadline: datetime | None

    @classmethod
    def of(cls, table: Table) -> TurnStarted:
        assert table.to_move is not None, "a turn needs a seat on turn"
        return cls(
            table_id=table.pk,
            game=table.game,
            ply=table.ply,
            seat=table.to_move,
            clock=(table.time_control or {}).get("kind", "untimed"),
            deadline=table.deadline,
        )


game_finished = Event("game_finished")

table_changed = Event("table_changed")
"""Something a viewer sees of a table may have changed (sent after commit by every write to a
table: moves, joins, starts, timeouts, results): ``table_id``, and ``players`` who took or left
a seat. Live pages listen."""

turn_started = Event("turn_started")
"""A seat's turn began (sent after commit, by every write that hands the turn to a human seat):
``turn``, a :class:`TurnStarted`. Notifications listen."""


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
