"""Demo data for a local run: players, and tables open, in progress and finished."""

from __future__ import annotations

import random
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.utils import timezone
from rest_framework.authtoken.models import Token

from accounts.models import Account
from engine.playout import random_step
from games import services
from games.housebots import bot_accounts
from games.models import Player, Table
from tournaments import ladders
from tournaments.competitions import services as events

DEMO_PASSWORD = "demo-pass-2026"
DEMO_PLAYERS = [("alice", "Alice"), ("bob", "Bob"), ("carol", "Carol"), ("dave", "Dave")]


class Command(BaseCommand):
    help = "Create demo players and tables (does nothing if they exist already)."

    def handle(self, *args: Any, **options: Any) -> None:
        User = get_user_model()
        if User.objects.filter(username="alice").exists():
            self.stdout.write("demo data present")
            return
        rng = random.Random(2026)
        players = {
            name: services.player_register(username=name, password=DEMO_PASSWORD, display_name=display)
            for name, display in DEMO_PLAYERS
        }
        organiser = User.objects.create_superuser("organiser", password=DEMO_PASSWORD)
        services.player_rename(player=organiser.player, display_name="Organiser")
        for player in players.values():
            Token.objects.get_or_create(user=player.user)
            # Confirmed demo addresses: their notification mails land in EMAIL_FILE_PATH (var/mail).
            player.user.email = f"{player.user.username}@example.org"
            player.user.save(update_fields=["email"])
            Account.objects.update_or_create(user=player.user, defaults={"email_verified_at": timezone.now()})
            Player.objects.filter(pk=player.pk).update(email_verified=True)
        a, b, c, d = (players[n] for n, _ in DEMO_PLAYERS)

        services.table_create(
            creator=a, game="pacru", players=2, time_control={"kind": "fischer", "base": 600, "increment": 5}
        )
        services.table_create(creator=c, game="azacru", players=3)
        corr = services.table_create(
            creator=c,
            game="pacru",
            players=2,
            time_control={"kind": "correspondence", "days": 3, "bank_days": 7},
        )
        self._play(rng, corr, [d], plies=6)
        self._play(rng, services.table_create(creator=a, game="pacru", players=2), [b], plies=14)
        self._play(rng, services.table_create(creator=b, game="pacru", players=3), [c, d], plies=20)
        self._play(rng, services.table_create(creator=d, game="shacru", players=2), [a], plies=10)
        self._play(rng, services.table_create(creator=a, game="azacru", players=2), [c], plies=None)
        self._play(rng, services.table_create(creator=b, game="pacru", players=4), [a, c, d], plies=None)
        self._club(organiser.player, list(players.values()))
        # Bots: a live game between two of them (the local runner plays a move a second), and a
        # table where a bot waits for a human opponent.
        bots = bot_accounts()
        live = services.table_create(creator=bots["random-bot"], game="pacru", players=2, rated=False)
        services.seat_join(table_id=live.pk, player=bots["greedy-bot"])
        services.table_create(creator=bots["greedy-bot"], game="pacru", players=2, rated=False)
        self.stdout.write(
            self.style.SUCCESS(f"demo data created: players {', '.join(players)} and organiser")
        )

    def _club(self, organiser: Player, members: list[Player]) -> None:
        """A league with events in every state and two ladders: a Swiss open for registration, a
        round robin half played, a knockout played to the end, a position ladder with a challenge
        waiting for Alice's answer, and a three-player ladder with someone in its queue."""
        a, b, c, _ = members
        league = events.league_create(
            organiser=organiser,
            name="Demo Club",
            slug="demo-club",
            description="A club for trying the service: events in every state and two ladders.",
        )
        swiss = events.tournament_create(
            organiser=organiser,
            league=league,
            name="Demo Club Swiss",
            game="pacru",
            seats=2,
            rounds=3,
            time_control={"kind": "fischer", "base": 600, "increment": 5},
        )
        for player in members:
            events.register(tournament_id=swiss.pk, player=player)
        correspondence = {"kind": "correspondence", "days": 3, "bank_days": 7}
        robin = events.tournament_create(
            organiser=organiser,
            league=league,
            name="Demo Club Round Robin",
            game="shacru",
            seats=2,
            format="round_robin",
            time_control=correspondence,
        )
        cup = events.tournament_create(
            organiser=organiser,
            league=league,
            name="Demo Club Cup",
            game="pacru",
            seats=2,
            format="knockout",
            time_control=correspondence,
        )
        for event in (robin, cup):
            for player in members:
                events.register(tournament_id=event.pk, player=player)
            events.start(tournament_id=event.pk, by=organiser)
        # The round robin: two rounds played, the third being played. The cup: played out.
        self._play_rounds(robin.pk, 2)
        self._play_rounds(cup.pk, 9)

        ladder = ladders.ladder_create(
            organiser=organiser, league=league, game="pacru", name="Demo Club ladder", kind="position"
        )
        for player in members:
            ladders.ladder_join(ladder=ladder, player=player)
        ladders.challenge_create(ladder=ladder, challenger=b, challenged=a)
        trio = ladders.ladder_create(
            organiser=organiser, league=league, game="azacru", seats=3, name="Demo Club Azacru trios"
        )
        for player in members:
            ladders.ladder_join(ladder=trio, player=player)
        ladders.queue_join(ladder=trio, player=c)

    def _play_rounds(self, tournament_id: int, rounds: int) -> None:
        """Finish the running round's tables (the lower seat resigns after a few moves), ``rounds``
        times or until the event is over."""
        rng = random.Random(tournament_id)
        for _ in range(rounds):
            tables = list(
                Table.objects.filter(
                    round_table__round__tournament_id=tournament_id, status=Table.Status.ACTIVE
                ).order_by("pk")
            )
            if not tables:
                return
            for table in tables:
                self._play(rng, table, [], plies=4)
                table.refresh_from_db()
                loser = max(table.seats.all(), key=lambda s: (rng.random(), s.number)).player
                services.game_resign(table_id=table.pk, player=loser)

    def _play(self, rng: random.Random, table: Table, others: list[Player], plies: int | None) -> None:
        """Seat the others (the table starts) and play random legal moves through the service."""
        for player in others:
            services.seat_join(table_id=table.pk, player=player)
        table.refresh_from_db()
        by_seat = {s.number: s.player for s in table.seats.all()}
        while table.status == Table.Status.ACTIVE and (plies is None or table.ply < plies):
            state = services.current_state(table)
            _, text = random_step(state, rng)
            outcome = services.move_submit(
                table_id=table.pk, player=by_seat[state.to_move], ply=table.ply, move=text
            )
            table = outcome.table
