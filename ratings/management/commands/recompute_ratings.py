"""Rebuild ratings and history from scratch by replaying every rated table in finishing order."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand

from games.models import GameKind
from ratings.models import Rating
from ratings.services import progress_bar, recompute


class Command(BaseCommand):
    help = "Replay all rated tables in finishing order and rebuild ratings and history (deterministic)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--game", choices=GameKind.values, action="append", help="only this game")
        parser.add_argument("--quiet", action="store_true", help="no progress bar")

    def handle(self, *args: Any, **options: Any) -> None:
        games = options["game"] or GameKind.values
        start = time.perf_counter()
        counts = recompute(games=games, progress=None if options["quiet"] else progress_bar)
        elapsed = time.perf_counter() - start
        for game, n in counts.items():
            players = Rating.objects.filter(game=game).count()
            self.stdout.write(f"{game}: {n} tables rated, {players} players")
        total = sum(counts.values())
        self.stdout.write(
            self.style.SUCCESS(
                f"recomputed {total} tables in {elapsed:.1f} s ({total / max(elapsed, 1e-9):.0f}/s)"
            )
        )
