"""Errors a user can cause, and the API's single error shape.

Every error body is ``{"detail": "<what was wrong and why>", "code": "<machine code>"}``,
sometimes with more keys (``ply`` on a stale ply, ``fields`` on invalid input). Services
raise a :class:`ServiceError` subclass and change nothing; the API turns it into that body
(:func:`api_exception_handler`), the pages into a message.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views import defaults
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


def unreadable_body(exc: Exception) -> str | None:
    """What is wrong with a request body Django refuses to read (too many fields or files, too
    large), in words; None for any other error."""
    if isinstance(exc, TooManyFieldsSent | TooManyFilesSent):
        return _("the request has too many fields or files: send the fields this operation takes")
    if isinstance(exc, RequestDataTooBig):
        return _("the request body is too large")
    return None


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ServiceError):
        return Response({"detail": exc.detail, "code": exc.code, **exc.extra}, status=exc.status_code)
    if (unreadable := unreadable_body(exc)) is not None:  # else Django's HTML 400 page
        return Response({"detail": unreadable, "code": "invalid"}, status=status.HTTP_400_BAD_REQUEST)
    response = exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        response.data = {
            "detail": "; ".join(_flatten(exc.detail)) or _("invalid input"),
            "code": "invalid",
            "fields": exc.detail,
        }
    elif isinstance(exc, exceptions.APIException):
        codes = exc.get_codes()
        response.data = {"detail": str(exc.detail), "code": codes if isinstance(codes, str) else "error"}
    return response


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """``handler400``: the API's error shape under ``/api/`` (a body Django refused to read outside
    a DRF view, say), the site's page elsewhere."""
    if _is_api(request):
        detail = (unreadable_body(exception) if exception else None) or _("the request could not be read")
        return JsonResponse({"detail": detail, "code": "invalid"}, status=400)
    return defaults.bad_request(request, exception)  # type: ignore[arg-type]


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """``handler404``: the API's error shape under ``/api/`` (e.g. ``/api/v1/tables/abc/``), the
    site's page elsewhere."""
    if _is_api(request):
        body = {"detail": _("there is nothing at %(path)s") % {"path": request.path}, "code": "not_found"}
        return JsonResponse(body, status=404)
    return defaults.page_not_found(request, exception)  # type: ignore[arg-type]


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: the API's error shape under ``/api/``, a plain short page elsewhere (never a
    debug page: Django shows that only with ``DEBUG`` on, before this handler)."""
    if _is_api(request):
        return JsonResponse(
            {"detail": _("the server failed to answer this request"), "code": "server_error"}, status=500
        )
    return defaults.server_error(request)
