"""Request guards that run before any view."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable

from django.conf import settings
from django.contrib.auth.middleware import AuthenticationMiddleware as DjangoAuthenticationMiddleware
from django.contrib.auth.models import AnonymousUser
from django.contrib.messages.middleware import MessageMiddleware as DjangoMessageMiddleware
from django.contrib.sessions.middleware import SessionMiddleware as DjangoSessionMiddleware
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.middleware.common import CommonMiddleware as DjangoCommonMiddleware
from django.urls import get_resolver
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from common.logging import bind as log_context_bind
from common.logging import unbind as log_context_unbind
from common.throttles import client_address

#: An ``X-Request-ID`` kept as given (anything else is replaced: it ends up in every log line).
SANE_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")


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
            # This runs before LocaleMiddleware: say it in the language the request asks for.
            with translation.override(translation.get_language_from_request(request)):
                detail = _("request body of %(length)s is larger than the limit of %(limit)s") % {
                    "length": _bytes(length),
                    "limit": _bytes(settings.MAX_REQUEST_BODY),
                }
            return JsonResponse({"detail": detail, "code": "body_too_large"}, status=413)
        return self.get_response(request)


def _bytes(n: int) -> str:
    return ngettext("%(n)d byte", "%(n)d bytes", n) % {"n": n}


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


class RequestIdMiddleware:
    """Give every request an id: the client's ``X-Request-ID`` when it is a sane token (at most 64
    of ``A-Z a-z 0-9 . _ -``; a proxy in front may set it), else a new one. Every line logged while
    the request runs carries it (common.logging), and the response echoes it in ``X-Request-ID``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        given = request.META.get("HTTP_X_REQUEST_ID", "")
        request_id = given if SANE_REQUEST_ID.fullmatch(given) else uuid.uuid4().hex
        request.request_id = request_id  # type: ignore[attr-defined]
        tokens = log_context_bind(request_id=request_id)
        try:
            response = self.get_response(request)
        finally:
            log_context_unbind(tokens)
        response["X-Request-ID"] = request_id
        return response


class CommonMiddleware(DjangoCommonMiddleware):
    """Django's ``CommonMiddleware``, with ``APPEND_SLASH`` for reading requests only.

    A ``POST`` (or ``PUT``, ``PATCH``, ``DELETE``) to a path that needs a trailing slash cannot be
    redirected: the client would repeat it as a ``GET`` and lose its body. Django answers it with
    a ``RuntimeError`` (500) when ``DEBUG`` is on and a 301 otherwise; here it is a plain 404 in
    every profile (in the API's error shape under ``/api/``, see ``common.validation``): the path
    is not a route.
    """

    def should_redirect_with_slash(self, request: HttpRequest) -> bool:
        if request.method not in ("GET", "HEAD"):
            return False
        return super().should_redirect_with_slash(request)


# ----------------------------------------------------------------------------- the token lane
# A program that signs its API requests with a token (``Authorization: Token …``) has no use for
# what the browser's middleware does: no session to load or save, no messages, no session user
# (DRF's token authentication sets ``request.user`` in the view, or refuses the request). Those
# middleware are skipped for such a request; it costs one check at the door, kept on the request.
# Everything else (the request id, security headers, the body limit, the API's query guard, the
# language, the common middleware's Content-Length, CSRF, presence) runs for every request:
# Django's CSRF middleware stays, since the API's views are exempt from it and DRF checks CSRF
# itself for a request signed in by session.


def token_api_request(request: HttpRequest) -> bool:
    """An ``/api/`` request that carries a token (whether the token is good is the view's
    question: a bad one is refused there, with no session fallback)."""
    lane = request.__dict__.get("token_lane")
    if lane is None:
        auth = request.META.get("HTTP_AUTHORIZATION", "")
        lane = request.path_info.startswith("/api/") and auth[:6].lower() == "token "
        request.token_lane = lane  # type: ignore[attr-defined]
    return lane


class BrowserOnly:
    """Mixed into a middleware class: skipped for a token API request (see above)."""

    get_response: Callable[[HttpRequest], HttpResponse]

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if token_api_request(request):
            return self.get_response(request)
        return super().__call__(request)  # type: ignore[misc]


class SessionMiddleware(BrowserOnly, DjangoSessionMiddleware):
    pass


class AuthenticationMiddleware(BrowserOnly, DjangoAuthenticationMiddleware):
    def __call__(self, request: HttpRequest) -> HttpResponse:
        if token_api_request(request):
            # Until DRF's token authentication names the user (in the view), nobody is signed in.
            request.user = AnonymousUser()
            return self.get_response(request)
        return DjangoAuthenticationMiddleware.__call__(self, request)


class MessageMiddleware(BrowserOnly, DjangoMessageMiddleware):
    pass
