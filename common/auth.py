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

The user is read with their player and their account (the saved language), so a middleware that
needs the language before the view (:func:`token_user`) costs no query either; it leaves what it
found on the request, and the view's authentication takes it from there (one tombstone get per
request). A saved account (a new language) empties this process's cache.
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
from django.http import HttpRequest
from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication, get_authorization_header
from rest_framework.authtoken.models import Token
from rest_framework.request import Request

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
# The account (its saved language) is read with the token: a changed one is read again. Named
# lazily: common imports no app.
post_save.connect(forget_tokens, sender="accounts.Account", dispatch_uid="common.auth.account_saved")
post_save.connect(user_saved, sender=settings.AUTH_USER_MODEL, dispatch_uid="common.auth.user_saved")
pre_save.connect(
    end_tokens_with_old_password, sender=settings.AUTH_USER_MODEL, dispatch_uid="common.auth.password_set"
)


#: Where :func:`token_user` leaves what it found on the request: (key, user, token).
SEEN = "_pacru_token_seen"


def authenticated(key: str) -> tuple[Any, Token]:
    """The user (with their player and account) and the token of ``key``: from this process's
    cache while no tombstone says the token was revoked, else from the database. Raises
    ``AuthenticationFailed`` for an unknown token or an inactive user."""
    ttl = getattr(settings, "TOKEN_CACHE_SECONDS", 30)
    now = time.monotonic()
    hit = _CACHE.get(key)
    if hit is not None and hit[0] > now:
        if cache.get(_tombstone_key(key)) is None:
            return hit[1], hit[2]
        _CACHE.pop(key, None)  # revoked in another process: the database decides
    try:
        token = Token.objects.select_related("user", "user__player", "user__account").get(key=key)
    except Token.DoesNotExist:
        raise exceptions.AuthenticationFailed(_("invalid token")) from None
    if not token.user.is_active:
        raise exceptions.AuthenticationFailed(_("user inactive or deleted"))
    if ttl > 0:
        _CACHE[key] = (now + ttl, token.user, token)
        if len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return token.user, token


def token_user(request: HttpRequest) -> Any | None:
    """The user an API request's ``Authorization: Token …`` header names (None: no token, or not a
    valid one: the view's authentication then answers why), remembered on the request for it."""
    parts = get_authorization_header(request).split()
    if len(parts) != 2 or parts[0].lower() != b"token":
        return None
    try:
        key = parts[1].decode()
        user, token = authenticated(key)
    except (UnicodeError, exceptions.AuthenticationFailed):
        return None
    setattr(request, SEEN, (key, user, token))
    return user


class PlayerTokenAuthentication(TokenAuthentication):
    """DRF's token authentication over :func:`authenticated`, taking what a middleware found for
    the same request (:func:`token_user`) rather than asking the cache again."""

    def authenticate(self, request: Request) -> tuple[Any, Token] | None:
        self._seen = getattr(request._request, SEEN, None)
        return super().authenticate(request)

    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        seen = getattr(self, "_seen", None)
        if seen is not None and seen[0] == key:
            return seen[1], seen[2]
        return authenticated(key)
