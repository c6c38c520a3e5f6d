"""The explorer and hints through the API.

``GET /api/v1/explorer/?game=&players=&position=<key>`` or ``?table=<id>&action=<n>``: the moves
played from a position in finished games, with their counts, the mover's average score and their
share (:mod:`analysis.explorer`). ``POST /api/v1/tables/<id>/hint/``: a good move for the player
on turn in a casual game against the house bots (:mod:`analysis.hints`)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.players import request_player
from common.schema import errors
from common.throttles import ScopedThrottle
from common.validation import DB_INT_MAX
from engine.explorer import KEY_LENGTH
from games.models import GameKind

from . import explorer, hints


# ---------------------------------------------------------------- shapes
class ExplorerQuery(serializers.Serializer):
    game = serializers.ChoiceField(
        choices=GameKind.choices, required=False, help_text="with players and position"
    )
    players = serializers.IntegerField(min_value=2, max_value=4, required=False)
    position = serializers.RegexField(
        rf"^[0-9a-f]{{{KEY_LENGTH}}}$",
        required=False,
        help_text="a position's key, as this endpoint answers it (`position`)",
    )
    table = serializers.IntegerField(
        min_value=1, max_value=DB_INT_MAX, required=False, help_text="instead of game, players and position"
    )
    action = serializers.IntegerField(
        min_value=-1,
        max_value=DB_INT_MAX,
        required=False,
        help_text="with table: the position after this action (its seq, from 0; -1: the start)",
    )
    limit = serializers.IntegerField(
        min_value=1, max_value=explorer.MAX_MOVES, default=20, help_text="how many moves at most (1–50)"
    )

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        by_key = all(data.get(k) is not None for k in ("game", "players", "position"))
        by_table = data.get("table") is not None and data.get("action") is not None
        if by_key == by_table:
            raise serializers.ValidationError(
                _("give either game, players and position, or table and action")
            )
        return data


class NextMoveOut(serializers.Serializer):
    move = serializers.CharField(help_text="canonical notation")
    games = serializers.IntegerField(help_text="finished games in which it was played here")
    score = serializers.FloatField(help_text="the mover's average result in them: 1 first place, 0 last")
    share = serializers.FloatField(help_text="its part of the games that went on from here (0 … 1)")


class ExplorerOut(serializers.Serializer):
    game = serializers.CharField()
    players = serializers.IntegerField()
    position = serializers.CharField(help_text="the position's key")
    games = serializers.IntegerField(help_text="finished games that went on from this position")
    moves = NextMoveOut(many=True, help_text="most played first")


class HintOut(serializers.Serializer):
    move = serializers.CharField(help_text="the suggested move, in canonical notation (playable as it is)")
    level = serializers.IntegerField(help_text="the bot level whose choice it is")
    words = serializers.CharField(help_text="what the move does, in words (Accept-Language); may be empty")


_EXPLORER_EXAMPLE = {
    "game": "pacru",
    "players": 2,
    "position": "3f1c0a9be2d45a7710c4e0b2",
    "games": 12,
    "moves": [
        {"move": "e1-e2(e2)", "games": 7, "score": 0.571, "share": 0.583},
        {"move": "a3-b4(b4)", "games": 5, "score": 0.4, "share": 0.417},
    ],
}


#: Hints per player and minute unless the settings give a ``hint`` rate.
HINT_RATE = "20/min"


class HintThrottle(ScopedThrottle):
    """The ``hint`` rate per player (``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["hint"]`` when
    set, else :data:`HINT_RATE`): each hint may cost a search."""

    def get_rate(self) -> str | None:
        return self.THROTTLE_RATES.get(self.scope) or HINT_RATE


# ---------------------------------------------------------------- views
class ExplorerApi(APIView):
    """The moves played from a position in finished games (anyone may read it)."""

    permission_classes = [permissions.AllowAny]
    throttle_classes = [ScopedThrottle]
    throttle_scope = "watch"

    @extend_schema(
        parameters=[ExplorerQuery],
        responses={200: ExplorerOut, **errors(400, 403, 404)},
        examples=[OpenApiExample("a position", value=_EXPLORER_EXAMPLE, response_only=True)],
        description="The moves played from a position in all finished games of its game and seat count "
        "(aborted tables left out), most played first: how many games, the mover's average result (1 for "
        "first place, 0 for last, ties sharing) and their share of the games that went on from there. Name "
        "the position by `game`, `players` and its key `position` (as answered), or by `table` and `action` "
        "(the position after that action; -1 the start). A game in play shows only positions before its "
        "current one (403 `explorer_live`). Served from an index, updated on the slow queue after each "
        "game: a game just finished may take a moment to count.",
    )
    def get(self, request: Request) -> Response:
        query = ExplorerQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        data = query.validated_data
        if data.get("table") is not None:
            where = explorer.table_position(table_id=data["table"], action=data["action"])
        else:
            where = explorer.Position(game=data["game"], players=data["players"], key=data["position"])
        total = explorer.position_games(game=where.game, players=where.players, key=where.key)
        moves = explorer.next_moves(
            game=where.game, players=where.players, key=where.key, limit=data["limit"], total=total
        )
        out = {
            "game": where.game,
            "players": where.players,
            "position": where.key,
            "games": total,
            "moves": [
                {"move": m.move, "games": m.games, "score": round(m.score, 3), "share": round(m.share, 3)}
                for m in moves
            ],
        }
        return Response(ExplorerOut(out).data)


class HintApi(APIView):
    """A good move for you, on your turn, in a casual game against the house bots."""

    permission_classes = [permissions.IsAuthenticated]
    throttle_classes = [HintThrottle]
    throttle_scope = "hint"

    @extend_schema(
        request=None,
        responses={200: HintOut, **errors(401, 403, 404, 409, 429)},
        examples=[
            OpenApiExample(
                "a hint",
                value={"move": "e1-e2(e2)", "level": hints.HINT_LEVEL, "words": "e1-e2: moves 1 field N"},
                response_only=True,
            )
        ],
        description="The move bot level 6 would play for you in the position on the board (the same "
        "for the same position: asking again costs nothing). Only in casual games that belong to no event, "
        "ladder or arena, where every other seat is a house bot, and on your turn. Refusals: 403 "
        "`not_seated`, `hint_rated`, `hint_event`, `hint_no_bot`; 409 `table_not_active`, `not_your_turn`; "
        "429 `throttled` beyond 20 hints a minute.",
    )
    def post(self, request: Request, table_id: int) -> Response:
        hint = hints.hint_for(table_id=table_id, player=request_player(request))
        return Response(HintOut({"move": hint.move, "level": hint.level, "words": hint.words}).data)
