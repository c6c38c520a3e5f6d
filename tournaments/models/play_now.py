"""Play now: quick pairing pools and arena tournaments (``tournaments.pools``,
``tournaments.arena``).

A *pool* is a standing offer of one game at one table size and one clock; players wait in it
(``PoolEntry``, one pool at a time) and the pairing waves seat them (``PoolTable``). An *arena*
is a ``Tournament`` of format ``arena``: its players (``ArenaPlayer``) are paired again as soon
as they are free, until the arena's time is up; each of its tables is an ``ArenaTable``.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils import timezone

from games.clocks import TimeControl
from games.models import GameKind, Player, Table

from .events import Tournament


class Pool(models.Model):
    """A quick pairing pool: one game, one table size, one clock, rated or casual."""

    game = models.CharField(max_length=8, choices=GameKind.choices)
    players = models.PositiveSmallIntegerField(help_text="players per table, 2 to 4")
    time_control = models.JSONField(default=dict, blank=True)
    rated = models.BooleanField(default=True)
    #: A pool that is not active takes nobody (its waiting players are let go).
    active = models.BooleanField(default=True)
    #: The order pools are listed in (the lobby's "Play now").
    position = models.PositiveSmallIntegerField(default=0)
    #: Who added it (null: a preset that came with the service).
    created_by = models.ForeignKey(Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["position", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(players__gte=2, players__lte=4), name="pool_players_2_to_4"),
        ]

    def __str__(self) -> str:
        return f"{self.get_game_display()} {self.players}p {self.time_control_text}"

    @property
    def time_control_text(self) -> str:
        return TimeControl.from_dict(self.time_control).describe()


class PoolEntry(models.Model):
    """A player waiting in a pool: one pool at a time (joining another leaves the first)."""

    pool = models.ForeignKey(Pool, on_delete=models.CASCADE, related_name="entries")
    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="pool_entry")
    joined = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["joined", "id"]


class PoolTable(models.Model):
    """A table a pool's wave seated, and how long its players had waited (the typical wait)."""

    pool = models.ForeignKey(Pool, on_delete=models.CASCADE, related_name="tables")
    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="pool_table")
    created = models.DateTimeField(default=timezone.now)
    #: Seconds each seated player had waited, the mean and the longest.
    wait_seconds = models.FloatField(default=0.0)
    max_wait_seconds = models.FloatField(default=0.0)

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["pool", "-id"], name="pool_table_recent_idx")]


class ArenaPlayer(models.Model):
    """A player in an arena: their score so far and whether they are free to be paired."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="arena_players")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="arena_entries")
    joined = models.DateTimeField(default=timezone.now)
    #: A team battle: the team the player plays for.
    team = models.ForeignKey(
        "Team", on_delete=models.SET_NULL, null=True, blank=True, related_name="arena_players"
    )
    #: A paused player is not paired (they come back when they like); a withdrawn one has left.
    paused = models.BooleanField(default=False)
    withdrawn = models.BooleanField(default=False)
    #: The table they sit at now (null: free).
    table = models.ForeignKey(Table, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    #: Since when they wait for a table (null: at a table, paused or withdrawn).
    free_since = models.DateTimeField(null=True, blank=True)
    points = models.IntegerField(default=0)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    #: Wins in a row right now (first places): from the second on, points are doubled.
    streak = models.PositiveSmallIntegerField(default=0)
    berserks = models.PositiveIntegerField(default=0)
    #: The performance's running sums (``tournaments.arena.scoring.performance``).
    perf_sum = models.FloatField(default=0.0)
    perf_count = models.PositiveIntegerField(default=0)
    #: The players of their last table (no same opponents back to back while avoidable).
    last_opponents = models.JSONField(default=list, blank=True)
    #: The points of each table in order, with the marks that made them ("2", "4s" streak, "3b"
    #: berserk…): the leaderboard's sheet.
    sheet = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["-points", "-perf_sum", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="arena_player_unique"),
        ]
        indexes = [
            models.Index(
                fields=["tournament", "free_since"],
                condition=Q(free_since__isnull=False),
                name="arena_free_idx",
            )
        ]

    @property
    def performance(self) -> float | None:
        return self.perf_sum / self.perf_count if self.perf_count else None


class ArenaTable(models.Model):
    """A table an arena seated; ``counted`` once its result is in the standings (exactly once)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="arena_tables")
    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="arena_table")
    created = models.DateTimeField(default=timezone.now)
    #: Player ids who went berserk at this table.
    berserk = models.JSONField(default=list, blank=True)
    counted = models.BooleanField(default=False)
    #: Once counted: {player id: points earned at this table}.
    points = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-id"]
        indexes = [
            models.Index(fields=["tournament", "counted"], name="arena_table_count_idx"),
        ]
