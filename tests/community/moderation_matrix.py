"""The reports and moderation API's write operations for ``tests/test_permission_matrix.py`` (its
world and roles; the main matrix runs them). The target is the world's club (``Home Club``,
organised by ``org``): a message written in its room by the ``seated`` player, reports about it,
and a club mute of another member. Statuses in ROLES order: anon, guest, player, seated, org,
other_org, staff."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils import timezone

from community import moderation, reports, rooms
from community.models import Message, ModerationAction, Mute, Report
from tests.games.conftest import Actor

ROLES = ["anon", "guest", "player", "seated", "org", "other_org", "staff"]
Case = tuple[str, dict[str, Any], Callable[[], Any]]


def _row(*statuses: int) -> dict[str, int]:
    assert len(statuses) == len(ROLES)
    return dict(zip(ROLES, statuses, strict=True))


#: The club's organisers and staff (every other role: 403; anonymous: 401).
CLUB_MODERATORS = _row(401, 403, 403, 403, 200, 403, 200)


def _state() -> Any:
    return (
        sorted(Report.objects.values_list("pk", "status", "reporter_id", "player_id")),
        sorted(Message.objects.values_list("pk", "deleted_at")),
        sorted(Mute.objects.values_list("pk", "player_id", "scope", "lifted_at")),
        ModerationAction.objects.count(),
    )


def _message(w: Any) -> Message:
    """The seated player's message in the club's room (a member writing there)."""
    w.league.members.add(w.seated.player)
    return Message.objects.create(
        room=rooms.league_room(league=w.league), author=w.seated.player, text="rude"
    )


def _report(w: Any) -> Report:
    made, _ = reports.report(
        reporter=Actor("reporter").player, subject="message", reason="abuse", message_id=_message(w).pk
    )
    return made


def _troll(w: Any) -> Any:
    troll = Actor("troll").player
    w.league.members.add(troll)
    return troll


def case_report(w: Any, role: str) -> Case:
    body = {"subject": "message", "message": _message(w).pk, "reason": "abuse", "details": "insults"}
    return "/api/v1/reports/", body, _state


def _close(action: str) -> Callable[[Any, str], Case]:
    def case(w: Any, role: str) -> Case:
        return f"/api/v1/moderation/reports/{_report(w).pk}/{action}/", {"reason": "seen"}, _state

    return case


def case_message_delete(w: Any, role: str) -> Case:
    return f"/api/v1/chat/messages/{_message(w).pk}/", {"reason": "insults"}, _state


def case_mute(w: Any, role: str) -> Case:
    body = {
        "player": _troll(w).pk,
        "scope": "league",
        "league": w.league.slug,
        "minutes": 60,
        "reason": "spam",
    }
    return "/api/v1/mutes/", body, _state


def case_unmute(w: Any, role: str) -> Case:
    made = moderation.mute(
        by=w.org.player, player_id=_troll(w).pk, scope="league", league=w.league, minutes=60, reason="spam"
    )
    assert made.until > timezone.now()
    return f"/api/v1/mutes/{made.pk}/", {"reason": "ok"}, _state


MODERATION_OPERATIONS: list[tuple[str, str, Callable[[Any, str], Case]]] = [
    ("POST /api/v1/reports/", "", case_report),
    ("POST /api/v1/moderation/reports/{report_id}/dismiss/", "", _close("dismiss")),
    ("POST /api/v1/moderation/reports/{report_id}/resolve/", "", _close("resolve")),
    ("DELETE /api/v1/chat/messages/{message_id}/", "", case_message_delete),
    ("POST /api/v1/mutes/", "", case_mute),
    ("DELETE /api/v1/mutes/{mute_id}/", "", case_unmute),
]

MODERATION_MATRIX: dict[str, dict[str, int]] = {
    # any account but a guest reports; the message's author cannot report themselves (400)
    "POST /api/v1/reports/": _row(401, 403, 201, 400, 201, 201, 201),
    # a report of the club's room: its organisers (and staff) close it
    "POST /api/v1/moderation/reports/{report_id}/dismiss/": CLUB_MODERATORS,
    "POST /api/v1/moderation/reports/{report_id}/resolve/": CLUB_MODERATORS,
    # the room's moderators remove a message (the author too cannot)
    "DELETE /api/v1/chat/messages/{message_id}/": _row(401, 403, 403, 403, 204, 403, 204),
    # a club mute: the club's organisers and staff (a site mute: staff only, tests/community)
    "POST /api/v1/mutes/": _row(401, 403, 403, 403, 201, 403, 201),
    "DELETE /api/v1/mutes/{mute_id}/": _row(401, 403, 403, 403, 204, 403, 204),
}
