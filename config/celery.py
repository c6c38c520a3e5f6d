"""The Celery app. Its settings are the ``CELERY_*`` names in ``config.settings``."""

from __future__ import annotations

import os

from celery import Celery

from common.logging import install_celery_context
from common.metrics import install_celery_signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("pacru")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Every task's outcome counted (/metrics), and its lines tagged with the task and its table.
install_celery_signals()
install_celery_context()
