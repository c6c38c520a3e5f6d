"""Token authentication that loads the player with the user in one query, and remembers it.

Every API call is authenticated, so the token lookup is on the hot path of
move submission. Each process keeps a small cache of recent tokens for
``TOKEN_CACHE_SECONDS`` (default 30). A token deleted ("log out everywhere", a new password,
the admin) or whose user is deactivated must be refused by every process at once, so its
revocation, once committed, is told to all of them through the shared cache's Redis:

* a **revocation message** on the channel ``auth:token-revoked``: each process that uses the
  shared cache listens to it on a thread of its own (:class:`Revocations`) and, on a message,
  empties its token cache. While the listener is subscribed, a token found in the process's cache
  is trusted as it is: the common request asks nothing of Redis.
* a **tombstone** in the shared cache, kept as long as any process may still hold the token: while
  a process is not listening (starting, or its subscription lost), a token found in its cache is
  trusted only after asking for the tombstone (one cache get, no query); with one, the token is
  read from the database again. A listener that subscribes again empties the cache first, so a
  message it missed meanwhile costs nothing.

A token read from the database is kept only if no revocation was heard while it was being read
(a read that began before the revocation's commit would otherwise keep the old token). While Redis
is down the tombstone stays in the revoking process's memory (``common.cache``): other processes
then refuse the token within ``TOKEN_CACHE_SECONDS``, as they did before any of this. Without the
shared cache (one process, the memory cache) the tombstone is read from memory on each hit.

The user is read with their player and their account (the saved language), so a middleware that
needs the language before the view (:func:`token_user`) costs no query either; it leaves what it
found on the request, and the view's authentication takes it from there. A saved account (a new
language) empties this process's cache.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import threading
import time
from collections import OrderedDict
from typing import Any

from django.conf import settings
from django.core.cache import cache, caches
from django.core.signals import setting_changed
from django.db import transaction
from django.db.models.signals import post_delete, post_save, pre_save
from django.http import HttpRequest
from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication, get_authorization_header
from rest_framework.authtoken.models import Token
from rest_framework.request import Request

from common.cache import FallbackRedisCache

log = logging.getLogger(__name__)

_CACHE: OrderedDict[str, tuple[float, Any, Token]] = OrderedDict()
_CACHE_SIZE = 4096
#: Counts the times this process's token cache was emptied: a token read from the database is
#: kept only if the count did not move while it was being read.
_forgotten = 0
#: The channel on the shared cache's Redis that tells every process a token was revoked.
CHANNEL = "auth:token-revoked"


def forget_tokens(**_: Any) -> None:
    global _forgotten
    _forgotten += 1
    _CACHE.clear()


class Revocations:
    """This process's subscription to :data:`CHANNEL`, on a daemon thread: each message (and each
    new subscription, after which messages missed meanwhile are unknown) empties the token cache.
    ``live`` is set while subscribed; any failure clears it, and the thread subscribes again after
    ``RETRY_SECONDS``. ``HEARTBEAT`` seconds without a message, the connection is checked (a PING),
    so a Redis that vanished without closing the socket is noticed within twice that."""

    HEARTBEAT = 5.0
    RETRY_SECONDS = 1.0

    def __init__(self, cache_backend: Any) -> None:
        self.backend = cache_backend
        self.pid = os.getpid()
        self.live = threading.Event()
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._run, name="token-revocations", daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.stopped.set()
        self.live.clear()

    def _run(self) -> None:
        while not self.stopped.is_set():
            pubsub = None
            try:
                client = self.backend.subscriber(
                    socket_connect_timeout=1.0,
                    socket_timeout=2 * self.HEARTBEAT,
                    health_check_interval=self.HEARTBEAT,
                )
                pubsub = client.pubsub()
                pubsub.subscribe(CHANNEL)
                while not self.stopped.is_set():
                    message = pubsub.get_message(timeout=self.HEARTBEAT)
                    if message is None:
                        pubsub.check_health()
                    elif message["type"] == "subscribe":
                        forget_tokens()  # whatever was revoked while not listening
                        self.live.set()
                    elif message["type"] == "message":
                        forget_tokens()
            except Exception as exc:  # the listener must outlive anything Redis does
                if self.live.is_set():
                    log.warning("auth: lost the revocation channel (%s); reading tombstones meanwhile", exc)
            finally:
                self.live.clear()
                forget_tokens()
                if pubsub is not None:
                    with contextlib.suppress(Exception):  # closing a broken connection may fail too
                        pubsub.close()
            self.stopped.wait(self.RETRY_SECONDS)


_revocations: Revocations | None = None
_revocations_lock = threading.Lock()
_unshared_pid = 0  # this process's default cache is its own memory: nothing to listen to


def _listening() -> bool:
    """Whether this process hears revocations now (so its cached tokens need no tombstone read);
    starts the listener on first use in a process whose default cache is the shared one."""
    current, pid = _revocations, os.getpid()
    if current is not None and current.pid == pid:
        return current.live.is_set()
    if _unshared_pid == pid:
        return False
    return _start_listening()


def _start_listening() -> bool:
    global _revocations, _unshared_pid
    backend = caches["default"]
    if not isinstance(backend, FallbackRedisCache):
        _unshared_pid = os.getpid()
        return False
    with _revocations_lock:
        if _revocations is None or _revocations.pid != os.getpid():
            _revocations = Revocations(backend)
    return _revocations.live.is_set()


def _new_cache_settings(*, setting: str, **_: Any) -> None:
    """Another default cache (tests): the listener follows it."""
    global _revocations, _unshared_pid
    if setting == "CACHES":
        with _revocations_lock:
            if _revocations is not None:
                _revocations.stop()
            _revocations, _unshared_pid = None, 0
        forget_tokens()


setting_changed.connect(_new_cache_settings, dispatch_uid="common.auth.new_cache_settings")


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
        transaction.on_commit(lambda: _tell(stones, ttl + 1))


def _tell(stones: dict[str, int], ttl: int) -> None:
    """Tombstones first (a process not listening reads them), then the message to those listening."""
    cache.set_many(stones, timeout=ttl)
    publish = getattr(cache, "publish", None)
    if publish is not None:
        publish(CHANNEL, b"")


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
        if _listening() or cache.get(_tombstone_key(key)) is None:
            return hit[1], hit[2]
        _CACHE.pop(key, None)  # revoked in another process: the database decides
    before = _forgotten
    try:
        token = Token.objects.select_related("user", "user__player", "user__account").get(key=key)
    except Token.DoesNotExist:
        raise exceptions.AuthenticationFailed(_("invalid token")) from None
    if not token.user.is_active:
        raise exceptions.AuthenticationFailed(_("user inactive or deleted"))
    if ttl > 0 and before == _forgotten:
        _CACHE[key] = (now + ttl, token.user, token)
        if len(_CACHE) > _CACHE_SIZE:
            with contextlib.suppress(KeyError):  # emptied meanwhile by another thread
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
