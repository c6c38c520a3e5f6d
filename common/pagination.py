"""The API's pagination.

Lists that grow with the history (tables, players, tournaments, a player's rating history) are
paged by keyset: :class:`CursorPage`, DRF's ``CursorPagination``. A page is read off an index
from the last row of the page before (``WHERE id < …  ORDER BY id DESC LIMIT n+1``), so page 1
and page 10,000 cost the same, and nothing counts the whole history: the body is
``{"next", "previous", "results"}``, with opaque ``?cursor=`` links to follow. :class:`Pagination`
(limit/offset with a ``count``) stays the default for short lists.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import FieldDoesNotExist
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import models
from django.db.models import QuerySet
from rest_framework.exceptions import NotFound
from rest_framework.pagination import Cursor, CursorPagination, LimitOffsetPagination
from rest_framework.request import Request
from rest_framework.views import APIView

from common.validation import db_int


class Pagination(LimitOffsetPagination):
    """``?limit=`` above :attr:`max_limit` gives :attr:`max_limit` rows (an unbounded limit would
    overflow the database's 64-bit ``LIMIT``); an ``?offset=`` past the end gives no rows."""

    max_limit = 500


class CursorPage(CursorPagination):
    """Keyset pages, newest first (ids grow with creation time): ``?limit=`` rows (default 50, at
    most 500), ``next``/``previous`` links carrying an opaque ``?cursor=``; no ``count``.

    The ordering must be unique and unchanging (``-id`` by default; a subclass or a view's
    ``cursor_ordering`` may name another). A cursor that cannot be decoded, or whose position
    does not fit the ordering column, answers 404 ``{"detail": "Invalid cursor", "code":
    "not_found"}`` like DRF's own, never a 500."""

    ordering: Any = "-id"
    page_size = 50
    page_size_query_param = "limit"
    max_page_size = 500

    def paginate_queryset(
        self, queryset: QuerySet[Any], request: Request, view: APIView | None = None
    ) -> list[Any] | None:
        self._model = queryset.model
        self.ordering = getattr(view, "cursor_ordering", None) or self.ordering
        return super().paginate_queryset(queryset, request, view)  # type: ignore[no-any-return]

    def get_ordering(
        self, request: Request, queryset: QuerySet[Any], view: APIView | None
    ) -> tuple[str, ...]:
        ordering = self.ordering
        return (ordering,) if isinstance(ordering, str) else tuple(ordering)

    def decode_cursor(self, request: Request) -> Cursor | None:
        cursor = super().decode_cursor(request)
        if cursor is None or cursor.position is None:
            return cursor
        name = self.get_ordering(request, None, None)[0].lstrip("-")  # type: ignore[arg-type]
        try:
            field = self._model._meta.get_field(name)
        except (AttributeError, FieldDoesNotExist):
            return cursor
        try:
            if isinstance(field, models.IntegerField):
                db_int(cursor.position)
            else:
                field.to_python(cursor.position)
            if "\x00" in cursor.position:
                raise ValueError("NUL")
        except (DjangoValidationError, ValueError, TypeError):
            raise NotFound(self.invalid_cursor_message) from None
        return cursor
