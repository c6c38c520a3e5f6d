"""Notifications for the chat (``community.events``): a player named as ``@name`` in a chat room
hears of it in their inbox (``mention``; mailed only when they ask for it).

The payload says who is told: ``community.chat`` already left out whoever may not read the room,
switched its chat off or blocked the author. This reads nothing of the community's tables.
"""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from community.events import Mention, mentioned

from .notify import notify


@receiver(mentioned)
def on_mention(*, mention: Mention, **_: Any) -> None:
    """Each player the message named gets one notification (keyed by the message: a repeated
    event makes none more), linking to the page showing the room."""
    for player in mention.mentioned:
        if player.user_id is None:
            continue
        notify(
            user_id=player.user_id,
            kind="mention",
            key=f"mention:{mention.message_id}",
            params={
                "by": mention.author.name,
                "excerpt": mention.excerpt,
                "room": mention.room_id,
                "message": mention.message_id,
            },
            url=mention.url,
        )
