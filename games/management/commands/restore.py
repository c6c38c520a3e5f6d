"""Restore a backup of ``manage.py backup`` into an empty database (scripts/restore)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from common.backups import BackupError, restore


class Command(BaseCommand):
    help = (
        "Restore FILE (a .dump into PostgreSQL, a .sqlite3 into SQLite) into the database of "
        "DATABASE_URL, which must be empty, then print the rows of every table. Check the result "
        "with manage.py verify_games."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("file", type=Path, help="a pacru-<time>.dump or pacru-<time>.sqlite3 backup")
        parser.add_argument(
            "--force",
            action="store_true",
            help="restore into a database that has tables: what the backup contains replaces them",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            counts = restore(options["file"], force=options["force"])
        except (BackupError, OSError) as e:
            raise CommandError(f"restore failed: {e}") from e
        name = connection.settings_dict["NAME"]
        self.stdout.write(f"restored {options['file']} into {name}: {sum(counts.values())} rows")
        for table, rows in counts.items():
            self.stdout.write(f"  {table}: {rows}")
