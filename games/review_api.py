"""``GET /api/v1/tables/<id>/review/``: every action of a table with its effects in words."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.errors import NotFound
from common.schema import ERROR
from common.throttles import ScopedThrottle

from .models import Table
from .review import table_review


class ReviewedMoveOut(serializers.Serializer):
    seq = serializers.IntegerField(help_text="the action's number at the table, from 0")
    ply = serializers.IntegerField(allow_null=True, help_text="the ply a move made; null for an event")
    seat = serializers.IntegerField()
    kind = serializers.CharField(help_text="move, resign or timeout")
    notation = serializers.CharField(help_text="canonical notation; empty for a resignation or timeout")
    effects = serializers.ListField(
        child=serializers.CharField(),
        help_text="what the action did, in words (in the language asked for: Accept-Language), in order",
    )


class ReviewOut(serializers.Serializer):
    moves = ReviewedMoveOut(many=True)


class TableReviewApi(APIView):
    """The table's actions in order, each with its effects in words, for reviewing a game (the
    same readers as the table itself)."""

    throttle_classes = [ScopedThrottle]
    throttle_scope = "watch"

    @extend_schema(
        responses={200: ReviewOut, 404: ERROR},
        description="Every recorded action (move, resignation, timeout) with a list of its effects "
        "in words (in the language asked for: Accept-Language), replayed by the engine from the move log.",
    )
    def get(self, request: Request, table_id: int) -> Response:
        table = Table.objects.filter(pk=table_id).first()
        if table is None:
            raise NotFound(_("there is no table %(table)s") % {"table": table_id})
        return Response({"moves": table_review(table)})
