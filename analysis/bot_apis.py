"""``GET /api/v1/bots/``: the bot levels, what each is, and the ladder's ratings of each.

Read by anyone. ``?game=`` and ``?players=`` narrow the ratings given (the levels are always all
listed); a level the ladder has not measured for a game and seat count has no rating for it.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.errors import InvalidInput
from common.schema import errors
from games.models import GameKind

from . import ladder


class BotRatingOut(serializers.Serializer):
    game = serializers.ChoiceField(choices=GameKind.choices)
    players = serializers.IntegerField(help_text="the seats at the ladder's tables: 2, 3 or 4")
    rating = serializers.IntegerField(help_text="on the players' display scale (60 × mu), among bots only")
    uncertainty = serializers.IntegerField(help_text="± on the same scale (60 × sigma)")
    mu = serializers.FloatField(help_text="TrueSkill's skill estimate")
    sigma = serializers.FloatField(help_text="TrueSkill's uncertainty")
    games = serializers.IntegerField(help_text="ladder games played")
    games_below = serializers.IntegerField(help_text="games where the level one below also sat")
    points_below = serializers.FloatField(help_text="points taken from it there: 1 a place above it, ½ level")
    score_below = serializers.FloatField(allow_null=True, help_text="points_below / games_below (null: none)")
    ms_per_move = serializers.FloatField(
        allow_null=True, help_text="mean thinking time per move on the machine that ran the ladder"
    )


class BotLevelOut(serializers.Serializer):
    level = serializers.IntegerField(help_text="1 (weakest) to 8 (strongest): give it as `level` to play it")
    code = serializers.CharField(help_text="the level's stable English code name")
    name = serializers.CharField(help_text="its name, in the reader's language")
    description = serializers.CharField(help_text="one sentence on how it plays, in the reader's language")
    kind = serializers.ChoiceField(choices=["random", "greedy", "search"])
    noise = serializers.DictField(
        child=serializers.FloatField(),
        help_text="per game: the share of its moves played as a random candidate (0 to 1)",
    )
    depth = serializers.DictField(
        child=serializers.IntegerField(),
        help_text="per game: the plies its search looks ahead (0: no search, one move of lookahead or none)",
    )
    work = serializers.DictField(
        child=serializers.IntegerField(),
        help_text="per game: the positions its search may visit per move (0 for random and greedy)",
    )
    ratings = BotRatingOut(many=True, help_text="the ladder's measurements, by game and seat count")


class BotsOut(serializers.Serializer):
    levels = BotLevelOut(many=True)


class BotsQuery(serializers.Serializer):
    game = serializers.ChoiceField(
        choices=GameKind.choices, required=False, help_text="this game's ratings only"
    )
    players = serializers.ChoiceField(
        choices=ladder.SEATS, required=False, help_text="ratings at this many seats only"
    )


_EXAMPLE = {
    "levels": [
        {
            "level": 6,
            "code": "expert",
            "name": "Expert",
            "description": "Looks further ahead than level 5: it punishes loose pieces and simple traps.",
            "kind": "search",
            "noise": {"pacru": 0.08, "shacru": 0.0, "azacru": 0.0},
            "depth": {"pacru": 5, "shacru": 3, "azacru": 3},
            "work": {"pacru": 25000, "shacru": 8000, "azacru": 8000},
            "ratings": [
                {
                    "game": "pacru", "players": 2, "rating": 1610, "uncertainty": 95, "mu": 26.8,
                    "sigma": 1.6, "games": 40, "games_below": 20, "points_below": 18.5,
                    "score_below": 0.925, "ms_per_move": 2.4,
                }
            ],
        }
    ]
}  # fmt: skip


def _rating(game: str, players: int, row: ladder.Row) -> dict[str, Any]:
    return {
        "game": game, "players": players, "rating": row.rating, "uncertainty": row.uncertainty,
        "mu": row.mu, "sigma": row.sigma, "games": row.games, "games_below": row.games_below,
        "points_below": row.points_below, "score_below": row.score_below, "ms_per_move": row.ms_per_move,
    }  # fmt: skip


class BotsApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[BotsQuery],
        responses={200: BotsOut, **errors(400)},
        description="Every bot level with its name and description, and the bot ladder's ratings of it "
        "per game and seat count (only those measured). 400: an unknown game or seat count.",
        examples=[OpenApiExample("a level", value=_EXAMPLE, response_only=True)],
    )
    def get(self, request: Request) -> Response:
        query = BotsQuery(data=request.query_params)
        if not query.is_valid():
            raise InvalidInput(
                # Translators: keep the games' names and the numbers.
                _("choose game pacru, shacru or azacru and players 2, 3 or 4")
            )
        game, players = query.validated_data.get("game"), query.validated_data.get("players")
        stored = ladder.all_stored_rows()
        levels = []
        for text in ladder.level_texts():
            ratings = [
                _rating(g, p, row)
                for (g, p), rows in stored.items()
                if (game is None or g == game) and (players is None or p == players)
                for row in rows
                if row.level == text.number and row.measured
            ]
            levels.append(
                {
                    "level": text.number, "code": text.code, "name": text.title,
                    "description": text.description, "kind": text.kind, "noise": text.noise,
                    "depth": text.depth, "work": text.work,
                    "ratings": ratings,
                }
            )  # fmt: skip
        return Response(BotsOut({"levels": levels}).data)
