"""The API of accounts: registering (with an e-mail address), the signed-in player's account, and
their notifications."""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.authtoken.models import Token
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.errors import InvalidInput
from common.schema import ERROR
from common.throttles import AuthAddressThrottle, client_address
from common.validation import DB_INT_MAX, ascii_int
from games import selectors as game_reads
from games.serializers import PlayerOut, RegisterIn

from . import kinds, notify, services
from .models import Notification


class RegisterWithEmailIn(RegisterIn):
    email = serializers.CharField(max_length=254, required=False, allow_blank=True)


class RegisterApi(APIView):
    """Create an account and get its token. With ``email``, a verification link is mailed to it
    (required when the site sets ``SIGNUP_EMAIL_REQUIRED``)."""

    permission_classes = [permissions.AllowAny]
    throttle_classes = [AuthAddressThrottle]  # per address, one count with signing in

    @extend_schema(
        request=RegisterWithEmailIn, responses={201: PlayerOut, 400: ERROR, 409: ERROR, 429: ERROR}
    )
    def post(self, request: Request) -> Response:
        data = RegisterWithEmailIn(data=request.data)
        data.is_valid(raise_exception=True)
        player = services.sign_up(**data.validated_data, client=client_address(request))
        token, _created = Token.objects.get_or_create(user=player.user)
        body = PlayerOut(game_reads.player_list().get(pk=player.pk)).data
        return Response(
            {**body, "email": player.user.email, "email_verified": False, "token": token.key},
            status=status.HTTP_201_CREATED,
        )


class NotificationOut(serializers.ModelSerializer):  # type: ignore[type-arg]
    title = serializers.SerializerMethodField()
    detail = serializers.SerializerMethodField()
    read = serializers.SerializerMethodField()

    class Meta:
        model = Notification
        fields = ["id", "kind", "title", "detail", "url", "params", "created_at", "read", "read_at"]

    def get_title(self, n: Notification) -> str:
        return kinds.title(n.kind, n.params)

    def get_detail(self, n: Notification) -> str:
        return kinds.detail(n.kind, n.params, self.context.get("extras", {}).get(n.pk))

    def get_read(self, n: Notification) -> bool:
        return n.read_at is not None


class NotificationPageOut(serializers.Serializer):
    unread = serializers.IntegerField()
    results = NotificationOut(many=True)
    before = serializers.IntegerField(allow_null=True, help_text="pass as ?before= for older ones")


class NotificationsApi(APIView):
    """The signed-in player's notifications, newest first (``?unread=true``: unread only;
    ``?before=<id>``: older ones), 50 at a time, with the unread count."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        parameters=[
            OpenApiParameter("unread", str, description="`true`: unread notifications only"),
            OpenApiParameter("before", int, description="only notifications older than this id"),
        ],
        responses={200: NotificationPageOut, 400: ERROR, 401: ERROR},
    )
    def get(self, request: Request) -> Response:
        rows = Notification.objects.filter(user=request.user)
        if request.query_params.get("unread") in ("1", "true", "yes"):
            rows = rows.filter(read_at__isnull=True)
        before = request.query_params.get("before")
        if before:
            try:
                rows = rows.filter(pk__lt=ascii_int(before, name="before"))
            except ValueError:
                raise InvalidInput("before: " + _("a notification id (a whole number)")) from None
        page = list(rows.order_by("-id")[:50])
        # Titles in the request's language, times in the player's zone (a program signed in by
        # token has no session to carry it).
        with timezone.override(notify.user_zone(user_id=request.user.pk)):
            out = NotificationOut(page, many=True, context={"extras": notify.extras(notifications=page)}).data
        return Response(
            {
                "unread": notify.unread_count(user_id=request.user.pk),
                "results": out,
                "before": page[-1].pk if len(page) == 50 else None,
            }
        )


class MarkReadIn(serializers.Serializer):
    ids = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=DB_INT_MAX), required=False, max_length=500
    )


class MarkReadOut(serializers.Serializer):
    marked = serializers.IntegerField(help_text="how many were unread and are now read")
    unread = serializers.IntegerField(help_text="unread notifications left")


class NotificationsReadApi(APIView):
    """Mark notifications read: the ``ids`` given, or all of them."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=MarkReadIn, responses={200: MarkReadOut, 400: ERROR, 401: ERROR})
    def post(self, request: Request) -> Response:
        data = MarkReadIn(data=request.data)
        data.is_valid(raise_exception=True)
        marked = notify.mark_read(user_id=request.user.pk, ids=data.validated_data.get("ids"))
        return Response({"marked": marked, "unread": notify.unread_count(user_id=request.user.pk)})
