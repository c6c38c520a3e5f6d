"""The chat through the API, one shape for every room: ``GET``/``POST`` ``/api/v1/tables/<id>/chat/``
(``?room=players|spectators``), ``/api/v1/tournaments/<id>/chat/``, ``/api/v1/ladders/<id>/chat/``
and ``/api/v1/leagues/<slug>/chat/``; ``POST``/``DELETE`` ``…/chat/off/`` switches the room's chat
off or back on for yourself.

A page reads the newest messages, then follows the room's live topic (``chat:<room id>``,
``/live/topics/``) and on each ``changed`` reads ``?after=<the last id it has>``."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.errors import Forbidden, InvalidInput, NotFound
from common.players import request_player
from common.schema import errors
from common.validation import DB_INT_MAX
from games.models import Player, Seat, Table
from tournaments.models import Ladder, League, Tournament

from . import chat, rooms, selectors
from .errors import RateLimited
from .models import Room


# ---------------------------------------------------------------- shapes
class ChatAuthorOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField(help_text="the author's display name")


class ChatMessageOut(serializers.Serializer):
    id = serializers.IntegerField(help_text="stable, growing with time: page with after/before")
    author = ChatAuthorOut(allow_null=True, help_text="null once the author deleted their account")
    text = serializers.CharField(
        help_text="as typed: always show it as text, never as HTML (empty when removed or deleted)"
    )
    created = serializers.DateTimeField()
    removed = serializers.BooleanField(help_text="removed by a moderator (the text is not shown)")
    deleted = serializers.BooleanField(help_text="its author deleted their account (the text is gone)")


class ChatRoomOut(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=Room.Kind.choices)
    label = serializers.CharField(help_text="the room's name, in the reader's language")
    topic = serializers.CharField(help_text="its live topic for /live/topics/?t=… (chat:<id>)")
    may_write = serializers.BooleanField()
    refusal = serializers.CharField(allow_null=True, help_text="why you may not write (null: you may)")
    may_moderate = serializers.BooleanField(help_text="you may remove messages and mute players here")
    links = serializers.BooleanField(help_text="the club shows http(s) addresses as links")
    chat_off = serializers.BooleanField(help_text="you switched this room's chat off (no messages given)")
    max_length = serializers.IntegerField(help_text="the longest message, in characters")


class ChatOut(serializers.Serializer):
    room = ChatRoomOut()
    messages = ChatMessageOut(many=True, help_text="oldest first")
    more = serializers.BooleanField(help_text="older messages exist before the first one given")


class ChatQuery(serializers.Serializer):
    after = serializers.IntegerField(
        required=False, min_value=0, max_value=DB_INT_MAX, help_text="only messages newer than this id"
    )
    before = serializers.IntegerField(
        required=False, min_value=0, max_value=DB_INT_MAX, help_text="only messages older than this id"
    )
    limit = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=selectors.MAX_PAGE,
        default=selectors.DEFAULT_PAGE,
        help_text="how many messages at most (1–100, 50 by default)",
    )


class ChatPostIn(serializers.Serializer):
    # The service trims, cleans and measures the text (its refusals say what was wrong).
    text = serializers.CharField(allow_blank=True, trim_whitespace=False, help_text="the message")


TABLE_ROOM = OpenApiParameter(
    "room",
    str,
    enum=["players", "spectators"],
    description="the table's room: players (the seated players' own) or spectators; by default "
    "players for a seated player, spectators for anyone else",
)


# ---------------------------------------------------------------- the rooms each path names
def _player(request: Request) -> Player | None:
    return request_player(request) if request.user.is_authenticated else None


def _known(**lookup: Any) -> Room | None:
    """The room made already (one query: a live page reads it on every message), or None."""
    return Room.objects.select_related("table", "tournament", "ladder", "league").filter(**lookup).first()


def _table_room(request: Request, table_id: int) -> Room:
    wanted = request.query_params.get("room")
    if wanted is None and isinstance(request.data, dict):
        wanted = request.data.get("room")
    if wanted is not None and wanted not in rooms.TABLE_KINDS:
        raise InvalidInput(_("room: a table's chat rooms are players and spectators"))
    if wanted is not None and (room := _known(table_id=table_id, kind=wanted)):
        return room
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise NotFound(_("there is no table %(id)s") % {"id": table_id})
    if wanted is None:
        me = _player(request)
        seated = me is not None and Seat.objects.filter(table=table, player=me).exists()
        wanted = Room.Kind.PLAYERS if seated else Room.Kind.SPECTATORS
    return rooms.table_room(table=table, kind=wanted)


def _tournament_room(request: Request, tournament_id: int) -> Room:
    if room := _known(tournament_id=tournament_id, kind=Room.Kind.EVENT):
        return room
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        raise NotFound(_("there is no tournament %(id)s") % {"id": tournament_id})
    return rooms.event_room(tournament=tournament)


def _ladder_room(request: Request, ladder_id: int) -> Room:
    if room := _known(ladder_id=ladder_id, kind=Room.Kind.LADDER):
        return room
    ladder = Ladder.objects.filter(pk=ladder_id).first()
    if ladder is None:
        raise NotFound(_("there is no ladder %(id)s") % {"id": ladder_id})
    return rooms.ladder_room(ladder=ladder)


def _league_room(request: Request, slug: str) -> Room:
    if room := _known(league__slug=slug, kind=Room.Kind.LEAGUE):
        return room
    league = League.objects.filter(slug=slug).first()
    if league is None:
        raise NotFound(_("there is no league %(slug)s") % {"slug": slug})
    return rooms.league_room(league=league)


def _read_refusal(room: Room) -> str:
    if room.kind == Room.Kind.PLAYERS:
        return _("only the players at this table and the club's moderators read its players' room")
    return _("players do not read the spectators' room while their game is on")


# ---------------------------------------------------------------- views
class _ChatApi(APIView):
    """A room's messages (GET) and a new message (POST)."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    def room(self, request: Request, **kwargs: Any) -> Room:
        raise NotImplementedError

    def handle_exception(self, exc: Exception) -> Response:
        response = super().handle_exception(exc)
        if isinstance(exc, RateLimited):
            response["Retry-After"] = str(exc.retry)
        return response

    def _get(self, request: Request, **kwargs: Any) -> Response:
        query = ChatQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        room = self.room(request, **kwargs)
        me = _player(request)
        if not rooms.may_read(room=room, player=me):
            raise Forbidden(_read_refusal(room))
        out = selectors.room_out(room=room, player=me)
        if out["chat_off"]:
            return Response(ChatOut({"room": out, "messages": [], "more": False}).data)
        page = selectors.messages(
            room=room,
            reader=me,
            after=query.validated_data.get("after"),
            before=query.validated_data.get("before"),
            limit=query.validated_data["limit"],
        )
        messages = [selectors.message_out(m) for m in page.messages]
        return Response(ChatOut({"room": out, "messages": messages, "more": page.more}).data)

    def _post(self, request: Request, **kwargs: Any) -> Response:
        me = request_player(request)
        body = ChatPostIn(data=request.data)
        body.is_valid(raise_exception=True)
        room = self.room(request, **kwargs)
        message = chat.post(room=room, author=me, text=body.validated_data["text"])
        return Response(ChatMessageOut(selectors.message_out(message)).data, status=status.HTTP_201_CREATED)


class _ChatOffApi(APIView):
    """Switch a room's chat off (POST) or back on (DELETE), for yourself only."""

    permission_classes = [permissions.IsAuthenticated]

    def room(self, request: Request, **kwargs: Any) -> Room:
        raise NotImplementedError

    def _switch(self, request: Request, off: bool, **kwargs: Any) -> Response:
        me = request_player(request)
        room = self.room(request, **kwargs)
        chat.chat_off(room=room, player=me, off=off)
        return Response(status=status.HTTP_204_NO_CONTENT)


_GET_DOC = (
    "The room's messages, oldest first: the newest `limit` (older than `before`, when given), or with "
    "`after` the oldest `limit` newer than it (what a live page reads on each `changed` of the room's "
    "topic). Messages by players you blocked are left out. 403: you may not read this room (a table's "
    "players' room is for its players and the club's moderators; players do not read the spectators' "
    "room while their game is on). With the chat switched off (`room.chat_off`) no messages are given."
)
_POST_DOC = (
    "Write in the room. The text is trimmed, control characters other than the newline removed, and "
    "kept as typed: show it as text. 400: empty or longer than `room.max_length`; 403: you may not "
    "write here (`room.refusal` says why: not at the table, a guest, muted until …, chat switched off); "
    "429 `throttled`: more than 5 messages in 10 seconds or 20 in a minute (`Retry-After`, and `retry` in "
    "the body, say how many seconds to wait). `@name` tells the named players who may read the room."
)
_OFF_DOC = (
    "POST switches this room's chat off for you (you neither read nor write there; nobody else is "
    "affected), DELETE switches it back on. 204 either way, also when it was so already."
)


def _views(name: str, finder: Any, table: bool = False) -> tuple[type[APIView], type[APIView]]:
    """The chat view and the chat-off view of one kind of room (``finder`` turns the path's
    arguments into the room)."""
    params = [TABLE_ROOM] if table else []

    class ChatApi(_ChatApi):
        def room(self, request: Request, **kwargs: Any) -> Room:
            return finder(request, **kwargs)  # type: ignore[no-any-return]

        @extend_schema(
            parameters=[ChatQuery, *params],
            responses={200: ChatOut, **errors(400, 403, 404)},
            description=_GET_DOC,
            operation_id=f"{name}_chat_read",
        )
        def get(self, request: Request, **kwargs: Any) -> Response:
            return self._get(request, **kwargs)

        @extend_schema(
            parameters=params,
            request=ChatPostIn,
            responses={201: ChatMessageOut, **errors(400, 401, 403, 404, 429)},
            description=_POST_DOC,
            operation_id=f"{name}_chat_post",
        )
        def post(self, request: Request, **kwargs: Any) -> Response:
            return self._post(request, **kwargs)

    class ChatOffApi(_ChatOffApi):
        def room(self, request: Request, **kwargs: Any) -> Room:
            return finder(request, **kwargs)  # type: ignore[no-any-return]

        @extend_schema(
            parameters=params,
            request=None,
            responses={204: None, **errors(401, 403, 404)},
            description=_OFF_DOC,
            operation_id=f"{name}_chat_off",
        )
        def post(self, request: Request, **kwargs: Any) -> Response:
            return self._switch(request, True, **kwargs)

        @extend_schema(
            parameters=params,
            request=None,
            responses={204: None, **errors(401, 403, 404)},
            description=_OFF_DOC,
            operation_id=f"{name}_chat_on",
        )
        def delete(self, request: Request, **kwargs: Any) -> Response:
            return self._switch(request, False, **kwargs)

    ChatApi.__name__ = ChatApi.__qualname__ = f"{name.title()}ChatApi"
    ChatOffApi.__name__ = ChatOffApi.__qualname__ = f"{name.title()}ChatOffApi"
    return ChatApi, ChatOffApi


TableChatApi, TableChatOffApi = _views("tables", _table_room, table=True)
TournamentChatApi, TournamentChatOffApi = _views("tournaments", _tournament_room)
LadderChatApi, LadderChatOffApi = _views("ladders", _ladder_room)
LeagueChatApi, LeagueChatOffApi = _views("leagues", _league_room)


class ClubChatSettingsIn(serializers.Serializer):
    links = serializers.BooleanField(help_text="show http(s) addresses in the club's chat rooms as links")


class ClubChatSettingsApi(APIView):
    """How the club's chat rooms (its own, its events', ladders' and tables') show links."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    def _league(self, slug: str) -> League:
        league = League.objects.filter(slug=slug).first()
        if league is None:
            raise NotFound(_("there is no league %(slug)s") % {"slug": slug})
        return league

    @extend_schema(responses={200: ClubChatSettingsIn, **errors(404)})
    def get(self, request: Request, slug: str) -> Response:
        return Response({"links": self._league(slug).chat_links})

    @extend_schema(
        request=ClubChatSettingsIn,
        responses={200: ClubChatSettingsIn, **errors(400, 401, 403, 404)},
        description="The club's organisers (and staff) choose whether links in its chat rooms are shown "
        "as links (`true`) or as plain text (`false`, the default). Messages are text either way.",
    )
    def put(self, request: Request, slug: str) -> Response:
        body = ClubChatSettingsIn(data=request.data)
        body.is_valid(raise_exception=True)
        league = chat.links_set(
            league=self._league(slug), by=request_player(request), allowed=body.validated_data["links"]
        )
        return Response({"links": league.chat_links})
