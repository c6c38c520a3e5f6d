"""Who is online: a player seen in the last ``ONLINE_SECONDS`` (five minutes) is online.

Presence lives in the Django cache only (Redis in deployment, a process's memory in tests): a
key per account (the user id: a request knows it without a query) holding when it was last
seen, expiring with the online window, so nothing is written to the database and nothing needs
cleaning up. ``community.middleware.PresenceMiddleware``
calls :func:`mark_seen` for signed-in requests, at most once a minute per player and process
(``WRITE_EVERY``); friends lists read many accounts at once with :func:`online_ids` (one cache
round trip). A cache that is down makes everyone look offline, never fails a page.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from django.core.cache import cache

#: Seen within this many seconds: online.
ONLINE_SECONDS = 300
#: A player's presence is written at most this often (seconds) by one process.
WRITE_EVERY = 60
KEY = "presence:seen:{}"


def _key(user_id: int) -> str:
    return KEY.format(user_id)


def mark_seen(user_id: int, *, now: float | None = None) -> None:
    """Remember that the account ``user_id`` was seen now (the key expires with the online window)."""
    at = time.time() if now is None else now
    try:
        cache.set(_key(user_id), at, timeout=ONLINE_SECONDS)
    except Exception:  # presence is a nicety: a cache outage must not fail the request
        return


def online_ids(ids: Iterable[int], *, now: float | None = None) -> set[int]:
    """Those of the accounts ``ids`` (user ids) seen in the last ``ONLINE_SECONDS`` (one cache
    read for them all)."""
    wanted = {int(i) for i in ids}
    if not wanted:
        return set()
    at = time.time() if now is None else now
    try:
        found = cache.get_many([_key(i) for i in wanted])
    except Exception:  # nobody looks online while the cache is down
        return set()
    return {i for i in wanted if at - float(found.get(_key(i), 0) or 0) <= ONLINE_SECONDS}


def is_online(user_id: int) -> bool:
    return user_id in online_ids([user_id])
