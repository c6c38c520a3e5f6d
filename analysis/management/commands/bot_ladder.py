"""``manage.py bot_ladder``: play the bot levels against each other and add the games to their ratings."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from analysis import ladder
from analysis.tasks import bot_ladder


def progress(done: int, total: int) -> None:
    width = 30
    filled = width * done // max(total, 1)
    sys.stderr.write(f"\r  [{'#' * filled}{'.' * (width - filled)}] {done}/{total} games")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


class Command(BaseCommand):
    help = (
        "Play the bot levels against each other (windows of consecutive levels as wide as the table, "
        "seats rotated), rate them with TrueSkill and store the ratings; print each table. "
        "Re-running adds games to the stored ratings."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--game", choices=ladder.GAMES, action="append", help="this game (repeat for more; default: all)"
        )
        parser.add_argument(
            "--players", type=int, choices=ladder.SEATS, action="append",
            help="this many seats (repeat for more; default: 2, 3 and 4)",
        )  # fmt: skip
        parser.add_argument("--levels", default="1-8", help="levels to play, e.g. 1-8 or 2,4,6 (default 1-8)")
        parser.add_argument("--games", type=int, default=2, help="games per window of levels (default 2)")
        parser.add_argument(
            "--seed", type=int, help="the series' seed (default: one more than the games stored so far)"
        )
        parser.add_argument(
            "--queue",
            action="store_true",
            help="send the series to the slow queue (a task per window of levels) instead of playing here",
        )
        parser.add_argument(
            "--openings", type=int, default=0,
            help="random plies opening each game, each opening played in every seating (default 0: "
            "from the start position; --games must then be a multiple of the seats)",
        )  # fmt: skip
        parser.add_argument("--jobs", type=int, default=1, help="processes playing games at once (default 1)")
        parser.add_argument("--quiet", action="store_true", help="no progress bar")
        parser.add_argument(
            "--load", metavar="FILE",
            help="store the series FILE holds (written by bench/bot_ladder.py --save) instead of playing",
        )  # fmt: skip

    def handle(self, *args: Any, **options: Any) -> None:
        if options["load"]:
            self._load(Path(options["load"]))
            return
        try:
            levels = ladder.parse_levels(options["levels"])
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        if options["games"] < 1:
            raise CommandError("--games: at least 1")
        if not 0 <= options["openings"] <= ladder.MAX_OPENING:
            raise CommandError(f"--openings: 0 to {ladder.MAX_OPENING} random plies")
        games = options["game"] or list(ladder.GAMES)
        seats = sorted(set(options["players"] or ladder.SEATS))
        if len(levels) < min(seats):
            raise CommandError(f"{min(seats)} seats need at least {min(seats)} levels")
        if options["openings"] and any(options["games"] % n for n in seats):
            raise CommandError(
                "--games: with --openings, a multiple of every seat count played (each opening is played "
                "in every seating)"
            )
        for game in games:
            for players in seats:
                if len(levels) < players:
                    self.stdout.write(
                        f"{game} at {players} seats: skipped ({len(levels)} levels are too few)"
                    )
                    continue
                self._series(game, players, levels, options)

    def _load(self, path: Path) -> None:
        """Store every series of a saved ladder run; nothing is stored if any of them is bad."""
        try:
            series = ladder.load_series(path)
        except ValueError as exc:
            raise CommandError(f"--load: {exc}") from None
        ladder.store_all(series)
        for one in series:
            rows = [
                r for r in ladder.stored_rows(game=one.game, players=one.players) if r.level in one.levels
            ]
            head = (
                f"{one.game} at {one.players} seats: {len(one.results)} games loaded (seed {one.seed}); "
                "the stored ratings now:"
            )
            self.stdout.write(ladder.table_text(rows, title=head))
            self.stdout.write("")

    def _series(self, game: str, players: int, levels: list[int], options: dict[str, Any]) -> None:
        title = f"{game} at {players} seats"
        if options["queue"]:
            # One task per window of levels, so the slow queue's workers share a series.
            for window in ladder.windows(levels, players):
                bot_ladder.delay(
                    game, players, ",".join(map(str, window)), options["games"], options["seed"],
                    openings=options["openings"],
                )  # fmt: skip
            self.stdout.write(f"{title}: {len(ladder.windows(levels, players))} tasks sent to the slow queue")
            return
        seed = options["seed"]
        if seed is None:
            seed = ladder.next_seed(game=game, players=players)
        start = time.perf_counter()
        ladder.run(
            game=game, players=players, levels=levels, games=options["games"], seed=seed,
            progress=None if options["quiet"] else progress, jobs=options["jobs"],
            openings=options["openings"],
        )  # fmt: skip
        played = len(ladder.windows(levels, players)) * options["games"]
        elapsed = time.perf_counter() - start
        rows = [r for r in ladder.stored_rows(game=game, players=players) if r.level in levels]
        head = f"{title}: {played} games added (seed {seed}) in {elapsed:.1f} s; the stored ratings now:"
        self.stdout.write(ladder.table_text(rows, title=head))
        self.stdout.write("")
