"""The names of tournaments' Celery tasks (registered in ``tournaments.tasks``; sent by the
receivers and the beat schedule)."""

from common.logging import table_task

TABLE_FINISHED = table_task("tournaments.tasks.table_finished")
LADDER_HOUSEKEEPING = "tournaments.tasks.ladder_housekeeping"
CALENDAR_TICK = "tournaments.tasks.calendar_tick"
PLAY_NOW_WAVE = "tournaments.tasks.play_now_wave"
