"""Friends and challenges through the API (``community.friends``, ``community.challenges``):
``POST``/``DELETE /api/v1/players/<id>/follow/``, ``GET /api/v1/follows/``,
``POST /api/v1/players/<id>/challenge/`` and ``POST /api/v1/tables/<id>/decline/``."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.players import request_player
from common.schema import errors
from games import selectors
from games.models import GameKind
from games.serializers import PlayerBriefOut, TableDetailOut

from . import challenges, friends


class FollowOut(serializers.Serializer):
    player = PlayerBriefOut(source="followed", help_text="the player you follow")
    created = serializers.DateTimeField(help_text="when you started following them")


class FriendOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField(help_text="their display name")
    online = serializers.BooleanField(help_text="seen in the last five minutes")
    playing = serializers.IntegerField(
        allow_null=True, help_text="the table of a game they are playing now, or null"
    )


class PlayerFollowApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=None,
        responses={201: FollowOut, 200: FollowOut, **errors(400, 401, 403, 404)},
        description="Follow the player: see when they are online or playing (GET /api/v1/follows/). "
        "201: following now; 200: following already. Refused: yourself (400), a guest account "
        "(400), a guest following anyone (403). They are not told.",
    )
    def post(self, request: Request, player_id: int) -> Response:
        made, created = friends.follow(player=request_player(request), other_id=player_id)
        return Response(
            FollowOut(made).data, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK
        )

    @extend_schema(
        request=None,
        responses={204: None, **errors(400, 401, 403, 404)},
        description="Stop following the player (204 also when you did not follow them).",
    )
    def delete(self, request: Request, player_id: int) -> Response:
        friends.unfollow(player=request_player(request), other_id=player_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class FollowListApi(APIView):
    """The players you follow: online ones first, then those playing, then by name."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: FriendOut(many=True), **errors(401)})
    def get(self, request: Request) -> Response:
        return Response(FriendOut(friends.friends(player=request_player(request)), many=True).data)


class TableChallengeIn(serializers.Serializer):
    game = serializers.ChoiceField(choices=GameKind.choices)
    players = serializers.IntegerField(min_value=2, max_value=4, default=2)
    edition = serializers.ChoiceField(choices=[("302", "302"), ("2011", "2011")], default="302")
    time_control = serializers.JSONField(
        required=False,
        allow_null=True,
        default=None,
        help_text='as for a new table, e.g. {"kind": "correspondence", "days": 3}; untimed when left out',
    )
    rated = serializers.BooleanField(default=False)


class PlayerChallengeApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=TableChallengeIn,
        responses={201: TableDetailOut, **errors(400, 401, 403, 404, 409)},
        description="Challenge the player to a table: it is opened with you seated and one seat kept "
        "for them (others may take the other seats of a 3–4 seat table, not the last one); they are "
        "told, and take their seat with POST /api/v1/tables/{id}/join/ or decline with "
        "POST /api/v1/tables/{id}/decline/. Refused: yourself, a bot or a guest (400); a guest "
        "challenging, or a player either of you blocked (403, without saying who blocked whom); "
        "a second open challenge to the same player, or too many open challenges (409).",
    )
    def post(self, request: Request, player_id: int) -> Response:
        data = TableChallengeIn(data=request.data)
        data.is_valid(raise_exception=True)
        table = challenges.challenge(by=request_player(request), to_id=player_id, **data.validated_data)
        return Response(TableDetailOut(selectors.table_detail(table.pk)).data, status=status.HTTP_201_CREATED)


class TableDeclineApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=None,
        responses={200: TableDetailOut, **errors(401, 403, 404, 409)},
        description="Decline a challenge to this table (only the player challenged): the table is "
        "aborted, or stays open without a kept seat when others sat down meanwhile; the challenger "
        "is told. 409 when the table has started, or nobody is challenged to it.",
    )
    def post(self, request: Request, table_id: int) -> Response:
        table = challenges.decline(table_id=table_id, player=request_player(request))
        return Response(TableDetailOut(selectors.table_detail(table.pk)).data)
