"""Accounts: registering a player, renaming one (``games.names`` rules), guest accounts."""

from __future__ import annotations

import secrets

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from common.errors import Conflict, InvalidInput

from .. import names
from ..models import Player


def player_register(*, username: str, password: str, display_name: str = "") -> Player:
    """A new account and its player (every account gets one: ``games.receivers``)."""
    username_check(username=username)
    name = display_name_check(display_name=display_name or username)
    user = get_user_model()(username=username)
    try:
        validate_password(password, user)
    except ValidationError as exc:
        raise InvalidInput("password: " + " ".join(exc.messages)) from None
    with transaction.atomic():
        user.set_password(password)
        try:
            user.save()
        except IntegrityError:
            raise Conflict(_("the username %(username)s is taken") % {"username": repr(username)}) from None
        return player_rename(player=user.player, display_name=name)


def username_check(*, username: str) -> None:
    """Refuse a username that is taken, looks like one that is taken ("аlice" with a Cyrillic а
    for "alice": the same ``games.names.name_key``), was a deleted account's within
    ``USERNAME_HOLD_DAYS``, or is of the form deleted accounts had ("deleted-12")."""
    why = names.reserved_username(username)
    if why:
        raise InvalidInput(f"username: {why}", fields={"username": [why]})
    key = names.name_key(username)
    # A deleted account's hold that ran out frees its username's key.
    Player.objects.filter(username_key=key, username_held_until__lt=timezone.now()).update(
        username_key=None, username_held_until=None
    )
    if (
        get_user_model().objects.filter(username__iexact=username).exists()
        or Player.objects.filter(username_key=key).exists()
    ):
        raise Conflict(_("the username %(username)s is taken") % {"username": repr(username)})


def display_name_check(*, display_name: str, player: Player | None = None) -> str:
    """The normalised name (``games.names``) if ``player`` (None: a new player) may take it;
    else :class:`InvalidInput` on the ``display_name`` field saying why."""
    try:
        name = names.clean_name(display_name)
    except names.InvalidName as exc:
        raise _name_error(str(exc)) from None
    # The house bots' names are theirs alone: an outside bot account (no engine level) is
    # named as a person is, so it cannot pass for a house bot.
    why = names.reserved(
        name, is_bot=bool(player and player.is_house_bot), is_guest=bool(player and player.is_guest)
    )
    if why:
        raise _name_error(why)
    others = Player.objects.filter(name_key=names.name_key(name))
    if player is not None:
        others = others.exclude(pk=player.pk)
    if others.exists():
        raise _name_error(_("the name %(name)s is taken by another player") % {"name": repr(name)})
    return name


def _name_error(message: str) -> InvalidInput:
    return InvalidInput(f"display_name: {message}", fields={"display_name": [message]})


def player_rename(*, player: Player, display_name: str) -> Player:
    """Change the name shown at tables (normalised; unique after case folding)."""
    name = display_name_check(display_name=display_name, player=player)
    if name != player.display_name:
        player.display_name = name
        try:
            with transaction.atomic():
                player.save(update_fields=["display_name"])
        except IntegrityError:  # taken by a concurrent rename or sign-up
            raise _name_error(
                _("the name %(name)s is taken by another player") % {"name": repr(name)}
            ) from None
    return player


@transaction.atomic
def guest_create() -> Player:
    """A throwaway guest account (``is_guest``): casual games against bots only (``games.guests``)."""
    User = get_user_model()
    for _attempt in range(5):
        tag = secrets.token_hex(4)
        if User.objects.filter(username=f"guest-{tag}").exists():
            continue
        user = User(username=f"guest-{tag}")
        user.set_unusable_password()
        user.save()
        player = user.player
        player.is_guest = True
        player.save(update_fields=["is_guest"])
        try:
            return player_rename(player=player, display_name=f"Guest {tag}")
        except InvalidInput:
            return player  # keeps its username-based name
    raise Conflict(_("could not make a guest account; try again"))
