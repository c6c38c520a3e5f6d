"""Accounts: registering a player, renaming one."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from common.errors import Conflict, InvalidInput

from ..models import Player


def player_register(*, username: str, password: str, display_name: str = "") -> Player:
    """A new account and its player (every account gets one: ``games.receivers``)."""
    User = get_user_model()
    if User.objects.filter(username__iexact=username).exists():
        raise Conflict(f"the username {username!r} is taken")
    user = User(username=username)
    try:
        validate_password(password, user)
    except ValidationError as exc:
        raise InvalidInput("password: " + " ".join(exc.messages)) from None
    with transaction.atomic():
        user.set_password(password)
        try:
            user.save()
        except IntegrityError:
            raise Conflict(f"the username {username!r} is taken") from None
        return player_rename(player=user.player, display_name=display_name or username)


def player_rename(*, player: Player, display_name: str) -> Player:
    """Change the name shown at tables."""
    name = display_name.strip()[:40]
    if not name:
        raise InvalidInput("a display name needs at least one visible character")
    if name != player.display_name:
        player.display_name = name
        player.save(update_fields=["display_name"])
    return player
