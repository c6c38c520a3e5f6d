"""Scheduled starts API: the organiser postpones an event not started yet, or calls it off (thin
views over :mod:`tournaments.calendar.starts`; starting early is the ordinary ``start``)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.players import request_player
from common.schema import errors

from ..competitions import selectors
from ..serializers import TournamentDetailOut
from . import starts


def _tournament(tournament_id: int) -> dict[str, Any]:
    return TournamentDetailOut(selectors.tournament_detail(tournament_id)).data  # type: ignore[no-any-return]


class PostponeIn(serializers.Serializer):
    starts_at = serializers.DateTimeField(
        help_text="the new start time (ISO 8601; without an offset, in your time zone); in the future"
    )


class CallOffIn(serializers.Serializer):
    reason = serializers.CharField(
        max_length=starts.MAX_REASON,
        required=False,
        allow_blank=True,
        default="",
        help_text="why, told to everyone registered (optional)",
    )


class PostponeApi(APIView):
    """Move an event not started yet to a new start time (organisers of its league only); everyone
    registered is told, and the reminders go out again for the new time."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=PostponeIn,
        responses={200: TournamentDetailOut, **errors(400, 401, 403, 404, 409)},
        operation_id="tournament_postpone",
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        data = PostponeIn(data=request.data)
        data.is_valid(raise_exception=True)
        starts.postpone(
            tournament_id=tournament_id,
            starts_at=data.validated_data["starts_at"],
            by=request_player(request),
        )
        return Response(_tournament(tournament_id))


class CallOffApi(APIView):
    """Call off an event not started yet (organisers of its league only); everyone registered is
    told, with the reason when one is given."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=CallOffIn,
        responses={200: TournamentDetailOut, **errors(400, 401, 403, 404, 409)},
        operation_id="tournament_call_off",
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        data = CallOffIn(data=request.data)
        data.is_valid(raise_exception=True)
        starts.call_off(
            tournament_id=tournament_id, by=request_player(request), reason=data.validated_data["reason"]
        )
        return Response(_tournament(tournament_id))
