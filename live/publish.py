"""Publishing that something changed: one Redis ``PUBLISH live:<topic>`` per change, after the
commit that made it. Never raises: a Redis that is down costs the pages their push for a while
(the hubs' periodic recheck and the pages' polling fallback cover it), never a write."""

from __future__ import annotations

import logging
import threading
import time

import redis
from django.conf import settings

from common import redis_url

log = logging.getLogger(__name__)

PREFIX = "live:"
_client: redis.Redis | None = None
_lock = threading.Lock()
_down_until = 0.0


def client() -> redis.Redis | None:
    global _client
    if not settings.REDIS_URL:
        return None
    with _lock:
        if _client is None:
            _client = redis_url.client(settings.REDIS_URL, socket_connect_timeout=0.3, socket_timeout=0.3)
        return _client


def publish(*topics: str) -> int:
    """Tell every hub that these topics changed; return how many were published."""
    global _down_until
    r = client()
    if r is None or time.monotonic() < _down_until:
        return 0
    try:
        with r.pipeline(transaction=False) as pipe:
            for topic in topics:
                pipe.publish(PREFIX + topic, b"")
            pipe.execute()
    except redis.RedisError as exc:
        _down_until = time.monotonic() + settings.BROKER_BACKOFF_SECONDS
        log.warning("live: could not publish %s (%s); pages fall back to rechecking", topics, exc)
        return 0
    return len(topics)
