"""Demo data for a local run: players, and tables open, in progress and finished."""

from __future__ import annotations

import random
from datetime import datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.utils import timezone
from rest_framework.authtoken.models import Token

from accounts.models import Account
from analysis import explorer, ladder
from engine.playout import random_step
from games import services
from games.housebots import bot_accounts
from games.models import Player, Table
from tournaments import ladders
from tournaments.calendar import recurring
from tournaments.competitions import services as events
from tournaments.models import League, Season
from tournaments.seasons import services as seasons

from ..community_demo import seed_community
from ..play_now_demo import seed_play_now
from ..teams_demo import TEAM_PLAYERS, seed_teams

DEMO_PASSWORD = "demo-pass-2026"
DEMO_PLAYERS = [("alice", "Alice"), ("bob", "Bob"), ("carol", "Carol"), ("dave", "Dave")]
#: More players for the seasons' divisions (two divisions of four).
SEASON_PLAYERS = [("erin", "Erin"), ("frank", "Frank"), ("grace", "Grace"), ("heidi", "Heidi")]
CORRESPONDENCE = {"kind": "correspondence", "days": 3, "bank_days": 7}


class Command(BaseCommand):
    help = "Create demo players and tables (does nothing if they exist already)."

    def handle(self, *args: Any, **options: Any) -> None:
        User = get_user_model()
        if User.objects.filter(username="alice").exists():
            # Demo data from before the calendar: add the recurring event and the seasons once.
            league = League.objects.filter(slug="demo-club").first()
            organiser = league.organisers.order_by("pk").first() if league else None
            seeded = league is None or league.event_series.exists() or league.seasons.exists()
            added = []
            if organiser is not None and not seeded:
                self._calendar(organiser, league)
                added.append("calendar")
            # And from before play now: the arena and the pools' waiting players, once.
            if organiser is not None and seed_play_now(organiser=organiser, league=league):
                added.append("arena and quick pairing")
            # And from before teams: the club's teams, their team league and team battle, once.
            if organiser is not None and seed_teams(
                organiser=organiser, league=league, make_player=self._player
            ):
                added.append("teams")
            # And from before the community: chat, friends, a report and a vacation, once.
            if league is not None and seed_community(league=league):
                added.append("community")
            # And from before the explorer: the finished tables' moves in its index, once.
            if explorer.index_pending():
                added.append("explorer")
            # And from before the bot ladder: its measured ratings for the Bots page, once.
            if ladder.seed_measured():
                added.append("bot ladder")
            if added:
                self.stdout.write(self.style.SUCCESS(f"demo {' and '.join(added)} created"))
            else:
                self.stdout.write("demo data present")
            return
        rng = random.Random(2026)
        players = {name: self._player(name, display) for name, display in DEMO_PLAYERS}
        organiser = User.objects.create_superuser("organiser", password=DEMO_PASSWORD)
        services.player_rename(player=organiser.player, display_name="Organiser")
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
        self._calendar(organiser.player, League.objects.get(slug="demo-club"))
        seed_play_now(organiser=organiser.player, league=League.objects.get(slug="demo-club"))
        seed_teams(
            organiser=organiser.player, league=League.objects.get(slug="demo-club"), make_player=self._player
        )
        seed_community(league=League.objects.get(slug="demo-club"))
        explorer.index_pending()  # the finished tables' moves, for the explorer (and any the task missed)
        ladder.seed_measured()  # the bot levels' ratings as measured for the release, for the Bots page
        names = [n for n, _ in DEMO_PLAYERS + SEASON_PLAYERS + TEAM_PLAYERS]
        self.stdout.write(self.style.SUCCESS(f"demo data created: players {', '.join(names)} and organiser"))

    def _player(self, name: str, display: str) -> Player:
        """A demo player with an API token and a confirmed address (their notification mails land
        in EMAIL_FILE_PATH, var/mail)."""
        player = services.player_register(username=name, password=DEMO_PASSWORD, display_name=display)
        Token.objects.get_or_create(user=player.user)
        player.user.email = f"{name}@example.org"
        player.user.save(update_fields=["email"])
        Account.objects.update_or_create(user=player.user, defaults={"email_verified_at": timezone.now()})
        Player.objects.filter(pk=player.pk).update(email_verified=True)
        player.refresh_from_db()
        return player

    def _calendar(self, organiser: Player, league: League) -> None:
        """The club's calendar: a weekly recurring event with its next occurrence open, a finished
        divisions season (Summer) and the one it opened (Autumn) running, round 1 played."""
        now = timezone.now()
        members = list(Player.objects.filter(user__username__in=[n for n, _ in DEMO_PLAYERS]).order_by("pk"))
        for name, display in SEASON_PLAYERS:
            found = Player.objects.filter(user__username=name).first()
            members.append(found or self._player(name, display))
        self._series(organiser, league, members[:2], now=now)
        self._seasons(organiser, league, members, now=now)

    def _series(self, organiser: Player, league: League, players: list[Player], *, now: datetime) -> None:
        """Friday Blitz Swiss: every Friday at 19:00 in Madrid, each created a week ahead."""
        series = recurring.series_create(
            league=league,
            by=organiser,
            name="Friday Blitz Swiss",
            event={
                "game": "pacru",
                "seats": 2,
                "rounds": 5,
                "time_control": {"kind": "fischer", "base": 180, "increment": 2},
            },
            frequency="weekly",
            weekdays=[4],
            local_time=time(19, 0),
            time_zone="Europe/Madrid",
            first_date=now.astimezone(ZoneInfo("Europe/Madrid")).date(),
            create_days_ahead=7,
        )
        recurring.sweep(now=now)
        for occurrence in series.occurrences.all():
            for player in players:
                events.register(tournament_id=occurrence.pk, player=player)

    def _seasons(self, organiser: Player, league: League, players: list[Player], *, now: datetime) -> None:
        """Summer (played and closed: its places move players up and down) and Autumn, which it
        opened: weekly rounds from a few days ago, a week to play each, round 1 played. (Summer
        has no round deadlines: its rounds are played today, so theirs would still be to come.)"""
        day = timedelta(days=1)

        def weekly(first: datetime) -> list[str]:
            at = first.replace(hour=19, minute=0, second=0, microsecond=0)
            return [(at + 7 * i * day).isoformat() for i in range(3)]

        summer = seasons.season_create(
            league=league,
            by=organiser,
            name="Summer season",
            kind=Season.Kind.DIVISIONS,
            starts=(now - 120 * day).date(),
            ends=(now - 99 * day).date(),
            game="shacru",
            seats=2,
            format="round_robin",
            time_control=CORRESPONDENCE,
            rated=False,
            division_size=4,
            promote=1,
            relegate=1,
            round_times=weekly(now - 120 * day),
        )
        for player in players:
            seasons.season_register(season_id=summer.pk, player=player)
        seasons.season_start(season_id=summer.pk, by=organiser, now=now)
        for t in summer.tournaments.order_by("pk"):
            self._play_rounds(t.pk, 9)
        autumn = seasons.season_close(
            season_id=summer.pk, by=organiser, name="Autumn season", now=now - 99 * day
        )
        seasons.season_update(
            season_id=autumn.pk,
            by=organiser,
            starts=(now - 3 * day).date(),
            ends=(now + 18 * day).date(),
            round_times=weekly(now - 3 * day),
            round_deadline_minutes=7 * 24 * 60,
        )
        seasons.season_start(season_id=autumn.pk, by=organiser, now=now)
        for t in autumn.tournaments.order_by("pk"):
            self._play_rounds(t.pk, 1)

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
