"""The teams API: the team list and a team (members in board order with their ratings, the
rating average, results, and for its managers the pending invitations), creating and editing a
team, invitations and requests to join, leaving, removing members, roles and the board order.
Thin views over ``teams.services`` and ``teams.selectors``, with the conventions of
``tournaments.apis`` (errors in ``common.errors``' single shape, every answer described for
drf-spectacular, the default throttles)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.errors import NotFound
from common.players import request_player
from common.schema import errors
from games.models import GameKind, Player

from .. import selectors as league_selectors
from ..models import Team, TeamInvitation
from . import selectors, services

AUTH = [permissions.IsAuthenticated]


# ------------------------------------------------------------------ shapes
class TeamPlayerOut(serializers.Serializer):
    id = serializers.IntegerField()
    display_name = serializers.CharField()


class TeamOut(serializers.Serializer):
    id = serializers.IntegerField()
    slug = serializers.CharField(help_text="the team's address: /teams/{slug}/")
    name = serializers.CharField()
    league = serializers.CharField(
        source="league.slug", allow_null=True, default=None, help_text="its club's slug; null: an open team"
    )
    game = serializers.ChoiceField(
        choices=GameKind.choices, help_text="the game whose ratings order the boards"
    )
    board_order = serializers.CharField(help_text="rating (by rating) or captain (as the captain sets it)")
    captain = TeamPlayerOut()
    members = serializers.IntegerField(source="member_count", help_text="how many players are on the team")


class TeamMemberOut(serializers.Serializer):
    player = serializers.IntegerField(source="player_id")
    display_name = serializers.CharField(source="player.display_name")
    rating = serializers.IntegerField(help_text="displayed rating in the team's game (1500: not yet rated)")
    position = serializers.IntegerField(
        help_text="place in the board order, 1 first (alternates after regulars)"
    )
    board = serializers.IntegerField(allow_null=True, help_text="the board the captain set (null: none)")
    alternate = serializers.BooleanField(help_text="plays when a regular cannot")
    captain = serializers.BooleanField()
    vice_captain = serializers.BooleanField()
    joined = serializers.DateTimeField()


class TeamInvitationOut(serializers.Serializer):
    id = serializers.IntegerField()
    team = serializers.CharField(source="team.slug", help_text="the team's slug")
    team_name = serializers.CharField(source="team.name")
    player = TeamPlayerOut(help_text="the player invited, or the one asking to join")
    kind = serializers.CharField(help_text="invite (by the captain) or request (the player asks)")
    status = serializers.CharField(help_text="pending, accepted, declined or cancelled")
    by = TeamPlayerOut(allow_null=True, help_text="who invited (or asked)")
    created = serializers.DateTimeField()
    answered_at = serializers.DateTimeField(allow_null=True)


class TeamOpponentOut(serializers.Serializer):
    team = serializers.IntegerField(source="team_id")
    name = serializers.CharField()
    slug = serializers.CharField()
    game_points = serializers.FloatField()
    match_points = serializers.FloatField(allow_null=True)


class TeamResultOut(serializers.Serializer):
    match = serializers.IntegerField(source="match_id")
    event = serializers.IntegerField(source="event_id")
    event_name = serializers.CharField(source="event")
    round = serializers.IntegerField()
    status = serializers.CharField(help_text="pending, playing or finished")
    game_points = serializers.FloatField()
    place = serializers.IntegerField(allow_null=True)
    match_points = serializers.FloatField(allow_null=True, help_text="null until the match is finished")
    opponents = TeamOpponentOut(many=True)


class TeamYouOut(serializers.Serializer):
    member = serializers.BooleanField()
    manages = serializers.BooleanField(help_text="you may invite, answer requests, order boards, edit")
    invitation = TeamInvitationOut(allow_null=True, help_text="your own pending invitation or request")


class TeamDetailOut(serializers.Serializer):
    id = serializers.IntegerField()
    slug = serializers.CharField()
    name = serializers.CharField()
    description = serializers.CharField()
    league = serializers.CharField(allow_null=True)
    league_name = serializers.CharField(allow_null=True)
    game = serializers.ChoiceField(choices=GameKind.choices)
    board_order = serializers.CharField(help_text="rating or captain")
    captain = TeamPlayerOut()
    vice_captain = TeamPlayerOut(allow_null=True)
    created = serializers.DateTimeField()
    rating_average = serializers.FloatField(allow_null=True, help_text="mean rating of the regulars")
    members = TeamMemberOut(many=True, help_text="in board order: regulars, then alternates")
    results = TeamResultOut(many=True, help_text="the team's matches, newest first")
    invitations = TeamInvitationOut(
        many=True,
        allow_null=True,
        help_text="pending invitations and requests: null unless you manage the team",
    )
    you = TeamYouOut(allow_null=True, help_text="null when signed out")


class TeamCreateIn(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    league = serializers.CharField(required=False, allow_null=True, help_text="a club's slug (a club team)")
    game = serializers.ChoiceField(choices=GameKind.choices, required=False)
    board_order = serializers.ChoiceField(choices=Team.BoardOrder.values, required=False)
    description = serializers.CharField(required=False, allow_blank=True, max_length=4000)


class TeamUpdateIn(serializers.Serializer):
    name = serializers.CharField(max_length=200, required=False)
    description = serializers.CharField(required=False, allow_blank=True, max_length=4000)
    game = serializers.ChoiceField(choices=GameKind.choices, required=False)
    board_order = serializers.ChoiceField(choices=Team.BoardOrder.values, required=False)


class TeamInviteIn(serializers.Serializer):
    player = serializers.IntegerField(min_value=1, help_text="the player's id")


class TeamRolesIn(serializers.Serializer):
    captain = serializers.IntegerField(min_value=1, required=False, help_text="a member's player id")
    vice_captain = serializers.IntegerField(
        min_value=1, required=False, allow_null=True, help_text="a member's player id; null: no vice-captain"
    )


class TeamBoardOrderIn(serializers.Serializer):
    board_order = serializers.ChoiceField(choices=Team.BoardOrder.values, required=False)
    order = serializers.ListField(
        child=serializers.IntegerField(min_value=1), max_length=200, help_text="player ids, board 1 first"
    )
    alternates = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        max_length=200,
        required=False,
        default=list,
        help_text="player ids of the alternates, in the order they step in",
    )


class TeamLeaveOut(serializers.Serializer):
    deleted = serializers.BooleanField(help_text="you were the last player: the team is gone")


# ------------------------------------------------------------------ reads
def _person(p: Player | None) -> dict[str, Any] | None:
    return {"id": p.pk, "display_name": p.display_name} if p is not None else None


def member_rows(team: Team) -> list[dict[str, Any]]:
    """The members in board order, as ``TeamMemberOut`` describes them."""
    return [
        {
            "player_id": m.player_id,
            "player": m.player,
            "rating": m.rating,  # type: ignore[attr-defined]
            "position": n,
            "board": m.board,
            "alternate": m.alternate,
            "captain": m.player_id == team.captain_id,
            "vice_captain": m.player_id == team.vice_captain_id,
            "joined": m.joined,
        }
        for n, m in enumerate(selectors.board_order(team=team), start=1)
    ]


def team_body(team: Team, me: Player | None) -> dict[str, Any]:
    """A team as ``TeamDetailOut`` describes it, seen by ``me``."""
    manages = services.can_manage(team=team, player=me)
    members = member_rows(team)
    you = None
    if me is not None:
        mine = selectors.my_invitation(team=team, player=me)
        you = {
            "member": any(m["player_id"] == me.pk for m in members),
            "manages": manages,
            "invitation": mine,
        }
    body = {
        "id": team.pk,
        "slug": team.slug,
        "name": team.name,
        "description": team.description,
        "league": team.league.slug if team.league_id else None,
        "league_name": team.league.name if team.league_id else None,
        "game": team.game,
        "board_order": team.board_order,
        "captain": _person(team.captain),
        "vice_captain": _person(team.vice_captain),
        "created": team.created,
        "rating_average": selectors.rating_average(team=team),
        "members": members,
        "results": selectors.team_results(team=team),
        "invitations": list(selectors.pending_invitations(team=team)) if manages else None,
        "you": you,
    }
    return TeamDetailOut(body).data  # type: ignore[no-any-return]


def _me(request: Request) -> Player | None:
    return request_player(request) if request.user.is_authenticated else None


def _detail(slug: str, request: Request, code: int = status.HTTP_200_OK) -> Response:
    return Response(team_body(selectors.team(slug=slug), _me(request)), status=code)


# ------------------------------------------------------------------ views
class TeamListApi(generics.ListAPIView):
    """Teams by name, a page at a time; ``league``: one club's, ``search``: a part of the name."""

    serializer_class = TeamOut
    filter_backends: list[Any] = []  # the filters are the selector's arguments

    def get_queryset(self) -> QuerySet[Team]:
        q = self.request.query_params
        league = league_selectors.league(q["league"]) if q.get("league") else None
        return selectors.team_list(league=league, search=q.get("search", "")[:80])

    @extend_schema(
        parameters=[
            OpenApiParameter("league", str, description="only this club's teams (its slug)"),
            OpenApiParameter("search", str, description="only teams whose name holds this"),
        ],
        responses={200: TeamOut(many=True), **errors(400, 404)},
        operation_id="teams_list",
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        request=TeamCreateIn,
        responses={201: TeamDetailOut, **errors(400, 401, 403, 404, 409)},
        operation_id="teams_create",
    )
    def post(self, request: Request) -> Response:
        data = TeamCreateIn(data=request.data)
        data.is_valid(raise_exception=True)
        v = dict(data.validated_data)
        league = league_selectors.league(v.pop("league")) if v.get("league") else None
        v.pop("league", None)
        team = services.team_create(by=request_player(request), league=league, **v)
        return _detail(team.slug, request, status.HTTP_201_CREATED)


class TeamDetailApi(APIView):
    @extend_schema(responses={200: TeamDetailOut, **errors(404)}, operation_id="teams_retrieve")
    def get(self, request: Request, slug: str) -> Response:
        return _detail(slug, request)

    @extend_schema(
        request=TeamUpdateIn,
        responses={200: TeamDetailOut, **errors(400, 401, 403, 404, 409)},
        operation_id="teams_update",
    )
    def patch(self, request: Request, slug: str) -> Response:
        team = selectors.team(slug=slug)
        data = TeamUpdateIn(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        services.team_update(team_id=team.pk, by=request_player(request), **data.validated_data)
        return _detail(slug, request)


class TeamInviteApi(APIView):
    """Invite a player (the captain or vice-captain): they join if they accept."""

    permission_classes = AUTH

    @extend_schema(
        request=TeamInviteIn,
        responses={201: TeamInvitationOut, **errors(400, 401, 403, 404, 409)},
        operation_id="teams_invite",
    )
    def post(self, request: Request, slug: str) -> Response:
        team = selectors.team(slug=slug)
        data = TeamInviteIn(data=request.data)
        data.is_valid(raise_exception=True)
        invitation = services.invite(
            team_id=team.pk, by=request_player(request), player_id=data.validated_data["player"]
        )
        return Response(TeamInvitationOut(invitation).data, status=status.HTTP_201_CREATED)


class TeamJoinApi(APIView):
    """Ask to join a team: its captain or vice-captain answers."""

    permission_classes = AUTH

    @extend_schema(
        request=None,
        responses={201: TeamInvitationOut, **errors(401, 403, 404, 409)},
        operation_id="teams_join",
    )
    def post(self, request: Request, slug: str) -> Response:
        team = selectors.team(slug=slug)
        invitation = services.request_join(team_id=team.pk, by=request_player(request))
        return Response(TeamInvitationOut(invitation).data, status=status.HTTP_201_CREATED)


class TeamLeaveApi(APIView):
    """Leave a team (a captain hands over first; the last player leaving deletes an unplayed team)."""

    permission_classes = AUTH

    @extend_schema(
        request=None, responses={200: TeamLeaveOut, **errors(401, 404, 409)}, operation_id="teams_leave"
    )
    def post(self, request: Request, slug: str) -> Response:
        team = selectors.team(slug=slug)
        deleted = services.leave(team_id=team.pk, by=request_player(request))
        return Response(TeamLeaveOut({"deleted": deleted}).data)


class TeamMemberApi(APIView):
    """Take a player off the team (its managers; never the captain)."""

    permission_classes = AUTH

    @extend_schema(responses={204: None, **errors(401, 403, 404, 409)}, operation_id="teams_member_remove")
    def delete(self, request: Request, slug: str, player_id: int) -> Response:
        team = selectors.team(slug=slug)
        services.remove_member(team_id=team.pk, by=request_player(request), player_id=player_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class TeamRolesApi(APIView):
    """Name the captain and the vice-captain among the members (the captain, or the club's organisers)."""

    permission_classes = AUTH

    @extend_schema(
        request=TeamRolesIn,
        responses={200: TeamDetailOut, **errors(400, 401, 403, 404)},
        operation_id="teams_roles",
    )
    def post(self, request: Request, slug: str) -> Response:
        team = selectors.team(slug=slug)
        data = TeamRolesIn(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        vice = v.get("vice_captain", -1)
        services.set_roles(
            team_id=team.pk,
            by=request_player(request),
            captain_id=v.get("captain"),
            vice_captain_id=None if vice == -1 else (vice or 0),
        )
        return _detail(slug, request)


class TeamBoardOrderApi(APIView):
    """Set the board order (player ids, board 1 first), the alternates, and the rule (rating or captain)."""

    permission_classes = AUTH

    @extend_schema(
        request=TeamBoardOrderIn,
        responses={200: TeamDetailOut, **errors(400, 401, 403, 404)},
        operation_id="teams_board_order",
    )
    def post(self, request: Request, slug: str) -> Response:
        team = selectors.team(slug=slug)
        data = TeamBoardOrderIn(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        services.set_board_order(
            team_id=team.pk,
            by=request_player(request),
            board_order=v.get("board_order"),
            order=v["order"],
            alternates=v["alternates"],
        )
        return _detail(slug, request)


class TeamInvitationListApi(APIView):
    """Your pending team invitations: to you, your requests to join, and requests to the teams you
    captain or vice-captain."""

    permission_classes = AUTH

    @extend_schema(
        responses={200: TeamInvitationOut(many=True), **errors(401)}, operation_id="team_invitations_list"
    )
    def get(self, request: Request) -> Response:
        rows = selectors.my_invitations(player=request_player(request))[:200]
        return Response(TeamInvitationOut(rows, many=True).data)


ACTIONS = ("accept", "decline", "cancel")


class TeamInvitationActionApi(APIView):
    """accept or decline (the invited player; for a request, the captain or vice-captain), or cancel
    (an invitation: the team's managers; a request: the player who asked)."""

    permission_classes = AUTH

    @extend_schema(
        request=None,
        responses={200: TeamInvitationOut, **errors(401, 403, 404, 409)},
        operation_id="team_invitation_answer",
    )
    def post(self, request: Request, invitation_id: int, action: str) -> Response:
        if action not in ACTIONS:
            raise NotFound(_("unknown invitation action %(action)s") % {"action": repr(action)})
        me = request_player(request)
        if action == "cancel":
            invitation = services.cancel_invitation(invitation_id=invitation_id, by=me)
        else:
            invitation = services.answer(invitation_id=invitation_id, by=me, accept=action == "accept")
        invitation = TeamInvitation.objects.select_related("team", "player", "by").get(pk=invitation.pk)
        return Response(TeamInvitationOut(invitation).data)
