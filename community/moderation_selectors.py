"""What a moderator reads: the queue of reports (each with its message and a few messages around
it), the mutes in force, and the log. Staff see everything; a club's organisers see what concerns
their clubs (reports and actions of their clubs' rooms, mutes in them).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q
from django.utils import timezone

from games.models import Player
from tournaments.models import League

from . import rooms
from .models import Message, ModerationAction, Mute, Report, Room

#: Messages shown before and after a reported one.
CONTEXT_BEFORE = 3
CONTEXT_AFTER = 2


@dataclass
class QueueItem:
    """A report as the queue shows it: its room (name, page) and the messages around its message."""

    report: Report
    room: Room | None = None
    room_label: str = ""
    room_url: str = ""
    context: list[Message] = field(default_factory=list)


def is_moderator(*, player: Player | None) -> bool:
    """Staff, or an organiser of some club: who may open the moderation queue."""
    if player is None or player.is_guest:
        return False
    return bool(player.user.is_staff) or League.objects.filter(organisers=player).exists()


def _leagues(player: Player) -> list[int] | None:
    """The clubs whose moderation ``player`` sees (None: every one, staff)."""
    if player.user.is_staff:
        return None
    return list(League.objects.filter(organisers=player).values_list("pk", flat=True))


def reports(
    *, moderator: Player, status: str = "open", player_id: int | None = None, limit: int = 50
) -> list[QueueItem]:
    """The reports ``moderator`` handles, newest first (``status``: open, resolved, dismissed, or
    all), each with its message's room and context; three queries, however many reports."""
    leagues = _leagues(moderator)
    rows = Report.objects.select_related(
        "reporter",
        "player",
        "table",
        "league",
        "handled_by",
        "message__author",
        "message__room__table",
        "message__room__tournament",
        "message__room__ladder",
        "message__room__league",
    )
    if status in Report.Status.values:
        rows = rows.filter(status=status)
    if leagues is not None:
        rows = rows.filter(league_id__in=leagues)
    if player_id is not None:
        rows = rows.filter(player_id=player_id)
    items = [QueueItem(report=r) for r in rows.order_by("-id")[:limit]]
    around = _context([i.report.message for i in items if i.report.message is not None])
    for item in items:
        message = item.report.message
        if message is None:
            continue
        item.room = message.room
        item.room_label = rooms.room_label(room=message.room)
        item.room_url = rooms.room_url(room=message.room)
        item.context = around.get(message.pk, [message])
    return items


def _context(messages: list[Message]) -> dict[int, list[Message]]:
    """For each message, it and the few messages before and after it in its room, oldest first:
    one query (each message's two small slices as ``IN`` subqueries: a UNION of sliced queries is
    refused by SQLite)."""
    if not messages:
        return {}
    near = Q()
    for m in messages:
        before = Message.objects.filter(room_id=m.room_id, id__lt=m.pk).order_by("-id")[:CONTEXT_BEFORE]
        after = Message.objects.filter(room_id=m.room_id, id__gte=m.pk).order_by("id")[: CONTEXT_AFTER + 1]
        near |= Q(pk__in=before.values("pk")) | Q(pk__in=after.values("pk"))
    found = list(Message.objects.filter(near).select_related("author").order_by("id"))
    out: dict[int, list[Message]] = {}
    for m in messages:
        mine = [x for x in found if x.room_id == m.room_id]
        at = next((i for i, x in enumerate(mine) if x.pk == m.pk), None)
        if at is None:
            out[m.pk] = [m]
            continue
        out[m.pk] = mine[max(0, at - CONTEXT_BEFORE) : at + CONTEXT_AFTER + 1]
    return out


def active_mutes(*, moderator: Player, limit: int = 100) -> list[Mute]:
    """The mutes in force that ``moderator`` may lift (staff: all), the ones ending first first."""
    leagues = _leagues(moderator)
    rows = Mute.objects.filter(lifted_at__isnull=True, until__gt=timezone.now()).select_related(
        "player", "by", "league", "room__table", "room__tournament", "room__ladder", "room__league"
    )
    if leagues is not None:
        rows = rows.filter(Q(league_id__in=leagues) | Q(room__league_id__in=leagues))
    return list(rows.order_by("until", "id")[:limit])


def mute_where(*, mute: Mute) -> str:
    """Where a mute applies, in words: the room's name, the club's name, or empty (the site)."""
    if mute.room is not None:
        return rooms.room_label(room=mute.room)
    if mute.league is not None:
        return mute.league.name
    return ""


def log(*, moderator: Player, limit: int = 100, before: int | None = None) -> list[ModerationAction]:
    """The moderation log ``moderator`` may read, newest first (``before``: older than this id)."""
    leagues = _leagues(moderator)
    rows = ModerationAction.objects.select_related(
        "actor",
        "player",
        "league",
        "mute",
        "report",
        "message",
        "room__table",
        "room__tournament",
        "room__ladder",
        "room__league",
    )
    if leagues is not None:
        rows = rows.filter(league_id__in=leagues)
    if before is not None:
        rows = rows.filter(pk__lt=before)
    return list(rows.order_by("-id")[:limit])


def open_count(*, moderator: Player) -> int:
    leagues = _leagues(moderator)
    rows = Report.objects.filter(status=Report.Status.OPEN)
    if leagues is not None:
        rows = rows.filter(league_id__in=leagues)
    return rows.count()


def room_for_mute(*, room_id: int | None) -> Room | None:
    return rooms.room_by_id(room_id=room_id) if room_id is not None else None


def as_dict(item: QueueItem) -> dict[str, Any]:
    """A queue item as the API's serializer reads it."""
    return {
        "report": item.report,
        "room": item.room,
        "room_label": item.room_label,
        "room_url": item.room_url,
        "context": item.context,
    }
