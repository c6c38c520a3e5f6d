"""Games' own reactions to Django's events: every user account gets its player."""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models.signals import post_save
from django.dispatch import receiver

from . import names
from .models import Player


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="games.player_for_every_user")
def player_for_new_user(sender: Any, instance: Any, created: bool, raw: bool = False, **kwargs: Any) -> None:
    """An account made anywhere (sign-up, API, admin, ``createsuperuser``) has a player at once."""
    if created and not raw:
        player_with_free_name(instance, names.collapse(instance.get_username()) or "Player")


def player_with_free_name(user: Any, base: str) -> Player:
    """The user's player, made with ``base`` or the first of ``base (2)``, … no one else carries
    (names are unique after normalisation and case folding: ``games.names``). It carries its
    username's key (``Player.username_key``) unless another account has it: sign-up refuses such
    a username first (``games.services.players.username_check``); an account made elsewhere (the
    admin, ``createsuperuser``) is made all the same."""
    ukey = names.name_key(user.get_username())
    if ukey is not None and Player.objects.filter(username_key=ukey).exists():
        ukey = None
    for name in names.candidates(base):
        existing = Player.objects.filter(user=user).first()
        if existing is not None:
            return existing
        if Player.objects.filter(name_key=names.name_key(name)).exists():
            continue
        try:
            with transaction.atomic():
                return Player.objects.create(user=user, display_name=name, username_key=ukey)
        except IntegrityError:  # taken a moment ago by a concurrent sign-up: try the next
            continue
    return Player.objects.create(
        user=user, display_name=f"{base[:30]} {secrets.token_hex(4)}", username_key=ukey
    )
