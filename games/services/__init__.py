"""Every write to players, tables, seats and moves: one function per action.

Each action is one transaction that locks the table row (``select_for_update``), asks the
engine, writes, and dispatches side effects only ``on_commit``. A refused action raises a
:class:`common.errors.ServiceError` and changes nothing. The modules, by role:

* :mod:`.players` – registering and renaming players;
* :mod:`.tables` – opening tables, seats, bot invitations, the start, resignations;
* :mod:`.moves` – submitting a move (the hot path);
* :mod:`.timeouts` – timeouts and first-move aborts, applied exactly once;
* :mod:`.records` – game records out and in;
* :mod:`.rematch` – a rematch of a finished table;
* :mod:`.transitions` – what they share: locking, recording the engine's new state, finishing.
"""

from ..selectors import current_state, initial_state
from .adjudicate import table_adjudicate, table_correct_result
from .moves import MoveOutcome, move_submit, normalize
from .players import display_name_check, guest_create, player_register, player_rename, username_check
from .records import record_text, table_import_record
from .rematch import table_rematch
from .tables import bot_invite, bot_invite_account, game_resign, seat_join, seat_leave, table_create
from .timeouts import apply_due_timeouts, clock_timeout_apply, sweep_overdue
from .transitions import grace

__all__ = [
    "MoveOutcome",
    "apply_due_timeouts",
    "bot_invite",
    "bot_invite_account",
    "clock_timeout_apply",
    "current_state",
    "display_name_check",
    "game_resign",
    "grace",
    "guest_create",
    "initial_state",
    "move_submit",
    "normalize",
    "player_register",
    "player_rename",
    "record_text",
    "seat_join",
    "seat_leave",
    "sweep_overdue",
    "table_adjudicate",
    "table_correct_result",
    "table_create",
    "table_import_record",
    "table_rematch",
    "username_check",
]
