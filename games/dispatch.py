"""Background work that a committed change of a table asks for: one place decides how it runs.

With a broker (``REDIS_URL`` set) the work goes to Celery after the transaction commits: a clock
check at the deadline (queue ``clocks``) and the bot's turn (queue ``bots``). Without one
(``scripts/run``'s default, tasks eager) nothing is queued: the in-process runner
(``manage.py clock_sweeper``) sweeps the clocks and plays the bots every second.

Tasks are sent by name, so the services that schedule them never import the task modules
(which import the services). A send that fails (the broker down) is logged and left to the sweeps
(common.tasks): the write that asked for it has committed and still succeeds.
"""

from __future__ import annotations

from datetime import datetime

from celery import current_app
from django.db import transaction

from common.tasks import send

from .task_names import BOT_MOVE, CLOCK_CHECK


def in_process() -> bool:
    """Whether background work runs in this process (no broker) rather than on Celery workers."""
    return bool(current_app.conf.task_always_eager)


def clock_check_after_commit(table_id: int, actions: int, due: datetime) -> None:
    """Check the table's clock at ``due`` if it is still at ``actions`` actions then."""
    if in_process():
        return
    transaction.on_commit(lambda: send(CLOCK_CHECK, (table_id, actions), eta=due))


def bot_turn_after_commit(table_id: int, actions: int) -> None:
    """Let the bot on turn play, if the table is still at ``actions`` actions."""
    if in_process():
        return
    transaction.on_commit(lambda: send(BOT_MOVE, (table_id, actions)))


def bot_turn_now(table_id: int, actions: int) -> bool:
    """Send the bot's turn at once (the bot sweep, outside any transaction)."""
    return send(BOT_MOVE, (table_id, actions))
