"""Notifications for moderation (``community.events``): the player a moderator acted on is told
what was decided and why (kind ``moderation``: in the inbox, and mailed at once unless they chose
otherwise), and the moderators hear when reports about one player pile up.

The notification keeps the facts (the action, the reason, the mute's end and where it applies) and
is put into words when shown or mailed (``accounts.kinds``), in the reader's language and time zone.
"""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from community.events import ModerationDecision, ReportsPiling, moderated, reports_piling

from .notify import notify


@receiver(moderated)
def on_moderated(*, decision: ModerationDecision, **_: Any) -> None:
    """Tell the player acted on (for ``resolve`` and ``dismiss``: the reporter, ``where`` naming the
    player they reported). Once per action (the key)."""
    d = decision
    if d.player.user_id is None:
        return
    params: dict[str, Any] = {"action": d.action, "reason": d.reason, "scope": d.scope, "where": d.where}
    if d.until is not None:
        params["until_at"] = d.until.isoformat()
    notify(user_id=d.player.user_id, kind="moderation", key=f"moderation:{d.action_id}", params=params)


@receiver(reports_piling)
def on_reports_piling(*, piling: ReportsPiling, **_: Any) -> None:
    """Mail each moderator of the reports' clubs (staff for reports without a club), with a link to
    the queue showing that player's reports. Once per crossing of the threshold (the key: the url
    names the report that crossed it)."""
    params = {"piling": True, "player": piling.player.name, "count": piling.open_reports}
    for moderator in piling.moderators:
        if moderator.user_id is None:
            continue
        notify(
            user_id=moderator.user_id,
            kind="moderation",
            key=f"piling:{piling.url}",
            params=params,
            url=piling.url,
        )
