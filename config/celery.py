"""The Celery app. Its settings are the ``CELERY_*`` names in ``config.settings``."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("pacru")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
