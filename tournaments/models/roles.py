"""The organiser role, and players' requests for it."""

from __future__ import annotations

from django.db import models
from django.utils.translation import pgettext_lazy

from games.models import Player


class OrganiserRole(models.Model):
    """The organiser role, granted by staff (admin, ``manage.py organiser``): it lets a player create
    leagues and start bot matches (``tournaments.organising.roles``). Running a league's events needs
    being one of that league's ``organisers``, as before."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="organiser_role")
    granted_by = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="organiser_roles_granted"
    )
    granted_at = models.DateTimeField(auto_now_add=True)
    #: Bot-match tables this organiser may start in any 24 hours.
    bot_tables_per_day = models.PositiveIntegerField(default=200)

    def __str__(self) -> str:
        return f"organiser {self.player}"


class OrganiserRequest(models.Model):
    """A player asks to become an organiser; staff grant or refuse it."""

    class Status(models.TextChoices):
        PENDING = "pending", pgettext_lazy("organiser request status", "pending")
        GRANTED = "granted", pgettext_lazy("organiser request status", "granted")
        REFUSED = "refused", pgettext_lazy("organiser request status", "refused")

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="organiser_requests")
    message = models.TextField(max_length=1000, blank=True, default="")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    created = models.DateTimeField(auto_now_add=True)
    decided_by = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="organiser_requests_decided"
    )
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]
        constraints = [
            models.UniqueConstraint(
                fields=["player"], condition=models.Q(status="pending"), name="one_pending_organiser_request"
            )
        ]

    def __str__(self) -> str:
        return f"{self.player} asks to organise ({self.status})"
