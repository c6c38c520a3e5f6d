"""Reads of the chat: a page of a room's messages as a reader gets it, and the room as the reader
sees it (may they write, moderate, did they switch it off)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db.models import Count, Max, Q, QuerySet

from games.models import Block, Player

from . import rooms
from .models import Message, Room

#: A page of messages: at most this many (the API's ``limit``), 50 unless asked.
MAX_PAGE = 100
DEFAULT_PAGE = 50


@dataclass(frozen=True)
class Page:
    """Messages oldest first; ``more``: older messages exist before the first one."""

    messages: list[Message]
    more: bool


def _visible(room: Room, reader: Player | None) -> QuerySet[Message]:
    """The room's messages the reader gets: those of players they blocked are left out."""
    query = Message.objects.filter(room=room)
    if reader is not None:
        query = query.exclude(author_id__in=Block.objects.filter(player=reader).values("blocked_id"))
    return query


def messages(
    *,
    room: Room,
    reader: Player | None,
    after: int | None = None,
    before: int | None = None,
    limit: int = DEFAULT_PAGE,
) -> Page:
    """A page of ``room``'s messages for ``reader`` (the caller checked they may read it):
    with ``after``, the oldest ``limit`` newer than that id (what a live page fetches, on every
    message: one query, ``more`` not looked for and false); otherwise the newest ``limit`` (older
    than ``before``, when given) and whether older ones exist: two queries."""
    limit = max(1, min(MAX_PAGE, limit))
    base = _visible(room, reader)
    window = base
    if after is not None:
        window = window.filter(pk__gt=after)
    if before is not None:
        window = window.filter(pk__lt=before)
    rows = window.select_related("author")
    if after is not None:
        found = list(rows.order_by("id")[:limit])
    else:
        found = list(rows.order_by("-id")[:limit])[::-1]
    if after is not None:
        return Page(messages=found, more=False)
    more = bool(found) and base.filter(pk__lt=found[0].pk).exists()
    if not found and before is not None:
        more = base.filter(pk__lt=before).exists()
    return Page(messages=found, more=more)


def message_out(message: Message) -> dict[str, Any]:
    """A message as the API and the pages get it: a removed or scrubbed message keeps its place
    with no text (and a scrubbed one no author)."""
    removed = message.deleted_at is not None
    author = message.author
    return {
        "id": message.pk,
        "author": None if author is None else {"id": author.pk, "name": author.display_name},
        "text": "" if removed or message.scrubbed else message.text,
        "created": message.created,
        "removed": removed,
        "deleted": message.scrubbed,
    }


def room_out(*, room: Room, player: Player | None) -> dict[str, Any]:
    """The room as ``player`` sees it: its name, its live topic, whether they may write (and if
    not, why), moderate, whether links are shown as links, whether they switched it off."""
    off = rooms.chat_is_off(room=room, player=player)
    refusal = rooms.write_refusal(room=room, player=player, chat_off=off)
    return {
        "id": room.pk,
        "kind": room.kind,
        "label": rooms.room_label(room=room),
        "topic": f"chat:{room.pk}",
        "may_write": refusal is None,
        "refusal": refusal,
        "may_moderate": rooms.may_moderate(room=room, player=player),
        "links": bool(room.league is not None and room.league.chat_links),
        "chat_off": off,
        "max_length": settings.CHAT_MESSAGE_MAX_LENGTH,
    }


def room_version(room_id: int) -> str:
    """A tag that changes with every message posted, removed or scrubbed in the room (the live
    topic's version without Redis): the newest id, and how many are removed or scrubbed. One
    query."""
    found = Message.objects.filter(room_id=room_id).aggregate(
        newest=Max("id"),
        removed=Count("id", filter=Q(deleted_at__isnull=False)),
        scrubbed=Count("id", filter=Q(scrubbed=True)),
    )
    return f"{found['newest'] or 0}-{found['removed']}-{found['scrubbed']}"
