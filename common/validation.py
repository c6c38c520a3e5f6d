"""Guards at the API's edge: what a database column can hold, checked before any query runs.

Every id and count in the service is a 64-bit signed integer in the database; a larger number in a
path, a query parameter or a body would overflow the driver (SQLite) or the column (PostgreSQL)
and answer 500. PostgreSQL also refuses a NUL character in text. These checks turn both into a
clear ``400`` (parameters, bodies) or ``404`` (path ids) in the API's error shape.
"""

from __future__ import annotations

import re
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls.converters import get_converters, register_converter
from django.utils import translation
from django.utils.translation import gettext as _

from common.errors import page_not_found

#: The largest value of a 64-bit signed integer column (ids are BigAutoField).
DB_INT_MAX = 2**63 - 1
DB_INT_MIN = -(2**63)

_INTEGER = re.compile(r"^\s*[+-]?\d+\s*$")


def db_int(value: Any, *, name: str = "value") -> int:
    """``value`` as an int that fits a 64-bit column; ``ValueError`` (with a message) otherwise."""
    try:
        number = int(str(value).strip())
    except ValueError:
        raise ValueError(_("%(name)s must be a whole number") % {"name": name}) from None
    if not DB_INT_MIN <= number <= DB_INT_MAX:
        raise ValueError(_("%(name)s is out of range (at most %(max)d)") % {"name": name, "max": DB_INT_MAX})
    return number


class IdConverter:
    """``<id:...>`` in a URL: a non-negative integer that fits a 64-bit id column.

    A larger number does not match the pattern, so it answers 404 like any unknown id (a plain
    ``<int:...>`` would hand it on to the database and fail with an overflow).
    """

    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > DB_INT_MAX:
            raise ValueError("beyond the 64-bit id range")  # Django: no match, so 404
        return number

    def to_url(self, value: int | str) -> str:
        return str(value)


def query_problem(request: HttpRequest) -> str | None:
    """What makes the query string unusable, or ``None``: a NUL character (PostgreSQL refuses it
    in text) or a whole number beyond the 64-bit range (in any comma-separated item)."""
    for key, values in request.GET.lists():
        if "\x00" in key:
            return _("query parameter names must not contain NUL characters")
        for value in values:
            if "\x00" in value:
                return _("query parameter %(name)s must not contain NUL characters") % {"name": repr(key)}
            if key == "search":
                continue  # free text: digits are just characters there
            for item in value.split(","):
                if _INTEGER.match(item):
                    try:
                        db_int(item)
                    except ValueError:
                        return _("query parameter %(name)s is out of range (at most %(max)d)") % {
                            "name": repr(key),
                            "max": DB_INT_MAX,
                        }
    return None


class ApiQueryGuardMiddleware:
    """Answer ``400`` before any view for an ``/api/`` query string that :func:`query_problem`
    refuses, in the API's error shape; and answer a page-style 404 under ``/api/`` (a path that
    matches no route, e.g. ``/api/v1/tables/abc/``) in that shape too, also with ``DEBUG`` on, where
    Django shows its debug page instead of calling ``handler404``."""

    def __init__(self, get_response: Any):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path.startswith("/api/") and query_problem(request) is not None:
            # This runs before LocaleMiddleware: say it in the language the request asks for.
            with translation.override(translation.get_language_from_request(request)):
                problem = query_problem(request)
            return JsonResponse({"detail": problem, "code": "invalid"}, status=400)
        response: HttpResponse = self.get_response(request)
        if (
            response.status_code == 404
            and request.path.startswith("/api/")
            and not response.get("Content-Type", "").startswith("application/json")
        ):
            return page_not_found(request)
        return response


def register_id_converter() -> None:
    """Register ``<id:...>`` (:class:`IdConverter`) once; every URL module that uses it calls this."""
    if "id" not in get_converters():
        register_converter(IdConverter, "id")
