"""Replay every table's move log with the engine and check the stored position and result."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games.models import Table
from games.verify import verify_table


class Command(BaseCommand):
    help = (
        "Replay every started table from its move log and compare with the stored position, "
        "ply, status and result. Lists each mismatch; exits non-zero if there is any."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--table", type=int, action="append", help="only these table ids")

    def handle(self, *args: Any, **options: Any) -> None:
        tables = Table.objects.exclude(position=None).order_by("pk")
        if options["table"]:
            tables = tables.filter(pk__in=options["table"])
        checked = bad = 0
        for table in tables.iterator(chunk_size=200):
            checked += 1
            problems = verify_table(table)
            for problem in problems:
                self.stdout.write(f"table {table.pk}: {problem}")
            bad += bool(problems)
        summary = f"{checked} tables checked, {bad} with mismatches"
        if bad:
            raise CommandError(summary)
        self.stdout.write(self.style.SUCCESS(summary))
