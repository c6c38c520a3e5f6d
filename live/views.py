"""The streams (async views, served by the ASGI server):

* ``/live/tables/<id>/``: server-sent events for the game page: the table's state (the JSON of
  ``GET /api/v1/tables/<id>/``) on every change, each with its version as the event id, so a
  reconnecting browser (``Last-Event-ID``) gets the current state unless it has it already;
* ``/live/topics/?t=lobby&t=tournament:5``: server-sent ``changed`` events for pages made of
  fragments (lobby, my page, event and ladder pages), which then fetch the fragment once;
* ``GET /api/v1/tables/<id>/stream/``: the same table as newline-delimited JSON for programs:
  the full state first, then one line per change (``move``, ``join``, ``start``, ``result``,
  ``state``), and ``{"type": "ping"}`` every ``LIVE_KEEPALIVE_SECONDS``;
* ``GET /api/v1/stream/``: the signed-in player's own events as ndjson: the state (their tables,
  challenges waiting for them, unread notifications), then ``gameStart``, ``yourTurn``,
  ``gameFinish``, ``challenge`` and ``notification`` lines.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import connections
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.utils.translation import gettext as _

from common.auth import PlayerTokenAuthentication
from games.models import Player, Table

from . import reads
from .hub import Channel, Watcher, hub

TOPIC_KINDS = ("lobby", "tournament", "ladder", "player")


def push_enabled(request: HttpRequest) -> bool:
    """Whether pages offer their push streams: ``LIVE_PUSH=on`` (the streams are served, e.g.
    by an ASGI process the proxy sends ``/live/`` to), ``off``, or ``auto`` (the default: when
    this page itself is served by the ASGI server, which serves the streams too)."""
    mode = settings.LIVE_PUSH
    return mode == "on" or (mode == "auto" and isinstance(request, ASGIRequest))


def topics_enabled(request: HttpRequest) -> bool:
    """Whether pages made of fragments subscribe to their topics (as the game page: whenever
    this server offers push)."""
    return push_enabled(request)


def _stream(body: AsyncIterator[str], content_type: str) -> StreamingHttpResponse:
    response = StreamingHttpResponse(body, content_type=content_type)
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


def _error(status: int, code: str, detail: str) -> JsonResponse:
    return JsonResponse({"detail": detail, "code": code}, status=status)


async def _exists(table_id: int) -> bool:
    # In the shared pool's threads (as the hub's reads), not in this request's own thread: a
    # connection opened there would stay open as long as the stream (see _release).
    return await sync_to_async(Table.objects.filter(pk=table_id).exists, thread_sensitive=False)()


def _close_request_connections() -> None:
    for conn in connections.all(initialized_only=True):
        if not conn.in_atomic_block:
            conn.close()


async def _release() -> None:
    """Close the database connections of this request's own thread (the one Django's ASGI handler
    gives each request for its sync middleware and ``sync_to_async`` calls). Django closes them
    only when the response ends, so without this every open stream would hold a PostgreSQL
    connection of its own (max_connections is soon reached); the streams read through the hub."""
    await sync_to_async(_close_request_connections)()


async def table_events(request: HttpRequest, table_id: int) -> HttpResponse:
    if not await _exists(table_id):
        return _error(404, "not_found", _("there is no table %(id)s") % {"id": table_id})
    last = request.headers.get("Last-Event-ID")
    channel, watcher = await hub().watch(f"table:{table_id}", lambda have: reads.table(table_id, have))

    async def body() -> AsyncIterator[str]:
        try:
            await _release()
            yield f"retry: {settings.LIVE_RETRY_MS}\n\n"
            sent = last
            while True:
                events = await watcher.next(settings.LIVE_KEEPALIVE_SECONDS)
                if not events:
                    yield ": keep-alive\n\n"
                    continue
                version, payload = events[-1]  # each state supersedes the ones before it
                if version == sent or payload is None:
                    continue
                sent = version
                yield f"id: {version}\nevent: state\ndata: {payload['json']}\n\n"
        finally:
            hub().leave(channel, watcher)

    return _stream(body(), "text/event-stream")


def _kind(before: dict[str, Any] | None, after: dict[str, Any]) -> str:
    if before is None:
        return "state"
    if after["status"] != before["status"]:
        return {"active": "start", "finished": "result", "aborted": "result"}.get(after["status"], "state")
    if after["seats"] != before["seats"]:
        return "join"
    if after["ply"] != before["ply"] or after["to_move"] != before["to_move"]:
        return "move"
    return "state"


async def table_stream(request: HttpRequest, table_id: int) -> HttpResponse:
    if not await _exists(table_id):
        return _error(404, "not_found", _("there is no table %(id)s") % {"id": table_id})
    channel, watcher = await hub().watch(f"table:{table_id}", lambda have: reads.table(table_id, have))

    def lines(before: Any, version: str, payload: Any) -> tuple[list[str], Any]:
        kind = _kind(before, payload["meta"])
        return [f'{{"type":"{kind}","id":"{version}","table":{payload["json"]}}}\n'], payload["meta"]

    return _stream(_ndjson(channel, watcher, lines), "application/x-ndjson")


async def _ndjson(
    channel: Channel, watcher: Watcher, lines: Callable[[Any, str, Any], tuple[list[str], Any]]
) -> AsyncIterator[str]:
    """An ndjson stream of a channel: ``lines(before, version, payload)`` turns each new state
    into lines (and what the next call compares with); a ping when nothing happens."""
    try:
        await _release()
        before: Any = None
        sent: str | None = None
        while True:
            events = await watcher.next(settings.LIVE_KEEPALIVE_SECONDS)
            if not events:
                yield '{"type":"ping"}\n'
                continue
            for version, payload in events:
                if version == sent or payload is None:
                    continue
                out, before = lines(before, version, payload)
                sent = version
                for line in out:
                    yield line
    finally:
        hub().leave(channel, watcher)


async def _player(request: HttpRequest) -> Player | None:
    header = request.headers.get("Authorization", "")
    if header.startswith("Token "):

        def by_token() -> Player | None:
            try:
                user, _token = PlayerTokenAuthentication().authenticate_credentials(header[6:].strip())
            except Exception:  # DRF's AuthenticationFailed: a bad token is no player
                return None
            return getattr(user, "player", None)

        return await sync_to_async(by_token)()
    user = await request.auser()
    if not user.is_authenticated:
        return None
    return await Player.objects.filter(user=user).afirst()


def _player_events(before: dict[str, Any] | None, after: dict[str, Any]) -> list[dict[str, Any]]:
    if before is None:
        return [
            {
                "type": "state",
                "tables": list(after["tables"].values()),
                "challenges": after["challenges"],
                "unread": after["unread"],
            }
        ]
    out: list[dict[str, Any]] = []
    old, new = before["tables"], after["tables"]
    for tid, t in new.items():
        was = old.get(tid)
        if t["status"] == "active" and (was is None or was["status"] != "active"):
            out.append({"type": "gameStart", "table": t})
        if t["your_turn"] and (was is None or not was["your_turn"] or was["ply"] != t["ply"]):
            out.append({"type": "yourTurn", "table": t})
    for tid, was in old.items():
        if tid not in new:
            out.append({"type": "gameFinish", "table": {**was, "your_turn": False}})
    known = {c["id"] for c in before["challenges"]}
    out += [{"type": "challenge", "challenge": c} for c in after["challenges"] if c["id"] not in known]
    if after["unread"] > before["unread"]:
        out.append({"type": "notification", "unread": after["unread"]})
    return out


async def player_stream(request: HttpRequest) -> HttpResponse:
    player = await _player(request)
    if player is None:
        # Translators: "Authorization: Token <key>" is an HTTP header: keep it as it is
        return _error(401, "not_authenticated", _("sign in, or send Authorization: Token <key>"))
    pid, uid = player.pk, player.user_id
    the_hub = hub()
    channel, watcher = await the_hub.watch(f"player:{pid}", lambda have: reads.player(pid, uid, have))

    def lines(before: Any, version: str, snapshot: Any) -> tuple[list[str], Any]:
        the_hub.follow(channel, {f"table:{t}" for t in snapshot["tables"]})
        return [reads.dumps(event) + "\n" for event in _player_events(before, snapshot)], snapshot

    return _stream(_ndjson(channel, watcher, lines), "application/x-ndjson")


async def topic_events(request: HttpRequest) -> HttpResponse:
    """``changed`` events for the page's topics. With Redis a topic's version is the count of
    its change messages (no query); without it the hub reads each topic's version (one query per
    topic and process, every ``LIVE_POLL_SECONDS``)."""
    topics = [t for t in request.GET.getlist("t")[:8] if t.split(":", 1)[0] in TOPIC_KINDS]
    if not topics or not all(reads.valid_topic(t) for t in topics):
        # Translators: the topic names (lobby, player:<id>, …) are machine words: keep them as they are
        problem = _("name one or more topics (lobby, player:<id>, tournament:<id>, ladder:<id>)")
        return _error(400, "invalid", "t: " + problem)
    the_hub = hub()
    watcher = None
    joined = []
    for topic in topics:

        async def version(have: str | None, topic: str = topic) -> tuple[str, Any]:
            if settings.REDIS_URL:
                channel = the_hub.channels.get(topic)
                return f"{topic}#{channel.bumps if channel else 0}", topic
            return await reads.topic_version(topic), topic

        channel, watcher = await the_hub.watch(topic, version, watcher)
        joined.append(channel)
    assert watcher is not None

    async def body() -> AsyncIterator[str]:
        try:
            await _release()
            yield f"retry: {settings.LIVE_RETRY_MS}\n\n"
            seen: dict[str, str] = {}  # the version each topic had when this stream began
            while True:
                events = await watcher.next(settings.LIVE_KEEPALIVE_SECONDS)
                changed = set()
                for version, topic in events:
                    if seen.setdefault(topic, version) != version:
                        seen[topic] = version
                        changed.add(topic)
                if changed:
                    yield f"event: changed\ndata: {json.dumps(sorted(changed))}\n\n"
                elif not events:
                    yield ": keep-alive\n\n"
        finally:
            for channel in joined:
                the_hub.leave(channel, watcher)

    return _stream(body(), "text/event-stream")
