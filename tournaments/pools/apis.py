"""Quick pairing API (thin views over :mod:`tournaments.pools.services`):
``GET /api/v1/quick-pairing/`` lists the pools, ``POST`` joins one (by ``pool`` id, or by
``game``, ``players`` and ``time_control`` as listed), ``DELETE`` leaves it."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.players import request_player, visitor_player
from common.schema import errors
from games.models import GameKind

from . import services
from .selectors import PoolRow


class PoolOut(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.ChoiceField(choices=GameKind.choices, source="pool.game")
    players = serializers.IntegerField(source="pool.players", help_text="players per table, 2 to 4")
    time_control = serializers.JSONField(
        source="pool.time_control", help_text="the clock, as tables take it (e.g. fischer base, increment)"
    )
    time_control_text = serializers.CharField(help_text="the clock in words, e.g. 5 min + 3 s")
    rated = serializers.BooleanField(source="pool.rated", help_text="its tables count for ratings")
    waiting = serializers.IntegerField(help_text="players waiting in it now")
    typical_wait = serializers.FloatField(
        allow_null=True,
        help_text="median seconds to a table over the pool's recent tables; null: no recent tables",
    )
    joined = serializers.BooleanField(
        required=False, help_text="signed in only: whether you wait in this pool (one pool at a time)"
    )

    def to_representation(self, row: PoolRow) -> dict[str, Any]:
        data: dict[str, Any] = super().to_representation(row)
        if row.joined is None:
            data.pop("joined", None)
        return data


class PoolJoinIn(serializers.Serializer):
    pool = serializers.IntegerField(required=False, min_value=1, help_text="the pool's id, as listed")
    game = serializers.ChoiceField(choices=GameKind.choices, required=False)
    players = serializers.IntegerField(required=False, min_value=2, max_value=4)
    time_control = serializers.JSONField(required=False, help_text="as listed (compared after normalising)")

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        described = {"game", "players", "time_control"} & set(data)
        if "pool" in data and described:
            raise serializers.ValidationError(
                _("give either pool or game, players and time_control, not both")
            )
        if "pool" not in data and len(described) < 3:
            raise serializers.ValidationError(
                _("give the pool's id (pool), or its game, players and time_control as listed")
            )
        return data


class QuickPairingApi(APIView):
    """The quick pairing pools: list, join one, leave."""

    @extend_schema(responses={200: PoolOut(many=True)}, operation_id="quick_pairing_list")
    def get(self, request: Request) -> Response:
        rows = services.pool_list(player=visitor_player(request))
        return Response(PoolOut(rows, many=True).data)

    @extend_schema(
        request=PoolJoinIn,
        responses={200: PoolOut, **errors(400, 401, 403, 404, 409)},
        operation_id="quick_pairing_join",
    )
    def post(self, request: Request) -> Response:
        me = request_player(request)
        data = PoolJoinIn(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        pool_id = (
            v["pool"]
            if "pool" in v
            else services.find_pool(**{k: v[k] for k in ("game", "players", "time_control")}).pk
        )
        services.pool_join(player=me, pool_id=pool_id)
        row = next(r for r in services.pool_list(player=me) if r.id == pool_id)
        return Response(PoolOut(row).data)

    @extend_schema(request=None, responses={204: None, **errors(401)}, operation_id="quick_pairing_leave")
    def delete(self, request: Request) -> Response:
        services.pool_leave(player=request_player(request))
        return Response(status=status.HTTP_204_NO_CONTENT)
