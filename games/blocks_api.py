"""Blocking players through the API (``games.blocks``): ``POST``/``DELETE
/api/v1/players/<id>/block/`` and ``GET /api/v1/blocks/`` (your own list)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.players import request_player
from common.schema import errors

from . import blocks
from .serializers import PlayerBriefOut


class BlockOut(serializers.Serializer):
    player = PlayerBriefOut(source="blocked", help_text="the player you blocked")
    created = serializers.DateTimeField(help_text="when you blocked them")


class BlockListApi(APIView):
    """The players you blocked, newest first."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: BlockOut(many=True), **errors(401)})
    def get(self, request: Request) -> Response:
        return Response(BlockOut(blocks.blocked_by(request_player(request)), many=True).data)


class PlayerBlockApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=None,
        responses={201: BlockOut, 200: BlockOut, **errors(400, 401, 404)},
        description="Block the player: neither of you can challenge the other or join the other's open "
        "tables, quick pairing and the ladders' 3–4 seat queues never seat you together (either way "
        "round), and you no longer see their chat; tournaments pair as always. 201: blocked now; "
        "200: blocked already. Refused (400): yourself, or a house bot (it plays only where someone "
        "invites it). They are not told.",
    )
    def post(self, request: Request, player_id: int) -> Response:
        made, created = blocks.block(player=request_player(request), other_id=player_id)
        return Response(
            BlockOut(made).data, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK
        )

    @extend_schema(
        request=None,
        responses={204: None, **errors(400, 401, 404)},
        description="Lift your block of the player (204 also when there was none).",
    )
    def delete(self, request: Request, player_id: int) -> Response:
        blocks.unblock(player=request_player(request), other_id=player_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
