"""Shapes shared by every API's OpenAPI description."""

from __future__ import annotations

from typing import Any

from drf_spectacular import openapi
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers


class RefusalOut(serializers.Serializer):
    """The rules engine's refusal of a move, beside its words (docs/engine-refusals.md)."""

    code = serializers.CharField(help_text="the engine's refusal code, e.g. power_too_low, game_over")
    params = serializers.DictField(
        help_text="its particulars, plain values: the move, the field, the power …"
    )


class ErrorOut(serializers.Serializer):
    """The one error shape of the API."""

    detail = serializers.CharField(help_text="what was wrong and why")
    code = serializers.CharField(help_text="a stable machine code, e.g. invalid, not_found, stale_ply")
    refusal = RefusalOut(
        required=False, help_text="a move (or resignation) the rules refuse: the engine's code and params"
    )


ERROR = OpenApiResponse(response=ErrorOut, description='{"detail": "...", "code": "..."}')


class AutoSchema(openapi.AutoSchema):
    """drf-spectacular's schema, with the error answers every operation can give documented:

    400 where there are query parameters or a body (checked at the edge: numbers beyond the 64-bit
    range, NUL characters, malformed or too deeply nested JSON), 404 where the path names an id or a
    slug (none such), 401 for the writes (anonymous), 413 and 415 where there is a body (too large, or
    of a type the API does not read), 429 where a throttle applies.
    """

    def get_operation(self, *args: Any, **kwargs: Any) -> dict[str, Any] | None:
        operation: dict[str, Any] | None = super().get_operation(*args, **kwargs)
        if operation is None:
            return None
        params = operation.get("parameters", [])
        wanted = []
        if "requestBody" in operation or any(p["in"] == "query" for p in params):
            wanted.append("400")
        if "requestBody" in operation:
            # 413: config.middleware.BodySizeLimitMiddleware; 415: a body of a type no parser reads.
            wanted += ["413", "415"]
        if any(p["in"] == "path" for p in params):
            wanted.append("404")
        if self.method not in ("GET", "HEAD", "OPTIONS"):
            wanted.append("401")
        if self.view.get_throttles():
            wanted.append("429")
        responses = operation["responses"]
        for code in wanted:
            if code not in responses:
                responses[code] = self._get_response_for_code(ERROR, code)
        return operation


def errors(*codes: int) -> dict[int, OpenApiResponse]:
    """The error answers of an operation for ``extend_schema(responses=...)``: each the one error shape."""
    return {code: ERROR for code in codes}
