"""The analysis app's Celery tasks (the slow queue: ``analysis.tasks.*`` in ``CELERY_TASK_ROUTES``)."""

from __future__ import annotations

from celery import shared_task


# ------------------------------------------------------------------ the bot ladder (analysis.ladder)
@shared_task(name="analysis.tasks.bot_ladder", acks_late=False, soft_time_limit=86_400, time_limit=86_460)
def bot_ladder(
    game: str, players: int, levels: str = "1-8", games: int = 2, seed: int | None = None, openings: int = 0
) -> dict[str, float]:
    """Play one ladder series (a game, a seat count) and add its games to the stored ratings; each
    level's mu after it. Acknowledged on receipt (``acks_late=False``, unlike the project's other
    tasks): a run cut short by a lost worker is simply not counted, where a repeated one would
    count its games twice. A series of the strongest levels takes hours: it has a day."""
    from . import ladder  # here: each part of the app imports its own module in its task

    rows = ladder.run(
        game=game,
        players=players,
        levels=ladder.parse_levels(levels),
        games=games,
        seed=seed,
        openings=openings,
    )
    return {str(row.level): row.mu for row in rows}


# ------------------------------------------------------------------ the explorer (analysis.explorer)
@shared_task(name="analysis.tasks.explorer_index", acks_late=True)
def explorer_index(table_id: int) -> bool:
    """A table finished: add its moves to the explorer's index (once: a repeated task, or one
    meeting the backfill, adds nothing); whether this run added them."""
    # Imported here, as each part of this shared module does: a part's modules stay its own.
    from . import explorer

    return explorer.index_table(table_id=table_id)


# ------------------------------------------------------------------ game analysis (analysis.analyse)
@shared_task(name="analysis.tasks.analysis_sweep", acks_late=True)
def analysis_sweep() -> int:
    """Periodic (beat): send the tasks of lost analyses again (``analyse.resend_lost``); how many."""
    from . import analyse  # here: analyse sends the tasks this one runs (a top-level import is a cycle)

    return analyse.resend_lost()


@shared_task(name="analysis.tasks.analyse_table", acks_late=True, soft_time_limit=3600, time_limit=3660)
def analyse_table(analysis_id: int) -> bool:
    """Compute one requested analysis (``Analysis`` id), exactly once: a duplicate task finds it
    running or done and returns; whether this run stored it. The limits are ``analyse.TIME_LIMIT``."""
    from . import analyse  # here: analyse sends this task (an import at the top would be a cycle)

    return analyse.run_analysis(analysis_id=analysis_id)
