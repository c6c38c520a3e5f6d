"""``manage.py explorer_index``: add the finished tables not yet counted to the explorer's index."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from analysis import explorer


class Command(BaseCommand):
    help = (
        "Add every finished table that is not yet in the explorer's counts (tables finished before the "
        "explorer existed, or while the task queue was away), in batches, each table in its own "
        "transaction. Safe to run at any time and more than once: a table is counted once."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--batch", type=int, default=200, help="tables read per batch (default 200)")
        parser.add_argument("--limit", type=int, default=None, help="stop after indexing this many tables")

    def handle(self, *args: Any, **options: Any) -> None:
        batch, limit = options["batch"], options["limit"]
        if batch < 1 or (limit is not None and limit < 1):
            raise CommandError("--batch and --limit must be at least 1")
        started = time.perf_counter()
        added = explorer.index_pending(batch=batch, limit=limit)
        seconds = time.perf_counter() - started
        self.stdout.write(f"{added} table(s) added to the explorer in {seconds:.1f} s")
