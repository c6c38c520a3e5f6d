"""What the streams read, once per change per process: a table's state (the JSON the API
serves), a player's own situation (tables, turns, challenges, unread notifications), a chat
room's newest messages."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from asgiref.sync import sync_to_async
from django.core.serializers.json import DjangoJSONEncoder
from django.db import close_old_connections
from django.db.models import CharField, Count, F, Max, Q, Sum, Value

from accounts.models import Notification
from common.validation import ascii_int
from community import rooms as chat_rooms
from community import selectors as chat_reads
from community.models import Message, Room
from games import selectors
from games import services as games
from games.models import Block, Player, Seat, Table
from games.serializers import TableDetailOut
from tournaments.models import (
    ArenaPlayer,
    ArenaTable,
    Challenge,
    Ladder,
    LadderMember,
    PoolEntry,
    QueueEntry,
    Registration,
    TeamBoard,
    TeamEvent,
    Tournament,
)


def dumps(data: Any) -> str:
    return json.dumps(data, cls=DjangoJSONEncoder, separators=(",", ":"), ensure_ascii=False)


def _table(table_id: int, have: str | None) -> tuple[str, Any] | None:
    close_old_connections()
    version = selectors.table_version(table_id)
    if version is None:
        return None
    if version[1]:
        # A reader never sees a clock below zero without its timeout applied (as the API).
        games.clock_timeout_apply(table_id=table_id)
        version = selectors.table_version(table_id) or version
    if version[0] == have:
        return have, None
    data = TableDetailOut(selectors.table_detail(table_id)).data
    meta = {
        "ply": data.get("ply"),
        "status": data.get("status"),
        "seats": len(data.get("seats") or []),
        "to_move": data.get("to_move"),
    }
    return version[0], {"json": dumps(data), "meta": meta}


async def table(table_id: int, have: str | None) -> tuple[str, Any] | None:
    return await sync_to_async(_table, thread_sensitive=False)(table_id, have)


def _player(player_id: int, user_id: int, have: str | None) -> tuple[str, Any] | None:
    close_old_connections()
    seats = Seat.objects.filter(
        player_id=player_id, table__status__in=[Table.Status.OPEN, Table.Status.ACTIVE]
    )
    tables = {
        t["table_id"]: {
            "id": t["table_id"],
            "game": t["table__game"],
            "status": t["table__status"],
            "ply": t["table__ply"],
            "seat": t["number"],
            "your_turn": t["table__status"] == Table.Status.ACTIVE and t["table__to_move"] == t["number"],
        }
        for t in seats.values(
            "table_id", "number", "table__game", "table__status", "table__ply", "table__to_move"
        )
    }
    challenges = [
        {"id": c.pk, "ladder": c.ladder_id, "by": c.challenger.display_name, "expires_at": c.expires_at}
        for c in Challenge.objects.filter(challenged_id=player_id, status=Challenge.Status.PENDING)
        .select_related("challenger")
        .order_by("pk")
    ]
    unread = Notification.objects.filter(user_id=user_id, read_at__isnull=True).count()
    snapshot = {"tables": tables, "challenges": challenges, "unread": unread}
    version = hashlib.blake2b(dumps(snapshot).encode(), digest_size=12).hexdigest()
    if version == have:
        return have, None
    return version, snapshot


async def player(player_id: int, user_id: int, have: str | None) -> tuple[str, Any] | None:
    return await sync_to_async(_player, thread_sensitive=False)(player_id, user_id, have)


#: How many of a room's newest messages each event of its chat stream carries.
CHAT_MESSAGES = 50


def _chat_json(room_id: int, messages: list[str], more: bool) -> str:
    return f'{{"room":{room_id},"messages":[{",".join(messages)}],"more":{"true" if more else "false"}}}'


@dataclass(frozen=True)
class ChatPage:
    """A room's newest messages, serialized once for all its readers: ``json`` is the event's
    data, ``{"room", "messages", "more"}``; ``authors`` and ``parts`` (each message's JSON) let a
    reader who blocked some of the authors get them left out, as the API leaves them out."""

    room: int
    authors: tuple[int | None, ...]
    parts: tuple[str, ...]
    more: bool
    json: str

    def without(self, blocked: frozenset[int]) -> str:
        """The event's data for a reader who blocked ``blocked`` (the shared one when none of them
        wrote here)."""
        if not blocked or blocked.isdisjoint(self.authors):
            return self.json
        kept = [part for author, part in zip(self.authors, self.parts, strict=True) if author not in blocked]
        return _chat_json(self.room, kept, self.more)


def _chat(room_id: int, have: str | None) -> tuple[str, Any] | None:
    """A chat room's newest :data:`CHAT_MESSAGES` messages, oldest first, as the API gives them
    (``message_out``), as a :class:`ChatPage`; ``more`` when older ones exist (a reader whose
    newest message is older than the first one given may have missed some: it reads them from
    the API). Removals and scrubs change the version too, so a removed message arrives again,
    without its text. Two queries, one when nothing changed."""
    close_old_connections()
    version = chat_reads.room_version(room_id)
    if version == have:
        return have, None
    # Read after the version: the messages are at least as new as it (a message posted between
    # the two reads changes the version again, and is read again).
    rows = list(
        Message.objects.filter(room_id=room_id).select_related("author").order_by("-id")[: CHAT_MESSAGES + 1]
    )
    shown = rows[:CHAT_MESSAGES][::-1]
    parts = tuple(dumps(chat_reads.message_out(m)) for m in shown)
    more = len(rows) > CHAT_MESSAGES
    page = ChatPage(
        room=room_id,
        authors=tuple(m.author_id for m in shown),
        parts=parts,
        more=more,
        json=_chat_json(room_id, list(parts), more),
    )
    return version, page


async def chat(room_id: int, have: str | None) -> tuple[str, Any] | None:
    return await sync_to_async(_chat, thread_sensitive=False)(room_id, have)


def _chat_reader(room_id: int, player: Player | None) -> tuple[str | None, frozenset[int]]:
    """Whether ``player`` (None: anonymous) may follow the room's stream, and whom they blocked
    (their messages are left out of what they get). The refusal: ``"missing"`` (no such room),
    ``"forbidden"`` (they may not read it), ``"off"`` (they switched its chat off: the API gives
    them no messages there); None when they may. Three queries at most."""
    close_old_connections()
    room = Room.objects.select_related("table", "league").filter(pk=room_id).first()
    if room is None:
        return "missing", frozenset()
    if not chat_rooms.may_read(room=room, player=player):
        return "forbidden", frozenset()
    if player is None:
        return None, frozenset()
    if chat_rooms.chat_is_off(room=room, player=player):
        return "off", frozenset()
    return None, frozenset(Block.objects.filter(player=player).values_list("blocked_id", flat=True))


async def chat_reader(room_id: int, player: Player | None) -> tuple[str | None, frozenset[int]]:
    return await sync_to_async(_chat_reader, thread_sensitive=False)(room_id, player)


#: The page topics that name an object by id.
ID_TOPICS = ("player", "tournament", "ladder", "team_event", "chat")


def parse_topic(topic: str) -> tuple[str, int | None] | None:
    """A page topic's kind and id (``None`` for the lobby), or ``None`` when it names no topic.

    Ids are read by :func:`common.validation.ascii_int` (ASCII digits within 64 bits: ``player:²``
    passed ``str.isdigit()`` and then failed ``int()`` in the hub on every poll) and must be written
    as the pages write them (no sign, space or leading zero), so each topic has one channel only.
    """
    kind, colon, ref = topic.partition(":")
    if kind == "lobby":
        return (kind, None) if not colon else None
    if kind not in ID_TOPICS:
        return None
    try:
        number = ascii_int(ref, name="t")
    except ValueError:
        return None
    return (kind, number) if str(number) == ref else None


def _missing(wanted: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """Which of these (kind, id) tournaments, ladders, team events and chat rooms do not exist:
    one query."""
    models = {"tournament": Tournament, "ladder": Ladder, "team_event": TeamEvent, "chat": Room}
    parts = [
        models[kind]
        .objects.filter(pk__in=ids)
        .order_by()  # no model ordering: SQLite refuses it in the parts of a UNION
        .values_list("pk", Value(kind, output_field=CharField()))
        for kind in models
        if (ids := sorted({n for k, n in wanted if k == kind}))
    ]
    if not parts:
        return []
    rows = parts[0].union(*parts[1:], all=True) if len(parts) > 1 else parts[0]
    found = {(kind, pk) for pk, kind in rows}
    return [(kind, n) for kind, n in wanted if (kind, n) not in found]


async def missing(wanted: list[tuple[str, int]]) -> list[tuple[str, int]]:
    return await sync_to_async(_missing, thread_sensitive=False)(wanted)


def _unreadable_room(room_ids: list[int], player: Player | None) -> int | None:
    """The first of these chat rooms ``player`` (None: anonymous) may not read, or None."""
    close_old_connections()
    found = Room.objects.select_related("table", "league").in_bulk(room_ids)
    for room_id in room_ids:
        room = found.get(room_id)
        if room is not None and not chat_rooms.may_read(room=room, player=player):
            return room_id
    return None


async def unreadable_room(room_ids: list[int], player: Player | None) -> int | None:
    return await sync_to_async(_unreadable_room, thread_sensitive=False)(room_ids, player)


def _topic_version(topic: str) -> str:
    """A tag that changes when what the topic's pages show changes (without Redis, read
    every ``LIVE_POLL_SECONDS`` by the hub: one query or two per topic)."""
    close_old_connections()
    kind, _, ref = topic.partition(":")
    if kind == "lobby":  # its tables, and who waits in the quick pairing pools ("Play now")
        waiting = PoolEntry.objects.aggregate(n=Count("id"), newest=Max("id"))
        return f"{selectors.lobby_version(None)}-{waiting['n']}-{waiting['newest']}"
    n = int(ref)
    if kind == "chat":  # its newest message, and how many were removed or scrubbed
        return chat_reads.room_version(n)
    if kind == "player":
        user_id = Player.objects.filter(pk=n).values_list("user_id", flat=True).first()
        found = _player(n, user_id or 0, None) if user_id else None
        return found[0] if found else "gone"
    if kind == "tournament":
        t = Tournament.objects.filter(pk=n).values("status", "current_round", "paused", "format").first()
        play = Table.objects.filter(round_table__round__tournament_id=n).aggregate(
            n=Count("id"), actions=Sum("actions"), ended=Max("finished_at")
        )
        regs = Registration.objects.filter(tournament_id=n).aggregate(
            n=Count("id"), latest=Max("registered_at")
        )
        if t is not None and t["format"] == Tournament.Format.ARENA:  # its leaderboard and tables
            board = ArenaPlayer.objects.filter(tournament_id=n).aggregate(
                n=Count("id"),
                points=Sum("points"),
                games=Sum("games"),
                seated=Count("table_id"),
                paused=Count("id", filter=Q(paused=True)),
                gone=Count("id", filter=Q(withdrawn=True)),
            )
            tables = ArenaTable.objects.filter(tournament_id=n).aggregate(
                n=Count("id"), counted=Count("id", filter=Q(counted=True)), newest=Max("id")
            )
            return dumps([t, play, regs, board, tables])
        return dumps([t, play, regs])
    if kind == "team_event":  # its rounds, line-ups and boards (tables played, boards counted)
        event = TeamEvent.objects.filter(pk=n).values("status", "current_round").first()
        boards = TeamBoard.objects.filter(match__round__event_id=n).aggregate(
            n=Count("id"), counted=Count("id", filter=Q(counted=True)), actions=Sum("table__actions")
        )
        return dumps([event, boards])
    ladder = Challenge.objects.filter(ladder_id=n).aggregate(
        n=Count("id"), newest=Max("id"), answered=Max("answered_at")
    )
    members = LadderMember.objects.filter(ladder_id=n).aggregate(
        n=Count("id"), order=Sum(F("position") * F("player_id"))
    )
    queue = QueueEntry.objects.filter(ladder_id=n).aggregate(n=Count("id"), newest=Max("id"))
    return dumps([ladder, members, queue])


async def topic_version(topic: str) -> str:
    return await sync_to_async(_topic_version, thread_sensitive=False)(topic)
