"""Live push: pages and API clients told of every change as it happens.

Writes announce after commit (``games.events.table_changed``, the club and notification events);
:mod:`live.publish` turns each into a message on Redis pub/sub (``live:<topic>``). The streaming
views (:mod:`live.views`, on the ASGI server) keep one :class:`live.hub.Hub` per process: it
listens to Redis, reads each watched table once per change, and hands the result to every
connection watching it. Without Redis (the embedded default) the hub reads the watched tables'
version every ``LIVE_POLL_SECONDS`` instead: one indexed query per table, not per watcher.
"""
