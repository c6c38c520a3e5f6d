"""``REDIS_URL``: one Redis, or a master found through Redis Sentinel.

``redis://`` (and ``rediss://``, ``unix://``) URLs go to redis-py as they are. A Sentinel URL

    sentinel://[:PASSWORD@]HOST:PORT[,HOST:PORT…]/MASTER_NAME[/DB][?sentinel_password=…]

names the sentinels, the master they watch and the database number (default 0); ``PASSWORD`` is the
master's, ``sentinel_password`` the sentinels' own (if they require one). redis-py's ``from_url``
and Django's Redis cache know no such scheme (the cache raised ValueError: every request using it
answered 500), so every client of ``REDIS_URL`` is made here: the cache
(``common.cache``), the publisher and the hub of the push streams, readiness, and the Celery broker
(kombu's own ``sentinel://`` URL and its ``master_name`` transport option, from ``broker``).
Each client asks the sentinels for the current master, and again after a failover.

No Django import here: the settings use it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, quote, unquote

import redis
import redis.asyncio as aioredis
import redis.asyncio.sentinel
import redis.sentinel

SCHEME = "sentinel://"


@dataclass(frozen=True)
class SentinelURL:
    sentinels: list[tuple[str, int]]
    master: str
    db: int = 0
    password: str | None = None
    sentinel_kwargs: dict[str, Any] = field(default_factory=dict)


def is_sentinel(url: str) -> bool:
    return url.startswith(SCHEME)


def parse(url: str) -> SentinelURL:
    """The parts of a ``sentinel://`` URL; ValueError naming what is wrong."""
    if not is_sentinel(url):
        raise ValueError(f"not a sentinel:// URL: {url!r}")
    rest, _, query = url[len(SCHEME) :].partition("?")
    netloc, _, path = rest.partition("/")
    userinfo, at, hosts = netloc.rpartition("@")
    password = unquote(userinfo.partition(":")[2]) if at and userinfo else None
    sentinels = []
    for item in hosts.split(","):
        host, colon, port = item.strip().rpartition(":")
        if not colon or not host or not port.isdigit():
            raise ValueError(f"REDIS_URL: a sentinel must be HOST:PORT, not {item!r}")
        sentinels.append((host.strip("[]"), int(port)))
    parts = [part for part in path.split("/") if part]
    if not parts or len(parts) > 2 or (len(parts) == 2 and not parts[1].isdigit()):
        raise ValueError("REDIS_URL: sentinel://HOST:PORT[,HOST:PORT…]/MASTER_NAME[/DB]")
    options = parse_qs(query)
    sentinel_kwargs = {}
    if "sentinel_password" in options:
        sentinel_kwargs["password"] = options["sentinel_password"][0]
    return SentinelURL(
        sentinels=sentinels,
        master=unquote(parts[0]),
        db=int(parts[1]) if len(parts) == 2 else 0,
        password=password or None,
        sentinel_kwargs=sentinel_kwargs,
    )


def _master_options(conf: SentinelURL, options: dict[str, Any]) -> dict[str, Any]:
    return {"db": conf.db, **({"password": conf.password} if conf.password else {}), **options}


def client(url: str, **options: Any) -> Any:
    """A ``redis.Redis`` for ``url`` (the master, through the sentinels for a ``sentinel://`` URL)."""
    if not is_sentinel(url):
        return redis.Redis.from_url(url, **options)
    conf = parse(url)
    sentinel_kwargs = {**_sentinel_timeouts(options), **conf.sentinel_kwargs}
    sentinel = redis.sentinel.Sentinel(
        conf.sentinels, sentinel_kwargs=sentinel_kwargs, **_master_options(conf, options)
    )
    return sentinel.master_for(conf.master)


def async_client(url: str, **options: Any) -> Any:
    """The ``redis.asyncio`` twin of ``client``."""
    if not is_sentinel(url):
        return aioredis.Redis.from_url(url, **options)
    conf = parse(url)
    sentinel_kwargs = {**_sentinel_timeouts(options), **conf.sentinel_kwargs}
    sentinel = redis.asyncio.sentinel.Sentinel(
        conf.sentinels, sentinel_kwargs=sentinel_kwargs, **_master_options(conf, options)
    )
    return sentinel.master_for(conf.master)


def _sentinel_timeouts(options: dict[str, Any]) -> dict[str, Any]:
    """The master's timeouts apply to asking the sentinels too (else that could wait for ever)."""
    return {k: v for k, v in options.items() if k in ("socket_timeout", "socket_connect_timeout")}


def broker(url: str) -> tuple[str, dict[str, Any]]:
    """Celery's broker URL and the transport options it needs: kombu names each sentinel as
    ``sentinel://[:PASSWORD@]HOST:PORT/DB``, separated by ``;``, and takes the master's name from
    the ``master_name`` transport option."""
    if not is_sentinel(url):
        return url, {}
    conf = parse(url)
    auth = f":{quote(conf.password, safe='')}@" if conf.password else ""
    urls = ";".join(f"sentinel://{auth}{host}:{port}/{conf.db}" for host, port in conf.sentinels)
    options: dict[str, Any] = {"master_name": conf.master}
    if conf.sentinel_kwargs:
        options["sentinel_kwargs"] = dict(conf.sentinel_kwargs)
    return urls, options
