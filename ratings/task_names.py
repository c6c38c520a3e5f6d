"""The names of ratings' Celery tasks (registered in ``ratings.tasks``; sent by the receivers,
the organisers' corrections and the beat schedule)."""

from common.logging import table_task

RATE_TABLE = table_task("ratings.tasks.rate_table")
RATE_PENDING = "ratings.tasks.rate_pending"
RECOMPUTE_GAME = "ratings.tasks.recompute_game"
