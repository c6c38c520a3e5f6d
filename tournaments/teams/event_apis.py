"""The team events API: team events (list, create, one with its entries), their standings and
rounds, entering and withdrawing teams, starting and calling off; a match with its boards; a
team's line-up for a round (read: its managers before the round starts, everyone after; PUT sets
it). Thin views over ``teams.events``, ``lineups`` and ``event_reads``, with the conventions of
``tournaments.apis`` (errors in ``common.errors``' single shape, every answer described for
drf-spectacular, the default throttles)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.errors import Forbidden, NotFound
from common.players import request_player
from common.schema import errors
from games.models import GameKind

from .. import selectors as league_selectors
from ..models import LineUp, Season, Team, TeamEvent, TeamMatch, TeamRound
from . import event_reads, events, lineups

AUTH = [permissions.IsAuthenticated]


# ------------------------------------------------------------------ shapes
class TeamEntryOut(serializers.Serializer):
    team_id = serializers.IntegerField()
    name = serializers.CharField()
    slug = serializers.CharField()
    seed = serializers.IntegerField(allow_null=True)
    withdrawn = serializers.BooleanField()
    place = serializers.IntegerField(allow_null=True, help_text="the final place, once the event is over")


class TeamRoundRefOut(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    status = serializers.CharField(help_text="lineups (paired, line-ups open), playing or finished")
    starts_at = serializers.DateTimeField(help_text="line-ups close and the boards' tables open then")


class TeamEventOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    league = serializers.CharField(source="league.slug")
    game = serializers.CharField()
    seats = serializers.IntegerField(help_text="teams per match (and players per board)")
    boards = serializers.IntegerField()
    format = serializers.CharField(help_text="round_robin or swiss")
    rounds = serializers.IntegerField()
    status = serializers.CharField(help_text="registration, running, finished or cancelled")
    starts_at = serializers.DateTimeField(allow_null=True)
    current_round = serializers.IntegerField()


class TeamEventDetailOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    league = serializers.CharField()
    season_id = serializers.IntegerField(allow_null=True)
    game = serializers.CharField()
    edition = serializers.CharField()
    seats = serializers.IntegerField()
    boards = serializers.IntegerField()
    format = serializers.CharField()
    rounds = serializers.IntegerField()
    time_control = serializers.DictField()
    rated = serializers.BooleanField()
    points_scale = serializers.ListField(child=serializers.FloatField(), allow_null=True)
    match_points = serializers.ListField(child=serializers.FloatField(), allow_null=True)
    tiebreak = serializers.CharField()
    status = serializers.CharField()
    starts_at = serializers.DateTimeField(allow_null=True)
    round_times = serializers.ListField(child=serializers.CharField())
    round_gap_minutes = serializers.IntegerField()
    current_round = serializers.IntegerField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    entries = TeamEntryOut(many=True)
    rounds_played = TeamRoundRefOut(many=True)


class TeamEventIn(serializers.Serializer):
    league = serializers.SlugField(help_text="the club's slug: its organisers create its team events")
    name = serializers.CharField(max_length=100)
    game = serializers.ChoiceField(choices=GameKind.choices)
    seats = serializers.IntegerField(default=2, help_text="teams per match: 2 to 4")
    boards = serializers.IntegerField(default=4, help_text="players of each team in a match: 1 to 12")
    format = serializers.CharField(default="round_robin", help_text="round_robin or swiss")
    rounds = serializers.IntegerField(default=0, help_text="a Swiss's rounds (a round robin sets its own)")
    time_control = serializers.DictField(required=False, allow_null=True)
    rated = serializers.BooleanField(default=True)
    points_scale = serializers.ListField(child=serializers.FloatField(), required=False, allow_null=True)
    match_points = serializers.ListField(child=serializers.FloatField(), required=False, allow_null=True)
    tiebreak = serializers.ChoiceField(choices=TeamEvent.Tiebreak.choices, default="game_points")
    starts_at = serializers.DateTimeField(required=False, allow_null=True)
    round_times = serializers.ListField(child=serializers.CharField(), required=False, allow_null=True)
    round_gap_minutes = serializers.IntegerField(default=10)
    edition = serializers.CharField(required=False, allow_blank=True, default="")
    season = serializers.IntegerField(required=False, allow_null=True, help_text="a season of the club")


class TeamEntryIn(serializers.Serializer):
    team = serializers.IntegerField(help_text="the team's id")
    seed = serializers.IntegerField(required=False, allow_null=True, help_text="organisers only")


class TeamTiebreaksOut(serializers.Serializer):
    game_points = serializers.FloatField()
    direct = serializers.FloatField()
    buchholz = serializers.FloatField()
    sonneborn_berger = serializers.FloatField()


class TeamStandingOut(serializers.Serializer):
    team = serializers.IntegerField()
    name = serializers.CharField()
    place = serializers.IntegerField()
    match_points = serializers.FloatField()
    game_points = serializers.FloatField()
    tiebreaks = TeamTiebreaksOut(help_text="in the order they apply (the event's choice first)")
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    drawn = serializers.IntegerField()
    lost = serializers.IntegerField()


class TeamMatchSideOut(serializers.Serializer):
    team_id = serializers.IntegerField()
    name = serializers.CharField()
    slug = serializers.CharField()
    order = serializers.IntegerField(help_text="1 sits in seat 1 on odd boards, 2 on even boards")
    game_points = serializers.FloatField()
    place = serializers.IntegerField(allow_null=True)
    match_points = serializers.FloatField(allow_null=True)


class TeamMatchRefOut(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    status = serializers.CharField()
    sides = TeamMatchSideOut(many=True)


class TeamRoundOut(serializers.Serializer):
    id = serializers.IntegerField()
    event_id = serializers.IntegerField()
    number = serializers.IntegerField()
    status = serializers.CharField()
    starts_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    byes = serializers.ListField(child=serializers.IntegerField(), help_text="teams sitting the round out")
    matches = TeamMatchRefOut(many=True)


class TeamBoardPlayerOut(serializers.Serializer):
    team_id = serializers.IntegerField()
    player_id = serializers.IntegerField(allow_null=True, help_text="null: the board was left empty")
    name = serializers.CharField()
    seat = serializers.IntegerField(allow_null=True)
    rank = serializers.IntegerField(allow_null=True)
    points = serializers.FloatField(allow_null=True, help_text="the board points, once counted")
    forfeit = serializers.BooleanField()


class TeamBoardOut(serializers.Serializer):
    number = serializers.IntegerField()
    table_id = serializers.IntegerField(allow_null=True)
    status = serializers.CharField()
    counted = serializers.BooleanField()
    players = TeamBoardPlayerOut(many=True)


class TeamMatchOut(serializers.Serializer):
    id = serializers.IntegerField()
    event_id = serializers.IntegerField()
    event = serializers.CharField()
    round = serializers.IntegerField()
    round_id = serializers.IntegerField()
    number = serializers.IntegerField()
    status = serializers.CharField()
    starts_at = serializers.DateTimeField()
    sides = TeamMatchSideOut(many=True)
    boards = TeamBoardOut(many=True)


class TeamLineUpOut(serializers.Serializer):
    round_id = serializers.IntegerField()
    team_id = serializers.IntegerField()
    players = serializers.ListField(
        child=serializers.IntegerField(allow_null=True), help_text="board 1 first; null: an empty board"
    )
    submitted = serializers.BooleanField(help_text="false: none set yet, or the default was used")
    closes_at = serializers.DateTimeField()


class TeamLineUpIn(serializers.Serializer):
    players = serializers.ListField(
        child=serializers.IntegerField(allow_null=True),
        allow_empty=True,
        help_text="one player id (or null: leave the board empty) per board, board 1 first",
    )


# ------------------------------------------------------------------ helpers
def _event(event_id: int) -> TeamEvent:
    event = TeamEvent.objects.select_related("league").filter(pk=event_id).first()
    if event is None:
        raise NotFound(_("there is no team event %(id)s") % {"id": event_id})
    return event


def _detail(event_id: int, code: int = status.HTTP_200_OK) -> Response:
    return Response(event_reads.event_detail(event=_event(event_id)), status=code)


# ------------------------------------------------------------------ events
class TeamEventListApi(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(
        parameters=[
            OpenApiParameter("league", str, description="only this club's team events (its slug)"),
            OpenApiParameter("status", str, description="registration, running, finished or cancelled"),
        ],
        responses={200: TeamEventOut(many=True), **errors(404)},
        operation_id="team_events_list",
    )
    def get(self, request: Request) -> Response:
        slug = request.query_params.get("league", "")
        league = league_selectors.league(slug) if slug else None
        wanted = request.query_params.get("status", "")
        rows = event_reads.event_list(
            league=league, status=wanted if wanted in TeamEvent.Status.values else ""
        )
        return Response(TeamEventOut(rows[:200], many=True).data)

    @extend_schema(
        request=TeamEventIn,
        responses={201: TeamEventDetailOut, **errors(400, 401, 403, 404)},
        operation_id="team_events_create",
    )
    def post(self, request: Request) -> Response:
        data = TeamEventIn(data=request.data)
        data.is_valid(raise_exception=True)
        v = dict(data.validated_data)
        league = league_selectors.league(v.pop("league"))
        season_id = v.pop("season", None)
        season = None
        if season_id is not None:
            season = Season.objects.filter(pk=season_id).first()
            if season is None:
                raise NotFound(_("there is no season %(id)s") % {"id": season_id})
        event = events.team_event_create(league=league, by=request_player(request), season=season, **v)
        return _detail(event.pk, status.HTTP_201_CREATED)


class TeamEventDetailApi(APIView):
    @extend_schema(responses={200: TeamEventDetailOut, **errors(404)}, operation_id="team_events_retrieve")
    def get(self, request: Request, event_id: int) -> Response:
        return _detail(event_id)


class TeamEventStandingsApi(APIView):
    @extend_schema(
        responses={200: TeamStandingOut(many=True), **errors(404)}, operation_id="team_events_standings"
    )
    def get(self, request: Request, event_id: int) -> Response:
        event = _event(event_id)
        rows = event_reads.standings(event=event)
        names = dict(Team.objects.filter(pk__in=[r.team for r in rows]).values_list("pk", "name"))
        body = [{**r.__dict__, "name": names.get(r.team, "")} for r in rows]
        return Response(TeamStandingOut(body, many=True).data)


class TeamEventRoundApi(APIView):
    @extend_schema(responses={200: TeamRoundOut, **errors(404)}, operation_id="team_events_round")
    def get(self, request: Request, event_id: int, number: int) -> Response:
        rnd = TeamRound.objects.filter(event=_event(event_id), number=number).first()
        if rnd is None:
            raise NotFound(_("round %(n)s of this event is not paired yet") % {"n": number})
        return Response(TeamRoundOut(event_reads.round_detail(rnd=rnd)).data)


def _entry_action(name: str) -> type[APIView]:
    call = {"enter": events.team_event_enter, "withdraw": events.team_event_withdraw}[name]

    class EntryApi(APIView):
        permission_classes = AUTH

        @extend_schema(
            request=TeamEntryIn,
            responses={200: TeamEventDetailOut, **errors(400, 401, 403, 404, 409)},
            operation_id=f"team_events_{name}",
        )
        def post(self, request: Request, event_id: int) -> Response:
            data = TeamEntryIn(data=request.data)
            data.is_valid(raise_exception=True)
            kw: dict[str, Any] = {"event_id": event_id, "team_id": data.validated_data["team"]}
            if name == "enter" and data.validated_data.get("seed") is not None:
                kw["seed"] = data.validated_data["seed"]
            call(by=request_player(request), **kw)
            return _detail(event_id)

    EntryApi.__name__ = f"TeamEvent{name.title()}Api"
    return EntryApi


TeamEventEnterApi = _entry_action("enter")
TeamEventWithdrawApi = _entry_action("withdraw")


class TeamEventStartApi(APIView):
    permission_classes = AUTH

    @extend_schema(
        request=None,
        responses={200: TeamEventDetailOut, **errors(401, 403, 404, 409)},
        operation_id="team_events_start",
    )
    def post(self, request: Request, event_id: int) -> Response:
        events.team_event_start(event_id=event_id, by=request_player(request))
        return _detail(event_id)


class TeamEventCancelApi(APIView):
    permission_classes = AUTH

    @extend_schema(
        request=None,
        responses={200: TeamEventDetailOut, **errors(401, 403, 404, 409)},
        operation_id="team_events_cancel",
    )
    def post(self, request: Request, event_id: int) -> Response:
        events.team_event_cancel(event_id=event_id, by=request_player(request))
        return _detail(event_id)


# ------------------------------------------------------------------ matches and line-ups
class TeamMatchApi(APIView):
    @extend_schema(responses={200: TeamMatchOut, **errors(404)}, operation_id="team_matches_retrieve")
    def get(self, request: Request, match_id: int) -> Response:
        match = TeamMatch.objects.select_related("round__event").filter(pk=match_id).first()
        if match is None:
            raise NotFound(_("there is no team match %(id)s") % {"id": match_id})
        return Response(TeamMatchOut(event_reads.match_detail(match=match)).data)


class LineUpApi(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    def _target(self, round_id: int, team_id: int) -> tuple[TeamRound, Team]:
        rnd = TeamRound.objects.select_related("event__league").filter(pk=round_id).first()
        if rnd is None:
            raise NotFound(_("there is no team round %(id)s") % {"id": round_id})
        team = Team.objects.select_related("league").filter(pk=team_id).first()
        if team is None:
            raise NotFound(_("there is no team %(id)s") % {"id": team_id})
        return rnd, team

    def _body(self, rnd: TeamRound, team: Team) -> dict[str, Any]:
        lineup = LineUp.objects.filter(round=rnd, team=team).first()
        players = list(lineup.players) if lineup else []
        return {
            "round_id": rnd.pk,
            "team_id": team.pk,
            "players": players,
            "submitted": bool(lineup and lineup.submitted_by_id),
            "closes_at": rnd.starts_at,
        }

    @extend_schema(responses={200: TeamLineUpOut, **errors(403, 404)}, operation_id="team_lineups_retrieve")
    def get(self, request: Request, round_id: int, team_id: int) -> Response:
        rnd, team = self._target(round_id, team_id)
        viewer = request_player(request) if request.user.is_authenticated else None
        if not lineups.visible(rnd=rnd, team=team, player=viewer):
            raise Forbidden(
                _("the line-up of %(team)s is shown once round %(round)s starts (its captains see it before)")
                % {"team": team.name, "round": rnd.number}
            )
        return Response(TeamLineUpOut(self._body(rnd, team)).data)

    @extend_schema(
        request=TeamLineUpIn,
        responses={200: TeamLineUpOut, **errors(400, 401, 403, 404, 409)},
        operation_id="team_lineups_submit",
    )
    def put(self, request: Request, round_id: int, team_id: int) -> Response:
        data = TeamLineUpIn(data=request.data)
        data.is_valid(raise_exception=True)
        rnd, team = self._target(round_id, team_id)
        lineups.lineup_submit(
            round_id=rnd.pk,
            team_id=team.pk,
            by=request_player(request),
            players=data.validated_data["players"],
        )
        return Response(TeamLineUpOut(self._body(rnd, team)).data)
