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

#: A whole number as a client may write it: ASCII digits only. ``\\d`` and ``int()`` also take
#: other scripts' digits (``٣`` is 3 to them), and ``str.isdigit()`` passes ``²``, which ``int()``
#: then refuses: a 500 wherever the two were paired. At most 19 digits fit 64 bits.
_ASCII_INTEGER = re.compile(r"[+-]?[0-9]{1,19}")
#: ASCII digits, however many (beyond 19: out of range, not "not a number").
_ASCII_DIGITS = re.compile(r"[+-]?[0-9]+")
#: What :func:`query_problem` takes for a whole number: digits of any script (``\d``), any length.
#: It must be written in ASCII digits and fit 64 bits, or the request answers 400 before any view
#: (a filter would otherwise read ``٣`` as 3, or compare a column with a number it cannot hold).
_INTEGER = re.compile(r"\s*[+-]?\d+\s*")
#: The whitespace a client may leave around a number (ASCII only, like the digits).
_ASCII_SPACE = " \t\r\n"


def ascii_int(value: Any, *, name: str = "value", lo: int = 0, hi: int = DB_INT_MAX) -> int:
    """``value`` (request input: text, or an int from a JSON body) as an int in ``lo..hi``.

    The one place the service turns a client's number into an int: ASCII digits with an optional
    sign, bounded so that it fits a 64-bit column (``hi`` defaults to :data:`DB_INT_MAX`; ``lo`` to
    0, since ids, rounds and counts are never negative). Anything else raises ``ValueError`` whose
    message (translated, naming ``name``) can go to the client as it is.
    """
    if isinstance(value, bool):  # True is an int to Python, not a number to a client
        raise ValueError(_("%(name)s must be a whole number") % {"name": name})
    if isinstance(value, int):
        number = value
    else:
        text = value.strip(_ASCII_SPACE) if isinstance(value, str) else ""
        if not _ASCII_INTEGER.fullmatch(text):
            if _ASCII_DIGITS.fullmatch(text):  # ASCII digits, only too many of them
                raise ValueError(_range_message(name, lo, hi))
            raise ValueError(_("%(name)s must be a whole number") % {"name": name})
        number = int(text)
    if not lo <= number <= hi:
        raise ValueError(_range_message(name, lo, hi))
    return number


def _range_message(name: str, lo: int, hi: int) -> str:
    return _("%(name)s must be between %(lo)d and %(hi)d") % {"name": name, "lo": lo, "hi": hi}


def ascii_int_or_none(value: Any, *, lo: int = 0, hi: int = DB_INT_MAX) -> int | None:
    """:func:`ascii_int`, or ``None`` for anything it refuses (and for ``None`` or ``""``): for
    pages, which ignore a junk filter or page number rather than answer an error."""
    if value is None or value == "":
        return None
    try:
        return ascii_int(value, lo=lo, hi=hi)
    except ValueError:
        return None


def db_int(value: Any, *, name: str = "value") -> int:
    """``value`` as an int that fits a 64-bit column (negative too); ``ValueError`` otherwise."""
    return ascii_int(value, name=name, lo=DB_INT_MIN, hi=DB_INT_MAX)


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
    in text), or a whole number (in any comma-separated item) beyond the 64-bit range or written
    with other digits than ASCII's."""
    for key, values in request.GET.lists():
        if "\x00" in key:
            return _("query parameter names must not contain NUL characters")
        for value in values:
            if "\x00" in value:
                return _("query parameter %(name)s must not contain NUL characters") % {"name": repr(key)}
            if key == "search":
                continue  # free text: digits are just characters there
            for item in value.split(","):
                if _INTEGER.fullmatch(item):
                    try:
                        db_int(item)
                    except ValueError:
                        if not _ASCII_DIGITS.fullmatch(item.strip(_ASCII_SPACE)):
                            return _("query parameter %(name)s must be written with the digits 0 to 9") % {
                                "name": repr(key)
                            }
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
