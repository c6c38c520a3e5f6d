"""The ladder page: positions, challenges and the matchmaking queue (same services as the API)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from common.errors import NotFound
from common.http import fragment_response

from . import selectors


def ladder_page(request: HttpRequest, ladder_id: int) -> HttpResponse:
    try:
        ladder = selectors.ladder_detail(ladder_id)
    except NotFound:
        raise Http404("no such ladder") from None
    context = {"ladder": ladder}
    if request.GET.get("fragment"):
        return fragment_response(request, "tournaments/_ladder_body.html", context)
    return render(request, "tournaments/ladder.html", context)


