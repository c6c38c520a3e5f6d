"""Ratings API: leaderboards, a player's ratings and history, match quality."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.errors import InvalidInput, NotFound
from common.pagination import CursorPage
from common.schema import ERROR
from common.validation import ascii_int
from games.models import GameKind

from . import environment, selectors, services
from .serializers import LeaderboardOut, LeaderboardQuery, PlayerRatingsOut, QualityOut, RatingChangeOut


def _game(game: str) -> str:
    if game not in GameKind.values:
        # Translators: %(game)s is what the caller asked for, quoted ('chess'); keep the games' names.
        raise NotFound(_("there is no game %(game)s: use shacru, azacru or pacru") % {"game": repr(game)})
    return game


class LeaderboardApi(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter(
                "provisional", bool, description="only provisional (true) or established (false)"
            ),
            OpenApiParameter("active_days", int, description="played within this many days"),
            OpenApiParameter("ordering", str, enum=list(selectors.ORDERINGS)),
            OpenApiParameter("limit", int),
            OpenApiParameter("offset", int),
        ],
        responses={200: LeaderboardOut, 400: ERROR, 404: ERROR},
    )
    def get(self, request: Request, game: str) -> Response:
        q = LeaderboardQuery(data=request.query_params)
        q.is_valid(raise_exception=True)
        p = q.validated_data
        page = selectors.leaderboard_page(
            _game(game),
            provisional=p["provisional"],
            active_days=p.get("active_days"),
            order=p["ordering"],
            offset=p["offset"],
            limit=p["limit"],
        )
        return Response(LeaderboardOut(page).data)


class PlayerRatingsPageOut(PlayerRatingsOut):
    """A player's ratings and one keyset page of their rating history, newest first."""

    history = RatingChangeOut(many=True, help_text="one page, newest first: follow `next` for older")
    next = serializers.URLField(allow_null=True, help_text="the next (older) page, or null at the end")
    previous = serializers.URLField(allow_null=True, help_text="the page before (newer), or null")


class PlayerRatingsApi(APIView):
    """A player's ratings, and their rating history a keyset page at a time (a long career is
    not read whole): ``?limit=`` changes (default 50, at most 500), ``next`` for older ones."""

    cursor_ordering = ("-at", "-table_id")

    @extend_schema(
        parameters=[
            OpenApiParameter("game", str, description="history of this game only"),
            OpenApiParameter("cursor", str, description="the page: from a `next` or `previous` link"),
            OpenApiParameter("limit", int, description="changes per page (default 50, at most 500)"),
        ],
        responses={200: PlayerRatingsPageOut, 404: ERROR},
    )
    def get(self, request: Request, player_id: int) -> Response:
        game = request.query_params.get("game")
        found = selectors.player_ratings_history(player_id, game or None)
        if found is None:
            raise NotFound(_("there is no player %(id)d") % {"id": player_id})
        if game:
            _game(game)
        pages = CursorPage()
        found.history = pages.paginate_queryset(found.history, request, view=self) or []
        body = PlayerRatingsOut(found).data
        return Response({**body, "next": pages.get_next_link(), "previous": pages.get_previous_link()})


class QualityApi(APIView):
    @extend_schema(
        parameters=[OpenApiParameter("players", str, description="comma-separated player ids (2 to 4)")],
        responses={200: QualityOut, 400: ERROR, 404: ERROR},
    )
    def get(self, request: Request, game: str) -> Response:
        try:
            ids = [ascii_int(x) for x in request.query_params.get("players", "").split(",") if x.strip()]
        except ValueError:
            raise InvalidInput(_("players must be comma-separated player ids, e.g. players=3,7,9")) from None
        players = selectors.players_by_id(ids)
        if len(players) != len(set(ids)) or len(ids) != len(set(ids)):
            raise InvalidInput(_("players must name 2 to 4 different existing players"))
        try:
            q = services.match_quality(game=_game(game), players=players)
        except ValueError as exc:
            raise InvalidInput(str(exc)) from None
        fair = environment.fair_quality(game, len(players))
        body = {"game": game, "players": ids, "quality": q, "fair_threshold": fair, "fair": q >= fair}
        return Response(QualityOut(body).data)
