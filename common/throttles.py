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

**The API's request throttles** (``anon``, ``user``, and a view's ``throttle_scope`` such as
``watch``: :class:`AnonThrottle`, :class:`UserThrottle`, :class:`ScopedThrottle`) count the same
way, per client and scope, with DRF's rates, idents and 429 answer (``Retry-After``: when the
estimate next admits a request). A request costs the same whatever the rate: one atomic
increment of one integer per client, scope and window (which also carries the previous window's
count), not DRF's read and write-back of a list of every request time in the window.
"""

from __future__ import annotations

import contextlib
from typing import Any

from django.core.cache import cache
from django.http import HttpRequest
from rest_framework.throttling import (
    AnonRateThrottle,
    BaseThrottle,
    ScopedRateThrottle,
    SimpleRateThrottle,
    UserRateThrottle,
)

from common import devices
from common.cache import RedisAway


def client_address(request: HttpRequest) -> str:
    """The client's address as the API's throttles see it (see the module docstring)."""
    return str(BaseThrottle().get_ident(request))  # type: ignore[arg-type]


#: A count's key holds the window's count in its low bits and, above them, the previous window's
#: final count, copied in by the window's first event when it made the key: one atomic increment
#: reads both. (Events a host whose clock is a little behind still counts in the previous window
#: after that are not carried over: a few at most, at a window's edge.)
_SHIFT = 32
_LOW = (1 << _SHIFT) - 1


def _take(prefix: str, limit: int, duration: int, now: float) -> tuple[str | None, float]:
    """Count one event on ``prefix`` at ``now`` if the sliding estimate (see the module docstring)
    stays within ``limit`` per ``duration`` seconds: ``(the key counted, 0.0)``. Else count nothing:
    ``(None, seconds to wait)``.

    Constant cost whatever the rate: one atomic increment of one integer (the window's first
    event also reads the previous window's and makes the key), and an overshooting increment
    is given back, so parallel events cannot overrun the limit."""
    window, into = divmod(now, duration)
    key = f"{prefix}:{int(window)}"
    value = _incr(key, f"{prefix}:{int(window) - 1}", 2 * duration)
    count, previous = value & _LOW, value >> _SHIFT
    if count + previous * (1 - into / duration) <= limit:
        return key, 0.0
    _decr(key)
    count -= 1  # the others
    # When the estimate falls below the limit: within this window, or in the next one.
    left = limit - count
    if left > 0 and previous:
        wait = duration * (1 - (left - 1) / previous) - into
    else:
        wait = duration - into + duration * (1 - (limit - 1) / max(count, 1))
    return None, max(1.0, round(wait, 3))  # whole seconds stay whole (Retry-After rounds up)


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

    def take(self) -> float | None:
        """Count one event now, or, when the limit is reached, count nothing and say how many
        seconds to wait."""
        if self.limit is None or self.duration is None:
            return None
        self.taken, wait = _take(f"signin:{self.scope}:{self.ident}", self.limit, self.duration, self.timer())
        return None if self.taken else wait

    def give_back(self) -> None:
        """Uncount the event :meth:`take` counted (an attempt refused, or a right password)."""
        if self.taken is not None:
            _decr(self.taken)
            self.taken = None


#: :func:`_incr` on Redis, in one round trip: ``INCR`` makes a missing key at 1 (with no expiry),
#: so a 1 is the window's first event, which puts the previous window's count above it and sets
#: the expiry. Lua numbers are doubles: the previous count is capped below 2**21 so the sum stays
#: exact (a window of over two million events is refused either way).
_INCR_LUA = """
local value = redis.call('INCR', KEYS[1])
if value == 1 then
  local previous = math.min((tonumber(redis.call('GET', KEYS[2])) or 0) % 4294967296, 2097151)
  value = previous * 4294967296 + 1
  redis.call('SET', KEYS[1], string.format('%d', value), 'EX', ARGV[1])
end
return value
"""


def _incr(key: str, previous_key: str, timeout: int) -> int:
    """Add one to the count at ``key``; when it is not there (the window's first event, or it
    expired since), make it, with the count at ``previous_key`` above the new count of one, to
    expire after ``timeout`` seconds. Returns the key's value.

    On Redis that is one script (one round trip, atomic); in memory, and while Redis is away
    (``common.cache``), the cache's own calls: an increment, and for the window's first event a
    read and an ``add``."""
    run_script = getattr(cache, "run_script", None)
    if run_script is not None:
        with contextlib.suppress(RedisAway):
            return int(run_script(_INCR_LUA, [key, previous_key], [timeout]))
    for _attempt in range(3):
        try:
            return int(cache.incr(key))
        except ValueError:
            value = ((int(cache.get(previous_key, 0)) & _LOW) << _SHIFT) + 1
            if cache.add(key, value, timeout):
                return value
            # another event made it meanwhile: add one to theirs
    return 1


def _decr(key: str) -> None:
    with contextlib.suppress(ValueError):  # expired meanwhile: nothing left to uncount
        cache.decr(key)


class CountingThrottle(SimpleRateThrottle):
    """DRF's :class:`SimpleRateThrottle` (the same scopes, rates, idents and ``timer``) on the
    sliding count of the sign-in limits (see the module docstring) instead of DRF's list of the
    window's request times. DRF reads and writes back that whole list (up to the rate's number
    of timestamps, pickled) on every request; here a request is one atomic increment of an
    integer (given back when refused): the cost does not grow with the rate. Mixed in after a
    DRF throttle, which says who the client is (``get_cache_key``)."""

    cache_format = "throttle:%(scope)s:%(ident)s"

    def allow_request(self, request: Any, view: Any) -> bool:
        self._wait: float | None = None
        if self.rate is None or self.num_requests is None or self.duration is None:
            return True
        prefix = self.get_cache_key(request, view)
        if prefix is None:
            return True
        taken, wait = _take(prefix, self.num_requests, self.duration, self.timer())
        if taken is None:
            self._wait = wait
        return taken is not None

    def wait(self) -> float | None:
        return getattr(self, "_wait", None)


class AnonThrottle(AnonRateThrottle, CountingThrottle):
    """The ``anon`` rate per client address, for requests without a signed-in user (the API's
    default, with :class:`UserThrottle`)."""


class UserThrottle(UserRateThrottle, CountingThrottle):
    """The ``user`` rate per signed-in user (per client address for others)."""


class ScopedThrottle(ScopedRateThrottle, CountingThrottle):
    """The rate of the view's ``throttle_scope`` per signed-in user (else per address), as DRF's
    :class:`ScopedRateThrottle` (e.g. ``watch``, the game pages' polling)."""


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
