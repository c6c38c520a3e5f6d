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
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings

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
        import redis.asyncio as aioredis  # here: only the streaming server needs the asyncio client

        backoff = 0.2
        while True:
            try:
                client = aioredis.Redis.from_url(settings.REDIS_URL)
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
