"""Device cookies: OWASP's "slow down online guessing attacks with device cookies".

A browser (or API client) that signed in to an account gets a **device cookie** for it: a value
signed with the ``SECRET_KEY`` (Django's signing, salted for this use) naming the account, by the
hash of its case-folded name, and a random id of its own. It proves nothing about who signs in
(the password still does); it only says "this client signed in to this account before", so that
its failed attempts are counted against this cookie alone (``common.throttles``) and a lock-out
caused by strangers' guesses does not reach it.

The cookie is ``DEVICE_COOKIE_NAME`` (``signin_device``), kept ``DEVICE_COOKIE_DAYS`` (365), HttpOnly,
SameSite=Lax and Secure where the session cookie is (production). The API's ``auth/token/``
sets it too and returns its value as ``device``; a program sends it back either as that cookie
or in the ``X-Device-Cookie`` header. A cookie for another account, a tampered or an expired one
counts as none.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from django.conf import settings
from django.core import signing
from django.http import HttpRequest, HttpResponse

SALT = "common.devices.cookie"
#: The request header an API client may send the device cookie's value in.
HEADER = "X-Device-Cookie"


def cookie_name() -> str:
    return str(getattr(settings, "DEVICE_COOKIE_NAME", "signin_device"))


def _max_age() -> int:
    return int(float(getattr(settings, "DEVICE_COOKIE_DAYS", 365)) * 86400)


def account_key(username: str) -> str:
    """The key of an account name in device cookies and sign-in counters: case-folded, hashed."""
    return hashlib.sha256(str(username).strip().casefold().encode()).hexdigest()[:32]


def shown(request: HttpRequest, account: str) -> str | None:
    """The id of a valid device cookie for ``account`` that the request carries, else ``None``."""
    for value in (request.COOKIES.get(cookie_name()), request.headers.get(HEADER)):
        if not value:
            continue
        try:
            data = signing.loads(value, salt=SALT, max_age=_max_age())
        except signing.BadSignature:  # tampered, made up, or expired
            continue
        if isinstance(data, dict) and data.get("a") == account and isinstance(data.get("n"), str):
            return str(data["n"])
    return None


def issue(response: HttpResponse, user: Any) -> str:
    """Give the client that just signed in as ``user`` a new device cookie; its value."""
    value = signing.dumps({"a": account_key(user.get_username()), "n": secrets.token_urlsafe(16)}, salt=SALT)
    response.set_cookie(
        cookie_name(),
        value,
        max_age=_max_age(),
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )
    return value
