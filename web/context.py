"""What the site bar shows on every page: the count of things waiting for the player, and
whether to show the organiser's link (only to organisers: staff, the organiser role, or an
organiser of some league)."""

from __future__ import annotations

from typing import Any

from django.db.models import F
from django.http import HttpRequest

from games.models import Seat, Table
from tournaments.models import Challenge, League, OrganiserRole


def site_bar(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    player = getattr(user, "player", None)
    if player is None:
        return {}
    # Tables where it is the player's turn, and challenges waiting for the player's answer.
    turns = Seat.objects.filter(
        player=player,
        state=Seat.State.PLAYING,
        table__status=Table.Status.ACTIVE,
        table__to_move=F("number"),
    ).count()
    challenges = Challenge.objects.filter(challenged=player, status=Challenge.Status.PENDING).count()
    # The leagues the player organises (pages show their organiser links from it, no query more).
    leagues = set(League.objects.filter(organisers=player).values_list("pk", flat=True))
    organiser = user.is_staff or bool(leagues) or OrganiserRole.objects.filter(player=player).exists()
    return {
        "site_bar": {
            "turns": turns,
            "challenges": challenges,
            "waiting": turns + challenges,
            "organiser": organiser,
            "leagues": leagues,
        }
    }
