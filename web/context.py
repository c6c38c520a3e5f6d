"""What the site bar shows on every page: the count of things waiting for the player, the
count of unread notifications (the bell), and
whether to show the organiser's link (only to organisers: staff, the organiser role, or an
organiser of some league)."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Exists, F, IntegerField, OuterRef, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce
from django.http import HttpRequest

from accounts.models import Notification
from games.models import Player, Seat, Table
from live.views import topics_enabled
from tournaments.models import Challenge, League, OrganiserRole


def _count(rows: QuerySet[Any], by: str) -> Coalesce:
    """How many ``rows`` (filtered on the outer player), as a subquery."""
    grouped = rows.order_by().values(by).annotate(n=Count("pk")).values("n")[:1]
    return Coalesce(Subquery(grouped, output_field=IntegerField()), Value(0))


def site_bar(request: HttpRequest) -> dict[str, Any]:
    push = {"live_push": topics_enabled(request)}
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return push
    player = getattr(user, "player", None)
    if player is None:
        return push
    # In one query: tables where it is the player's turn, challenges waiting for the player's
    # answer, unread notifications (the bell), and whether the player holds the organiser role.
    counts = (
        Player.objects.filter(pk=player.pk)
        .annotate(
            turns=_count(
                Seat.objects.filter(
                    player=OuterRef("pk"),
                    state=Seat.State.PLAYING,
                    table__status=Table.Status.ACTIVE,
                    table__to_move=F("number"),
                ),
                "player",
            ),
            challenges=_count(
                Challenge.objects.filter(challenged=OuterRef("pk"), status=Challenge.Status.PENDING),
                "challenged",
            ),
            unread=_count(
                Notification.objects.filter(user=OuterRef("user_id"), read_at__isnull=True), "user"
            ),
            role=Exists(OrganiserRole.objects.filter(player=OuterRef("pk"))),
        )
        .values("turns", "challenges", "unread", "role")
        .first()
    ) or {"turns": 0, "challenges": 0, "unread": 0, "role": False}
    turns, challenges, unread = counts["turns"], counts["challenges"], counts["unread"]
    # The leagues the player organises (pages show their organiser links from it, no query more).
    leagues = set(League.objects.filter(organisers=player).values_list("pk", flat=True))
    organiser = user.is_staff or bool(leagues) or counts["role"]
    return {
        **push,
        "site_bar": {
            "turns": turns,
            "challenges": challenges,
            "waiting": turns + challenges,
            "organiser": organiser,
            "leagues": leagues,
            "unread": unread,
        },
    }
