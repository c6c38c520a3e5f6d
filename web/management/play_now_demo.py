"""Play now in the demo (``seed_demo``): a running arena of house bots with two demo players, and
the quick pairing pools with a demo player waiting in two of them, so the lobby shows a waiting
count and the arena's leaderboard moves by itself once ``scripts/run`` pairs and plays (its
in-process sweeper runs the pairing waves and the bots' turns)."""

from __future__ import annotations

import importlib
from datetime import timedelta

from django.apps import apps
from django.db import transaction
from django.utils import timezone

from games.housebots import house_bot
from games.models import Player
from tournaments.arena import services as arena
from tournaments.competitions import services as events
from tournaments.models import League, Pool, PoolEntry, Tournament
from tournaments.pools import services as pools

ARENA = "Friday Night Arena"
#: House bots in the arena: two of each level (they play on by themselves).
ARENA_BOTS = ["random", "random", "greedy", "greedy", "search", "search"]
#: Demo players in the arena (not the ones people sign in as first: an absent player's table is
#: lost on time and they are paused until they come back).
ARENA_PLAYERS = ["erin", "frank"]
#: How long ago the arena started, of its 60 minutes.
STARTED_AGO = timedelta(minutes=4)
#: Demo players waiting in a pool: (username, game, seats), each in a pool of their own so no wave
#: pairs them with each other.
WAITING = [("grace", "pacru", 2), ("heidi", "azacru", 3)]


def ensure_pools() -> int:
    """The preset pools as migration 0012 adds them, when there are none (a database flushed after
    the migrations, as tests leave it); how many pools there are."""
    if not Pool.objects.exists():
        importlib.import_module("tournaments.migrations.0012_play_now").add_presets(apps, None)
    return Pool.objects.count()


@transaction.atomic
def seed_play_now(*, organiser: Player, league: League) -> bool:
    """The arena and the waiting players, once while an arena runs (False: one runs already).
    Once the last one is over (an hour after it started), the next ``seed_demo`` starts another:
    the demo always has an arena in play, as a club with a weekly arena has."""
    ensure_pools()
    live = (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION, Tournament.Status.RUNNING)
    if Tournament.objects.filter(league=league, name=ARENA, status__in=live).exists():
        return False
    now = timezone.now()
    t = events.tournament_create(
        organiser=organiser,
        league=league,
        name=ARENA,
        game="pacru",
        seats=2,
        format=Tournament.Format.ARENA,
        duration_minutes=60,
        rated=False,
        time_control={"kind": "fischer", "base": 180, "increment": 2},
    )
    entered: set[int] = set()
    for level in ARENA_BOTS:
        bot = house_bot(level, exclude=entered)
        arena.arena_join(tournament_id=t.pk, player=bot)
        entered.add(bot.pk)
    for person in Player.objects.filter(user__username__in=ARENA_PLAYERS).order_by("pk"):
        arena.arena_join(tournament_id=t.pk, player=person)
    events.start(tournament_id=t.pk, by=organiser)
    # Started a few minutes ago: the page shows the time running (the first wave pairs everyone).
    Tournament.objects.filter(pk=t.pk).update(started_at=now - STARTED_AGO)
    for username, game, seats in WAITING:
        person = Player.objects.filter(user__username=username).first()
        pool = Pool.objects.filter(game=game, players=seats, active=True).order_by("position", "pk").first()
        if person is not None and pool is not None and not PoolEntry.objects.filter(player=person).exists():
            pools.pool_join(player=person, pool_id=pool.pk)
    return True
