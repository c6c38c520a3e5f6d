"""Fixtures of the operations tests: a Redis server of the test's own."""

from __future__ import annotations

from .redis_server import own_redis

__all__ = ["own_redis"]
