"""Reports and moderation through the API: ``POST /api/v1/reports/`` (any account but a guest),
and for moderators (staff, clubs' organisers) the queue, removing a message, muting and lifting a
mute, closing a report, and the log (``community.reports``, ``community.moderation``)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.errors import Forbidden
from common.players import request_player
from common.schema import errors
from common.validation import DB_INT_MAX, ascii_int_or_none
from games.models import Player
from tournaments import selectors as league_reads

from . import moderation, reports
from . import moderation_selectors as reads
from .models import Message, Mute, Report


def _moderator(request: Request) -> Player:
    me = request_player(request)
    if not reads.is_moderator(player=me):
        raise Forbidden(_("the moderation queue is for staff and clubs' organisers"))
    return me


class NameOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField(source="display_name")


class MessageOut(serializers.Serializer):
    id = serializers.IntegerField()
    room = serializers.IntegerField(source="room_id")
    author = NameOut(allow_null=True)
    text = serializers.SerializerMethodField(help_text="empty once the author deleted their account")
    created = serializers.DateTimeField()
    removed = serializers.SerializerMethodField(
        help_text="removed by a moderator (moderators still see the text)"
    )

    def get_text(self, m: Message) -> str:
        return "" if m.scrubbed else m.text

    def get_removed(self, m: Message) -> bool:
        return m.deleted_at is not None


class ReportIn(serializers.Serializer):
    subject = serializers.ChoiceField(choices=Report.Subject.choices)
    reason = serializers.ChoiceField(choices=Report.Reason.choices)
    details = serializers.CharField(required=False, allow_blank=True, default="", max_length=2000)
    message = serializers.IntegerField(
        required=False, min_value=1, max_value=DB_INT_MAX, help_text="subject message: its id"
    )
    player = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=DB_INT_MAX,
        help_text="subject player: their id; subject game: which player",
    )
    table = serializers.IntegerField(
        required=False, min_value=1, max_value=DB_INT_MAX, help_text="subject game: its table's id"
    )


class ReportOut(serializers.Serializer):
    id = serializers.IntegerField()
    subject = serializers.CharField()
    reason = serializers.CharField()
    details = serializers.CharField()
    status = serializers.CharField()
    created = serializers.DateTimeField()
    player = NameOut(help_text="the player reported")
    message = serializers.IntegerField(source="message_id", allow_null=True)
    table = serializers.IntegerField(source="table_id", allow_null=True)
    league = serializers.CharField(source="league.slug", read_only=True, allow_null=True)


class QueueReportOut(ReportOut):
    reporter = NameOut(allow_null=True)
    handled_by = NameOut(allow_null=True)
    handled_at = serializers.DateTimeField(allow_null=True)


class RoomOut(serializers.Serializer):
    id = serializers.IntegerField()
    label = serializers.CharField()
    url = serializers.CharField()


class QueueItemOut(serializers.Serializer):
    report = QueueReportOut()
    room = serializers.SerializerMethodField()
    context = MessageOut(many=True, help_text="the reported message and a few around it, oldest first")

    def get_room(self, item: dict[str, Any]) -> dict[str, Any] | None:
        room = item["room"]
        return None if room is None else {"id": room.pk, "label": item["room_label"], "url": item["room_url"]}


class ReasonIn(serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=500)


class MuteIn(serializers.Serializer):
    player = serializers.IntegerField(min_value=1, max_value=DB_INT_MAX)
    scope = serializers.ChoiceField(choices=Mute.Scope.choices)
    room = serializers.IntegerField(
        required=False, min_value=1, max_value=DB_INT_MAX, help_text="scope room: the room's id"
    )
    league = serializers.SlugField(required=False, help_text="scope league: the club's slug")
    minutes = serializers.IntegerField(
        min_value=moderation.MUTE_MIN_MINUTES, max_value=moderation.MUTE_MAX_MINUTES
    )
    reason = serializers.CharField(max_length=500)
    report = serializers.IntegerField(
        required=False, min_value=1, max_value=DB_INT_MAX, help_text="the report this acts on (closed)"
    )


class MuteOut(serializers.Serializer):
    id = serializers.IntegerField()
    player = NameOut()
    scope = serializers.CharField()
    room = serializers.IntegerField(source="room_id", allow_null=True)
    league = serializers.CharField(source="league.slug", read_only=True, allow_null=True)
    until = serializers.DateTimeField()
    reason = serializers.CharField()
    by = NameOut(allow_null=True)
    created = serializers.DateTimeField()
    lifted_at = serializers.DateTimeField(allow_null=True)


class ActionOut(serializers.Serializer):
    id = serializers.IntegerField()
    action = serializers.CharField()
    actor = NameOut(allow_null=True)
    player = NameOut(allow_null=True)
    room = serializers.IntegerField(source="room_id", allow_null=True)
    league = serializers.CharField(source="league.slug", read_only=True, allow_null=True)
    message = serializers.IntegerField(source="message_id", allow_null=True)
    report = serializers.IntegerField(source="report_id", allow_null=True)
    mute = serializers.IntegerField(source="mute_id", allow_null=True)
    reason = serializers.CharField()
    created = serializers.DateTimeField()


class ReportApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=ReportIn,
        responses={201: ReportOut, 200: ReportOut, **errors(400, 401, 403, 404)},
        description="Report a message (`message`), a player (`player`) or a game (`table`, and `player` "
        "when it had several opponents) to the moderators. 201: reported; 200: you have an open report "
        "about the same thing already (it is answered, unchanged). Refused: guests (403), yourself (400), "
        "a message you cannot read (404).",
    )
    def post(self, request: Request) -> Response:
        data = ReportIn(data=request.data)
        data.is_valid(raise_exception=True)
        d = data.validated_data
        made, created = reports.report(
            reporter=request_player(request),
            subject=d["subject"],
            reason=d["reason"],
            details=d["details"],
            message_id=d.get("message"),
            player_id=d.get("player"),
            table_id=d.get("table"),
        )
        return Response(
            ReportOut(made).data, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK
        )


class QueueApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "status", str, enum=["open", "resolved", "dismissed", "all"], description="default open"
            ),
            OpenApiParameter("player", int, description="only reports about this player"),
        ],
        responses={200: QueueItemOut(many=True), **errors(401, 403)},
        description="The reports you handle, newest first (staff: all; organisers: their clubs'), each "
        "with its room and the reported message with a few around it.",
    )
    def get(self, request: Request) -> Response:
        me = _moderator(request)
        wanted = request.query_params.get("status", "open")
        player = ascii_int_or_none(request.query_params.get("player", ""))
        items = reads.reports(moderator=me, status=wanted, player_id=player)
        return Response(QueueItemOut([reads.as_dict(i) for i in items], many=True).data)


class _ReportCloseApi(APIView):
    permission_classes = [permissions.IsAuthenticated]
    closing = ""

    def post(self, request: Request, report_id: int) -> Response:
        data = ReasonIn(data=request.data)
        data.is_valid(raise_exception=True)
        done = moderation.report_close(
            report_id=report_id,
            by=request_player(request),
            status=self.closing,
            reason=data.validated_data["reason"],
        )
        return Response(ReportOut(done).data)


class ReportDismissApi(_ReportCloseApi):
    closing = Report.Status.DISMISSED

    @extend_schema(
        request=ReasonIn,
        responses={200: ReportOut, **errors(400, 401, 403, 404, 409)},
        description="Dismiss an open report (nothing to act on); the reporter is told. The report's club's "
        "organisers and staff. 409: handled already.",
    )
    def post(self, request: Request, report_id: int) -> Response:
        return super().post(request, report_id)


class ReportResolveApi(_ReportCloseApi):
    closing = Report.Status.RESOLVED

    @extend_schema(
        request=ReasonIn,
        responses={200: ReportOut, **errors(400, 401, 403, 404, 409)},
        description="Mark an open report acted on (e.g. after a warning given elsewhere); the reporter is "
        "told. The report's club's organisers and staff. 409: handled already.",
    )
    def post(self, request: Request, report_id: int) -> Response:
        return super().post(request, report_id)


class MessageDeleteApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=ReasonIn,
        responses={204: None, **errors(400, 401, 403, 404)},
        description="Remove a chat message (its room's moderators: the club's organisers, staff), with a "
        "`reason` (in the body, or as a query parameter): readers see that a message was removed, the author "
        "is told why, the log keeps the text. Its open reports are closed as acted on.",
    )
    def delete(self, request: Request, message_id: int) -> Response:
        data = ReasonIn(data=request.data or {"reason": request.query_params.get("reason", "")})
        data.is_valid(raise_exception=True)
        moderation.message_delete(
            message_id=message_id, by=request_player(request), reason=data.validated_data["reason"]
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class MuteListApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        responses={200: MuteOut(many=True), **errors(401, 403)},
        description="The mutes in force you may lift (staff: all; organisers: their clubs').",
    )
    def get(self, request: Request) -> Response:
        return Response(MuteOut(reads.active_mutes(moderator=_moderator(request)), many=True).data)

    @extend_schema(
        request=MuteIn,
        responses={201: MuteOut, **errors(400, 401, 403, 404)},
        description="Mute a player for `minutes` (60 to 43200: an hour to 30 days) in a room (its "
        "moderators), in a club's rooms (its organisers) or on the whole site (staff), with a `reason` "
        "the player is told. A mute of the same scope and place in force is replaced.",
    )
    def post(self, request: Request) -> Response:
        data = MuteIn(data=request.data)
        data.is_valid(raise_exception=True)
        d = data.validated_data
        made = moderation.mute(
            by=request_player(request),
            player_id=d["player"],
            scope=d["scope"],
            minutes=d["minutes"],
            reason=d["reason"],
            room=reads.room_for_mute(room_id=d.get("room")),
            league=league_reads.league(d["league"]) if d.get("league") else None,
            report_id=d.get("report"),
        )
        return Response(MuteOut(made).data, status=status.HTTP_201_CREATED)


class MuteApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=ReasonIn,
        responses={204: None, **errors(401, 403, 404, 409)},
        description="Lift a mute before its end (whoever may mute there); the player is told. 409: it ended.",
    )
    def delete(self, request: Request, mute_id: int) -> Response:
        data = ReasonIn(data=request.data or {"reason": request.query_params.get("reason", "")})
        data.is_valid(raise_exception=True)
        moderation.unmute(mute_id=mute_id, by=request_player(request), reason=data.validated_data["reason"])
        return Response(status=status.HTTP_204_NO_CONTENT)


class LogApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        parameters=[OpenApiParameter("before", int, description="older than this action's id")],
        responses={200: ActionOut(many=True), **errors(401, 403)},
        description="The moderation log, newest first, 100 at a time (staff: all; organisers: their clubs').",
    )
    def get(self, request: Request) -> Response:
        me = _moderator(request)
        rows = reads.log(moderator=me, before=ascii_int_or_none(request.query_params.get("before", "")))
        return Response(ActionOut(rows, many=True).data)
