"""Redoc's script, without its one third-party request.

The sidecar's Redoc bundle (``drf_spectacular_sidecar``) draws a "API docs by Redocly" footer
whose logo it loads from ``https://cdn.redoc.ly`` (no Redoc option turns it off): the page's
Content-Security-Policy blocks it, with an error in the browser's console, and a page of this
project must load nothing from elsewhere anyway. This view serves the same bundle with that one
URL pointed at the project's own icon (``static/favicon.svg``); drf-spectacular's
``REDOC_DIST`` (config.settings) makes the Redoc page load it from here. The bundle is read and
rewritten once per process, and sent with an ETag and a day's caching.
"""

from __future__ import annotations

import hashlib
from functools import cache

from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.templatetags.static import static
from django.views.decorators.http import require_GET

#: Where the sidecar's bundle is among the static files, and the URL in it that leaves the site.
BUNDLE = "drf_spectacular_sidecar/redoc/bundles/redoc.standalone.js"
CDN_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg"


@cache
def bundle() -> tuple[bytes, str]:
    """The rewritten bundle and its ETag."""
    path = finders.find(BUNDLE)
    if not path:
        raise LookupError(f"the static file {BUNDLE} is missing (is drf-spectacular-sidecar installed?)")
    with open(path, "rb") as f:
        body = f.read().replace(CDN_LOGO.encode(), static("favicon.svg").encode())
    return body, '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


@require_GET
def redoc_bundle(request: HttpRequest) -> HttpResponse:
    body, etag = bundle()
    if request.headers.get("If-None-Match") == etag:
        return HttpResponseNotModified(headers={"ETag": etag})
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["ETag"] = etag
    response["Cache-Control"] = "public, max-age=86400"
    return response
