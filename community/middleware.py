"""Presence (``community.presence``): a signed-in request marks its account as seen.

Cheap by design: it costs no query (it uses only a user the request already read: a page's
session, an API token read by the view) and writes the cache at most once a minute per account
and process (``presence.WRITE_EVERY``); every other request costs a dictionary look-up. It runs
after the response is made, so a request authenticated by an API token (DRF sets ``request.user``
in the view) counts too, and it never fails a request.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils.functional import SimpleLazyObject, empty

from . import presence

#: user id → when this process last wrote their presence (monotonic). Bounded: cleared when full.
_WRITTEN: dict[int, float] = {}
_WRITTEN_MAX = 50_000
_LOCK = threading.Lock()


class PresenceMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        user = _user_read(request)
        if user is not None and user.is_authenticated:
            seen(user.pk)
        return response


def _user_read(request: HttpRequest) -> Any:
    """The request's user if something read it already (else None: reading it here would cost
    the session's and the user's queries for a request that never asked who is there)."""
    user = request.__dict__.get("user")
    if isinstance(user, SimpleLazyObject) and user._wrapped is empty:  # Django's lazy user, not read yet
        return None
    return user


def seen(user_id: int, *, now: float | None = None) -> None:
    """Mark ``user_id`` as seen, unless this process did within ``presence.WRITE_EVERY``."""
    at = time.monotonic() if now is None else now
    last = _WRITTEN.get(user_id)
    if last is not None and at - last < presence.WRITE_EVERY:
        return
    with _LOCK:
        if len(_WRITTEN) >= _WRITTEN_MAX:
            _WRITTEN.clear()
        _WRITTEN[user_id] = at
    presence.mark_seen(user_id)


def forget_all() -> None:
    """Forget what this process wrote (tests start from nobody seen)."""
    with _LOCK:
        _WRITTEN.clear()
