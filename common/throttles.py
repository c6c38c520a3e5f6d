"""Who a request comes from, for throttling, and the limits on signing in.

**The client's address.** DRF's throttles read it through ``get_ident``: with the
``NUM_PROXIES`` setting (``TRUSTED_PROXIES`` in the environment, default 0) at 0
it is the connection's address (``REMOTE_ADDR``) and ``X-Forwarded-For`` is
ignored, so a client cannot pick a new identity per request by sending a new
header. Behind ``n`` reverse proxies it is the address the outermost trusted proxy
saw: the ``n``-th entry from the right of ``X-Forwarded-For`` (the entries to the
left of it are written by the client and not trusted). The compose file's
reverse proxy sets ``TRUSTED_PROXIES=1``. :func:`client_address` gives pages the
same answer.

**Signing in** (the API's ``auth/token/`` and the sign-in page) is limited twice:

* per address, by the ``auth`` rate (every attempt counts), as account creation;
* per account, by the ``login_account`` rate, counting **failed** attempts only:
  guessing one account's password from many addresses stops at that rate, and
  the owner, who signs in right, is never counted. Accounts are keyed by their
  case-folded name, hashed (the cache never holds a name).
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.http import HttpRequest
from rest_framework.throttling import BaseThrottle, SimpleRateThrottle


def client_address(request: HttpRequest) -> str:
    """The client's address as the API's throttles see it (see the module docstring)."""
    return str(BaseThrottle().get_ident(request))  # type: ignore[arg-type]


class _Counter(SimpleRateThrottle):
    """A rate limit on some key that the caller records into explicitly (not on every request)."""

    def __init__(self, scope: str, ident: str) -> None:
        self.scope = scope
        self.ident = ident
        super().__init__()

    def get_rate(self) -> str | None:
        # A scope without a rate (settings that list only some scopes) is not limited.
        return self.THROTTLE_RATES.get(self.scope)

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.ident}

    def blocked(self) -> float | None:
        """Seconds to wait when the limit is reached, else ``None`` (records nothing)."""
        if self.rate is None:
            return None
        self.key = self.get_cache_key(None, None)
        self.history = self.cache.get(self.key, [])
        self.now = self.timer()
        while self.history and self.history[-1] <= self.now - self.duration:
            self.history.pop()
        if len(self.history) >= self.num_requests:
            return self.wait()
        return None

    def record(self) -> None:
        """Count one event now."""
        if self.rate is None:
            return
        self.blocked()  # loads the history, without what has expired
        self.history.insert(0, self.now)
        self.cache.set(self.key, self.history, self.duration)


def _account(username: str) -> str:
    return hashlib.sha256(username.strip().casefold().encode()).hexdigest()[:32]


class SignInLimits:
    """The limits on signing in for one request and account name (see the module docstring).

    ``by_address``: also count every attempt against the client's address (the sign-in page; the
    API's view has DRF's ``auth`` throttle for that already).
    """

    def __init__(self, request: HttpRequest, username: str, by_address: bool = True) -> None:
        self.counters = [_Counter("login_account", _account(username))]
        self.address = _Counter("auth", client_address(request)) if by_address else None

    def blocked(self) -> float | None:
        """Seconds to wait if this attempt may not be made now, else ``None``."""
        counters = [*self.counters, *([self.address] if self.address else [])]
        waits = [w for w in (c.blocked() for c in counters) if w is not None]
        return max(waits) if waits else None

    def attempted(self, ok: bool) -> None:
        """Record an attempt: every one against the address, a failed one against the account."""
        if self.address is not None:
            self.address.record()
        if not ok:
            for counter in self.counters:
                counter.record()
