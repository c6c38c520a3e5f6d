"""Publishing a change (live.publish): handed to the process's sender thread, never waited for,
never raising; every topic reaches Redis, once a batch, even from a process that ends at once."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import redis

from live import publish
from tests.live.conftest import REDIS, ROOT
from tests.ops.redis_server import free_port


@pytest.fixture
def hub(settings: Any) -> Iterator[Any]:
    """A subscription to every live topic of this test (a unique prefix), and this process
    publishing to the shared Redis as a web process does."""
    settings.REDIS_URL = REDIS
    publish._down_until = 0.0
    sub = redis.Redis.from_url(REDIS).pubsub(ignore_subscribe_messages=True)
    name = f"test-{uuid.uuid4().hex[:8]}"
    sub.psubscribe(f"{publish.PREFIX}{name}:*")
    while sub.get_message(timeout=0.2) is not None:
        pass
    sub.name = name
    yield sub
    sub.close()


def heard(sub: Any, count: int, seconds: float = 5.0) -> list[str]:
    """The topics heard (without the prefix), waiting for ``count`` of them."""
    out: list[str] = []
    end = time.monotonic() + seconds
    while len(out) < count and time.monotonic() < end:
        message = sub.get_message(timeout=0.1)
        if message and message["type"] == "pmessage":
            out.append(message["channel"].decode()[len(publish.PREFIX) :])
    while (message := sub.get_message(timeout=0.2)) is not None:  # nothing more comes
        if message["type"] == "pmessage":
            out.append(message["channel"].decode()[len(publish.PREFIX) :])
    return out


def test_topics_from_many_threads_all_reach_redis(hub: Any) -> None:
    topics = [f"{hub.name}:{t}:{i}" for t in range(8) for i in range(25)]

    def send(t: int) -> None:
        for i in range(25):
            assert publish.publish(f"{hub.name}:{t}:{i}") == 1

    threads = [threading.Thread(target=send, args=(t,)) for t in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert publish.flush()
    assert sorted(heard(hub, len(topics))) == sorted(topics)


def test_a_topic_asked_twice_before_it_is_sent_goes_out_once(hub: Any) -> None:
    a, b = f"{hub.name}:table:1", f"{hub.name}:lobby"
    with publish._wake:  # the sender cannot take the outbox meanwhile
        publish._outbox.extend([a, b, a, b, a])
        publish._start_sender()
        publish._wake.notify()
    assert publish.flush()
    assert heard(hub, 2) == [a, b]


def test_without_redis_nothing_is_sent_and_nothing_waits(settings: Any) -> None:
    settings.REDIS_URL = ""
    assert publish.publish("lobby") == 0
    assert not publish._outbox


def test_a_redis_that_does_not_answer_costs_a_warning_not_a_write(
    settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    settings.REDIS_URL = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    publish._down_until = 0.0
    try:
        with caplog.at_level(logging.WARNING, logger="live.publish"):
            assert publish.publish("lobby", "table:1") == 2  # handed on: the caller does not wait
            assert publish.flush()
        assert "could not publish" in caplog.text
        assert publish.publish("lobby") == 0  # left alone for a while
    finally:
        publish._down_until = 0.0


PUBLISH_AND_EXIT = """
import django
django.setup()
from live import publish
publish.publish(*TOPICS)
"""


def test_a_process_that_ends_at_once_sends_what_it_published(hub: Any) -> None:
    topics = [f"{hub.name}:player:{i}" for i in range(3)]
    env = {
        **os.environ,
        "REDIS_URL": REDIS,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": "sqlite:///:memory:",
    }
    done = subprocess.run(
        [sys.executable, "-c", PUBLISH_AND_EXIT.replace("TOPICS", repr(topics))],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert heard(hub, 3) == topics
