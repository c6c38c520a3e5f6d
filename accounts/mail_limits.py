"""Limits on the mails nobody confirmed they want: address verification, password reset and the
notices ("someone tried to sign up with your address", "your address is being changed").

Anyone can type an address into a sign-up, a settings page or the reset form, so each such mail is
counted three times, and none is sent once any count is past its limit:

* per **recipient address** (``MAIL_LIMIT_ADDRESS``, default 3 a day): an inbox gets at most a
  few mails a day from this site that its owner did not ask for, however many accounts or
  clients ask; the address is counted without its ``+tag`` and case folded, hashed (the cache
  never holds an address);
* per **requesting client address** (``MAIL_LIMIT_CLIENT``, default 10 an hour);
* per **account** the mail is about (``MAIL_LIMIT_ACCOUNT``, default 5 a day).

Counts live in the cache and are taken atomically (``cache.add`` then ``cache.incr``): a window
starts with the first mail and lasts the rate's period. A refused mail counts too, so hammering
only keeps the window full.
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext as _
from rest_framework import status

from common.errors import ServiceError

PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


class MailLimited(ServiceError):
    """Too many mails for this address, client or account: nothing was sent or changed."""

    status_code = status.HTTP_429_TOO_MANY_REQUESTS
    code = "throttled"


def limited_error() -> MailLimited:
    return MailLimited(
        _(
            "too many e-mails were sent for this address, account or network recently: "
            "nothing was sent; try again tomorrow"
        )
    )


def parse_rate(rate: str | None) -> tuple[int, int] | None:
    """``"3/day"`` → (3, 86400); None or empty: no limit."""
    if not rate:
        return None
    count, _slash, period = rate.partition("/")
    return int(count), PERIODS[period.strip()[:1].lower()]


def address_key(address: str) -> str:
    """The recipient as counted: case folded, without a ``+tag`` in the local part."""
    local, _at, domain = address.strip().rpartition("@")
    local = local.split("+", 1)[0]
    return f"{local}@{domain}".casefold()


def _digest(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()[:32]


def _count(key: str, period: int) -> int:
    """Add one to ``key`` (made with the window's length if new); the count after it."""
    for _attempt in range(2):
        cache.add(key, 0, timeout=period)
        try:
            return int(cache.incr(key))
        except ValueError:  # the window ended between add and incr: start a new one
            continue
    return 1


def take(*, to: str, client: str = "", user_id: int | None = None) -> bool:
    """Count one mail to ``to`` asked by ``client`` about account ``user_id``; False (send
    nothing) when any count is past its limit."""
    buckets = [(settings.MAIL_LIMIT_ADDRESS, "to", address_key(to))]
    if client:
        buckets.append((settings.MAIL_LIMIT_CLIENT, "client", client))
    if user_id is not None:
        buckets.append((settings.MAIL_LIMIT_ACCOUNT, "account", str(user_id)))
    allowed = True
    for rate, kind, ident in buckets:
        limit = parse_rate(rate)
        if limit is None:
            continue
        count, period = limit
        if _count(f"mail-limit:{kind}:{_digest(ident)}", period) > count:
            allowed = False
    return allowed
