"""The Redis cache, kept working while Redis is away.

The cache holds only what can be rebuilt: throttle counters, cached API tokens, page tags. So
when Redis does not answer, each process carries on with a memory cache of its own and logs a
warning, rather than answering 500: throttles keep counting per process (they fail open across
processes) and cached reads are recomputed. For ``BACKOFF_SECONDS`` after a failure, Redis is not
tried again, so requests do not each wait for a connection that will be refused; then the next
call tries Redis again and, if it answers, the shared cache is back.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from common import redis_url

log = logging.getLogger(__name__)

#: Seconds Redis is left alone after it failed to answer.
BACKOFF_SECONDS = 5.0
_UNAVAILABLE = (RedisConnectionError, RedisTimeoutError, OSError)


class ReusedClient(RedisCacheClient):
    """Django's Redis cache client with one ``redis.Redis`` per connection pool, made once: Django's
    own builds a new one for every cache call, which was most of a ``get``'s CPU (a Redis client
    is safe to share between threads: each command takes a connection from the pool)."""

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)
        clients = self.__dict__.setdefault("_clients", {})
        client = clients.get(id(pool))
        if client is None:
            client = clients[id(pool)] = self._client(connection_pool=pool)
        return client


class SentinelCacheClient(ReusedClient):
    """Django's Redis cache client on the master that Redis Sentinel names (``REDIS_URL`` =
    ``sentinel://…``, ``common.redis_url``): Django's own knows only ``redis://`` and raised
    ValueError on every use. The pool asks the sentinels for the master again after a failover."""

    def _get_connection_pool(self, write: bool) -> Any:
        if 0 not in self._pools:
            self._pools[0] = redis_url.client(self._servers[0], **self._pool_options).connection_pool
        return self._pools[0]


class FallbackRedisCache(RedisCache):
    """Django's Redis cache with a per-process memory cache while Redis is down."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        sentinel = isinstance(server, str) and redis_url.is_sentinel(server)
        # A sentinel URL lists its sentinels with commas: one location, not several servers.
        super().__init__([server] if sentinel else server, params)
        self._class = ReusedClient
        if sentinel:
            redis_url.parse(server)  # a malformed URL fails here, not at the first get or set
            self._class = SentinelCacheClient
        self._fallback = LocMemCache(f"redis-fallback-{id(self)}", {"TIMEOUT": params.get("TIMEOUT", 300)})
        self._lock = threading.Lock()
        self._down_until = 0.0

    @property
    def redis_down(self) -> bool:
        """Whether Redis failed within the last ``BACKOFF_SECONDS`` (and is being left alone)."""
        return time.monotonic() < self._down_until

    def _either(self, name: str, *args: Any, **kwargs: Any) -> Any:
        if not self.redis_down:
            try:
                return getattr(super(), name)(*args, **kwargs)
            except _UNAVAILABLE as exc:
                self._note_down(exc)
        method: Callable[..., Any] = getattr(self._fallback, name)
        return method(*args, **kwargs)

    def _note_down(self, exc: BaseException) -> None:
        """Leave Redis alone for ``BACKOFF_SECONDS``; say so once."""
        with self._lock:
            first = not self.redis_down
            self._down_until = time.monotonic() + BACKOFF_SECONDS
        if first:
            log.warning(
                "cache: Redis does not answer (%s: %s); using this process's memory for %.0f s",
                type(exc).__name__,
                exc,
                BACKOFF_SECONDS,
            )

    def add(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("add", *args, **kwargs)

    def get(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("get", *args, **kwargs)

    def set(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("set", *args, **kwargs)

    def touch(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("touch", *args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("delete", *args, **kwargs)

    def get_many(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("get_many", *args, **kwargs)

    def has_key(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("has_key", *args, **kwargs)

    def incr(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("incr", *args, **kwargs)

    def set_many(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("set_many", *args, **kwargs)

    def delete_many(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("delete_many", *args, **kwargs)

    def clear(self) -> Any:
        return self._either("clear")

    def run_script(self, lua: str, keys: list[str], args: list[Any]) -> Any:
        """Run the Lua script ``lua`` on Redis, atomically, over the cache keys ``keys`` (made
        with this cache's prefix and version, as ``get`` and ``set`` make them) and ``args``: one
        round trip (``EVALSHA``; the script is sent again if Redis lost it). Values the script
        reads or writes must be integers, which this cache stores as they are.

        Raises :class:`RedisAway` while Redis does not answer (and for ``BACKOFF_SECONDS`` after):
        the caller then does the same with the cache's plain calls, which use this process's
        memory meanwhile."""
        if self.redis_down:
            raise RedisAway
        client = self._cache.get_client(write=True)
        scripts = self.__dict__.setdefault("_scripts", {})
        script = scripts.get((id(client), lua))
        if script is None:
            script = scripts[(id(client), lua)] = client.register_script(lua)
        try:
            return script(keys=[self.make_and_validate_key(key) for key in keys], args=args)
        except _UNAVAILABLE as exc:
            self._note_down(exc)
            raise RedisAway from exc

    def publish(self, channel: str, message: bytes = b"") -> bool:
        """``PUBLISH`` on the cache's Redis (the channel as it is, no prefix); False while Redis
        does not answer (no one else hears this process then)."""
        if self.redis_down:
            return False
        try:
            self._cache.get_client(write=True).publish(channel, message)
        except _UNAVAILABLE as exc:
            self._note_down(exc)
            return False
        return True

    def subscriber(self, **options: Any) -> Any:
        """A new ``redis.Redis`` of its own on the cache's Redis (for a subscription, which holds
        its connection), with these connection options."""
        return redis_url.client(self._servers[0], **options)


class RedisAway(Exception):
    """Redis did not answer (or is being left alone after it did not): see
    :meth:`FallbackRedisCache.run_script`."""
