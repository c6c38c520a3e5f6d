"""Run the clock sweep in a loop: the in-process stand-in for Celery beat and a worker."""

from __future__ import annotations

import logging
import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import close_old_connections
from django.utils.module_loading import import_string

from games.botplay import keep_exhibition, run_bot_turns
from games.guests import cleanup_guests
from games.services import sweep_overdue


class Command(BaseCommand):
    help = (
        "Apply overdue timeouts every --interval seconds (default CLOCK_SWEEP_SECONDS). "
        "For a local run without Redis; with Redis, Celery beat schedules the same sweep."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--interval", type=float, default=None)
        parser.add_argument("--once", action="store_true", help="sweep once and exit")
        parser.add_argument("--bots", action="store_true", help="also play the bots on turn (no Redis)")
        parser.add_argument(
            "--exhibition", action="store_true", help="keep one bot-only game running to watch (demo)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        interval = options["interval"] or settings.CLOCK_SWEEP_SECONDS
        next_guest_cleanup = 0.0  # hourly, as Celery beat's guest-cleanup
        while True:
            if time.monotonic() >= next_guest_cleanup:
                next_guest_cleanup = time.monotonic() + 3600
                removed = cleanup_guests()
                if removed["deleted"]:
                    self.stdout.write(f"guest cleanup: {removed['deleted']} stale guest(s) deleted")
            applied = sweep_overdue()
            if applied:
                self.stdout.write(f"clock sweep: {applied} timeout(s) applied")
            if options["exhibition"]:
                keep_exhibition()
            if options["bots"]:
                run_bot_turns()
            for name in settings.LOCAL_SWEEPS:  # other apps' periodic work (mail, notifications)
                try:
                    import_string(name)()
                except Exception:
                    logging.getLogger(__name__).exception("local sweep %s failed", name)
            if options["once"]:
                return
            close_old_connections()
            time.sleep(interval)
