"""Games' own reactions to Django's events: every user account gets its player."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import receiver

from .models import Player


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="games.player_for_every_user")
def player_for_new_user(sender: Any, instance: Any, created: bool, raw: bool = False, **kwargs: Any) -> None:
    """An account made anywhere (sign-up, API, admin, ``createsuperuser``) has a player at once."""
    if created and not raw:
        Player.objects.get_or_create(user=instance, defaults={"display_name": instance.get_username()[:40]})
