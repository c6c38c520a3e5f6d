"""``REDIS_URL=sentinel://…`` (the Sentinel set-up of docs/operators/several-hosts.md) works for the cache,
the broker, readiness and the push publisher.

Django's Redis cache and redis-py's ``from_url`` know no ``sentinel://`` scheme: the cache raised
ValueError on every use, and ``GET /api/v1/tables/`` answered 500. Here the settings are built in a
subprocess with such a URL, against a real sentinel watching a Redis of the test's own (the shared
Redis on 6379 is never touched).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from redis.sentinel import Sentinel

from common import redis_url

from .redis_server import RedisServer, free_port

ROOT = Path(__file__).resolve().parents[2]
MASTER = "mymaster"
DB = 3

PROBE = """
import json, django
django.setup()
from django.core.cache import cache
out = {}
cache.set("sentinel-probe", "yes", 60)
out["cache"] = cache.get("sentinel-probe")
out["cache_fell_back"] = cache.redis_down
if PROBE_SERVICES:
    from config.celery import app
    with app.connection_for_write() as conn:
        queue = conn.SimpleQueue("sentinel-probe-queue")
        queue.put({"n": 1})
        queue.close()
    from games import health
    out["health_ping"] = health._redis().ping()
    from live import publish
    out["published"] = publish.publish("sentinel-probe-topic")
print("PROBE " + json.dumps(out))
"""


def probe(url: str, *, services: bool) -> dict:
    env = {
        **os.environ,
        "REDIS_URL": url,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_PROFILE": "local",
        "DATABASE_URL": "sqlite:///:memory:",
    }
    code = PROBE.replace("PROBE_SERVICES", repr(services))
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr[-3000:]
    line = [line for line in done.stdout.splitlines() if line.startswith("PROBE ")][-1]
    return json.loads(line[len("PROBE ") :])


@pytest.fixture
def sentinel(tmp_path: Path) -> Iterator[tuple[RedisServer, int, RedisServer]]:
    """A Redis master of the test's own, its replica, and a sentinel watching them (as ``MASTER``)."""
    if shutil.which("redis-server") is None:
        pytest.fail("redis-server is not installed: the sentinel test starts its own")
    master, replica = RedisServer(), RedisServer()
    proc = None
    try:
        master.start()
        replica.start()
        # Before the sentinel starts: its first look at the master finds the replica (else 10 s later).
        redis.Redis(port=replica.port).replicaof("127.0.0.1", master.port)
        wait_for(
            lambda: redis.Redis(port=replica.port).info("replication").get("master_link_status") == "up",
            "the replica did not sync",
        )
        port = free_port()
        conf = tmp_path / "sentinel.conf"  # the sentinel rewrites its file: one of its own
        conf.write_text(
            f"port {port}\nbind 127.0.0.1\ndir {tmp_path}\n"
            f"sentinel monitor {MASTER} 127.0.0.1 {master.port} 1\n"
            f"sentinel down-after-milliseconds {MASTER} 60000\n"
        )
        proc = subprocess.Popen(
            ["redis-server", str(conf), "--sentinel"], stdout=subprocess.DEVNULL, start_new_session=True
        )
        asker = Sentinel([("127.0.0.1", port)], socket_timeout=0.5, socket_connect_timeout=0.5)
        wait_for(
            lambda: asker.discover_master(MASTER) == ("127.0.0.1", master.port), "the sentinel did not start"
        )
        yield master, port, replica
    finally:
        if proc is not None:
            proc.kill()
            proc.wait(timeout=10)
        replica.stop()
        master.stop()


def test_a_sentinel_url_makes_a_cache_that_constructs_and_answers() -> None:
    """No sentinel listens here: the cache carries on in memory (as with Redis down), no ValueError."""
    got = probe(f"sentinel://127.0.0.1:{free_port()}/{MASTER}/0", services=False)
    assert got["cache"] == "yes"
    assert got["cache_fell_back"] is True


def test_cache_broker_health_and_push_work_through_a_real_sentinel(
    sentinel: tuple[RedisServer, int, RedisServer],
) -> None:
    master, port, _ = sentinel
    got = probe(f"sentinel://127.0.0.1:{port}/{MASTER}/{DB}", services=True)
    assert got == {"cache": "yes", "cache_fell_back": False, "health_ping": True, "published": 1}
    # All of it reached the master, in the URL's database.
    direct = redis.Redis(port=master.port, db=DB)
    assert direct.get(":1:sentinel-probe") is not None
    assert direct.llen("sentinel-probe-queue") == 1


def test_sentinel_urls_parse_into_what_each_client_needs() -> None:
    conf = redis_url.parse("sentinel://:s%40cret@10.0.0.1:26379,10.0.0.2:26380/main/2?sentinel_password=x")
    assert conf.sentinels == [("10.0.0.1", 26379), ("10.0.0.2", 26380)]
    assert (conf.master, conf.db, conf.password, conf.sentinel_kwargs) == (
        "main",
        2,
        "s@cret",
        {"password": "x"},
    )
    assert redis_url.broker("sentinel://10.0.0.1:26379,10.0.0.2:26380/main") == (
        "sentinel://10.0.0.1:26379/0;sentinel://10.0.0.2:26380/0",
        {"master_name": "main"},
    )
    assert redis_url.broker("redis://r:6379/0") == ("redis://r:6379/0", {})
    for bad in ("sentinel://10.0.0.1/main", "sentinel://10.0.0.1:26379", "sentinel://10.0.0.1:26379/m/x"):
        with pytest.raises(ValueError):
            redis_url.parse(bad)


def test_the_cache_follows_the_master_after_a_failover(
    sentinel: tuple[RedisServer, int, RedisServer], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A replica promoted by the sentinel takes the cache's writes: the writes that fail meanwhile
    go to the process's memory (``common.cache``), then Redis is tried again and is the new master."""
    from common import cache as cache_module

    master, port, replica = sentinel
    asker = Sentinel([("127.0.0.1", port)], socket_timeout=0.5)
    wait_for(lambda: asker.discover_slaves(MASTER), "the sentinel did not find the replica")
    monkeypatch.setattr(cache_module, "BACKOFF_SECONDS", 0.0)
    cache = cache_module.FallbackRedisCache(
        f"sentinel://127.0.0.1:{port}/{MASTER}/{DB}", {"OPTIONS": {"socket_timeout": 0.5}}
    )
    cache.set("before", 1, 60)
    assert redis.Redis(port=master.port, db=DB).exists(":1:before")

    # Refused (NOGOODSLAVE) until the sentinel has heard from the replica itself.
    wait_for(lambda: redis.Redis(port=port).execute_command("SENTINEL", "FAILOVER", MASTER), "no failover")
    wait_for(lambda: asker.discover_master(MASTER)[1] == replica.port, "no failover")
    # The first write after may meet the old master (now a replica) and go to memory.
    wait_for(
        lambda: cache.set("after", 2, 60) or redis.Redis(port=replica.port, db=DB).exists(":1:after"),
        "the cache never wrote to the new master",
    )
    assert cache.get("after") == 2 and not cache.redis_down


def wait_for(check: object, message: str, seconds: float = 30) -> None:
    end = time.monotonic() + seconds
    while True:
        try:
            if check():  # type: ignore[operator]
                return
        except redis.RedisError:
            pass
        assert time.monotonic() < end, message
        time.sleep(0.1)
