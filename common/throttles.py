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

**Signing in** (the API's ``auth/token/``, the sign-in page and the admin's sign-in) is limited
three ways:

* per address, by the ``auth`` rate (every attempt counts), with account creation, on one
  count (:class:`AuthAddressThrottle` in the API);
* per account, by the ``login_account`` rate, counting **failed** attempts from *untrusted*
  clients only: guessing one account's password from many addresses stops at that rate, and
  the owner, who signs in right, is never counted. Accounts are keyed by their case-folded
  name, hashed (the cache never holds a name).
* per device, by the ``login_device`` rate: a client that shows a valid **device cookie** for
  the account (OWASP's "slow down online guessing with device cookies": a signed value the
  browser got when it last signed in to that account, :mod:`common.devices`) is counted against
  that cookie alone, not against the account. So strangers' failures lock strangers out, and
  the owner's browser still signs in; a device cookie that fails too often is refused.

The sign-in counters are atomic (the cache's ``add``/``incr``, on Redis and in memory): an
attempt takes its place in each count *before* the password is checked, and gives it back when
it is refused or (for the account and device counts) when the password was right. Parallel
attempts cannot overrun a limit. Each count is a sliding window, estimated from the current and
the previous fixed window (the previous one weighted by how much of it is still in the window).
"""

from __future__ import annotations

import contextlib
import time
from typing import Any

from django.core.cache import cache
from django.http import HttpRequest
from rest_framework.throttling import BaseThrottle, SimpleRateThrottle

from common import devices


def client_address(request: HttpRequest) -> str:
    """The client's address as the API's throttles see it (see the module docstring)."""
    return str(BaseThrottle().get_ident(request))  # type: ignore[arg-type]


class _Counter(SimpleRateThrottle):
    """An atomic count of events on a key, limited by the rate of ``scope`` (see the module
    docstring): :meth:`take` counts one if the limit allows it, :meth:`give_back` uncounts it.
    The rates are DRF's throttle rates, so one setting names each rate whoever counts."""

    def __init__(self, scope: str, ident: str) -> None:
        self.scope = scope
        self.ident = ident
        self.taken: str | None = None
        super().__init__()
        self.limit: int | None = self.num_requests

    def get_rate(self) -> str | None:
        # A scope without a rate (settings that list only some scopes) is not limited.
        return self.THROTTLE_RATES.get(self.scope)

    def _key(self, window: int) -> str:
        return f"signin:{self.scope}:{self.ident}:{window}"

    def take(self) -> float | None:
        """Count one event now, or, when the limit is reached, count nothing and say how many
        seconds to wait."""
        if self.limit is None or self.duration is None:
            return None
        now = time.time()
        window, into = divmod(now, self.duration)
        key = self._key(int(window))
        count = _incr(key, 2 * self.duration)
        previous = int(cache.get(self._key(int(window) - 1), 0))
        weight = 1 - into / self.duration
        if count + previous * weight <= self.limit:
            self.taken = key
            return None
        _decr(key)
        # When the estimate falls below the limit: within this window, or in the next one.
        left = self.limit - (count - 1)
        if left > 0 and previous:
            wait = self.duration * (1 - (left - 1) / previous) - into
        else:
            wait = self.duration - into + self.duration * (1 - (self.limit - 1) / max(count - 1, 1))
        return max(1.0, wait)

    def give_back(self) -> None:
        """Uncount the event :meth:`take` counted (an attempt refused, or a right password)."""
        if self.taken is not None:
            _decr(self.taken)
            self.taken = None


def _incr(key: str, timeout: int) -> int:
    for _attempt in range(3):
        cache.add(key, 0, timeout)
        try:
            return int(cache.incr(key))
        except ValueError:  # expired between the two calls: add it again
            continue
    return 1


def _decr(key: str) -> None:
    with contextlib.suppress(ValueError):  # expired meanwhile: nothing left to uncount
        cache.decr(key)


class AuthAddressThrottle(BaseThrottle):
    """DRF's throttle for the ``auth`` rate per address (registration, ``auth/token/``), on the
    same atomic count as the sign-in pages: one budget per address for creating accounts and
    signing in, wherever it is spent."""

    def allow_request(self, request: Any, view: Any) -> bool:
        self._wait = _Counter("auth", client_address(request)).take()
        return self._wait is None

    def wait(self) -> float | None:
        return self._wait


class SignInLimits:
    """The limits on one sign-in attempt with the account name ``username`` (see the module
    docstring). :meth:`reserve` before the password is checked, :meth:`settle` after.

    ``by_address``: also count every attempt against the client's address (the sign-in pages; the
    API's views have :class:`AuthAddressThrottle` for that, on the same count).
    """

    def __init__(self, request: HttpRequest, username: str, by_address: bool = True) -> None:
        account = devices.account_key(username)
        #: The id of the device cookie for this account the client showed, if a valid one.
        self.device = devices.shown(request, account)
        if self.device:
            self.guesses = _Counter("login_device", self.device)
        else:
            self.guesses = _Counter("login_account", account)
        self.address = _Counter("auth", client_address(request)) if by_address else None
        #: The scope whose limit refused the attempt ("auth", "login_account", "login_device").
        self.refused_by: str | None = None

    def reserve(self) -> float | None:
        """Count this attempt, or, if a limit is reached, count nothing and give the seconds to
        wait (the password must then not be checked)."""
        taken: list[_Counter] = []
        for counter in [c for c in (self.address, self.guesses) if c is not None]:
            wait = counter.take()
            if wait is not None:
                for other in taken:
                    other.give_back()
                self.refused_by = counter.scope
                return wait
            taken.append(counter)
        return None

    def settle(self, ok: bool) -> None:
        """After the check: a right password is not counted against the account or device (the
        address keeps every attempt)."""
        if ok:
            self.guesses.give_back()
