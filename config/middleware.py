"""Request guards that run before any view."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.urls import get_resolver

from common.throttles import client_address


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


class ContentSecurityPolicyMiddleware:
    """Send ``CONTENT_SECURITY_POLICY`` with every response that has none: the pages load scripts,
    styles and images from the service itself only, and run no inline script or style. The API
    documentation pages (Swagger UI and Redoc, paths in ``CONTENT_SECURITY_POLICY_DOCS_PATHS``)
    inject styles and start workers at run time, and get ``CONTENT_SECURITY_POLICY_DOCS``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if "Content-Security-Policy" not in response:
            docs = request.path.startswith(tuple(settings.CONTENT_SECURITY_POLICY_DOCS_PATHS))
            policy = settings.CONTENT_SECURITY_POLICY_DOCS if docs else settings.CONTENT_SECURITY_POLICY
            response["Content-Security-Policy"] = policy
        return response


class LocalDebugPagesMiddleware:
    """With ``DEBUG`` on (the local profile), Django's debug pages for a 404 or a 500 show settings,
    code and URL patterns; only clients on ``INTERNAL_IPS`` see them. Anyone else gets the
    service's ordinary 404 or 500 page, as with ``DEBUG`` off. (Answers in JSON are left alone.)"""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            settings.DEBUG
            and response.status_code in (404, 500)
            and response.get("Content-Type", "").startswith("text/html")
            and client_address(request) not in settings.INTERNAL_IPS
        ):
            handler = get_resolver().resolve_error_handler(response.status_code)
            if response.status_code == 404:
                return handler(request, Http404("not found"))
            return handler(request)
        return response
