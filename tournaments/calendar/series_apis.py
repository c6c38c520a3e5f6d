"""Recurring events API: a league's series, each with its next occurrences, and skipping one
(thin views over :mod:`tournaments.calendar.recurring`; the shapes are here too)."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.errors import NotFound
from common.players import request_player
from common.schema import errors

from .. import selectors as league_selectors
from ..models import EventSeries
from . import recurring

#: How many next occurrences a series shows.
NEXT = 5


# --------------------------------------------------------------- shapes


class SeriesDeletedOut(serializers.Serializer):
    id = serializers.IntegerField()
    deleted = serializers.BooleanField()


class SeriesIn(serializers.Serializer):
    name = serializers.CharField(max_length=100)
    event = serializers.JSONField(
        help_text="each occurrence's settings, as POST /api/v1/tournaments/ takes them: game, seats, "
        "format, rounds, advance, edition, time_control, rated, points_scale, check_in, "
        "requested_bye, max_players, rating_min, rating_max; arenas: duration_minutes and berserk"
    )
    frequency = serializers.ChoiceField(choices=EventSeries.Frequency.choices)
    interval = serializers.IntegerField(default=1, help_text="every N days, weeks or months")
    weekdays = serializers.ListField(
        child=serializers.IntegerField(),
        default=list,
        help_text="weekly: the days, 0 (Monday) to 6 (Sunday); empty: the first date's weekday",
    )
    local_time = serializers.TimeField(help_text="the local start time, e.g. 19:00")
    time_zone = serializers.CharField(max_length=64, help_text="an IANA name, e.g. Europe/Madrid")
    first_date = serializers.DateField()
    until = serializers.DateField(required=False, allow_null=True, help_text="the last date (included)")
    create_days_ahead = serializers.IntegerField(
        default=7, help_text="each occurrence is created, registration open, this many days before it starts"
    )


class SeriesPatch(SeriesIn):
    active = serializers.BooleanField(required=False, help_text="false: pause (no more occurrences created)")


class SkipIn(serializers.Serializer):
    date = serializers.DateField(help_text="the occurrence's local date, YYYY-MM-DD")


class OccurrenceOut(serializers.Serializer):
    date = serializers.DateField(help_text="the local date")
    starts_at = serializers.DateTimeField(help_text="UTC")
    tournament = serializers.IntegerField(
        source="tournament_id", allow_null=True, help_text="the event, once created"
    )
    status = serializers.CharField(help_text="the event's status once created, else empty")


class SeriesOut(serializers.Serializer):
    id = serializers.IntegerField()
    league = serializers.CharField(source="league.slug")
    name = serializers.CharField()
    event = serializers.JSONField()
    frequency = serializers.CharField(help_text="daily, weekly or monthly")
    interval = serializers.IntegerField()
    weekdays = serializers.ListField(child=serializers.IntegerField())
    local_time = serializers.TimeField()
    time_zone = serializers.CharField()
    first_date = serializers.DateField()
    until = serializers.DateField(allow_null=True)
    create_days_ahead = serializers.IntegerField()
    skipped = serializers.ListField(child=serializers.CharField(), help_text="skipped local dates")
    active = serializers.BooleanField()
    next = serializers.SerializerMethodField(help_text="the next occurrences")

    @extend_schema_field(OccurrenceOut(many=True))
    def get_next(self, series: EventSeries) -> list[dict[str, Any]]:
        rows = recurring.upcoming(series, now=timezone.now(), count=NEXT)
        return OccurrenceOut(rows, many=True).data  # type: ignore[no-any-return]


# --------------------------------------------------------------- views


def _series(series_id: int) -> EventSeries:
    found = EventSeries.objects.select_related("league").filter(pk=series_id).first()
    if found is None:
        raise NotFound(_("there is no recurring event %(id)s") % {"id": series_id})
    return found


def _out(series_id: int) -> dict[str, Any]:
    return SeriesOut(_series(series_id)).data  # type: ignore[no-any-return]


class LeagueSeriesApi(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(responses={200: SeriesOut(many=True), **errors(404)}, operation_id="league_series_list")
    def get(self, request: Request, slug: str) -> Response:
        league = league_selectors.league(slug)
        rows = EventSeries.objects.filter(league=league).select_related("league").order_by("name", "pk")
        return Response(SeriesOut(rows, many=True).data)

    @extend_schema(
        request=SeriesIn,
        responses={201: SeriesOut, **errors(400, 401, 403, 404)},
        operation_id="league_series_create",
    )
    def post(self, request: Request, slug: str) -> Response:
        league = league_selectors.league(slug)
        data = SeriesIn(data=request.data)
        data.is_valid(raise_exception=True)
        series = recurring.series_create(league=league, by=request_player(request), **data.validated_data)
        return Response(_out(series.pk), status=status.HTTP_201_CREATED)


class SeriesDetailApi(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(responses={200: SeriesOut, **errors(404)}, operation_id="series_retrieve")
    def get(self, request: Request, series_id: int) -> Response:
        return Response(_out(series_id))

    @extend_schema(
        request=SeriesPatch,
        responses={200: SeriesOut, **errors(400, 401, 403, 404)},
        operation_id="series_update",
        description="Changes apply to the occurrences not created yet; created ones are ordinary "
        "events, edited one by one.",
    )
    def patch(self, request: Request, series_id: int) -> Response:
        data = SeriesPatch(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        changes = dict(data.validated_data)
        active = changes.pop("active", None)
        me = request_player(request)
        recurring.series_update(series_id=series_id, by=me, **changes)
        if active is not None:
            (recurring.series_resume if active else recurring.series_pause)(series_id=series_id, by=me)
        return Response(_out(series_id))

    @extend_schema(
        request=None,
        responses={200: SeriesDeletedOut, **errors(401, 403, 404)},
        operation_id="series_destroy",
        description="No more occurrences are created; the created ones stay as ordinary events.",
    )
    def delete(self, request: Request, series_id: int) -> Response:
        recurring.series_delete(series_id=series_id, by=request_player(request))
        return Response({"id": series_id, "deleted": True})


class SeriesSkipApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=SkipIn,
        responses={200: SeriesOut, **errors(400, 401, 403, 404, 409)},
        operation_id="series_skip",
        description="The occurrence on that local date is not created; if it was and has not "
        "started, it is called off and its players are told.",
    )
    def post(self, request: Request, series_id: int) -> Response:
        data = SkipIn(data=request.data)
        data.is_valid(raise_exception=True)
        recurring.series_skip(
            series_id=series_id, date=data.validated_data["date"], by=request_player(request)
        )
        return Response(_out(series_id))
