"""Signed-in sessions, listed on the settings page, and "log out everywhere".

Django's session store keeps no index by user, so each sign-in writes a
:class:`~accounts.models.SessionRecord` (address, browser, when last seen). Listing checks each
record's session still exists; ending one deletes it from the session store itself.

A session's key is its cookie's value, a credential: the page never shows one. It names each
session by :func:`public_id`, an HMAC of the key with the ``SECRET_KEY``, and :func:`end` finds the
session by that id among the user's own.
"""

from __future__ import annotations

from datetime import timedelta
from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.sessions.backends.base import SessionBase
from django.http import HttpRequest
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from rest_framework.authtoken.models import Token

from common.auth import forget_tokens

from .models import SessionRecord, session_public_id

#: A session's "last seen" is written at most this often (not on every page).
SEEN_EVERY = timedelta(minutes=5)


def _store(key: str | None = None) -> SessionBase:
    engine = import_module(settings.SESSION_ENGINE)
    return engine.SessionStore(session_key=key)  # type: ignore[no-any-return]


def client_address(request: HttpRequest) -> str:
    return str(request.META.get("REMOTE_ADDR", ""))[:45]


def record(request: HttpRequest, user: Any) -> None:
    if not request.session.session_key:
        request.session.save()
    key = request.session.session_key
    if not key:
        return
    SessionRecord.objects.update_or_create(
        session_key=key,
        defaults={
            "user": user,
            "last_seen": timezone.now(),
            "ip": client_address(request),
            "user_agent": str(request.META.get("HTTP_USER_AGENT", ""))[:200],
        },
    )


def forget(key: str) -> None:
    SessionRecord.objects.filter(session_key=key).delete()


def seen(request: HttpRequest) -> None:
    """Refresh this session's "last seen" when it is older than ``SEEN_EVERY``."""
    key = request.session.session_key
    if not key:
        return
    now = timezone.now()
    SessionRecord.objects.filter(session_key=key, last_seen__lt=now - SEEN_EVERY).update(
        last_seen=now, ip=client_address(request)
    )


def live(user: Any) -> list[SessionRecord]:
    """The user's sessions that still exist (records of expired ones are dropped)."""
    out, gone = [], []
    for rec in SessionRecord.objects.filter(user=user):
        (out if _store().exists(rec.session_key) else gone).append(rec)
    if gone:
        SessionRecord.objects.filter(pk__in=[r.pk for r in gone]).delete()
    return out


public_id = session_public_id


def end(user: Any, session_id: str) -> bool:
    """End the user's session whose :func:`public_id` is ``session_id``; False if none of theirs is."""
    if not session_id:
        return False
    for rec in SessionRecord.objects.filter(user=user):
        if constant_time_compare(public_id(rec.session_key), session_id):
            _store(rec.session_key).delete(rec.session_key)
            rec.delete()
            return True
    return False


def end_all(user: Any, *, keep: str | None = None, tokens: bool = True) -> int:
    """Log ``user`` out everywhere (but the session ``keep``); revoke their API token too."""
    ended = 0
    for rec in SessionRecord.objects.filter(user=user):
        if rec.session_key == keep:
            continue
        _store(rec.session_key).delete(rec.session_key)
        rec.delete()
        ended += 1
    if tokens:
        Token.objects.filter(user=user).delete()
        forget_tokens()
    return ended
