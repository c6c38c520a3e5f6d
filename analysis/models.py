"""What the analysis app keeps.

* :class:`Analysis`: one engine analysis of a finished table at one depth (3–8), made once
  on the slow queue and kept (``(table, depth)`` is unique: duplicate requests and duplicate tasks
  share it).
* :class:`ExplorerMove` and :class:`ExplorerGame`: the opening explorer's index. For each game, seat
  count and position (a key of the board and the seat to move), the moves played from it in
  finished games, how often and with what average result for the mover; a table is counted once
  (its :class:`ExplorerGame` row is written in the same transaction as its counts).
* :class:`BotRating`: the bot ladder's measured strength of each level, per game and seat count.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from games.models import Table


class Analysis(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", "queued"
        RUNNING = "running", "running"
        DONE = "done", "done"
        FAILED = "failed", "failed"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="analyses")
    #: The depth whose work judged the moves (``engine.analysis.WORK``: positions per judged position).
    depth = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    requested_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    #: When its task was last sent (the sweep sends a lost one again, not more often than that).
    sent_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    #: How many times a worker took it (a worker lost mid-analysis leaves it to the next).
    attempts = models.PositiveSmallIntegerField(default=0)
    #: One entry per action: the evaluation of every seat after it, the mover's loss, the mark,
    #: and where marked the engine's preferred move with the line that follows.
    plies = models.JSONField(default=list, blank=True)
    #: Per seat: counts of inaccuracies, mistakes and blunders, and the average loss.
    summary = models.JSONField(default=dict, blank=True)
    error = models.TextField(blank=True, default="")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "depth"], name="analysis_table_depth_unique")]
        indexes = [models.Index(fields=["status", "requested_at"], name="analysis_status_idx")]

    def __str__(self) -> str:
        return f"analysis of table {self.table_id} at depth {self.depth} ({self.status})"


class ExplorerMove(models.Model):
    game = models.CharField(max_length=10)
    players = models.PositiveSmallIntegerField()
    #: The position's key (engine: the board and the seat to move, not the ply count).
    position = models.CharField(max_length=64)
    move = models.CharField(max_length=80)
    games = models.PositiveIntegerField(default=0)
    #: The sum of the mover's results over those games (1 for first place, 0 for last).
    score = models.FloatField(default=0.0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game", "players", "position", "move"], name="explorer_move_unique"
            )
        ]

    def __str__(self) -> str:
        return f"{self.game}/{self.players} {self.position[:12]}… {self.move} ×{self.games}"


class ExplorerGame(models.Model):
    """A finished table whose moves are in the explorer's counts."""

    table = models.OneToOneField(Table, on_delete=models.CASCADE, primary_key=True, related_name="+")
    indexed_at = models.DateTimeField(default=timezone.now)


class BotRating(models.Model):
    game = models.CharField(max_length=10)
    players = models.PositiveSmallIntegerField()
    level = models.PositiveSmallIntegerField()
    mu = models.FloatField(default=25.0)
    sigma = models.FloatField(default=25.0 / 3)
    games = models.PositiveIntegerField(default=0)
    #: Games against the level just below, and this level's points in them (1 a win, ½ a tie).
    games_below = models.PositiveIntegerField(default=0)
    points_below = models.FloatField(default=0.0)
    #: Mean thinking time per move on the machine that ran the ladder.
    ms_per_move = models.FloatField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "players", "level"], name="bot_rating_unique")]
        ordering = ["game", "players", "level"]

    def __str__(self) -> str:
        return f"{self.game}/{self.players} level {self.level}: {self.mu:.1f} ± {self.sigma:.1f}"
