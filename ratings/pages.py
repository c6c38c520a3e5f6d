"""Rating pages: a leaderboard per game and a player's page with the history chart."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import mark_safe

from common.pages import before_id, keyset_page
from games import selectors as game_reads
from games.models import GameKind, Player

from . import environment, selectors
from .chart import history_svg


def leaderboard_page(request: HttpRequest, game: str) -> HttpResponse:
    if game not in GameKind.values:
        raise Http404("no such game")
    established = request.GET.get("all") != "1"
    rows = selectors.leaderboard(game, provisional=False if established else None)[:200]
    context = {
        "game": game,
        "game_label": GameKind(game).label,
        "games": GameKind.choices,
        "rows": rows,
        "established": established,
        "provisional_sigma": environment.PROVISIONAL_SIGMA,
    }
    return render(request, "ratings/leaderboard.html", context)


def player_page(request: HttpRequest, player_id: int) -> HttpResponse:
    player = Player.objects.select_related("user").filter(pk=player_id).first()
    if player is None:
        raise Http404("no such player")
    sections = []
    for rating in selectors.player_ratings(player):
        # The chart shows the last CHART_POINTS changes; the cost stays the same for a player
        # with ten games or ten thousand (rating_history_idx, read backwards).
        changes = selectors.recent_history(player, rating.game, CHART_POINTS)
        points = [(changes[0].mu_before, changes[0].sigma_before)] if changes else []
        points += [(c.mu_after, c.sigma_after) for c in changes]
        label = GameKind(rating.game).label
        sections.append(
            {
                "rating": rating,
                "label": label,
                "provisional": selectors.is_provisional(rating.sigma),
                "chart": mark_safe(
                    history_svg(points, title=f"{player.display_name}: {label} rating history")
                ),
                "charted": len(changes),
                "recent": list(reversed(changes[-15:])),
            }
        )
    games, older = _games_page(player, request.GET.get("before"))
    context = {"player": player, "sections": sections, "games": games, "older": older}
    return render(request, "ratings/player.html", context)


#: Rating changes drawn on a player's chart (the most recent ones).
CHART_POINTS = 500
#: Tables per page of a player's game list.
GAMES_PER_PAGE = 20


def _games_page(player: Player, before: str | None) -> tuple[list[Any], int | None]:
    """A page of the player's tables, newest first, before the table id ``before`` (keyset: the
    page costs the same on the first page and the five-hundredth); and the id to continue from."""
    start = before_id(before)
    return keyset_page(
        lambda n: game_reads.player_tables_page(player.pk, before=start, limit=n), GAMES_PER_PAGE
    )
