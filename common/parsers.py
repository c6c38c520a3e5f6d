"""The API's JSON parser: DRF's, with a limit on nesting.

A deeply nested body (``[[[[…]]]]``) would exhaust Python's recursion while parsing or while
validating and answer 500; it is refused with ``400`` "JSON nested too deeply" instead.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from rest_framework import parsers
from rest_framework.exceptions import ParseError

#: Deepest nesting of arrays and objects accepted in a request body (no input needs more than a few).
MAX_JSON_DEPTH = 32


def json_depth(value: Any) -> int:
    """How deeply arrays and objects nest in ``value`` (a scalar: 0), without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, depth)
        if deepest > MAX_JSON_DEPTH:
            return deepest
        stack.extend((child, depth + 1) for child in children)
    return deepest


class JSONParser(parsers.JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(_("JSON nested too deeply")) from None
        if json_depth(data) > MAX_JSON_DEPTH:
            raise ParseError(
                ngettext(
                    "JSON nested too deeply (at most %(n)d level)",
                    "JSON nested too deeply (at most %(n)d levels)",
                    MAX_JSON_DEPTH,
                )
                % {"n": MAX_JSON_DEPTH}
            )
        return data
