"""The games API under /api/v1/: one view per operation, thin over services and selectors."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import django_filters
from django.contrib.auth import authenticate
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.utils import timezone
from django.utils.functional import cached_property
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import generics, permissions, status
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import Throttled
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common import auth, devices
from common.errors import InvalidInput, NotFound
from common.metrics import scrape_refusal
from common.pagination import CursorPage, paged_off
from common.players import request_player
from common.schema import ERROR
from common.throttles import AuthAddressThrottle, CountingThrottle, ScopedThrottle, SignInLimits
from common.validation import DB_INT_MAX, DB_INT_MIN, ascii_int

from . import health, selectors, services
from .models import GameKind, Player, Table
from .serializers import (
    MOVE_MAX,
    HealthOut,
    ImportIn,
    InviteBotIn,
    JoinIn,
    MoveIn,
    MoveOut,
    MoveResultOut,
    PlayerDetailOut,
    PlayerOut,
    PositionsOut,
    ReadyOut,
    TableCreateIn,
    TableDetailOut,
    TableOut,
    TokenIn,
    TokenOut,
)


# -------------------------------------------------------------------- health
class HealthApi(APIView):
    """Liveness for load balancers and clients: the database answers; the server's clock."""

    permission_classes = [permissions.AllowAny]
    throttle_classes: list[Any] = []

    @extend_schema(responses={200: HealthOut})
    def get(self, request: Request) -> Response:
        Table.objects.only("id").first()
        return Response({"status": "ok", "time": timezone.now()})


class ReadyThrottle(CountingThrottle):
    """Readiness probes per client address (signed in or not), at the ``ready`` rate: enough for
    any load balancer's probes, not for using the checks to load the database and Redis."""

    scope = "ready"

    def get_rate(self) -> str | None:
        return self.THROTTLE_RATES.get(self.scope)  # settings without a "ready" rate: no limit

    def get_cache_key(self, request: Request, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class ReadyApi(APIView):
    """Readiness, for a load balancer: can this process serve? Only the database decides: 503
    when it does not answer (take the host out), else 200. Redis with the queue depths, the age
    of the last clock sweep, overdue tables and stranded bot turns are checked too, but their
    failure makes the service "degraded", not unready: the web serves moves and pages without
    them, and one stuck bot or a Redis blip must not take every host out at once. The operator
    is alerted on those through ``/metrics`` (a gauge each; docs/operators/operations.md,
    "Health"). A change of state is logged once per process (``health.note_state``), not each probe.

    The checks themselves (which dependency failed, its address, the error), the degraded ones'
    names and the word "degraded" are shown only to those who may read ``/metrics``: local
    clients, or ``Authorization: Bearer <METRICS_TOKEN>``. Anyone else gets the status code and
    "ready" or "unready": enough for a load balancer, nothing about the network behind it."""

    permission_classes = [permissions.AllowAny]
    throttle_classes = [ReadyThrottle]

    @extend_schema(responses={200: ReadyOut, 503: ReadyOut, 429: ERROR})
    def get(self, request: Request) -> Response:
        report = health.readiness()
        health.note_state(report)
        body: dict[str, Any] = {"status": "ready" if report.ready else "unready", "time": timezone.now()}
        if not scrape_refusal(request):
            body.update(status=report.status, degraded=report.degraded, checks=report.checks)
        return Response(body, status=200 if report.ready else 503)


# ---------------------------------------------------------------------- auth
class TokenApi(APIView):
    """The account's API token, for its name and password. The answer also sets a device cookie
    for the account and gives its value as ``device``: send it back (the cookie, or the
    ``X-Device-Cookie`` header) and failed attempts of this client are counted against it alone,
    so other people's wrong guesses do not lock this client out (``common.devices``)."""

    permission_classes = [permissions.AllowAny]
    throttle_classes = [AuthAddressThrottle]

    @extend_schema(
        request=TokenIn,
        responses={200: TokenOut, 400: ERROR, 429: ERROR},
        parameters=[
            OpenApiParameter(
                devices.HEADER,
                str,
                OpenApiParameter.HEADER,
                required=False,
                description="the `device` value of an earlier sign-in to this account",
            )
        ],
    )
    def post(self, request: Request) -> Response:
        data = TokenIn(data=request.data)
        data.is_valid(raise_exception=True)
        # Per address by the throttle above; per account (or device cookie), failed attempts
        # only (common.throttles), counted before the password is checked.
        limits = SignInLimits(request, data.validated_data["username"], by_address=False)
        wait = limits.reserve()
        if wait is not None:
            raise Throttled(
                wait=wait, detail=_("Sign-in throttled: too many failed attempts for this account.")
            )
        user = authenticate(request, **data.validated_data)
        limits.settle(ok=user is not None)
        if user is None:
            return Response(
                {"detail": _("wrong username or password"), "code": "authentication_failed"},
                status=status.HTTP_400_BAD_REQUEST,
            )
        token, _created = Token.objects.get_or_create(user=user)
        response = Response({"token": token.key})
        response.data["device"] = devices.issue(response, user)
        return response


# -------------------------------------------------------------------- tables
class TableFilter(django_filters.FilterSet):
    game = django_filters.ChoiceFilter(choices=GameKind.choices)
    status = django_filters.ChoiceFilter(choices=Table.Status.choices)
    player = django_filters.NumberFilter(method="filter_player", label="player id seated at the table")
    open_seats = django_filters.BooleanFilter(method="filter_open", label="open tables with a free seat")
    players = django_filters.NumberFilter()

    class Meta:
        model = Table
        fields = ["game", "status", "players", "rated"]

    def filter_queryset(self, queryset: QuerySet[Table]) -> QuerySet[Table]:
        data = self.form.cleaned_data
        for name in sorted(data, key=lambda name: name == "player"):  # the player last: see below
            queryset = self.filters[name].filter(queryset, data[name])
        return queryset

    def filter_player(self, qs: QuerySet[Table], name: str, value: int) -> QuerySet[Table]:
        # A page's ids are read off the player's seats (newest table first, the cursor inside
        # that subquery), each seat's table checked against the other filters, already in ``qs``;
        # then those rows of the unfiltered list (a join on them could walk the status index).
        return paged_off(
            selectors.tables_of_player(qs, value),
            rows=self.queryset,
            keys=selectors.seats_of_player(value, among=qs),
            key="table_id",
        )

    def filter_open(self, qs: QuerySet[Table], name: str, value: bool) -> QuerySet[Table]:
        return selectors.tables_with_open_seats(qs) if value else qs


@extend_schema_view(get=extend_schema(responses={200: TableOut(many=True), 404: ERROR}))
class TableListApi(generics.ListAPIView):
    """Tables, newest first, a keyset page at a time (``next``/``previous`` links, no count)."""

    serializer_class = TableOut
    filterset_class = TableFilter
    pagination_class = CursorPage
    cursor_ordering = "-id"  # ids grow with creation time: newest first, on an index

    def get_queryset(self) -> QuerySet[Table]:
        return selectors.table_list().defer(*selectors.LIST_DEFERRED)

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        # A reader never sees a clock below zero without its timeout applied.
        services.apply_due_timeouts()
        return super().list(request, *args, **kwargs)

    @extend_schema(request=TableCreateIn, responses={201: TableDetailOut, 400: ERROR, 401: ERROR, 403: ERROR})
    def post(self, request: Request) -> Response:
        data = TableCreateIn(data=request.data)
        data.is_valid(raise_exception=True)
        table = services.table_create(creator=request_player(request), **data.validated_data)
        return Response(TableDetailOut(selectors.table_detail(table.pk)).data, status=status.HTTP_201_CREATED)


class TableDetailApi(APIView):
    """The table as a player or spectator sees it. Game pages poll it with ``If-None-Match``:
    an unchanged table answers ``304`` after one indexed query, so polling once a second is cheap."""

    throttle_classes = [ScopedThrottle]
    throttle_scope = "watch"

    @extend_schema(responses={200: TableDetailOut, 304: None, 404: ERROR})
    def get(self, request: Request, table_id: int) -> Response | HttpResponse:
        version = selectors.table_version(table_id)
        if version is None:
            raise NotFound(_("there is no table %(table)s") % {"table": table_id})
        if version[1]:
            # A reader never sees a clock below zero without its timeout applied.
            services.clock_timeout_apply(table_id=table_id)
            version = selectors.table_version(table_id) or version
        etag = f'"{version[0]}"'
        if etag in request.headers.get("If-None-Match", ""):
            response = HttpResponse(status=304)
        else:
            table = selectors.table_detail(table_id)
            response = Response(TableDetailOut(table).data)
        response["ETag"] = etag
        response["Cache-Control"] = "no-cache"
        return response


class TablePositionsApi(APIView):
    @extend_schema(
        parameters=[OpenApiParameter("from", int, description="the first action number (default 0)")],
        responses={200: PositionsOut, 400: ERROR, 404: ERROR},
        description="The position after every action (move, resignation, timeout) from `?from=` "
        "(an action number, default 0), replayed by the engine: for stepping through a game.",
    )
    def get(self, request: Request, table_id: int) -> Response:
        table = _table_or_404(table_id)
        try:
            start = max(0, ascii_int(request.query_params.get("from", "0"), name="from", lo=DB_INT_MIN))
        except ValueError:
            # Translators: "from" is the name of a query parameter: keep it.
            raise InvalidInput(_("from must be an action number (0, 1, 2, …)")) from None
        return Response(selectors.table_positions(table, start))


class TableInviteBotApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=InviteBotIn,
        responses={200: TableDetailOut, 400: ERROR, 401: ERROR, 403: ERROR, 404: ERROR, 409: ERROR},
        description="Seat a house bot (`level`) or challenge an outside bot account (`player`) at an open, "
        "unrated table: for its players, its creator and staff. A house bot that would fill a table of "
        "house bots only makes a bot match: organisers only (403 `bot_match_organisers_only`), counted "
        "against their daily bot-match limit (409 `bot_match_limit`).",
    )
    def post(self, request: Request, table_id: int) -> Response:
        data = InviteBotIn(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        if "player" in fields:
            services.bot_invite_account(
                table_id=table_id,
                player=request_player(request),
                bot_id=fields["player"],
                seat=fields.get("seat"),
            )
        else:
            services.bot_invite(table_id=table_id, player=request_player(request), **fields)
        return Response(TableDetailOut(selectors.table_detail(table_id)).data)


class TableJoinApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=JoinIn,
        responses={200: TableDetailOut, 400: ERROR, 401: ERROR, 404: ERROR, 409: ERROR},
        description="Take a seat (the lowest free one, or `seat`); the table starts when full. At a rated "
        "table two players who have had `RATED_GAMES_SAME_PLAYERS_PER_DAY` rated games together in the last "
        "24 hours are not seated together (409 `rated_pair_limit`, with `limit` and the other `player`): "
        "play unrated.",
    )
    def post(self, request: Request, table_id: int) -> Response:
        data = JoinIn(data=request.data)
        data.is_valid(raise_exception=True)
        services.seat_join(
            table_id=table_id, player=request_player(request), seat=data.validated_data.get("seat")
        )
        return Response(TableDetailOut(selectors.table_detail(table_id)).data)


class TableLeaveApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={200: TableOut, 401: ERROR, 403: ERROR, 404: ERROR, 409: ERROR})
    def post(self, request: Request, table_id: int) -> Response:
        services.seat_leave(table_id=table_id, player=request_player(request))
        return Response(TableOut(selectors.table_detail(table_id)).data)


def plain_move_in(data: Any) -> dict[str, Any] | None:
    """A move's ``ply`` and ``move`` in the plain case (exactly those two keys, a whole ``ply`` in
    range, a short printable ASCII ``move`` with no space around it), which :class:`MoveIn`
    accepts as they are; None for anything else."""
    if isinstance(data, Mapping) and len(data) == 2:
        ply, move = data.get("ply"), data.get("move")
        if (
            type(ply) is int
            and 0 <= ply <= DB_INT_MAX
            and type(move) is str
            and 0 < len(move) <= MOVE_MAX
            and move.isascii()
            and move.isprintable()
            and move.strip() == move
        ):
            return {"ply": ply, "move": move}
    return None


def move_in(data: Any) -> dict[str, Any]:
    """A move's ``ply`` and ``move``, validated as :class:`MoveIn` does. The plain case is checked
    by hand (:func:`plain_move_in`): the serializer's construction is a good share of a move's
    CPU. Anything else goes through ``MoveIn``, which answers the same errors as ever."""
    plain = plain_move_in(data)
    if plain is not None:
        return plain
    checked = MoveIn(data=data)
    checked.is_valid(raise_exception=True)
    return dict(checked.validated_data)


#: The plain lane's limits (:meth:`TableMovesApi.plain_lane`): a plain move's body is some 30
#: bytes; what a client may send as ``Accept`` for DRF to choose the JSON renderer as it is.
PLAIN_BODY_MAX = 256
PLAIN_ACCEPT = frozenset({"", "*/*", "application/json"})


class TableMovesApi(APIView):
    @extend_schema(responses={200: MoveOut(many=True), 404: ERROR})
    def get(self, request: Request, table_id: int) -> Response:
        table = _table_or_404(table_id)
        return Response(MoveOut(selectors.move_history(table), many=True).data)

    @extend_schema(
        request=MoveIn,
        responses={
            201: MoveResultOut,
            200: MoveResultOut,
            400: ERROR,
            401: ERROR,
            403: ERROR,
            404: ERROR,
            409: ERROR,
        },
        description="Submit a move answering `ply`. 201: recorded; 200: an exact retry of the move "
        "already recorded for that ply; 409 `stale_ply` carries the current `ply`.",
    )
    def post(self, request: Request, table_id: int) -> Response:
        return self.answer(request, table_id, move_in(request.data))

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        plain = self.plain_lane(request, kwargs["table_id"])
        return plain if plain is not None else super().dispatch(request, *args, **kwargs)

    def plain_lane(self, request: HttpRequest, table_id: int) -> HttpResponseBase | None:
        """The usual move, answered without DRF's request wrapper: a ``POST`` signed with a good
        token, a small ``application/json`` body holding a plain move (:func:`plain_move_in`),
        and an ``Accept`` the JSON renderer answers as it is. The same checks as DRF's, in its
        order (the token's user, the permissions, the throttles), the same service, the same
        exception handler and the same rendered answer and headers; DRF's request wrapper, its
        parsers and its content negotiation (some 0.15 ms of a move's 1.5-1.7 ms of CPU) are
        skipped. Anything else returns None before a check has counted anything, and DRF's own
        dispatch answers it (and its errors) as for every other view.
        ``tests/games/test_move_plain_lane.py`` holds the two to the same answers."""
        meta = request.META
        if (
            request.method != "POST"
            or request.content_type != "application/json"
            or request.content_params
            or meta.get("HTTP_ACCEPT", "") not in PLAIN_ACCEPT
        ):
            return None
        try:
            if not 0 < int(meta.get("CONTENT_LENGTH") or 0) <= PLAIN_BODY_MAX:
                return None
        except ValueError:
            return None
        seen = getattr(request, auth.SEEN, None)
        user = seen[1] if seen is not None else auth.token_user(request)
        if user is None:
            return None  # no token, or not a good one: DRF says which
        request.user = user  # as DRF's authentication sets it on the request it wraps
        if not all(p.has_permission(request, self) for p in self.get_permissions()):
            return None
        try:
            data = plain_move_in(json.loads(request.body.decode()))
        except (ValueError, RecursionError):
            return None
        if data is None:
            return None
        self.args, self.kwargs, self.request = (), {"table_id": table_id}, request
        self.headers = self.default_response_headers
        request.accepted_renderer = self.plain_renderer  # type: ignore[attr-defined]
        request.accepted_media_type = "application/json"  # type: ignore[attr-defined]
        try:
            self.check_throttles(request)  # DRF's own: it needs only the request's user and address
            response = self.answer(request, table_id, data)
        except Exception as exc:
            response = self.get_exception_handler()(exc, self.get_exception_handler_context())
            if response is None:
                raise
            response.exception = True
        return self.finalize_response(request, response)

    @cached_property
    def plain_renderer(self) -> Any:
        return self.renderer_classes[0]()

    def answer(self, request: Request | HttpRequest, table_id: int, data: dict[str, Any]) -> Response:
        """Submit the move ``data`` of the request's player; the answer (``MoveResultOut``)."""
        outcome = services.move_submit(table_id=table_id, player=request_player(request), **data)
        # Built by hand (same shape as MoveResultOut): this is the hot path of the service.
        move, table = outcome.move, outcome.table
        body = {
            "move": {
                "seq": move.seq,
                "ply": move.ply,
                "seat": move.seat,
                "kind": move.kind,
                "notation": move.notation,
                "played_at": move.played_at,
            },
            "table": {
                "id": table.pk,
                "status": table.status,
                "ply": table.ply,
                "to_move": table.to_move,
                "result": table.result,
                "clocks": table.clocks,
                "turn_started_at": table.turn_started_at,
                "deadline": table.deadline,
                "server_time": timezone.now(),
            },
        }
        return Response(body, status=status.HTTP_201_CREATED if outcome.created else status.HTTP_200_OK)


class TableResignApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={200: TableOut, 401: ERROR, 403: ERROR, 404: ERROR, 409: ERROR})
    def post(self, request: Request, table_id: int) -> Response:
        services.game_resign(table_id=table_id, player=request_player(request))
        return Response(TableOut(selectors.table_detail(table_id)).data)


class TableRecordApi(APIView):
    @extend_schema(responses={(200, "text/plain"): str, 404: ERROR})
    def get(self, request: Request, table_id: int) -> HttpResponse:
        table = _table_or_404(table_id)
        text = services.record_text(table=table)
        response = HttpResponse(text, content_type="text/plain; charset=utf-8")
        response["Content-Disposition"] = f'inline; filename="table-{table.pk}.txt"'
        return response


class TableImportApi(APIView):
    permission_classes = [permissions.IsAdminUser]

    @extend_schema(request=ImportIn, responses={201: TableDetailOut, 400: ERROR, 401: ERROR, 403: ERROR})
    def post(self, request: Request) -> Response:
        data = ImportIn(data=request.data)
        data.is_valid(raise_exception=True)
        table = services.table_import_record(
            text=data.validated_data["record"],
            imported_by=request_player(request),
            rated=data.validated_data["rated"],
        )
        return Response(TableDetailOut(selectors.table_detail(table.pk)).data, status=status.HTTP_201_CREATED)


def _table_or_404(table_id: int) -> Table:
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise NotFound(_("there is no table %(table)s") % {"table": table_id})
    return table


# ------------------------------------------------------------------- players
class PlayerFilter(django_filters.FilterSet):
    search = django_filters.CharFilter(
        field_name="display_name",
        lookup_expr="icontains",
        max_length=100,
        label="players whose display name contains this text (any case)",
    )

    class Meta:
        model = Player
        fields = ["is_bot", "search"]


@extend_schema_view(get=extend_schema(responses={200: PlayerOut(many=True), 404: ERROR}))
class PlayerListApi(generics.ListAPIView):
    """Players in the order they registered (``id``: unique and unchanging, unlike a display
    name, as a keyset page needs), a keyset page at a time."""

    serializer_class = PlayerOut
    filterset_class = PlayerFilter
    pagination_class = CursorPage
    cursor_ordering = "id"

    def get_queryset(self) -> QuerySet[Player]:
        return selectors.player_list()


class PlayerDetailApi(APIView):
    @extend_schema(responses={200: PlayerDetailOut, 404: ERROR})
    def get(self, request: Request, player_id: int) -> Response:
        player = selectors.player_list().filter(pk=player_id).first()
        if player is None:
            raise NotFound(_("there is no player %(player)s") % {"player": player_id})
        player.tables = selectors.player_tables(player)  # type: ignore[attr-defined]
        return Response(PlayerDetailOut(player).data)
