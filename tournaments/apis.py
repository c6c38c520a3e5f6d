"""Leagues and tournaments API (same style as the games API: thin views over services)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.errors import InvalidInput, NotFound
from common.players import request_player
from games.models import GameKind, Player, Table

from . import ladders, selectors, services
from .models import Challenge, Ladder, League, Registration, Round, Tournament

AUTH = [permissions.IsAuthenticated]


class LeagueIn(serializers.Serializer):
    name = serializers.CharField(max_length=80)
    slug = serializers.SlugField(max_length=80, required=False, allow_blank=True)
    description = serializers.CharField(required=False, allow_blank=True, max_length=2000)


class TournamentIn(serializers.Serializer):
    league = serializers.SlugField(help_text="the league's slug")
    name = serializers.CharField(max_length=100)
    game = serializers.ChoiceField(choices=GameKind.choices)
    seats = serializers.IntegerField(min_value=2, max_value=4)
    format = serializers.ChoiceField(choices=Tournament.Format.choices, default=Tournament.Format.SWISS)
    rounds = serializers.IntegerField(min_value=0, max_value=30, default=0)
    advance = serializers.IntegerField(min_value=1, max_value=3, default=1)
    edition = serializers.ChoiceField(choices=[("302", "302"), ("2011", "2011")], default="302")
    time_control = serializers.JSONField(required=False)
    rated = serializers.BooleanField(default=True)
    points_scale = serializers.ListField(child=serializers.FloatField(), required=False, allow_null=True)
    check_in = serializers.BooleanField(default=False)
    open_registration = serializers.BooleanField(default=True)


class PlayerRef(serializers.Serializer):
    player = serializers.IntegerField(required=False, help_text="player id (organisers); yourself if absent")


def _league(slug: str) -> League:
    league = League.objects.filter(slug=slug).first()
    if league is None:
        raise NotFound(f"there is no league {slug!r}")
    return league


def _tournament(tournament_id: int) -> Tournament:
    t = Tournament.objects.select_related("league").filter(pk=tournament_id).first()
    if t is None:
        raise NotFound(f"there is no tournament {tournament_id}")
    return t


def _someone(request: Request) -> Player:
    data = PlayerRef(data=request.data)
    data.is_valid(raise_exception=True)
    pid = data.validated_data.get("player")
    if pid is None:
        return request_player(request)
    found = Player.objects.filter(pk=pid).first()
    if found is None:
        raise NotFound(f"there is no player {pid}")
    return found


def league_body(league: League) -> dict[str, Any]:
    return {
        "slug": league.slug,
        "name": league.name,
        "description": league.description,
        "organisers": [{"id": p.pk, "display_name": p.display_name} for p in league.organisers.all()],
        "members": league.members.count(),
    }


def tournament_body(t: Tournament, full: bool = False) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": t.pk,
        "league": t.league.slug,
        "name": t.name,
        "game": t.game,
        "edition": t.edition,
        "seats": t.seats,
        "format": t.format,
        "rounds": t.rounds,
        "advance": t.advance,
        "time_control": t.time_control,
        "rated": t.rated,
        "points_scale": t.points_scale,
        "check_in": t.check_in,
        "status": t.status,
        "current_round": t.current_round,
        "registered": t.registrations.exclude(status=Registration.Status.WITHDRAWN).count(),
    }
    if full:
        body["registrations"] = [
            {
                "player": r.player_id,
                "display_name": r.player.display_name,
                "status": r.status,
                "no_shows": r.no_shows,
            }
            for r in t.registrations.select_related("player")
        ]
        body["rounds"] = [round_body(r) for r in t.round_set.order_by("number")]
        body["standings"] = standings_body(t)
    return body


def round_body(rnd: Round) -> dict[str, Any]:
    tables = []
    for rt in rnd.tables.select_related("table").order_by("number"):
        table: Table = rt.table
        seats = {s.number: s for s in table.seats.select_related("player")}
        tables.append(
            {
                "number": rt.number,
                "table": table.pk,
                "status": table.status,
                "players": [
                    {"seat": n, "player": s.player_id, "display_name": s.player.display_name, "rank": s.rank}
                    for n, s in sorted(seats.items())
                ],
            }
        )
    return {"number": rnd.number, "status": rnd.status, "byes": rnd.byes, "tables": tables}


def standings_body(t: Tournament, after_round: int | None = None) -> list[dict[str, Any]]:
    names = dict(Player.objects.filter(registrations__tournament=t).values_list("id", "display_name"))
    return [
        {
            "place": row.place,
            "player": row.player,
            "display_name": names.get(row.player, ""),
            "points": row.points,
            "played": row.played,
            "wins": row.wins,
            "tiebreaks": row.tiebreaks,
        }
        for row in selectors.current_standings(t, after_round)
    ]


class LeagueListApi(APIView):
    @extend_schema(responses={200: dict}, operation_id="leagues_list")
    def get(self, request: Request) -> Response:
        return Response([league_body(x) for x in League.objects.prefetch_related("organisers")])

    @extend_schema(request=LeagueIn, responses={201: dict}, operation_id="leagues_create")
    def post(self, request: Request) -> Response:
        data = LeagueIn(data=request.data)
        data.is_valid(raise_exception=True)
        league = services.league_create(organiser=request_player(request), **data.validated_data)
        return Response(league_body(league), status=status.HTTP_201_CREATED)


class LeagueDetailApi(APIView):
    @extend_schema(responses={200: dict})
    def get(self, request: Request, slug: str) -> Response:
        league = _league(slug)
        body = league_body(league)
        body["tournaments"] = [tournament_body(t) for t in league.tournaments.all()]
        return Response(body)


class LeagueJoinApi(APIView):
    permission_classes = AUTH

    @extend_schema(request=None, responses={200: dict})
    def post(self, request: Request, slug: str) -> Response:
        league = _league(slug)
        services.league_join(league=league, player=request_player(request))
        return Response(league_body(league))


class TournamentListApi(APIView):
    @extend_schema(responses={200: dict}, operation_id="tournaments_list")
    def get(self, request: Request) -> Response:
        qs = Tournament.objects.select_related("league")
        for key in ("status", "game", "format"):
            if key in request.query_params:
                qs = qs.filter(**{key: request.query_params[key]})
        if "league" in request.query_params:
            qs = qs.filter(league__slug=request.query_params["league"])
        return Response([tournament_body(t) for t in qs[:200]])

    @extend_schema(request=TournamentIn, responses={201: dict}, operation_id="tournaments_create")
    def post(self, request: Request) -> Response:
        data = TournamentIn(data=request.data)
        data.is_valid(raise_exception=True)
        v = dict(data.validated_data)
        league = _league(v.pop("league"))
        t = services.tournament_create(organiser=request_player(request), league=league, **v)
        return Response(tournament_body(t, full=True), status=status.HTTP_201_CREATED)


class TournamentDetailApi(APIView):
    @extend_schema(responses={200: dict})
    def get(self, request: Request, tournament_id: int) -> Response:
        return Response(tournament_body(_tournament(tournament_id), full=True))


class TournamentStandingsApi(APIView):
    @extend_schema(
        parameters=[OpenApiParameter("round", int, description="standings as they were after this round")],
        responses={200: dict},
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        value = request.query_params.get("round")
        if value is not None and not value.isdigit():
            raise InvalidInput("round must be a round number")
        return Response(standings_body(_tournament(tournament_id), int(value) if value else None))


class TournamentRoundApi(APIView):
    @extend_schema(responses={200: dict})
    def get(self, request: Request, tournament_id: int, number: int) -> Response:
        rnd = Round.objects.filter(tournament_id=tournament_id, number=number).first()
        if rnd is None:
            raise NotFound(f"tournament {tournament_id} has no round {number}")
        return Response(round_body(rnd))


def _action(name: str, call: Any, with_player: bool = False) -> type[APIView]:
    class ActionApi(APIView):
        permission_classes = AUTH

        @extend_schema(
            request=PlayerRef if with_player else None,
            responses={200: dict},
            operation_id=f"tournament_{name}",
        )
        def post(self, request: Request, tournament_id: int) -> Response:
            me = request_player(request)
            call(tournament_id, me, _someone(request) if with_player else me)
            return Response(tournament_body(_tournament(tournament_id), full=True))

    ActionApi.__name__ = f"Tournament{name.title().replace('_', '')}Api"
    return ActionApi


OpenApi = _action("open", lambda t, me, _: services.registration_open(tournament_id=t, by=me))
RegisterApi = _action("register", lambda t, me, _: services.register(tournament_id=t, player=me))
CheckInApi = _action("check_in", lambda t, me, _: services.check_in(tournament_id=t, player=me))
WithdrawApi = _action(
    "withdraw", lambda t, me, who: services.withdraw(tournament_id=t, player=who, by=me), True
)
StartApi = _action("start", lambda t, me, _: services.start(tournament_id=t, by=me))
NextRoundApi = _action("next_round", lambda t, me, _: services.next_round(tournament_id=t, by=me))
RepairApi = _action("repair", lambda t, me, _: services.repair_round(tournament_id=t, by=me))
ByeApi = _action("bye", lambda t, me, who: services.give_bye(tournament_id=t, player=who, by=me), True)


# -------------------------------------------------------------------- ladders
class LadderIn(serializers.Serializer):
    league = serializers.SlugField()
    game = serializers.ChoiceField(choices=GameKind.choices)
    seats = serializers.IntegerField(min_value=2, max_value=4, default=2)
    name = serializers.CharField(max_length=80, required=False, allow_blank=True)
    time_control = serializers.JSONField(required=False)
    challenge_places = serializers.IntegerField(min_value=0, max_value=100, default=0)
    challenge_days = serializers.FloatField(min_value=0.01, max_value=60, default=3)


class ChallengeIn(serializers.Serializer):
    player = serializers.IntegerField(help_text="the player to challenge")


def _ladder(ladder_id: int) -> Ladder:
    ladder = Ladder.objects.select_related("league").filter(pk=ladder_id).first()
    if ladder is None:
        raise NotFound(f"there is no ladder {ladder_id}")
    return ladder


def challenge_body(c: Challenge) -> dict[str, Any]:
    return {
        "id": c.pk,
        "challenger": c.challenger_id,
        "challenged": c.challenged_id,
        "status": c.status,
        "created": c.created,
        "expires_at": c.expires_at,
        "table": c.table_id,
    }


def ladder_body(ladder: Ladder) -> dict[str, Any]:
    return {
        "id": ladder.pk,
        "league": ladder.league.slug,
        "game": ladder.game,
        "seats": ladder.seats,
        "name": str(ladder),
        "time_control": ladder.time_control,
        "order": ladders.ladder_order(ladder),
        "challenges": [challenge_body(c) for c in ladder.challenges.filter(status="pending")],
        "queue": [e.player_id for e in ladder.queue.all()],
    }


class LadderListApi(APIView):
    @extend_schema(responses={200: dict}, operation_id="ladders_list")
    def get(self, request: Request) -> Response:
        rows = Ladder.objects.select_related("league")
        return Response(
            [
                {"id": x.pk, "league": x.league.slug, "game": x.game, "seats": x.seats, "name": str(x)}
                for x in rows
            ]
        )

    @extend_schema(request=LadderIn, responses={201: dict}, operation_id="ladders_create")
    def post(self, request: Request) -> Response:
        data = LadderIn(data=request.data)
        data.is_valid(raise_exception=True)
        v = dict(data.validated_data)
        ladder = ladders.ladder_create(
            organiser=request_player(request), league=_league(v.pop("league")), **v
        )
        return Response(ladder_body(ladder), status=status.HTTP_201_CREATED)


class LadderDetailApi(APIView):
    @extend_schema(responses={200: dict})
    def get(self, request: Request, ladder_id: int) -> Response:
        return Response(ladder_body(_ladder(ladder_id)))


class LadderActionApi(APIView):
    """join, leave, queue, unqueue, challenge (body: player)."""

    permission_classes = AUTH

    @extend_schema(request=ChallengeIn, responses={200: dict}, operation_id="ladders_action")
    def post(self, request: Request, ladder_id: int, action: str) -> Response:
        ladder, me = _ladder(ladder_id), request_player(request)
        if action == "join":
            ladders.ladder_join(ladder=ladder, player=me)
        elif action == "leave":
            ladders.ladder_leave(ladder=ladder, player=me)
        elif action == "queue":
            ladders.queue_join(ladder=ladder, player=me)
        elif action == "unqueue":
            ladders.queue_leave(ladder=ladder, player=me)
        elif action == "challenge":
            data = ChallengeIn(data=request.data)
            data.is_valid(raise_exception=True)
            target = Player.objects.filter(pk=data.validated_data["player"]).first()
            if target is None:
                raise NotFound("there is no such player")
            c = ladders.challenge_create(ladder=ladder, challenger=me, challenged=target)
            return Response(challenge_body(c), status=status.HTTP_201_CREATED)
        else:
            raise NotFound(f"unknown ladder action {action!r}")
        return Response(ladder_body(ladder))


class ChallengeActionApi(APIView):
    """accept, decline (the challenged player) or cancel (the challenger)."""

    permission_classes = AUTH

    @extend_schema(request=None, responses={200: dict})
    def post(self, request: Request, challenge_id: int, action: str) -> Response:
        me = request_player(request)
        if action == "accept":
            table = ladders.challenge_accept(challenge_id=challenge_id, by=me)
            return Response({"challenge": challenge_id, "status": "accepted", "table": table.pk})
        if action not in ("decline", "cancel"):
            raise NotFound(f"unknown challenge action {action!r}")
        c = ladders.challenge_answer(challenge_id=challenge_id, by=me, decision=action)
        return Response(challenge_body(c))
