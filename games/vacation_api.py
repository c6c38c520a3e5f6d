"""A player's correspondence vacation through the API (``games.vacation``):
``GET``/``POST``/``DELETE /api/v1/account/vacation/``."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.players import request_player
from common.schema import errors

from . import vacation


class VacationOut(serializers.Serializer):
    on_vacation = serializers.BooleanField(help_text="your correspondence clocks are stopped now")
    started = serializers.DateTimeField(allow_null=True, help_text="when the vacation began (null: none)")
    until = serializers.DateTimeField(allow_null=True, help_text="when it ends and your clocks run again")
    days_left = serializers.IntegerField(help_text="days you may still take this calendar year (UTC)")
    days_per_year = serializers.IntegerField(help_text="the yearly allowance")
    may_take = serializers.BooleanField(help_text="false for guest and bot accounts, which take no vacation")


class VacationIn(serializers.Serializer):
    days = serializers.IntegerField(help_text="whole days, from 1 to days_left")


class VacationApi(APIView):
    """Your correspondence vacation: while it lasts, your turns at correspondence tables whose time
    control allows vacation (``"vacation": false`` refuses it) wait for its end."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: VacationOut, **errors(401)})
    def get(self, request: Request) -> Response:
        return Response(VacationOut(vacation.vacation_of(player=request_player(request))).data)

    @extend_schema(
        request=VacationIn,
        responses={200: VacationOut, **errors(400, 401, 403, 409)},
        description="Start a vacation of `days` whole days now. At each correspondence table where "
        "it is your turn, the time spent so far is charged and your turn starts again when the "
        "vacation ends; a turn that comes to you meanwhile starts then too. 400: days not a whole "
        "number from 1 to the days left this year; 403: guest or bot accounts; 409 `on_vacation`: "
        "you are on vacation already (end it first).",
    )
    def post(self, request: Request) -> Response:
        data = VacationIn(data=request.data)
        data.is_valid(raise_exception=True)
        player = request_player(request)
        vacation.vacation_start(player=player, days=data.validated_data["days"])
        return Response(VacationOut(vacation.vacation_of(player=player)).data)

    @extend_schema(
        request=None,
        responses={204: None, **errors(401, 409)},
        description="End your vacation now: the turns waiting for its end start now, and the whole "
        "days not used are given back. 409 `not_on_vacation`: you are not on vacation.",
    )
    def delete(self, request: Request) -> Response:
        vacation.vacation_end(player=request_player(request))
        return Response(status=status.HTTP_204_NO_CONTENT)
