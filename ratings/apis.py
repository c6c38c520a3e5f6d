"""Ratings API: leaderboards, a player's ratings and history, match quality."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.errors import InvalidInput, NotFound
from games.models import GameKind, Player

from . import environment, selectors, services
from .models import Rating, RatingChange


def _game(game: str) -> str:
    if game not in GameKind.values:
        raise NotFound(f"there is no game {game!r}: use shacru, azacru or pacru")
    return game


def rating_body(r: Rating) -> dict[str, Any]:
    return {
        "game": r.game,
        "mu": round(r.mu, 3),
        "sigma": round(r.sigma, 3),
        "conservative": round(r.conservative, 3),
        "games": r.games,
        "provisional": selectors.is_provisional(r.sigma),
        "last_played": r.last_played,
    }


def change_body(c: RatingChange) -> dict[str, Any]:
    return {
        "table": c.table_id,
        "at": c.at,
        "rank": c.rank,
        "seats": c.seats,
        "mu_before": round(c.mu_before, 3),
        "sigma_before": round(c.sigma_before, 3),
        "mu_after": round(c.mu_after, 3),
        "sigma_after": round(c.sigma_after, 3),
        "conservative_after": round(c.conservative_after, 3),
        "change": round(c.delta, 3),
    }


class LeaderboardQuery(serializers.Serializer):
    provisional = serializers.BooleanField(required=False, allow_null=True, default=None)
    active_days = serializers.IntegerField(required=False, min_value=1, max_value=3650)
    ordering = serializers.ChoiceField(choices=list(selectors.ORDERINGS), default="conservative")
    limit = serializers.IntegerField(required=False, min_value=1, max_value=500, default=100)
    offset = serializers.IntegerField(required=False, min_value=0, default=0)


class LeaderboardApi(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter(
                "provisional", bool, description="only provisional (true) or established (false)"
            ),
            OpenApiParameter("active_days", int, description="played within this many days"),
            OpenApiParameter("ordering", str, enum=list(selectors.ORDERINGS)),
            OpenApiParameter("limit", int),
            OpenApiParameter("offset", int),
        ],
        responses={200: dict},
    )
    def get(self, request: Request, game: str) -> Response:
        q = LeaderboardQuery(data=request.query_params)
        q.is_valid(raise_exception=True)
        p = q.validated_data
        qs = selectors.leaderboard(
            _game(game), provisional=p["provisional"], active_days=p.get("active_days"), order=p["ordering"]
        )
        page = qs[p["offset"] : p["offset"] + p["limit"]]
        results = [
            {
                "position": p["offset"] + i + 1,
                "player": {
                    "id": r.player_id,
                    "username": r.player.user.username,
                    "display_name": r.player.display_name,
                },
                **rating_body(r),
            }
            for i, r in enumerate(page)
        ]
        return Response({"game": game, "count": qs.count(), "results": results})


class PlayerRatingsApi(APIView):
    @extend_schema(
        parameters=[OpenApiParameter("game", str, description="history of this game only")],
        responses={200: dict},
    )
    def get(self, request: Request, player_id: int) -> Response:
        player = Player.objects.filter(pk=player_id).first()
        if player is None:
            raise NotFound(f"there is no player {player_id}")
        game = request.query_params.get("game")
        if game:
            _game(game)
        return Response(
            {
                "player": player_id,
                "ratings": [rating_body(r) for r in selectors.player_ratings(player)],
                "history": [
                    {"game": c.game, **change_body(c)} for c in selectors.history(player, game or None)
                ],
            }
        )


class QualityApi(APIView):
    @extend_schema(
        parameters=[OpenApiParameter("players", str, description="comma-separated player ids (2 to 4)")],
        responses={200: dict},
    )
    def get(self, request: Request, game: str) -> Response:
        try:
            ids = [int(x) for x in request.query_params.get("players", "").split(",") if x.strip()]
        except ValueError:
            raise InvalidInput("players must be comma-separated player ids, e.g. players=3,7,9") from None
        players = list(Player.objects.filter(pk__in=ids))
        if len(players) != len(set(ids)) or len(ids) != len(set(ids)):
            raise InvalidInput("players must name 2 to 4 different existing players")
        try:
            q = services.match_quality(game=_game(game), players=players)
        except ValueError as exc:
            raise InvalidInput(str(exc)) from None
        fair = environment.fair_quality(game, len(players))
        return Response(
            {"game": game, "players": ids, "quality": q, "fair_threshold": fair, "fair": q >= fair}
        )
