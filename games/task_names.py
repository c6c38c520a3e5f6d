"""The names of games' Celery tasks: the tasks are registered under them (``games.tasks``) and
every caller (dispatch, the beat schedule, benches) sends by them, so a rename is one edit."""

from common.logging import table_task

CLOCK_CHECK = table_task("games.tasks.clock_check")
CLOCK_SWEEP = "games.tasks.clock_sweep"
BOT_MOVE = table_task("games.tasks.bot_move")
BOT_SWEEP = "games.tasks.bot_sweep"
GUEST_CLEANUP = "games.tasks.guest_cleanup"
END_ABANDONED_GUEST_TABLES = "games.tasks.end_abandoned_guest_tables"
ARCHIVE_POSITIONS = "games.tasks.archive_positions"
COMPACT_METRICS = "games.tasks.compact_metrics"
