"""Rating pages: a leaderboard per game and a player's page with the history chart."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import mark_safe

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
        changes = selectors.history(player, rating.game)
        points = [(environment.MU, environment.SIGMA)] if changes else []
        if changes:
            points[0] = (changes[0].mu_before, changes[0].sigma_before)
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
                "recent": list(reversed(changes[-15:])),
            }
        )
    return render(request, "ratings/player.html", {"player": player, "sections": sections})
