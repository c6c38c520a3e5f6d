"""Back up the whole database into a folder (scripts/backup; docs/operators/backups.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from common.backups import BackupError, backup


class Command(BaseCommand):
    help = (
        "Write a consistent backup of the database of DATABASE_URL into DIR: pacru-<UTC time>.dump "
        "(PostgreSQL, pg_dump custom format) or pacru-<UTC time>.sqlite3 (SQLite, online backup), "
        "complete or not at all, then delete all but the --keep newest."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("directory", type=Path, help="folder of the backups (made if missing)")
        parser.add_argument("--keep", type=int, default=14, help="backups kept in DIR (default 14)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            path = backup(options["directory"], keep=options["keep"])
        except (BackupError, OSError) as e:
            raise CommandError(f"backup failed: {e}") from e
        self.stdout.write(f"{path} ({path.stat().st_size} bytes)")
