"""The streams (async views, served by the ASGI server):

* ``/live/tables/<id>/``: server-sent events for the game page: the table's state (the JSON of
  ``GET /api/v1/tables/<id>/``) on every change, each with its version as the event id, so a
  reconnecting browser (``Last-Event-ID``) gets the current state unless it has it already;
* ``/live/topics/?t=lobby&t=tournament:5``: server-sent ``changed`` events for pages made of
  fragments (lobby, my page, event and ladder pages), which then fetch the fragment once;
* ``/live/chat/<room id>/``: server-sent ``messages`` events for the chat panel: the room's newest
  messages on every change (a message posted, removed or scrubbed), read once per process and
  handed to every reader, so a message in a room a thousand people read costs no request of theirs;
* ``GET /api/v1/tables/<id>/stream/``: the same table as newline-delimited JSON for programs:
  the full state first, then one line per change (``move``, ``join``, ``start``, ``result``,
  ``state``), and ``{"type": "ping"}`` every ``LIVE_KEEPALIVE_SECONDS``;
* ``GET /api/v1/stream/``: the signed-in player's own events as ndjson: the state (their tables,
  challenges waiting for them, unread notifications), then ``gameStart``, ``yourTurn``,
  ``gameFinish``, ``challenge`` and ``notification`` lines.
"""

from __future__ import annotations

import json
import weakref
from collections.abc import AsyncIterator, Callable
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import connections
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.utils.translation import gettext as _

from common.auth import PlayerTokenAuthentication
from common.throttles import client_address
from games.models import Player, Table

from . import reads
from .hub import Channel, Reader, Slot, hub


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


def _stream(body: AsyncIterator[str], content_type: str, slot: Slot) -> StreamingHttpResponse:
    """The streaming answer. ``body`` gives ``slot`` back when it ends (client gone, server
    stopping: its ``finally``); should it never start (the client left while the answer was still
    in the middleware), the slot comes back when the body is collected."""
    weakref.finalize(body, slot.release)
    response = StreamingHttpResponse(body, content_type=content_type)
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


def _error(status: int, code: str, detail: str) -> JsonResponse:
    return JsonResponse({"detail": detail, "code": code}, status=status)


def _not_streaming(request: HttpRequest) -> HttpResponse | None:
    """The refusal of a request that opens no stream: ``405`` for a method other than GET (a
    stream is only read), ``501`` when this process cannot stream (WSGI, e.g. gunicorn): there an
    endless stream would be read to its end before a byte is sent, holding a worker thread for
    ever. The streams are served by the ASGI server (``scripts/run``; the compose file's ``live``
    service)."""
    if request.method not in ("GET", "HEAD"):
        refused = _error(405, "method_not_allowed", _("a stream is opened with GET"))
        refused["Allow"] = "GET, HEAD"
        return refused
    if isinstance(request, ASGIRequest):
        return None
    return _error(501, "not_streaming", _("streams are served by the live (ASGI) server, not by this one"))


def _admit(request: HttpRequest, user_id: int | None) -> Slot | HttpResponse:
    """A place for one more stream of this client (its address, as the throttles see it, and its
    account when signed in), or ``429`` when it holds ``LIVE_STREAMS_PER_ADDRESS`` or
    ``LIVE_STREAMS_PER_ACCOUNT`` already (in this process)."""
    limits = {f"address:{client_address(request)}": settings.LIVE_STREAMS_PER_ADDRESS}
    if user_id is not None:
        limits[f"account:{user_id}"] = settings.LIVE_STREAMS_PER_ACCOUNT
    slot = hub().admit(limits)
    if slot is None:
        return _error(429, "throttled", _("too many open streams: close one before opening another"))
    return slot


async def _exists(table_id: int) -> bool:
    # In the shared pool's threads (as the hub's reads), not in this request's own thread: a
    # connection opened there would stay open as long as the stream (see _release).
    return await sync_to_async(Table.objects.filter(pk=table_id).exists, thread_sensitive=False)()


async def _user_id(request: HttpRequest) -> int | None:
    """The signed-in user's id (session), for the per-account count of the page streams."""
    user = await request.auser()
    return user.pk if user.is_authenticated else None


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


def _no_table(table_id: int) -> JsonResponse:
    return _error(404, "not_found", _("there is no table %(id)s") % {"id": table_id})


async def table_events(request: HttpRequest, table_id: int) -> HttpResponse:
    if refused := _not_streaming(request):
        return refused
    user_id = await _user_id(request)
    if not await _exists(table_id):
        return _no_table(table_id)
    slot = _admit(request, user_id)
    if isinstance(slot, HttpResponse):
        return slot
    last = request.headers.get("Last-Event-ID")

    async def body() -> AsyncIterator[str]:
        the_hub, joined = hub(), None
        try:
            await _release()
            yield f"retry: {settings.LIVE_RETRY_MS}\n\n"
            # Joined once the answer is under way: a client gone before never costs a channel.
            joined = await the_hub.watch(f"table:{table_id}", lambda have: reads.table(table_id, have))
            watcher = joined[1]
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
            if joined:
                the_hub.leave(*joined)
            slot.release()

    return _stream(body(), "text/event-stream", slot)


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
    if refused := _not_streaming(request):
        return refused
    player = await _player(request)
    if not await _exists(table_id):
        return _no_table(table_id)
    slot = _admit(request, player.user_id if player else None)
    if isinstance(slot, HttpResponse):
        return slot

    def lines(channel: Channel, before: Any, version: str, payload: Any) -> tuple[list[str], Any]:
        kind = _kind(before, payload["meta"])
        return [f'{{"type":"{kind}","id":"{version}","table":{payload["json"]}}}\n'], payload["meta"]

    body = _ndjson(f"table:{table_id}", lambda have: reads.table(table_id, have), lines, slot)
    return _stream(body, "application/x-ndjson", slot)


async def _ndjson(
    topic: str,
    reader: Reader,
    lines: Callable[[Channel, Any, str, Any], tuple[list[str], Any]],
    slot: Slot,
    follows: frozenset[str] = frozenset(),
) -> AsyncIterator[str]:
    """An ndjson stream of ``topic``'s channel: ``lines(channel, before, version, payload)`` turns
    each new state into lines (and what the next call compares with); a ping when nothing happens.
    The channel is joined once the answer is under way (hearing the changes of ``follows`` too), and
    left (and ``slot`` given back) when the stream ends, however it ends."""
    the_hub, joined = hub(), None
    try:
        await _release()
        joined = channel, watcher = await the_hub.watch(topic, reader)
        if follows:
            the_hub.follow(channel, set(follows))
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
                out, before = lines(channel, before, version, payload)
                sent = version
                for line in out:
                    yield line
    finally:
        if joined:
            the_hub.leave(*joined)
        slot.release()


async def _player(request: HttpRequest) -> Player | None:
    """The player of the token (``Authorization: Token …``) or of the session, if any."""
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
    if refused := _not_streaming(request):
        return refused
    player = await _player(request)
    if player is None:
        # Translators: "Authorization: Token <key>" is an HTTP header: keep it as it is
        return _error(401, "not_authenticated", _("sign in, or send Authorization: Token <key>"))
    slot = _admit(request, player.user_id)
    if isinstance(slot, HttpResponse):
        return slot
    pid, uid = player.pk, player.user_id
    the_hub = hub()
    # A channel of its own, which hears the changes of the player's topic and tables: the pages'
    # ``player:<id>`` channel reads another thing (the topic's version), and whichever of the two
    # was made first would have handed the other its readings.
    mine = frozenset({f"player:{pid}"})

    def lines(channel: Channel, before: Any, version: str, snapshot: Any) -> tuple[list[str], Any]:
        the_hub.follow(channel, mine | {f"table:{t}" for t in snapshot["tables"]})
        return [reads.dumps(event) + "\n" for event in _player_events(before, snapshot)], snapshot

    body = _ndjson(f"stream:player:{pid}", lambda have: reads.player(pid, uid, have), lines, slot, mine)
    return _stream(body, "application/x-ndjson", slot)


async def _topics(request: HttpRequest) -> list[str] | HttpResponse:
    """The page's topics (``t``, at most 8), or the answer refusing them: ``400`` for a name that is
    no topic, ``403`` for another player's ``player:<id>`` (it tells when their inbox or challenges
    change: only that player, signed in, may watch it) and for a ``chat:<room id>`` the reader may
    not read, ``404`` for a tournament, ladder or chat room that does not exist (one query for them
    all, before any channel is made)."""
    topics = list(dict.fromkeys(request.GET.getlist("t")[:8]))
    parsed = [reads.parse_topic(t) for t in topics]
    if not topics or None in parsed:
        # Translators: the topic names (lobby, player:<id>, …) are machine words: keep them as they are
        problem = _(
            "name one or more topics (lobby, player:<id>, tournament:<id>, ladder:<id>, team_event:<id>, "
            "chat:<id>)"
        )
        return _error(400, "invalid", "t: " + problem)
    wanted = [(kind, n) for kind, n in filter(None, parsed) if n is not None]
    own = [n for kind, n in wanted if kind == "player"]
    if own:
        player = await _player(request)
        others = [n for n in own if player is None or n != player.pk]
        if others:
            detail = _("only that player, signed in, may watch player:%(id)s") % {"id": others[0]}
            return _error(403, "forbidden", detail)
    named = [(kind, n) for kind, n in wanted if kind != "player"]
    gone = await reads.missing(named) if named else []
    if gone:
        kind, n = gone[0]
        # Translators: kind is a topic's machine word (tournament, ladder): keep it as it is
        return _error(404, "not_found", _("there is no %(kind)s %(id)s") % {"kind": kind, "id": n})
    rooms = [n for kind, n in named if kind == "chat"]
    if rooms:
        refused = await reads.unreadable_room(rooms, await _player(request))
        if refused is not None:
            detail = _("you may not read the chat room %(id)s") % {"id": refused}
            return _error(403, "forbidden", detail)
    return topics


async def topic_events(request: HttpRequest) -> HttpResponse:
    """``changed`` events for the page's topics. With Redis a topic's version is the count of
    its change messages (no query); without it the hub reads each topic's version (one query per
    topic and process, every ``LIVE_POLL_SECONDS``)."""
    if refused := _not_streaming(request):
        return refused
    topics = await _topics(request)
    if isinstance(topics, HttpResponse):
        return topics
    slot = _admit(request, await _user_id(request))
    if isinstance(slot, HttpResponse):
        return slot
    the_hub = hub()

    async def body() -> AsyncIterator[str]:
        watcher = None
        joined: list[Channel] = []
        try:
            await _release()
            yield f"retry: {settings.LIVE_RETRY_MS}\n\n"
            # Joined once the answer is under way: a client gone before never costs a channel.
            for topic in topics:

                async def version(have: str | None, topic: str = topic) -> tuple[str, Any]:
                    if settings.REDIS_URL:
                        channel = the_hub.channels.get(topic)
                        return f"{topic}#{channel.bumps if channel else 0}", topic
                    return await reads.topic_version(topic), topic

                channel, watcher = await the_hub.watch(topic, version, watcher)
                joined.append(channel)
            assert watcher is not None
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
                the_hub.leave(channel, watcher)  # type: ignore[arg-type]
            slot.release()

    return _stream(body(), "text/event-stream", slot)


async def chat_events(request: HttpRequest, room_id: int) -> HttpResponse:
    """``messages`` events for a chat room: on each change its newest messages as the API gives
    them (``{"room", "messages", "more"}``, oldest first), with the room's version as the event id,
    so a reconnecting page (``Last-Event-ID``) gets them at once unless it has them already. Read
    once per change and process for every reader (``reads.chat``); a reader who blocked some of
    the authors gets their messages left out, as from the API (their blocks as the stream opened).

    Refused at the start: ``404`` for no such room, ``403`` for a reader who may not read it (a
    table's players' room for others, its spectators' room for its players while the game is on)
    or who switched its chat off (the API gives them no messages there either). Who may read is
    checked when the stream opens; the game page opens it again when its table's game ends."""
    if refused := _not_streaming(request):
        return refused
    player = await _player(request)
    # The session's or token's query held a connection in this request's thread: handed back
    # now, not only once the stream is under way, or a crowd opening a busy room at once (the
    # reads below queue for the shared threads) would hold one each, past max_connections.
    await _release()
    problem, blocked = await reads.chat_reader(room_id, player)
    if problem == "missing":
        return _error(404, "not_found", _("there is no chat room %(id)s") % {"id": room_id})
    if problem == "forbidden":
        return _error(403, "forbidden", _("you may not read the chat room %(id)s") % {"id": room_id})
    if problem == "off":
        return _error(403, "chat_off", _("you switched this chat off: switch it on to read it here"))
    slot = _admit(request, player.user_id if player else None)
    if isinstance(slot, HttpResponse):
        return slot
    last = request.headers.get("Last-Event-ID")
    # A channel of its own, which hears the changes of the room's topic: the pages' ``chat:<id>``
    # channel reads only the topic's version, and whichever of the two was made first would hand
    # the other its readings.
    topic = f"chat:{room_id}"

    async def body() -> AsyncIterator[str]:
        the_hub, joined = hub(), None
        try:
            await _release()
            yield f"retry: {settings.LIVE_RETRY_MS}\n\n"
            # Joined once the answer is under way: a client gone before never costs a channel.
            joined = await the_hub.watch(f"chatroom:{room_id}", lambda have: reads.chat(room_id, have))
            the_hub.follow(joined[0], {topic})
            watcher = joined[1]
            sent = last
            while True:
                events = await watcher.next(settings.LIVE_KEEPALIVE_SECONDS)
                if not events:
                    yield ": keep-alive\n\n"
                    continue
                version, payload = events[-1]  # each carries the newest messages: the last will do
                if version == sent or payload is None:
                    continue
                sent = version
                yield f"id: {version}\nevent: messages\ndata: {payload.without(blocked)}\n\n"
        finally:
            if joined:
                the_hub.leave(*joined)
            slot.release()

    return _stream(body(), "text/event-stream", slot)
