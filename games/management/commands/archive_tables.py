"""Drop the stored positions of tables that ended long ago (docs/operators/backups.md, retention)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games.retention import archivable, archive_positions


class Command(BaseCommand):
    help = (
        "Set the stored position of every table that finished or was aborted more than --days ago "
        "to NULL, in batches. Nothing a reader sees changes: the table's page and API rebuild the "
        "position from the move log, which is kept forever. Celery beat does this daily "
        "(ARCHIVE_AFTER_DAYS)."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--days", type=float, default=None, help="age of the end, in days (default ARCHIVE_AFTER_DAYS)"
        )
        parser.add_argument(
            "--batch", type=int, default=None, help="tables per transaction (default RETENTION_BATCH)"
        )
        parser.add_argument("--dry-run", action="store_true", help="only count them")

    def handle(self, *args: Any, **options: Any) -> None:
        days, batch = options["days"], options["batch"]
        if (days is not None and days < 0) or (batch is not None and batch < 1):
            raise CommandError("--days must be 0 or more and --batch at least 1")
        if options["dry_run"]:
            self.stdout.write(f"{archivable(days).count()} table(s) would be archived")
            return
        done = archive_positions(days, batch=batch)
        self.stdout.write(f"{done} table(s) archived (positions dropped; move logs kept)")
