"""The per-process hub of the streaming server: one :class:`Channel` per watched topic, shared
by every connection watching it.

A channel learns that its topic changed from Redis (one pattern subscription per process,
``live:*``), or, without Redis, by checking the topic's version every ``LIVE_POLL_SECONDS``; with
Redis it still checks every ``LIVE_RECHECK_SECONDS`` in case a message was lost while Redis was
away. On a change it reads the topic once (a table's state: the same JSON the API serves) and
hands the result to each watcher. Watchers that fall behind keep only the newest states.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from .publish import PREFIX

log = logging.getLogger(__name__)

#: Each time this many more connections have joined, the garbage collector is told to leave what
#: exists alone (``gc.freeze()``). Thousands of open streams are millions of long-lived objects:
#: a full collection walking them all stopped the process for 1.4 s at 10,000 watchers (every
#: ~10 s while moves were played). Frozen objects are still freed when nothing refers to them;
#: only a reference cycle among them is never collected.
FREEZE_EVERY = 500
#: Each time this many connections have joined, frozen objects are handed back to the collector
#: (``gc.unfreeze()``), so cycles among connections that closed since are freed: one full
#: collection's pause per this many joins, instead of a slow leak on a server that runs for weeks.
THAW_EVERY = 50_000

#: What a channel reads: the topic's current version, and its payload when the version changed
#: (``None`` when it did not, or when the topic is gone).
Reader = Callable[[str | None], Awaitable[tuple[str, Any] | None]]


@dataclass(eq=False)
class Watcher:
    """One connection's mailbox: the events it has not written yet (the newest 32 at most)."""

    events: list[tuple[str, Any]] = field(default_factory=list)
    ready: asyncio.Event = field(default_factory=asyncio.Event)

    def put(self, event: tuple[str, Any]) -> None:
        self.events.append(event)
        del self.events[:-32]
        self.ready.set()

    async def next(self, timeout: float) -> list[tuple[str, Any]]:
        """The waiting events (empty after ``timeout`` seconds without one)."""
        if not self.events:
            self.ready.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.ready.wait(), timeout)
        out, self.events = self.events, []
        return out


class Slot:
    """One open stream's place in its hub's counts (see :meth:`Hub.admit`); :meth:`release` gives it
    back, once however often it is called (the stream's end and its garbage collection both call it)."""

    def __init__(self, held: Counter[str], keys: tuple[str, ...]):
        self.held, self.keys, self.open = held, keys, True

    def release(self) -> None:
        if not self.open:
            return
        self.open = False
        self.held.subtract(self.keys)
        for key in self.keys:
            if self.held[key] <= 0:
                del self.held[key]


class Channel:
    def __init__(self, hub: Hub, topic: str, reader: Reader):
        self.hub, self.topic, self.reader = hub, topic, reader
        self.watchers: set[Watcher] = set()
        self.version: str | None = None
        self.payload: Any = None
        self.dirty = asyncio.Event()
        #: How many change messages arrived (page topics use it as their version).
        self.bumps = 0
        self.task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        interval = settings.LIVE_RECHECK_SECONDS if settings.REDIS_URL else settings.LIVE_POLL_SECONDS
        while self.watchers:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.dirty.wait(), interval)
            self.dirty.clear()
            try:
                read = await self.reader(self.version)
            except Exception:  # a database hiccup: keep the watchers, try again
                log.exception("live: reading %s failed", self.topic)
                await asyncio.sleep(1.0)
                continue
            if read is not None and read[0] != self.version:
                self.version, self.payload = read
                for w in list(self.watchers):
                    w.put(read)

    def changed(self, bump: bool = False) -> None:
        self.bumps += bump
        self.dirty.set()


class Hub:
    def __init__(self) -> None:
        self.channels: dict[str, Channel] = {}
        self.listener: asyncio.Task[None] | None = None
        #: Table id → the player channels that sit at it (a move there changes their stream).
        self.followers: dict[str, set[Channel]] = {}
        self.joined = 0
        #: Open streams per client key (``address:…``, ``account:…``), for :meth:`admit`.
        self.held: Counter[str] = Counter()

    def admit(self, limits: dict[str, int]) -> Slot | None:
        """A place for one more stream of the client named by ``limits`` (key → how many streams
        it may hold open at once, 0 for no cap), or ``None`` when one of its keys holds its cap.
        Counted in this process (one hub per process): ``n`` processes let a client hold up to ``n``
        times the cap. Nothing awaits between the check and the count, so the cap is exact."""
        if any(0 < cap <= self.held[key] for key, cap in limits.items()):
            return None
        keys = tuple(limits)
        self.held.update(keys)
        return Slot(self.held, keys)

    def streams(self) -> int:
        """How many streams are open (each holds one ``address:`` key)."""
        return sum(n for key, n in list(self.held.items()) if key.startswith("address:"))

    def follow(self, channel: Channel, topics: set[str]) -> None:
        """Let ``channel`` hear the changes of ``topics`` too (a player's tables)."""
        for followed in self.followers.values():
            followed.discard(channel)
        for topic in topics:
            self.followers.setdefault(topic, set()).add(channel)
        for topic in [t for t, chans in self.followers.items() if not chans]:
            del self.followers[topic]

    async def watch(
        self, topic: str, reader: Reader, watcher: Watcher | None = None
    ) -> tuple[Channel, Watcher]:
        """Join ``topic``'s channel (made on first use); the current state is the first event.
        One ``watcher`` may watch several topics (a page's fragments)."""
        self._listen()
        channel = self.channels.get(topic)
        if channel is None or channel.task.done():
            channel = self.channels[topic] = Channel(self, topic, reader)
        watcher = watcher or Watcher()
        channel.watchers.add(watcher)
        self.joined += 1
        if self.joined % THAW_EVERY == 0:
            gc.unfreeze()
        elif self.joined % FREEZE_EVERY == 0:
            gc.freeze()
        if channel.version is not None:
            watcher.put((channel.version, channel.payload))
        else:
            channel.changed()
        return channel, watcher

    def leave(self, channel: Channel, watcher: Watcher) -> None:
        channel.watchers.discard(watcher)
        if not channel.watchers:
            channel.changed()  # its loop ends, and the next watcher starts afresh
            self.follow(channel, set())
            if self.channels.get(channel.topic) is channel:
                del self.channels[channel.topic]

    def heard(self, topic: str) -> None:
        """A change of ``topic`` was announced."""
        channel = self.channels.get(topic)
        if channel is not None:
            channel.changed(bump=True)
        for follower in self.followers.get(topic, ()):
            follower.changed(bump=True)

    def _listen(self) -> None:
        if settings.REDIS_URL and (self.listener is None or self.listener.done()):
            self.listener = asyncio.get_running_loop().create_task(self._redis())

    async def _redis(self) -> None:
        from common import redis_url  # here: only the streaming server needs the asyncio client

        backoff = 0.2
        while True:
            try:
                client = redis_url.async_client(settings.REDIS_URL)
                async with client.pubsub() as pubsub:
                    await pubsub.psubscribe(PREFIX + "*")
                    backoff = 0.2
                    # Anything missed while away: every channel reads its topic again.
                    for channel in list(self.channels.values()):
                        channel.changed()
                    async for message in pubsub.listen():
                        if message.get("type") != "pmessage":
                            continue
                        self.heard(message["channel"].decode()[len(PREFIX) :])
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # Redis restarting: try again, a little later each time
                log.warning("live: Redis subscription lost (%s); again in %.1f s", exc, backoff)
                await asyncio.sleep(backoff)
                backoff = min(5.0, backoff * 2)


_hubs: dict[int, Hub] = {}


def hub() -> Hub:
    """The hub of the running event loop (one per process under uvicorn)."""
    loop = asyncio.get_running_loop()
    found = _hubs.get(id(loop))
    if found is None:
        found = _hubs[id(loop)] = Hub()
    return found


class HubCollector(Collector):
    """``/metrics`` of a process that serves streams (a live process, scraped directly): its open
    streams and the channels they watch. A stream that ends must take both down with it."""

    def collect(self) -> Iterator[Metric]:
        hubs = list(_hubs.values())
        if not hubs:  # this process serves no streams (gunicorn, Celery)
            return
        yield GaugeMetricFamily(
            "pacru_live_streams", "Streams open in this process.", value=sum(h.streams() for h in hubs)
        )
        yield GaugeMetricFamily(
            "pacru_live_channels",
            "Topics this process watches (one channel each, shared by its streams).",
            value=sum(len(h.channels) for h in hubs),
        )
