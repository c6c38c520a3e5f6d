"""Ladders: members, challenges, and the 3-4 player matchmaking queue."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext, pgettext_lazy

from games.clocks import TimeControl
from games.models import GameKind, Player, Table

from .clubs import League


class Ladder(models.Model):
    """A league's standing ladder for one game.

    A *rating* ladder is ordered by the players' conservative rating in the game; a *position*
    ladder keeps its own order, which only its challenges change (see ``tournaments.ladders``).
    """

    class Kind(models.TextChoices):
        RATING = "rating", pgettext_lazy("ladder kind", "ordered by rating")
        POSITION = (
            "position",
            pgettext_lazy("ladder kind", "ordered by position: a challenger who wins takes the place"),
        )

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="ladders")
    game = models.CharField(max_length=8, choices=GameKind.choices)
    seats = models.PositiveSmallIntegerField(default=2, help_text="2: challenges; 3-4: matchmaking queue")
    name = models.CharField(max_length=80, blank=True, default="")
    time_control = models.JSONField(default=dict, blank=True)
    #: How many places above a challenger may be challenged; 0 means the default rule (see services).
    challenge_places = models.PositiveSmallIntegerField(default=0)
    challenge_days = models.FloatField(default=3, help_text="an unanswered challenge expires after this")
    queue_wait_seconds = models.PositiveIntegerField(
        default=120, help_text="matchmaking: after this wait any table is better than none"
    )
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.RATING)
    #: Challenges a player may have open at once (waiting for an answer, or being played).
    max_open_challenges = models.PositiveSmallIntegerField(default=3)
    #: After a decline, the same challenger waits this long before challenging that player again.
    decline_cooldown_hours = models.FloatField(default=24)
    #: Position ladders: declines allowed per period; past that a challenge must be played or forfeited.
    max_declines = models.PositiveSmallIntegerField(default=2)
    decline_period_days = models.FloatField(default=30)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["league", "game"], name="ladder_per_league_game")]

    def __str__(self) -> str:
        # Translators: a ladder without a name of its own, e.g. "Riverside Club shacru ladder".
        return self.name or gettext("%(league)s %(game)s ladder") % {"league": self.league, "game": self.game}

    @property
    def time_control_text(self) -> str:
        """The clock in words ("10+5", "untimed", "3 days/move, bank 7 days")."""
        return TimeControl.from_dict(self.time_control).describe()


class LadderMember(models.Model):
    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="members")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ladder_memberships")
    joined = models.DateTimeField(auto_now_add=True)
    #: Position ladders: the member's place (1 = top); null on rating ladders.
    position = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["ladder", "player"], name="ladder_member_unique")]


class Challenge(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", pgettext_lazy("challenge status", "pending")
        ACCEPTED = "accepted", pgettext_lazy("challenge status", "accepted")
        DECLINED = "declined", pgettext_lazy("challenge status", "declined")
        CANCELLED = "cancelled", pgettext_lazy("challenge status", "cancelled")
        EXPIRED = "expired", pgettext_lazy("challenge status", "expired")

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="challenges")
    challenger = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="challenges_made")
    challenged = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="challenges_received")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING, db_index=True)
    created = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    answered_at = models.DateTimeField(null=True, blank=True)
    table = models.OneToOneField(
        Table, on_delete=models.SET_NULL, null=True, blank=True, related_name="challenge"
    )

    class Outcome(models.TextChoices):
        CHALLENGER = "challenger", pgettext_lazy("challenge outcome", "the challenger won")
        CHALLENGED = "challenged", pgettext_lazy("challenge outcome", "the challenged player won")
        DRAW = "draw", pgettext_lazy("challenge outcome", "drawn")
        FORFEIT = "forfeit", pgettext_lazy("challenge outcome", "not answered in time: a forfeit")

    #: How the challenge ended (empty while it is open).
    outcome = models.CharField(max_length=10, choices=Outcome.choices, blank=True, default="")

    class Meta:
        ordering = ["-created"]


class QueueEntry(models.Model):
    """A player waiting for a 3–4 player ladder table."""

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="queue")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="queue_entries")
    joined = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["joined"]
        constraints = [models.UniqueConstraint(fields=["ladder", "player"], name="queue_entry_unique")]


class QueueTable(models.Model):
    """A table the matchmaking queue of a ladder formed (so the ladder's history and the table page
    know where it came from)."""

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="queue_tables")
    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="queue_table")
