"""Publishing that something changed: a Redis ``PUBLISH live:<topic>`` per change, after the
commit that made it. Never raises: a Redis that is down costs the pages their push for a while
(the hubs' periodic recheck and the pages' polling fallback cover it), never a write.

The request (or task) that made the change does not wait for Redis: :func:`publish` puts the topics
on this process's outbox and returns; a thread of the process sends what the outbox holds, every
topic once, in one pipelined round trip, as soon as it can (under load, the changes of many
requests at a time). A process that ends sends what is left first (``atexit``); :func:`flush`
waits for the outbox to empty (tests, and a command that must know its news went out).
"""

from __future__ import annotations

import atexit
import logging
import os
import threading
import time
from collections import deque

import redis
from django.conf import settings

from common import redis_url

log = logging.getLogger(__name__)

PREFIX = "live:"
#: Topics waiting to be sent, oldest first.
_outbox: deque[str] = deque()
_wake = threading.Condition()
_sender: threading.Thread | None = None
_sender_pid = 0
_sending = 0  # batches taken from the outbox and not yet sent (flush waits for them too)
_client: redis.Redis | None = None
_client_url = ""
_lock = threading.Lock()
_down_until = 0.0


def client() -> redis.Redis | None:
    global _client, _client_url
    url = settings.REDIS_URL
    if not url:
        return None
    with _lock:
        if _client is None or _client_url != url:
            _client = redis_url.client(url, socket_connect_timeout=0.3, socket_timeout=0.3)
            _client_url = url
        return _client


def publish(*topics: str) -> int:
    """Tell every hub that these topics changed (sent by this process's sender thread, in the next
    batch); return how many were handed on (0 without Redis, or while it is being left alone)."""
    if not topics or not settings.REDIS_URL or time.monotonic() < _down_until:
        return 0
    with _wake:
        _outbox.extend(topics)
        _start_sender()
        _wake.notify()
    return len(topics)


def flush(timeout: float = 5.0) -> bool:
    """Wait until every topic handed to :func:`publish` so far has been sent (or dropped because
    Redis did not answer); whether that happened within ``timeout`` seconds."""
    end = time.monotonic() + timeout
    with _wake:
        while _outbox or _sending:
            left = end - time.monotonic()
            if left <= 0:
                return False
            _wake.wait(left)
    return True


def _start_sender() -> None:
    """The sender thread of this process. Called holding _wake."""
    global _sender, _sender_pid
    if _sender is not None and _sender.is_alive():
        return
    _sender_pid = os.getpid()
    _sender = threading.Thread(target=_send_forever, name="live-publish", daemon=True)
    _sender.start()


def _take() -> list[str]:
    """Everything in the outbox, each topic once, in the order first asked. Called holding _wake."""
    global _sending
    topics = list(dict.fromkeys(_outbox))
    _outbox.clear()
    _sending += 1
    return topics


def _done() -> None:
    global _sending
    with _wake:
        _sending -= 1
        _wake.notify_all()


def _send_forever() -> None:
    while True:
        with _wake:
            while not _outbox:
                _wake.wait()
            topics = _take()
        try:
            _send(topics)
        finally:
            _done()


def _send(topics: list[str]) -> int:
    global _down_until
    r = client()
    if r is None or not topics:
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
    except Exception:  # the sender must outlive anything one batch does
        log.exception("live: could not publish %s", topics)
        return 0
    return len(topics)


def _forked() -> None:
    """A forked child (a gunicorn or Celery worker) has no sender thread and must not inherit a
    lock some thread of its parent held: it starts afresh, with nothing to send."""
    global _wake, _sender, _sender_pid, _sending, _client
    _wake = threading.Condition()
    _outbox.clear()
    _sender, _sender_pid, _sending, _client = None, 0, 0, None


os.register_at_fork(after_in_child=_forked)


@atexit.register
def _send_what_is_left() -> None:
    """At exit, whatever the sender has not sent yet (a short command's news, a worker's last)."""
    if _sender_pid != os.getpid():
        return
    with _wake:
        topics = _take() if _outbox else []
    if topics:
        try:
            _send(topics)
        finally:
            _done()
    flush(timeout=1.0)
