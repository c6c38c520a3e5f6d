"""Reads: leaderboards, a player's ratings and history."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.db.models import QuerySet
from django.utils import timezone

from games.models import Player

from .environment import PROVISIONAL_SIGMA
from .models import Rating, RatingChange

ORDERINGS = {"conservative": "-conservative", "mu": "-mu", "games": "-games", "recent": "-last_played"}


def leaderboard(
    game: str, *, provisional: bool | None = None, active_days: int | None = None, order: str = "conservative"
) -> QuerySet[Rating]:
    qs = Rating.objects.filter(game=game).select_related("player", "player__user")
    if provisional is False:
        qs = qs.filter(sigma__lte=PROVISIONAL_SIGMA)
    elif provisional is True:
        qs = qs.filter(sigma__gt=PROVISIONAL_SIGMA)
    if active_days:
        qs = qs.filter(last_played__gte=timezone.now() - timedelta(days=active_days))
    return qs.order_by(ORDERINGS.get(order, "-conservative"), "player_id")


def player_ratings(player: Player) -> list[Rating]:
    return list(Rating.objects.filter(player=player).order_by("game"))


def history(player: Player, game: str | None = None, limit: int | None = None) -> list[RatingChange]:
    qs = RatingChange.objects.filter(player=player).select_related("table").order_by("at", "table_id")
    if game:
        qs = qs.filter(game=game)
    rows = list(qs)
    return rows[-limit:] if limit else rows


def is_provisional(sigma: float) -> bool:
    return sigma > PROVISIONAL_SIGMA


def conservative_ratings(game: str, player_ids: list[int]) -> dict[int, float]:
    """Player id → conservative rating (μ − 3σ) in ``game``, for those of them who have one."""
    return dict(
        Rating.objects.filter(game=game, player_id__in=player_ids).values_list("player_id", "conservative")
    )


# ------------------------------------------------------------------ the API's reads
@dataclass
class LeaderboardPage:
    """One page of a leaderboard: ``results`` carry their ``position`` (1 = top, over all pages)."""

    game: str
    count: int
    results: list[Rating]


def leaderboard_page(
    game: str,
    *,
    provisional: bool | None = None,
    active_days: int | None = None,
    order: str = "conservative",
    offset: int = 0,
    limit: int = 100,
) -> LeaderboardPage:
    """:func:`leaderboard`'s rows ``offset`` to ``offset + limit`` and their count (two queries)."""
    qs = leaderboard(game, provisional=provisional, active_days=active_days, order=order)
    rows = list(qs[offset : offset + limit])
    for i, r in enumerate(rows):
        r.position = offset + i + 1  # type: ignore[attr-defined]
    return LeaderboardPage(game=game, count=qs.count(), results=rows)


@dataclass
class PlayerRatings:
    """A player's ratings (by game) and rating history: all of it (oldest first), or the rows
    for the API to page through (:func:`history_rows`)."""

    player: int
    ratings: list[Rating]
    history: list[RatingChange] | QuerySet[RatingChange]


def history_rows(player_id: int, game: str | None = None) -> QuerySet[RatingChange]:
    """A player's rating changes, unordered, for keyset pages (the API reads them newest first,
    along ``rating_history_idx`` when ``game`` is given). The tables are not read: a change
    names its table by id."""
    qs = RatingChange.objects.filter(player_id=player_id)
    return qs.filter(game=game) if game else qs


def player_ratings_history(player_id: int, game: str | None = None) -> PlayerRatings | None:
    """``None`` when there is no such player; ``game``: that game's history only. The history is
    :func:`history_rows`' (unevaluated): the API takes one page of it."""
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        return None
    return PlayerRatings(
        player=player_id, ratings=player_ratings(player), history=history_rows(player_id, game)
    )


def players_by_id(ids: list[int]) -> list[Player]:
    return list(Player.objects.filter(pk__in=ids))


def recent_history(player: Player, game: str, limit: int) -> list[RatingChange]:
    """The player's last ``limit`` rating changes in ``game``, oldest first: read backwards along
    ``rating_history_idx``, so the cost is the page's, whatever the player's number of games."""
    rows = list(RatingChange.objects.filter(player=player, game=game).order_by("-at", "-table_id")[:limit])
    rows.reverse()
    return rows


def established_count(game: str) -> int:
    """How many players of ``game`` are established (no longer provisional)."""
    return Rating.objects.filter(game=game, sigma__lte=PROVISIONAL_SIGMA).count()
