"""Shapes shared by every API's OpenAPI description."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers


class ErrorOut(serializers.Serializer):
    """The one error shape of the API."""

    detail = serializers.CharField(help_text="what was wrong and why")
    code = serializers.CharField(help_text="a stable machine code, e.g. invalid, not_found, stale_ply")


ERROR = OpenApiResponse(response=ErrorOut, description='{"detail": "...", "code": "..."}')
