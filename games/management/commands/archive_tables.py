"""Drop the stored positions of tables that ended long ago (the README's retention policy)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone

from games.models import Table


class Command(BaseCommand):
    help = (
        "Set the stored position of every table that finished or was aborted more than --days ago "
        "to NULL, in batches. Nothing a reader sees changes: the table's page and API rebuild the "
        "position from the move log, which is kept forever."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--days", type=float, default=30.0, help="age of the end, in days (default 30)")
        parser.add_argument("--batch", type=int, default=5000, help="tables per transaction (default 5000)")
        parser.add_argument("--dry-run", action="store_true", help="only count them")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["days"] < 0 or options["batch"] < 1:
            raise CommandError("--days must be 0 or more and --batch at least 1")
        cutoff = timezone.now() - timedelta(days=options["days"])
        ended = Table.objects.filter(
            status__in=[Table.Status.FINISHED, Table.Status.ABORTED],
            finished_at__lt=cutoff,
            position__isnull=False,
        )
        if options["dry_run"]:
            self.stdout.write(f"{ended.count()} table(s) would be archived")
            return
        done = 0
        while True:
            with transaction.atomic():
                ids = list(ended.order_by("finished_at").values_list("pk", flat=True)[: options["batch"]])
                if not ids:
                    break
                done += Table.objects.filter(pk__in=ids).update(position=None)
        self.stdout.write(f"{done} table(s) archived (positions dropped; move logs kept)")
