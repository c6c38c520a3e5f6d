"""Reads of ladders: lists, a ladder with its members, the order of its members, a player's places."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import OuterRef, Prefetch, QuerySet
from django.utils.translation import gettext as _

from common.errors import NotFound
from ratings.models import Rating

from ..models import Challenge, Ladder, LadderMember
from ..selectors import _count


# ladders
def ladder_list() -> QuerySet[Ladder]:
    """Every ladder, oldest first (a stable order for the API's list)."""
    return Ladder.objects.select_related("league").order_by("pk")


def ladder(ladder_id: int) -> Ladder:
    found = ladder_list().filter(pk=ladder_id).first()
    if found is None:
        raise NotFound(_("there is no ladder %(id)s") % {"id": ladder_id})
    return found


def ladder_detail(ladder_id: int) -> Ladder:
    """A ladder with its league and ``order`` (:func:`ladder_order`),
    ``pending_challenges`` (newest first) and ``queued`` (the ids of the players in the queue,
    longest waiting first)."""
    found = (
        ladder_list()
        .filter(pk=ladder_id)
        .prefetch_related(
            Prefetch(
                "challenges",
                queryset=Challenge.objects.filter(status=Challenge.Status.PENDING),
                to_attr="pending_challenges",
            ),
            "queue",
        )
        .first()
    )
    if found is None:
        raise NotFound(_("there is no ladder %(id)s") % {"id": ladder_id})
    found.order = ladder_order(found)  # type: ignore[attr-defined]
    found.queued = [e.player_id for e in found.queue.all()]  # type: ignore[attr-defined]
    return found


def ladder_order(ladder: Ladder) -> list[dict[str, Any]]:
    """The members, best first (by rating, or by place on a position ladder), with their rating
    and activity (two queries)."""
    members = list(LadderMember.objects.filter(ladder=ladder).select_related("player").order_by("joined"))
    ratings = {
        r.player_id: r
        for r in Rating.objects.filter(game=ladder.game, player__in=[m.player for m in members])
    }
    conservative = {pid: r.conservative for pid, r in ratings.items()}
    ordered = _ladder_sorted(
        ladder, members, lambda m: m.player_id, lambda m: m.position, lambda m: m.joined, conservative
    )
    rows = []
    for position, m in enumerate(ordered, start=1):
        r = ratings.get(m.player_id)
        rows.append(
            {
                "position": position,
                "player": m.player_id,
                "display_name": m.player.display_name,
                "rating": round(r.conservative, 2) if r else None,
                "games": r.games if r else 0,
                "last_played": r.last_played if r else None,
            }
        )
    return rows


def _ladder_sorted(
    ladder: Ladder,
    rows: list[Any],
    player: Callable[[Any], int],
    position: Callable[[Any], int | None],
    joined: Callable[[Any], Any],
    conservative: dict[int, float],
) -> list[Any]:
    """A ladder's members best first: by place on a position ladder (only its challenges change
    it); otherwise by conservative rating, the unrated after the rated, earlier joiners first."""
    if ladder.kind == Ladder.Kind.POSITION:
        return sorted(rows, key=lambda r: (position(r) or 0, joined(r)))
    rated = sorted(
        (r for r in rows if player(r) in conservative), key=lambda r: (-conservative[player(r)], joined(r))
    )
    return rated + sorted((r for r in rows if player(r) not in conservative), key=joined)


def ladder_places(ladders: list[Ladder], player_id: int) -> dict[int, tuple[int | None, int]]:
    """Ladder id → (the player's place, the number of members) on each of ``ladders``, ordered as
    :func:`ladder_order` orders them (two queries for any number of ladders)."""
    members: dict[int, list[tuple[int, int | None, Any]]] = {lad.pk: [] for lad in ladders}
    for ladder_id, pid, position, joined in LadderMember.objects.filter(ladder__in=ladders).values_list(
        "ladder_id", "player_id", "position", "joined"
    ):
        members[ladder_id].append((pid, position, joined))
    everyone = {pid for rows in members.values() for pid, _, _ in rows}
    conservative: dict[str, dict[int, float]] = {}
    for game, pid, value in Rating.objects.filter(
        player_id__in=everyone, game__in={lad.game for lad in ladders}
    ).values_list("game", "player_id", "conservative"):
        conservative.setdefault(game, {})[pid] = value
    out = {}
    for ladder in ladders:
        rows = members[ladder.pk]
        ordered = _ladder_sorted(
            ladder, rows, lambda r: r[0], lambda r: r[1], lambda r: r[2], conservative.get(ladder.game, {})
        )
        place = next((i for i, r in enumerate(ordered, start=1) if r[0] == player_id), None)
        out[ladder.pk] = (place, len(rows))
    return out


def ladder_directory(game: str | None = None) -> QuerySet[Ladder]:
    """Ladders by league, game and age, with ``member_count`` (a subquery per row)."""
    qs = ladder_list().annotate(member_count=_count(LadderMember.objects.filter(ladder=OuterRef("pk"))))
    if game:
        qs = qs.filter(game=game)
    return qs.order_by("league__name", "game", "id")
