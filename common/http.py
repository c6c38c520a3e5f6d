"""Conditional responses: pages and APIs that are polled answer ``304`` while nothing changed."""

from __future__ import annotations

import hashlib
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


def fragment_response(request: HttpRequest, template: str, context: dict[str, Any]) -> HttpResponse:
    """A page fragment for live polling, tagged by its content: ``304`` when unchanged."""
    html = render_to_string(template, context, request=request)
    tag = hashlib.blake2b(html.encode(), digest_size=12).hexdigest()
    return conditional(request, tag, lambda: HttpResponse(html))
