"""Grant, withdraw or list the organiser role (``tournaments.organising.roles``) from the command line.

manage.py organiser grant alice [--bot-tables 500]
manage.py organiser revoke alice
manage.py organiser list            # organisers, then pending requests
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from common.errors import ServiceError
from games.models import Player
from tournaments.models import OrganiserRequest, OrganiserRole
from tournaments.organising import roles as organisers


class Command(BaseCommand):
    help = "Grant, withdraw or list the organiser role (lets a player create leagues and run bot matches)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("action", choices=["grant", "revoke", "list"])
        parser.add_argument("username", nargs="?", help="the player's account name (grant, revoke)")
        parser.add_argument("--bot-tables", type=int, help="bot-match tables allowed per 24 hours (grant)")

    def handle(
        self, *args: Any, action: str, username: str | None, bot_tables: int | None, **kw: Any
    ) -> None:
        if action == "list":
            for role in OrganiserRole.objects.select_related("player__user").order_by("player__display_name"):
                name = role.player.user.username
                self.stdout.write(f"organiser {name}: {role.bot_tables_per_day} bot-match tables a day")
            pending = OrganiserRequest.objects.filter(status=OrganiserRequest.Status.PENDING)
            for req in pending.select_related("player__user"):
                self.stdout.write(f"asks to organise: {req.player.user.username}: {req.message!r}")
            return
        if not username:
            raise CommandError(f"{action} needs the player's account name")
        player = Player.objects.filter(user__username__iexact=username).first()
        if player is None:
            raise CommandError(f"there is no account {username!r}")
        if bot_tables is not None and bot_tables < 0:
            raise CommandError("--bot-tables cannot be negative")
        try:
            if action == "grant":
                role = organisers.grant(player=player, by=None, bot_tables_per_day=bot_tables)
                self.stdout.write(
                    f"{username} is an organiser ({role.bot_tables_per_day} bot-match tables a day)"
                )
            else:
                organisers.revoke(player=player, by=None)
                self.stdout.write(f"{username} is no longer an organiser")
        except ServiceError as exc:
            raise CommandError(exc.detail) from None
