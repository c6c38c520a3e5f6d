"""Start a series of tables between bots; without Redis, play them here and print the results."""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games import dispatch, services
from games.botplay import run_bot_turns
from games.housebots import bot_accounts
from games.models import GameKind, Player, Table


class Command(BaseCommand):
    help = (
        "Create --games tables between the given bot accounts (seats rotated) and let them play: "
        "through Celery workers when REDIS_URL is set, here and now otherwise."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--game", choices=GameKind.values, default="pacru")
        parser.add_argument("--bots", default="greedy-bot,random-bot", help="bot usernames, one per seat")
        parser.add_argument("--games", type=int, default=2)
        parser.add_argument("--rated", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        accounts = bot_accounts()
        names = [n.strip() for n in options["bots"].split(",") if n.strip()]
        bots: list[Player] = []
        for name in names:
            player = accounts.get(name) or Player.objects.filter(user__username=name, is_bot=True).first()
            if player is None:
                raise CommandError(f"{name!r} is not a bot account (known: {', '.join(accounts)})")
            bots.append(player)
        if not 2 <= len(bots) <= 4 or len({b.pk for b in bots}) != len(bots):
            raise CommandError("name 2 to 4 different bots")
        tables = []
        for g in range(options["games"]):
            order = bots[g % len(bots) :] + bots[: g % len(bots)]
            table = services.table_create(
                creator=order[0], game=options["game"], players=len(order), rated=options["rated"], join=False
            )
            for seat, bot in enumerate(order, start=1):
                services.seat_join(table_id=table.pk, player=bot, seat=seat)
            tables.append(table.pk)
        self.stdout.write(f"started tables {', '.join(map(str, tables))}")
        if not dispatch.in_process():
            self.stdout.write("the bot workers (queue 'bots') play them; follow them on the site")
            return
        while Table.objects.filter(pk__in=tables, status=Table.Status.ACTIVE).exists():
            run_bot_turns(limit=len(tables))
        wins: Counter[str] = Counter()
        for table in Table.objects.filter(pk__in=tables):
            winner = table.seats.filter(number=table.winner_seat).first() if table.winner_seat else None
            wins[winner.player.user.username if winner else "no single winner"] += 1
        for name, count in wins.most_common():
            self.stdout.write(f"{name}: {count}")
