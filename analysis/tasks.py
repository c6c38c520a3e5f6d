"""The analysis app's Celery tasks (the slow queue: ``analysis.tasks.*`` in ``CELERY_TASK_ROUTES``)."""

from __future__ import annotations
