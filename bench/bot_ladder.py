"""Benchmark: the bot levels against each other, in memory (prints the ladder's tables; no database).

For each game and seat count, the levels are cut into windows of consecutive levels as wide as the
table (1–2, 2–3, … at 2 seats; 1–4, 2–5, … at 4), each window plays ``--games`` games with its
seats rotated (``analysis.ladder.play_series``: the same games the ``manage.py bot_ladder`` command
plays for a seed), and TrueSkill rates the levels from scratch. Printed per game and seat count:

* each level's rating ± uncertainty on the players' display scale (60 × mu), among bots only;
* its games, and its points against the level one below in the games where both sat (1 for a
  place above it, ½ for a shared one: at 2 seats, its wins), as a share: the levels' aim is at
  least 70 % at 2 seats;
* its mean thinking time per move on this machine (a level's moves do not depend on the machine,
  its time does), and the series' wall time and mean plies per game.

    .venv/bin/python bench/bot_ladder.py                                   # Pacru, 2 seats, levels 1-8
    .venv/bin/python bench/bot_ladder.py --game pacru --players 2 4 --games 20 --jobs 2
    .venv/bin/python bench/bot_ladder.py --game shacru azacru --players 2 --levels 1-6 --games 10
    .venv/bin/python bench/bot_ladder.py --game pacru --players 2 --games 16 --jobs 2 --save ladder.json
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    from analysis import ladder

    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", nargs="+", choices=ladder.GAMES, default=["pacru"])
    parser.add_argument("--players", type=int, nargs="+", choices=ladder.SEATS, default=[2])
    parser.add_argument("--levels", default="1-8", help="e.g. 1-8, 2,4,6 (default 1-8)")
    parser.add_argument("--games", type=int, default=10, help="games per window of levels (default 10)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="processes playing games at once (default 1)")
    parser.add_argument(
        "--openings", type=int, default=0,
        help="random plies opening each game, each opening played in every seating (default 0: from "
        "the start position, as the shipped series; --games must then be a multiple of the seats)",
    )  # fmt: skip
    parser.add_argument("--quiet", action="store_true", help="no progress line")
    parser.add_argument(
        "--save", metavar="FILE",
        help="also write every series played (games, ranks, times) as JSON to FILE, which "
        "`manage.py bot_ladder --load FILE` stores as the ladder's ratings",
    )  # fmt: skip
    args = parser.parse_args()
    try:
        levels = ladder.parse_levels(args.levels)
    except ValueError as exc:
        parser.error(str(exc))
    if not 0 <= args.openings <= ladder.MAX_OPENING:
        parser.error(f"--openings: 0 to {ladder.MAX_OPENING} random plies")
    if args.openings and any(args.games % n for n in args.players):
        parser.error(
            "--games: with --openings, a multiple of every seat count "
            "(each opening is played in every seating)"
        )

    def progress(done: int, total: int) -> None:
        sys.stderr.write(f"\r  {done}/{total} games")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    saved: list[dict[str, object]] = []
    opened = f", {args.openings} random plies opening each game (paired)" if args.openings else ""
    print(
        f"levels {args.levels}, {args.games} games per window, seed {args.seed}{opened}, {args.jobs} job(s)"
    )
    for game in args.game:
        for players in args.players:
            if len(levels) < players:
                print(f"\n{game} at {players} seats: skipped ({len(levels)} levels are too few)")
                continue
            start = time.perf_counter()
            series = ladder.play_series(
                game=game, players=players, levels=levels, games=args.games, seed=args.seed,
                progress=None if args.quiet else progress, jobs=args.jobs, openings=args.openings,
            )  # fmt: skip
            wall = time.perf_counter() - start
            plies = sum(r.plies for r in series.results) / max(1, len(series.results))
            head = (
                f"\n{game} at {players} seats: {len(series.results)} games in {wall:.1f} s, "
                f"{plies:.0f} plies per game on average"
            )
            print(ladder.table_text(ladder.series_rows(series), title=head), flush=True)
            if args.save:
                saved.append(ladder.series_to_dict(series))
                Path(args.save).write_text(json.dumps(saved, indent=1) + "\n")


if __name__ == "__main__":
    main()
