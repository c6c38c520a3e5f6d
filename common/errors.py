"""Errors a user can cause, and the API's single error shape.

Every error body is ``{"detail": "<what was wrong and why>", "code": "<machine code>"}``,
sometimes with more keys (``ply`` on a stale ply, ``fields`` on invalid input). Services
raise a :class:`ServiceError` subclass and change nothing; the API turns it into that body
(:func:`api_exception_handler`), the pages into a message.
"""

from __future__ import annotations

from typing import Any

from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler


class ServiceError(Exception):
    """An action the service refuses; nothing was changed."""

    status_code = status.HTTP_400_BAD_REQUEST
    code = "invalid"

    def __init__(self, detail: str, **extra: Any):
        super().__init__(detail)
        self.detail = detail
        self.extra = extra


class InvalidInput(ServiceError):
    code = "invalid"


class Forbidden(ServiceError):
    status_code = status.HTTP_403_FORBIDDEN
    code = "forbidden"


class NotFound(ServiceError):
    status_code = status.HTTP_404_NOT_FOUND
    code = "not_found"


class Conflict(ServiceError):
    status_code = status.HTTP_409_CONFLICT
    code = "conflict"


def _flatten(detail: Any, prefix: str = "") -> list[str]:
    if isinstance(detail, dict):
        out: list[str] = []
        for key, value in detail.items():
            name = key if key != "non_field_errors" else ""
            out.extend(_flatten(value, f"{prefix}{name}: " if name else prefix))
        return out
    if isinstance(detail, list):
        return [m for item in detail for m in _flatten(item, prefix)]
    return [f"{prefix}{detail}"]


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ServiceError):
        return Response({"detail": exc.detail, "code": exc.code, **exc.extra}, status=exc.status_code)
    response = exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        response.data = {
            "detail": "; ".join(_flatten(exc.detail)) or "invalid input",
            "code": "invalid",
            "fields": exc.detail,
        }
    elif isinstance(exc, exceptions.APIException):
        codes = exc.get_codes()
        response.data = {"detail": str(exc.detail), "code": codes if isinstance(codes, str) else "error"}
    return response
