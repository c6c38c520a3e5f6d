"""Request guards that run before any view."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse


class BodySizeLimitMiddleware:
    """Refuse a request whose declared body is larger than ``MAX_REQUEST_BODY`` with 413.

    The answer has the API's error shape, and nothing is read or written.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length > settings.MAX_REQUEST_BODY:
            return JsonResponse(
                {
                    "detail": f"request body of {length} bytes is larger than the limit of "
                    f"{settings.MAX_REQUEST_BODY} bytes",
                    "code": "body_too_large",
                },
                status=413,
            )
        return self.get_response(request)
