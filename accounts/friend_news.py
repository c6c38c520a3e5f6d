"""Notifications for friends' challenges to a table (``community.events.table_challenge``):
the player challenged is told of the challenge and of its withdrawal, the challenger of the
answer (accepted, declined). Each is kept once (the notification's key), so an event delivered
twice tells once; the words are written when shown, in the reader's language
(``accounts.kinds``: kind ``table_challenge``)."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver
from django.urls import reverse

from community.events import TableChallenge, table_challenge

from .notify import notify
from .receivers import game_name


@receiver(table_challenge)
def on_table_challenge(*, challenge: TableChallenge, **_: Any) -> None:
    c = challenge
    # "sent" and "withdrawn" go to the player challenged (c.to); "accepted" and "declined" are
    # the answers, sent by the player challenged (c.by) to the challenger (c.to).
    if c.to.user_id is None:
        return
    notify(
        user_id=c.to.user_id,
        kind="table_challenge",
        key=f"table_challenge:{c.table_id}:{c.status}",
        params={
            "table": c.table_id,
            "by": c.by.name,
            "game": game_name(c.game),
            "players": c.players,
            "rated": c.rated,
            "status": c.status,
            "time_control": c.time_control,
        },
        url=reverse("table", args=[c.table_id]),
    )
