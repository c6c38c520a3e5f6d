"""Expire challenges and form queue tables: the in-process stand-in for the Celery beat job."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand
from django.db import close_old_connections

from tournaments.finished import housekeeping


class Command(BaseCommand):
    help = "Run the ladder housekeeping once, or every --interval seconds with --loop (no Redis needed)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--loop", action="store_true")
        parser.add_argument("--interval", type=float, default=10.0)

    def handle(self, *args: Any, **options: Any) -> None:
        while True:
            done = housekeeping()
            if any(done.values()):
                self.stdout.write(
                    f"ladders: {done['expired']} challenge(s) expired, {done['tables']} table(s) formed"
                )
            if not options["loop"]:
                return
            close_old_connections()
            time.sleep(options["interval"])
