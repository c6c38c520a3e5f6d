"""The seasons API: a league's seasons, a season with its divisions, table, schedule and prizes,
a points series' table, and the players' and organisers' actions. Thin views over
``seasons.services`` and ``seasons.selectors``, with the conventions of ``tournaments.apis``
(errors as ``common.errors``' single shape, every response described for drf-spectacular)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.players import request_player
from common.schema import errors

from .. import selectors as league_selectors
from ..models import Season
from ..teams import season_apis as team_apis
from ..teams import seasons as team_seasons
from . import selectors, services
from .serializers import (
    CloseIn,
    DivisionOut,
    DivisionTableOut,
    EntryOut,
    PrizeAwardOut,
    RoundsIn,
    ScheduledRoundOut,
    SeasonDetailOut,
    SeasonIn,
    SeasonOut,
    SeasonSettingsIn,
    SeriesRowOut,
)

AUTH = [permissions.IsAuthenticated]


def season_body(season_id: int) -> dict[str, Any]:
    """A season as ``SeasonDetailOut`` describes it."""
    season = selectors.season(season_id)
    body: dict[str, Any] = dict(SeasonOut(season).data)
    body["next"] = Season.objects.filter(previous=season).values_list("pk", flat=True).first()
    body["entries"] = EntryOut(selectors.entries(season), many=True).data
    tables = selectors.season_table(season) if not season.team_boards else []
    teams = team_seasons.team_season_table(season=season) if season.team_boards else []
    body["divisions"] = DivisionOut([t.division for t in tables or teams], many=True).data
    body["table"] = DivisionTableOut(tables, many=True).data
    body["team_entries"] = team_apis.TeamSeasonEntryOut(
        team_seasons.team_entries(season=season), many=True
    ).data
    body["team_table"] = team_apis.TeamDivisionTableOut(teams, many=True).data
    body["schedule"] = ScheduledRoundOut(selectors.schedule(season), many=True).data
    body["prize_winners"] = PrizeAwardOut(selectors.prize_winners(season), many=True).data
    return body


class LeagueSeasonsApi(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(responses={200: SeasonOut(many=True), **errors(404)}, operation_id="league_seasons_list")
    def get(self, request: Request, slug: str) -> Response:
        league = league_selectors.league(slug)
        seasons = Season.objects.filter(league=league).select_related("league").order_by("-pk")
        return Response(SeasonOut(seasons, many=True).data)

    @extend_schema(
        request=SeasonIn,
        responses={201: SeasonDetailOut, **errors(400, 401, 403, 404)},
        operation_id="league_seasons_create",
    )
    def post(self, request: Request, slug: str) -> Response:
        league = league_selectors.league(slug)
        data = SeasonIn(data=request.data)
        data.is_valid(raise_exception=True)
        v = dict(data.validated_data)
        season = services.season_create(
            league=league, by=request_player(request), name=v.pop("name"), kind=v.pop("kind"), **v
        )
        return Response(season_body(season.pk), status=status.HTTP_201_CREATED)


class SeasonDetailApi(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(responses={200: SeasonDetailOut, **errors(404)}, operation_id="seasons_retrieve")
    def get(self, request: Request, season_id: int) -> Response:
        return Response(season_body(season_id))

    @extend_schema(
        request=SeasonSettingsIn,
        responses={200: SeasonDetailOut, **errors(400, 401, 403, 404, 409)},
        operation_id="seasons_update",
    )
    def patch(self, request: Request, season_id: int) -> Response:
        data = SeasonSettingsIn(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        services.season_update(season_id=season_id, by=request_player(request), **data.validated_data)
        return Response(season_body(season_id))


class SeriesTableApi(APIView):
    @extend_schema(responses={200: SeriesRowOut(many=True), **errors(404)}, operation_id="seasons_series")
    def get(self, request: Request, season_id: int) -> Response:
        return Response(SeriesRowOut(selectors.series_table(selectors.season(season_id)), many=True).data)


def _action(name: str, call: Any, codes: tuple[int, ...], body: Any = None) -> type[APIView]:
    class ActionApi(APIView):
        permission_classes = AUTH

        @extend_schema(
            request=body,
            responses={200: SeasonDetailOut, **errors(*codes)},
            operation_id=f"season_{name}",
        )
        def post(self, request: Request, season_id: int) -> Response:
            values: dict[str, Any] = {}
            if body is not None:
                data = body(data=request.data)
                data.is_valid(raise_exception=True)
                values = dict(data.validated_data)
            shown = call(season_id, request_player(request), values)
            return Response(season_body(shown if isinstance(shown, int) else season_id))

    ActionApi.__name__ = f"Season{name.title()}Api"
    return ActionApi


RegisterApi = _action(
    "register", lambda s, me, _: services.season_register(season_id=s, player=me), (401, 403, 404, 409)
)
WithdrawApi = _action(
    "withdraw", lambda s, me, _: services.season_withdraw(season_id=s, player=me), (401, 404, 409)
)
UnavailableApi = _action(
    "unavailable",
    lambda s, me, v: services.set_unavailable(season_id=s, player=me, rounds=v["rounds"]),
    (400, 401, 404, 409),
    RoundsIn,
)
StartApi = _action("start", lambda s, me, _: services.season_start(season_id=s, by=me), (401, 403, 404, 409))
# Closing answers with the season opened next (the organiser fills in its calendar).
CloseApi = _action(
    "close",
    lambda s, me, v: services.season_close(season_id=s, by=me, name=v.get("name", "")).pk,
    (401, 403, 404, 409),
    CloseIn,
)
