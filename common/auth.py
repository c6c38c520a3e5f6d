"""Token authentication that loads the player with the user in one query, and remembers it.

Every API call is authenticated, so the token lookup is on the hot path of
move submission. Each process keeps a small cache of recent tokens for
``TOKEN_CACHE_SECONDS`` (default 30). A token deleted ("log out everywhere", a new password,
the admin) or whose user is deactivated leaves a tombstone in the shared cache (Django's default
cache: Redis in production) for as long as any process may still hold it: a process that finds
the token in its own cache asks for the tombstone (one cache get, no query) and, when there is
one, reads the token from the database again, so every process refuses it at once. While Redis
is down the tombstone stays in the revoking process's memory (``common.cache``): other processes
then refuse the token within ``TOKEN_CACHE_SECONDS``, as they did before.
"""

from __future__ import annotations

import hashlib
import time
from collections import OrderedDict
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save, pre_save
from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token

_CACHE: OrderedDict[str, tuple[float, Any, Token]] = OrderedDict()
_CACHE_SIZE = 4096


def forget_tokens(**_: Any) -> None:
    _CACHE.clear()


def _tombstone_key(key: str) -> str:
    # The token's hash, not the token: whoever reads the cache's keys learns no credential.
    return "auth:token-revoked:" + hashlib.sha256(key.encode()).hexdigest()


def _bury(keys: list[str]) -> None:
    """Tombstones for these tokens, once the transaction that ends them commits (a rolled-back
    revocation revokes nothing), kept one second longer than any process caches a token: a process
    that read the token before the commit cached it from then, so its copy ends before the stone."""
    ttl = getattr(settings, "TOKEN_CACHE_SECONDS", 30)
    if keys and ttl > 0:
        stones = dict.fromkeys(map(_tombstone_key, keys), 1)
        transaction.on_commit(lambda: cache.set_many(stones, timeout=ttl + 1))


def token_deleted(instance: Token, **_: Any) -> None:
    forget_tokens()
    _bury([instance.key])


def user_saved(instance: Any, raw: bool = False, **_: Any) -> None:
    forget_tokens()
    if not raw and instance.pk is not None and not instance.is_active:
        _bury(list(Token.objects.filter(user_id=instance.pk).values_list("key", flat=True)))


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


post_delete.connect(token_deleted, sender=Token, dispatch_uid="common.auth.token_deleted")
post_save.connect(user_saved, sender=settings.AUTH_USER_MODEL, dispatch_uid="common.auth.user_saved")
pre_save.connect(
    end_tokens_with_old_password, sender=settings.AUTH_USER_MODEL, dispatch_uid="common.auth.password_set"
)


class PlayerTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        ttl = getattr(settings, "TOKEN_CACHE_SECONDS", 30)
        now = time.monotonic()
        hit = _CACHE.get(key)
        if hit is not None and hit[0] > now:
            if cache.get(_tombstone_key(key)) is None:
                return hit[1], hit[2]
            _CACHE.pop(key, None)  # revoked in another process: the database decides
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
