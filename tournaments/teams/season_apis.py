"""The team seasons' part of the API: a team's captain (or an organiser) registers the team for a
team season and takes the registration back, and the shapes of a team season's entries and
division tables, which the season's detail (``seasons.apis.season_body``) shows. Thin views over
``teams.seasons``, with the conventions of ``tournaments.apis`` (errors in ``common.errors``'
single shape, every answer described for drf-spectacular, the default throttles)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.players import request_player
from common.schema import errors

from ..models import TeamSeasonEntry
from . import seasons


# ------------------------------------------------------------------ shapes
class TeamIn(serializers.Serializer):
    team = serializers.IntegerField(min_value=1, help_text="the team's id")


class TeamSeasonEntryOut(serializers.Serializer):
    team = serializers.IntegerField(source="team_id")
    name = serializers.CharField(source="team.name")
    slug = serializers.CharField(source="team.slug", help_text="the team's address: /teams/{slug}/")
    withdrawn = serializers.BooleanField()
    level = serializers.IntegerField(source="division.level", allow_null=True, default=None)
    group = serializers.CharField(source="division.group", allow_null=True, default=None)
    arrived = serializers.CharField(help_text="up, down, stay, new (from last season), or empty")
    place = serializers.IntegerField(allow_null=True)
    movement = serializers.CharField(help_text="up, down, stay once the season is closed; else empty")


class TeamTableRowOut(serializers.Serializer):
    team = serializers.IntegerField(source="team_id")
    name = serializers.CharField()
    slug = serializers.CharField()
    place = serializers.IntegerField()
    match_points = serializers.FloatField()
    game_points = serializers.FloatField()
    played = serializers.IntegerField(help_text="matches played (byes not counted)")
    won = serializers.IntegerField()
    drawn = serializers.IntegerField()
    lost = serializers.IntegerField()
    movement = serializers.CharField(
        help_text="up, down, stay (provisional while running); empty before round 1"
    )
    arrived = serializers.CharField()
    withdrawn = serializers.BooleanField()


class TeamDivisionOut(serializers.Serializer):
    id = serializers.IntegerField()
    level = serializers.IntegerField(help_text="1 = the top division")
    group = serializers.CharField(help_text="A, B ... when a level is split; else empty")
    name = serializers.CharField(help_text='the name given, else "Division 2 A" in your language')
    team_event = serializers.IntegerField(
        source="team_event_id", allow_null=True, help_text="the division's team event: /team-events/{id}/"
    )
    team_event_status = serializers.CharField(help_text="registration, running, finished or cancelled")


class TeamDivisionTableOut(serializers.Serializer):
    division = TeamDivisionOut()
    rows = TeamTableRowOut(many=True)
    final = serializers.BooleanField(help_text="places and movement decided (the season is closed)")


def entry_body(entry: TeamSeasonEntry) -> dict[str, Any]:
    entry = TeamSeasonEntry.objects.select_related("team", "division").get(pk=entry.pk)
    return dict(TeamSeasonEntryOut(entry).data)


# ------------------------------------------------------------------ views
class _TeamAction(APIView):
    permission_classes = [permissions.IsAuthenticated]
    call: Any = None

    def post(self, request: Request, season_id: int) -> Response:
        data = TeamIn(data=request.data)
        data.is_valid(raise_exception=True)
        entry = type(self).call(
            season_id=season_id, team_id=data.validated_data["team"], by=request_player(request)
        )
        return Response(entry_body(entry))


class TeamSeasonRegisterApi(_TeamAction):
    """Register a team for a team season (its captain or vice-captain, or an organiser)."""

    call = staticmethod(seasons.team_season_register)

    @extend_schema(
        request=TeamIn,
        responses={200: TeamSeasonEntryOut, **errors(400, 401, 403, 404, 409)},
        operation_id="season_team_register",
    )
    def post(self, request: Request, season_id: int) -> Response:
        return super().post(request, season_id)


class TeamSeasonWithdrawApi(_TeamAction):
    """Take a team's registration back while registration is open."""

    call = staticmethod(seasons.team_season_withdraw)

    @extend_schema(
        request=TeamIn,
        responses={200: TeamSeasonEntryOut, **errors(400, 401, 403, 404, 409)},
        operation_id="season_team_withdraw",
    )
    def post(self, request: Request, season_id: int) -> Response:
        return super().post(request, season_id)
