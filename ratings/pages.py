"""Rating pages: a leaderboard per game and a player's page with the history chart.

Ratings are shown on the display scale (:mod:`ratings.display`: 60 × mu, "1500?" while
provisional, ± 60 × sigma) and ordered by the cautious value (mu − 3 sigma).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from common.pages import before_id, keyset_page
from games import selectors as game_reads
from games.models import GameKind, Player
from games.wording import describe_tables

from . import display, selectors
from .chart import history_svg

#: Below this many established players a board lists everyone (provisional ones marked), so a
#: new club's board is never empty; from it on, provisional players are behind a toggle.
FEW_ESTABLISHED = 10
#: Rows a leaderboard page shows (the best by the cautious value); a note says when there are more.
LEADERBOARD_ROWS = 200


def leaderboard_page(request: HttpRequest, game: str) -> HttpResponse:
    if game not in GameKind.values:
        raise Http404("no such game")
    established = selectors.established_count(game)
    few = established < FEW_ESTABLISHED
    everyone = few or request.GET.get("all") == "1"
    board = selectors.leaderboard(game, provisional=None if everyone else False)
    rows = list(board[:LEADERBOARD_ROWS])
    total = len(rows) if len(rows) < LEADERBOARD_ROWS else board.count()
    for place, r in enumerate(rows, start=1):
        r.place = place  # type: ignore[attr-defined]
        r.provisional = display.is_provisional(r.sigma)  # type: ignore[attr-defined]
    context = {
        "game": game,
        "game_label": GameKind(game).label,
        "games": GameKind.choices,
        "rows": rows,
        "total": total,
        "capped": total > len(rows),
        "established": established,
        "few": few,
        "everyone": everyone,
        "few_established": FEW_ESTABLISHED,
        # The rules of rating the page states (issue 29): aborted games and the pair limit.
        "pair_limit": settings.RATED_GAMES_SAME_PLAYERS_PER_DAY,
    }
    return render(request, "ratings/leaderboard.html", context)


def player_context(request: HttpRequest, player_id: int) -> dict[str, Any]:
    """What the player page shows of ratings and games (``web.player_page`` adds events and
    ladders): a section per rated game with the chart and the recent changes on the display
    scale, and a keyset page of the player's tables with their results in words."""
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
                "game": rating.game,
                "provisional": display.is_provisional(rating.sigma),
                "chart": mark_safe(
                    history_svg(
                        points,
                        # Translators: the chart's title: "Alice: Pacru rating history".
                        title=_("%(name)s: %(game)s rating history")
                        % {"name": player.display_name, "game": label},
                    )
                ),
                "charted": len(changes),
                "recent": list(reversed(changes[-RECENT_CHANGES:])),
            }
        )
    games, older = _games_page(player, request.GET.get("before"))
    names = {s.player_id: s.player.display_name for t in games for s in t.seats.all()}
    results = describe_tables([t.pk for t in games], names)
    for t in games:
        t.result = results.get(t.pk)  # type: ignore[attr-defined]
        t.my_place = next(  # type: ignore[attr-defined]
            (p for p in (t.result.places if t.result else ()) if p.player_id == player.pk), None
        )
    return {"player": player, "sections": sections, "games": games, "older": older}


def player_page(request: HttpRequest, player_id: int) -> HttpResponse:
    """The player page without events and ladders (the site routes it through ``web.player_page``)."""
    return render(request, "ratings/player.html", player_context(request, player_id))


#: Rating changes drawn on a player's chart (the most recent ones).
CHART_POINTS = 500
#: Rating changes listed under the chart (the most recent ones).
RECENT_CHANGES = 15
#: Tables per page of a player's game list.
GAMES_PER_PAGE = 20


def _games_page(player: Player, before: str | None) -> tuple[list[Any], int | None]:
    """A page of the player's tables, newest first, before the table id ``before`` (keyset: the
    page costs the same on the first page and the five-hundredth); and the id to continue from."""
    start = before_id(before)
    return keyset_page(
        lambda n: game_reads.player_tables_page(player.pk, before=start, limit=n), GAMES_PER_PAGE
    )
