"""The arenas' API: the live leaderboard, joining, pausing, coming back, leaving, and berserk
(thin views over ``services`` and ``selectors``, throttled as every API view)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.errors import NotFound
from common.players import request_player
from common.schema import errors
from games.models import GameKind

from ..models import Tournament
from ..teams import battles
from . import selectors, services


class ArenaRowOut(serializers.Serializer):
    rank = serializers.IntegerField(help_text="1 = first: points, then performance, then who joined first")
    player = serializers.IntegerField(source="player.pk", help_text="player id")
    display_name = serializers.CharField(source="player.display_name")
    points = serializers.IntegerField()
    games = serializers.IntegerField(help_text="tables counted")
    wins = serializers.IntegerField(help_text="outright first places")
    streak = serializers.IntegerField(help_text="wins in a row now")
    on_fire = serializers.BooleanField(help_text="two wins in a row or more: the next table pays double")
    performance = serializers.IntegerField(
        allow_null=True, help_text="mean of the opponents' ratings, +400 beaten, -400 lost to; null: no table"
    )
    sheet = serializers.ListField(
        child=serializers.CharField(),
        help_text='each table\'s points in order: "4s" on a streak, "3b" berserk',
    )
    table = serializers.IntegerField(source="table_id", allow_null=True, help_text="the table played now")
    paused = serializers.BooleanField()
    withdrawn = serializers.BooleanField()
    berserks = serializers.IntegerField(help_text="tables they went berserk at")
    team = serializers.IntegerField(
        source="team_id", allow_null=True, help_text="a team battle: the team they play for (its id)"
    )
    team_name = serializers.CharField(help_text="a team battle: the team's name; empty otherwise")


class ArenaMineOut(serializers.Serializer):
    entered = serializers.BooleanField(help_text="you are in the arena (registered, or playing) and not gone")
    row = ArenaRowOut(allow_null=True, help_text="your leaderboard line; null before the start")
    table = serializers.IntegerField(source="table_id", allow_null=True, help_text="your table now")
    waiting_since = serializers.DateTimeField(
        allow_null=True, help_text="since when you wait for your next table (the next wave pairs you)"
    )


class TeamBattleCountedOut(serializers.Serializer):
    player = serializers.IntegerField(help_text="player id")
    display_name = serializers.CharField(source="name")
    points = serializers.IntegerField()
    performance = serializers.IntegerField(allow_null=True)


class TeamBattleRowOut(serializers.Serializer):
    place = serializers.IntegerField(help_text="1 = first; teams level on points and total share a place")
    team = serializers.IntegerField(source="team.pk", help_text="team id")
    slug = serializers.CharField(source="team.slug")
    name = serializers.CharField(source="team.name")
    points = serializers.IntegerField(
        help_text="the sum of the points of the team's best team_battle_top players"
    )
    total = serializers.IntegerField(help_text="the sum of all its players' points (breaks ties)")
    players = serializers.IntegerField(help_text="players who play (or played) for the team")
    performance = serializers.IntegerField(
        allow_null=True, help_text="the mean performance of the counting players; null: none yet"
    )
    counting = TeamBattleCountedOut(many=True, help_text="the players whose points count, best first")


class ArenaOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    game = serializers.ChoiceField(choices=GameKind.choices)
    seats = serializers.IntegerField(help_text="players per table, 2 to 4")
    status = serializers.CharField(help_text="draft, registration, running, finished or cancelled")
    rated = serializers.BooleanField()
    time_control = serializers.DictField()
    duration_minutes = serializers.IntegerField()
    berserk = serializers.BooleanField(
        help_text="players may halve their own clock for a point more on a win"
    )
    started_at = serializers.DateTimeField(allow_null=True)
    ends_at = serializers.DateTimeField(allow_null=True, help_text="null before the start")
    finished_at = serializers.DateTimeField(allow_null=True)
    standings = ArenaRowOut(many=True, help_text="best first")
    podium = ArenaRowOut(many=True, help_text="the first three once the arena is finished")
    me = ArenaMineOut(allow_null=True, help_text="your own line and table (null when signed out)")
    team_battle_top = serializers.IntegerField(
        allow_null=True, help_text="a team battle: how many of each team's best scorers count; null: none"
    )
    teams = TeamBattleRowOut(
        many=True, allow_null=True, help_text="a team battle: the team leaderboard, best first; null: none"
    )


class ArenaTableOut(serializers.Serializer):
    table = serializers.IntegerField(source="table_id")
    tournament = serializers.IntegerField(source="tournament_id")
    berserk = serializers.ListField(child=serializers.IntegerField(), help_text="who went berserk here")


def _arena(tournament_id: int, request: Request) -> dict[str, Any]:
    t = Tournament.objects.filter(pk=tournament_id, format=Tournament.Format.ARENA).first()
    if t is None:
        raise NotFound(_("there is no arena %(id)s") % {"id": tournament_id})
    me = request_player(request) if request.user.is_authenticated else None
    data = {
        "id": t.pk,
        "name": t.name,
        "game": t.game,
        "seats": t.seats,
        "status": t.status,
        "rated": t.rated,
        "time_control": t.time_control,
        "duration_minutes": t.duration_minutes or 0,
        "berserk": t.berserk,
        "started_at": t.started_at,
        "ends_at": t.ends_at,
        "finished_at": t.finished_at,
        "standings": selectors.leaderboard(t),
        "podium": selectors.podium(t),
        "me": selectors.my_arena(t, me) if me is not None else None,
        "team_battle_top": t.team_battle_top if battles.is_team_battle(t) else None,
        "teams": battles.team_leaderboard(tournament=t) if battles.is_team_battle(t) else None,
    }
    return ArenaOut(data).data  # type: ignore[no-any-return]


class ArenaApi(APIView):
    """An arena: its leaderboard (live: the ``tournament:{id}`` topic), its end, and your line."""

    @extend_schema(responses={200: ArenaOut, **errors(404)}, operation_id="arena_retrieve")
    def get(self, request: Request, tournament_id: int) -> Response:
        return Response(_arena(tournament_id, request))


def _action(name: str, call: Any, codes: tuple[int, ...]) -> type[APIView]:
    class ActionApi(APIView):
        permission_classes = [permissions.IsAuthenticated]

        @extend_schema(
            request=None, responses={200: ArenaOut, **errors(*codes)}, operation_id=f"arena_{name}"
        )
        def post(self, request: Request, tournament_id: int) -> Response:
            call(tournament_id=tournament_id, player=request_player(request))
            return Response(_arena(tournament_id, request))

    ActionApi.__name__ = f"Arena{name.title()}Api"
    ActionApi.__doc__ = call.__doc__
    return ActionApi


class ArenaJoinIn(serializers.Serializer):
    team = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=80,
        help_text="a team battle: the team you play for (its id or slug), one of the battle's teams you "
        "are a member of; needed only when you are on several of them (fixed once you joined)",
    )


class ArenaJoinApi(APIView):
    """Join an arena (before its start or while it runs); a team battle: for one of its teams you
    are on."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=ArenaJoinIn,
        responses={200: ArenaOut, **errors(400, 401, 403, 404, 409)},
        operation_id="arena_join",
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        data = ArenaJoinIn(data=request.data)
        data.is_valid(raise_exception=True)
        services.arena_join(
            tournament_id=tournament_id, player=request_player(request), team=data.validated_data.get("team")
        )
        return Response(_arena(tournament_id, request))


ArenaPauseApi = _action("pause", services.arena_pause, (401, 404, 409))
ArenaResumeApi = _action("resume", services.arena_resume, (401, 404, 409))
ArenaWithdrawApi = _action("withdraw", services.arena_withdraw, (401, 404, 409))


class BerserkApi(APIView):
    """Go berserk at your arena table before your first move there: half your clock, a point more
    if you win."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=None,
        responses={200: ArenaTableOut, **errors(401, 403, 404, 409)},
        operation_id="table_berserk",
    )
    def post(self, request: Request, table_id: int) -> Response:
        at = services.berserk(table_id=table_id, player=request_player(request))
        return Response(ArenaTableOut(at).data)
