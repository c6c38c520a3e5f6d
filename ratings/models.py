"""TrueSkill ratings per player and game kind, their history, and the once-per-table guard."""

from __future__ import annotations

from django.db import models

from games.models import GameKind, Player, Table


class Rating(models.Model):
    """A player's current TrueSkill rating in one game (one pool per game, all table sizes)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    game = models.CharField(max_length=8, choices=GameKind.choices)
    mu = models.FloatField()
    sigma = models.FloatField()
    #: mu − 3σ: the leaderboard's order (a rating the player is very likely above).
    conservative = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    last_played = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["player", "game"], name="rating_player_game_unique")]
        indexes = [models.Index(fields=["game", "-conservative"], name="rating_leaderboard_idx")]

    def __str__(self) -> str:
        return f"{self.player} {self.game}: {self.conservative:.1f}"


class RatingChange(models.Model):
    """One rated table's effect on one player's rating."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_changes")
    game = models.CharField(max_length=8, choices=GameKind.choices)
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="rating_changes")
    rank = models.PositiveSmallIntegerField()
    seats = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    conservative_before = models.FloatField()
    conservative_after = models.FloatField()
    at = models.DateTimeField(help_text="when the table finished")

    class Meta:
        ordering = ["at", "table_id"]
        constraints = [models.UniqueConstraint(fields=["player", "table"], name="rating_change_unique")]
        indexes = [models.Index(fields=["player", "game", "at"], name="rating_history_idx")]

    @property
    def delta(self) -> float:
        return self.conservative_after - self.conservative_before


class RatingUpdate(models.Model):
    """Marks a table as rated: its unique key is what makes an update happen exactly once.

    ``seq`` numbers the updates of a game in the order they were applied (taken
    from the ledger under its lock): the order a recompute replays them in.
    """

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="rating_update")
    game = models.CharField(max_length=8, choices=GameKind.choices)
    seq = models.PositiveBigIntegerField(help_text="order of application within the game (1, 2, …)")
    applied_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="rating_update_game_seq_unique")]


class RatingLedger(models.Model):
    """One row per game, locked while updates are applied, so they apply one at a time, in order."""

    game = models.CharField(max_length=8, choices=GameKind.choices, unique=True)
    #: the last ``RatingUpdate.seq`` given in this game (0: none yet)
    seq = models.PositiveBigIntegerField(default=0)
