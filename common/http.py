"""Conditional responses: pages and APIs that are polled answer ``304`` while nothing changed."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string


def conditional(request: HttpRequest, etag: str, build: Callable[[], HttpResponse]) -> HttpResponse:
    """Answer ``304`` when the client already has ``etag``; otherwise ``build()`` the response."""
    etag = f'"{etag}"'
    response = HttpResponse(status=304) if etag in request.headers.get("If-None-Match", "") else build()
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response


#: The CSRF token is masked afresh on every render: it is left out of a fragment's ETag, so a
#: polled fragment with forms in it answers 304 while nothing else changed.
_CSRF = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"')


def fragment_response(request: HttpRequest, template: str, context: dict[str, Any]) -> HttpResponse:
    """A page fragment for live polling, tagged by its content (less the CSRF token's mask):
    ``304`` when unchanged."""
    html = render_to_string(template, context, request=request)
    tag = hashlib.blake2b(_CSRF.sub("", html).encode(), digest_size=12).hexdigest()
    return conditional(request, tag, lambda: HttpResponse(html))
