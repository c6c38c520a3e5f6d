"""Leagues and tournaments API (same style as the games API: thin views over services and selectors;
bodies are rendered by :mod:`tournaments.serializers`)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, PolymorphicProxySerializer, extend_schema
from rest_framework import generics, permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.errors import InvalidInput, NotFound
from common.pagination import CursorPage
from common.players import request_player
from common.schema import ERROR, errors
from common.validation import ascii_int
from games.models import GameKind, Player

from . import ladders
from . import selectors as league_selectors
from .competitions import selectors, services
from .ladders import selectors as ladder_selectors
from .models import Tournament
from .organising import roles as organisers
from .organising import selectors as organiser_selectors
from .serializers import (
    ChallengeAcceptedOut,
    ChallengeIn,
    ChallengeOut,
    LadderBriefOut,
    LadderIn,
    LadderOut,
    LateEntryIn,
    LateEntryInvitationOut,
    LeagueDetailOut,
    LeagueIn,
    LeagueOut,
    OrganiserRequestIn,
    OrganiserRequestOut,
    PlayerRef,
    RoundOut,
    StandingOut,
    TournamentDetailOut,
    TournamentIn,
    TournamentOut,
)

AUTH = [permissions.IsAuthenticated]


def _someone(request: Request) -> Player:
    data = PlayerRef(data=request.data)
    data.is_valid(raise_exception=True)
    pid = data.validated_data.get("player")
    if pid is None:
        return request_player(request)
    found = league_selectors.find_player(pid)
    if found is None:
        raise NotFound(_("there is no player %(id)s") % {"id": pid})
    return found


def _tournament(tournament_id: int) -> dict[str, Any]:
    return TournamentDetailOut(selectors.tournament_detail(tournament_id)).data  # type: ignore[no-any-return]


def _ladder(ladder_id: int) -> dict[str, Any]:
    return LadderOut(ladder_selectors.ladder_detail(ladder_id)).data  # type: ignore[no-any-return]


class LeagueListApi(APIView):
    @extend_schema(responses={200: LeagueOut(many=True)}, operation_id="leagues_list")
    def get(self, request: Request) -> Response:
        return Response(LeagueOut(league_selectors.league_list(), many=True).data)

    @extend_schema(
        request=LeagueIn,
        responses={201: LeagueOut, **errors(400, 401, 403, 409)},
        operation_id="leagues_create",
    )
    def post(self, request: Request) -> Response:
        data = LeagueIn(data=request.data)
        data.is_valid(raise_exception=True)
        league = services.league_create(organiser=request_player(request), **data.validated_data)
        return Response(
            LeagueOut(league_selectors.league_summary(league.slug)).data, status=status.HTTP_201_CREATED
        )


class LeagueDetailApi(APIView):
    @extend_schema(responses={200: LeagueDetailOut, **errors(404)})
    def get(self, request: Request, slug: str) -> Response:
        return Response(LeagueDetailOut(selectors.league_detail(slug)).data)


class LeagueJoinApi(APIView):
    permission_classes = AUTH

    @extend_schema(request=None, responses={200: LeagueOut, **errors(401, 404)})
    def post(self, request: Request, slug: str) -> Response:
        league = league_selectors.league(slug)
        services.league_join(league=league, player=request_player(request))
        return Response(LeagueOut(league_selectors.league_summary(slug)).data)


class TournamentListApi(generics.ListAPIView):
    """Tournaments, newest first, a keyset page at a time (``next``/``previous`` links, no count):
    a club's events pile up over the years."""

    serializer_class = TournamentOut
    pagination_class = CursorPage
    cursor_ordering = "-id"  # ids grow with creation time: newest first
    filter_backends: list[Any] = []  # the filters are the selector's arguments

    def get_queryset(self) -> QuerySet[Tournament]:
        q = self.request.query_params
        rows = selectors.tournament_list(
            status=q.get("status"), game=q.get("game"), format=q.get("format"), league=q.get("league")
        )
        return rows.defer("schedule", "seeds")  # a round robin's whole schedule: not listed

    @extend_schema(
        parameters=[
            OpenApiParameter("status", str, description="only tournaments with this status"),
            OpenApiParameter("game", str, enum=GameKind.values),
            OpenApiParameter("format", str, description="only this format, e.g. swiss"),
            OpenApiParameter("league", str, description="only this league's (its slug)"),
        ],
        responses={200: TournamentOut(many=True), **errors(400), 404: ERROR},
        operation_id="tournaments_list",
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        request=TournamentIn,
        responses={201: TournamentDetailOut, **errors(400, 401, 403, 404)},
        operation_id="tournaments_create",
    )
    def post(self, request: Request) -> Response:
        data = TournamentIn(data=request.data)
        data.is_valid(raise_exception=True)
        v = dict(data.validated_data)
        league = league_selectors.league(v.pop("league"))
        t = services.tournament_create(organiser=request_player(request), league=league, **v)
        return Response(_tournament(t.pk), status=status.HTTP_201_CREATED)


class TournamentDetailApi(APIView):
    @extend_schema(responses={200: TournamentDetailOut, **errors(404)})
    def get(self, request: Request, tournament_id: int) -> Response:
        return Response(_tournament(tournament_id))


class TournamentStandingsApi(APIView):
    @extend_schema(
        parameters=[OpenApiParameter("round", int, description="standings as they were after this round")],
        responses={200: StandingOut(many=True), **errors(400, 404)},
        operation_id="tournaments_standings_retrieve",  # as before the response was typed as a list
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        value = request.query_params.get("round")
        try:
            number = ascii_int(value, name="round") if value is not None else None
        except ValueError:
            raise InvalidInput(_("round must be a round number")) from None
        rows = selectors.tournament_standings(selectors.tournament(tournament_id), number)
        return Response(StandingOut(rows, many=True).data)


class TournamentRoundApi(APIView):
    @extend_schema(responses={200: RoundOut, **errors(404)})
    def get(self, request: Request, tournament_id: int, number: int) -> Response:
        return Response(RoundOut(selectors.round_detail(tournament_id, number)).data)


def _action(name: str, call: Any, codes: tuple[int, ...], with_player: bool = False) -> type[APIView]:
    class ActionApi(APIView):
        permission_classes = AUTH

        @extend_schema(
            request=PlayerRef if with_player else None,
            responses={200: TournamentDetailOut, **errors(*codes)},
            operation_id=f"tournament_{name}",
        )
        def post(self, request: Request, tournament_id: int) -> Response:
            me = request_player(request)
            call(tournament_id, me, _someone(request) if with_player else me)
            return Response(_tournament(tournament_id))

    ActionApi.__name__ = f"Tournament{name.title().replace('_', '')}Api"
    return ActionApi


ORGANISER = (401, 403, 404, 409)
OpenApi = _action("open", lambda t, me, _: services.registration_open(tournament_id=t, by=me), ORGANISER)
RegisterApi = _action(
    "register", lambda t, me, _: services.register(tournament_id=t, player=me), (401, 404, 409)
)
CheckInApi = _action("check_in", lambda t, me, _: services.check_in(tournament_id=t, player=me), ORGANISER)
WithdrawApi = _action(
    "withdraw",
    lambda t, me, who: services.withdraw(tournament_id=t, player=who, by=me),
    (400, 401, 403, 404, 409),
    True,
)
StartApi = _action("start", lambda t, me, _: services.start(tournament_id=t, by=me), ORGANISER)
NextRoundApi = _action("next_round", lambda t, me, _: services.next_round(tournament_id=t, by=me), ORGANISER)
RepairApi = _action("repair", lambda t, me, _: services.repair_round(tournament_id=t, by=me), ORGANISER)
ByeApi = _action(
    "bye",
    lambda t, me, who: services.give_bye(tournament_id=t, player=who, by=me),
    (400, 401, 403, 404),
    True,
)


class LateEntryApi(APIView):
    """An organiser enters a player into a running Swiss, from the next round on: another person is
    *invited* (``status: pending``) and entered only when they accept; the organiser themself (or a
    house bot) is entered at once (``status: accepted``)."""

    permission_classes = AUTH

    @extend_schema(
        request=LateEntryIn,
        responses={201: LateEntryInvitationOut, **errors(400, 401, 403, 404, 409)},
        operation_id="tournament_late_entry",
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        data = LateEntryIn(data=request.data)
        data.is_valid(raise_exception=True)
        pid = data.validated_data["player"]
        player = league_selectors.find_player(pid)
        if player is None:
            raise NotFound(_("there is no player %(id)s") % {"id": pid})
        invitation = services.late_entry(
            tournament_id=tournament_id,
            player=player,
            by=request_player(request),
            missed=data.validated_data["missed"],
        )
        return Response(LateEntryInvitationOut(invitation).data, status=status.HTTP_201_CREATED)


class LateEntryInvitationListApi(APIView):
    """Your invitations to enter events late, newest first (the pending ones wait for your answer)."""

    permission_classes = AUTH

    @extend_schema(responses={200: LateEntryInvitationOut(many=True), **errors(401)})
    def get(self, request: Request) -> Response:
        rows = selectors.late_entry_invitations(request_player(request))
        return Response(LateEntryInvitationOut(rows, many=True).data)


class LateEntryInvitationActionApi(APIView):
    """accept (you are entered from the next round) or decline: the invited player only."""

    permission_classes = AUTH

    @extend_schema(
        request=None,
        responses={200: LateEntryInvitationOut, **errors(401, 403, 404, 409)},
        operation_id="late_entry_invitation_answer",
    )
    def post(self, request: Request, invitation_id: int, action: str) -> Response:
        if action not in ("accept", "decline"):
            raise NotFound(_("unknown invitation action %(action)s") % {"action": repr(action)})
        invitation = services.late_entry_answer(
            invitation_id=invitation_id, by=request_player(request), accept=action == "accept"
        )
        return Response(LateEntryInvitationOut(invitation).data)


# ------------------------------------------------------------- the organiser role
class OrganiserRequestListApi(APIView):
    """Ask staff for the organiser role; see your requests (staff: every pending one)."""

    permission_classes = AUTH

    @extend_schema(responses={200: OrganiserRequestOut(many=True), **errors(401)})
    def get(self, request: Request) -> Response:
        rows = organiser_selectors.organiser_requests(request_player(request))
        return Response(OrganiserRequestOut(rows, many=True).data)

    @extend_schema(
        request=OrganiserRequestIn,
        responses={201: OrganiserRequestOut, **errors(400, 401, 403, 409)},
        operation_id="organiser_requests_create",
    )
    def post(self, request: Request) -> Response:
        data = OrganiserRequestIn(data=request.data)
        data.is_valid(raise_exception=True)
        req = organisers.request_role(player=request_player(request), message=data.validated_data["message"])
        return Response(OrganiserRequestOut(req).data, status=status.HTTP_201_CREATED)


class OrganiserRequestActionApi(APIView):
    """Staff: grant or refuse a request."""

    permission_classes = AUTH

    @extend_schema(
        request=None,
        responses={200: OrganiserRequestOut, **errors(401, 403, 404, 409)},
        operation_id="organiser_requests_decide",
    )
    def post(self, request: Request, request_id: int, action: str) -> Response:
        me = request_player(request)
        if action == "grant":
            req = organisers.grant_request(request_id=request_id, by=me)
        elif action == "refuse":
            req = organisers.refuse(request_id=request_id, by=me)
        else:
            raise NotFound(_("unknown action %(action)s: grant or refuse") % {"action": repr(action)})
        return Response(OrganiserRequestOut(req).data)


# -------------------------------------------------------------------- ladders
class LadderListApi(APIView):
    @extend_schema(responses={200: LadderBriefOut(many=True)}, operation_id="ladders_list")
    def get(self, request: Request) -> Response:
        return Response(LadderBriefOut(ladder_selectors.ladder_list(), many=True).data)

    @extend_schema(
        request=LadderIn,
        responses={201: LadderOut, **errors(400, 401, 403, 404, 409)},
        operation_id="ladders_create",
    )
    def post(self, request: Request) -> Response:
        data = LadderIn(data=request.data)
        data.is_valid(raise_exception=True)
        v = dict(data.validated_data)
        ladder = ladders.ladder_create(
            organiser=request_player(request), league=league_selectors.league(v.pop("league")), **v
        )
        return Response(_ladder(ladder.pk), status=status.HTTP_201_CREATED)


class LadderDetailApi(APIView):
    @extend_schema(responses={200: LadderOut, **errors(404)})
    def get(self, request: Request, ladder_id: int) -> Response:
        return Response(_ladder(ladder_id))


class LadderActionApi(APIView):
    """join, leave, queue, unqueue, challenge (body: player)."""

    permission_classes = AUTH

    @extend_schema(
        request=ChallengeIn,
        responses={200: LadderOut, 201: ChallengeOut, **errors(400, 401, 403, 404, 409)},
        operation_id="ladders_action",
    )
    def post(self, request: Request, ladder_id: int, action: str) -> Response:
        ladder, me = ladder_selectors.ladder(ladder_id), request_player(request)
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
            target = league_selectors.find_player(data.validated_data["player"])
            if target is None:
                raise NotFound(_("there is no such player"))
            c = ladders.challenge_create(ladder=ladder, challenger=me, challenged=target)
            return Response(ChallengeOut(c).data, status=status.HTTP_201_CREATED)
        else:
            raise NotFound(_("unknown ladder action %(action)s") % {"action": repr(action)})
        return Response(_ladder(ladder.pk))


class ChallengeActionApi(APIView):
    """accept, decline (the challenged player) or cancel (the challenger)."""

    permission_classes = AUTH

    @extend_schema(
        request=None,
        responses={
            200: PolymorphicProxySerializer(
                component_name="ChallengeAnswerOut",
                serializers=[ChallengeAcceptedOut, ChallengeOut],
                resource_type_field_name=None,
            ),
            **errors(401, 403, 404, 409),
        },
    )
    def post(self, request: Request, challenge_id: int, action: str) -> Response:
        me = request_player(request)
        if action == "accept":
            table = ladders.challenge_accept(challenge_id=challenge_id, by=me)
            accepted = {"challenge": challenge_id, "status": "accepted", "table": table.pk}
            return Response(ChallengeAcceptedOut(accepted).data)
        if action not in ("decline", "cancel"):
            raise NotFound(_("unknown challenge action %(action)s") % {"action": repr(action)})
        c = ladders.challenge_answer(challenge_id=challenge_id, by=me, decision=action)
        return Response(ChallengeOut(c).data)
