"""Token authentication that loads the player with the user in one query, and remembers it.

Every API call is authenticated, so the token lookup is on the hot path of
move submission. Each process keeps a small cache of recent tokens for
``TOKEN_CACHE_SECONDS`` (default 30): a deleted token or a deactivated user
is refused at once by the process that made the change, and by every other
process within that time. A new password deletes the user's tokens.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from typing import Any

from django.conf import settings
from django.db.models.signals import post_delete, post_save, pre_save
from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token

_CACHE: OrderedDict[str, tuple[float, Any, Token]] = OrderedDict()
_CACHE_SIZE = 4096


def forget_tokens(**_: Any) -> None:
    _CACHE.clear()


def end_tokens_with_old_password(sender: Any, instance: Any, update_fields: Any = None, **_: Any) -> None:
    """A new password ends the account's API tokens, whichever way it was set (the password pages
    do more: accounts.services.password_changed; this also covers the admin and
    ``manage.py changepassword``): a token got with the old password does not outlive it."""
    if instance.pk is None or (update_fields is not None and "password" not in update_fields):
        return
    old = sender._default_manager.filter(pk=instance.pk).values_list("password", flat=True).first()
    if old is not None and old != instance.password:
        Token.objects.filter(user_id=instance.pk).delete()
        forget_tokens()


post_delete.connect(forget_tokens, sender=Token, dispatch_uid="common.auth.token_deleted")
post_save.connect(forget_tokens, sender=settings.AUTH_USER_MODEL, dispatch_uid="common.auth.user_saved")
pre_save.connect(
    end_tokens_with_old_password, sender=settings.AUTH_USER_MODEL, dispatch_uid="common.auth.password_set"
)


class PlayerTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        ttl = getattr(settings, "TOKEN_CACHE_SECONDS", 30)
        now = time.monotonic()
        hit = _CACHE.get(key)
        if hit is not None and hit[0] > now:
            return hit[1], hit[2]
        try:
            token = Token.objects.select_related("user", "user__player").get(key=key)
        except Token.DoesNotExist:
            raise exceptions.AuthenticationFailed(_("invalid token")) from None
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("user inactive or deleted"))
        if ttl > 0:
            _CACHE[key] = (now + ttl, token.user, token)
            if len(_CACHE) > _CACHE_SIZE:
                _CACHE.popitem(last=False)
        return token.user, token
