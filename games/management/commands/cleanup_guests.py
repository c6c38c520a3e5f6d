"""Delete guest accounts idle longer than GUEST_TTL_HOURS, with their casual bot games."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from games.guests import cleanup_guests


class Command(BaseCommand):
    help = (
        "Delete guests idle longer than --hours (default GUEST_TTL_HOURS) whose tables are all casual "
        "games against bots (deleted with them); guests with anything worth keeping are kept."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--hours", type=float, default=None, help="idle time before a guest goes")
        parser.add_argument("--limit", type=int, default=500, help="guests read per query (all are read)")

    def handle(self, *args: Any, **options: Any) -> None:
        result = cleanup_guests(ttl_hours=options["hours"], limit=options["limit"])
        self.stdout.write(f"guests deleted: {result['deleted']}, kept: {result['kept']}")
