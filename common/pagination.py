"""The API's pagination.

Lists that grow with the history (tables, players, tournaments, a player's rating history) are
paged by keyset: :class:`CursorPage`, DRF's ``CursorPagination``. A page is read off an index
from the last row of the page before (``WHERE id < …  ORDER BY id DESC LIMIT n+1``), so page 1
and page 10,000 cost the same, and nothing counts the whole history: the body is
``{"next", "previous", "results"}``, with opaque ``?cursor=`` links to follow. :class:`Pagination`
(limit/offset with a ``count``) stays the default for short lists.

A list restricted through a join (the tables where a player sits) can be paged off the index of
the join instead, with :func:`paged_off`: the same pages, links and order, read in one statement
whose subquery takes the page's ids from that index.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, TypeVar

from django.core.exceptions import FieldDoesNotExist
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import models
from django.db.models import QuerySet, Subquery
from rest_framework.exceptions import NotFound
from rest_framework.pagination import Cursor, CursorPagination, LimitOffsetPagination
from rest_framework.request import Request
from rest_framework.views import APIView

from common.validation import db_int

M = TypeVar("M", bound=models.Model)

#: Where :func:`paged_off` leaves its :class:`_Keys` on a queryset (``_clone`` does not copy it).
_KEYS = "_cursor_page_keys"


@dataclass(frozen=True)
class _Keys:
    rows: QuerySet[Any]
    keys: QuerySet[Any]
    key: str


def paged_off(queryset: QuerySet[M], *, rows: QuerySet[M], keys: QuerySet[Any], key: str) -> QuerySet[M]:
    """``queryset``, which :class:`CursorPage` pages off another index: a page's values of the
    ordering column (``id``) are read first from ``keys``, whose column ``key`` holds exactly those
    of ``queryset``'s rows (e.g. the player's seats' ``table_id`` for the tables where they sit),
    with the cursor's bound, the order and the ``LIMIT``/``OFFSET`` inside that subquery; then the
    rows of ``rows`` with those values: ``rows.filter(id__in=Subquery(keys…[o:o+n+1]))``.

    The page, its order and its links are those of ``queryset`` paged directly; only the plan
    differs. ``ORDER BY id LIMIT n`` over a join lets PostgreSQL walk the ordering column's index
    (every newer row of everyone) hoping to meet the join's rows soon; off ``keys``' own index a
    page costs what it shows. ``queryset`` reads as itself anywhere else, and any clone of it (a
    further ``filter``, ``order_by`` …) forgets this and is paged as it is."""
    setattr(queryset, _KEYS, _Keys(rows=rows, keys=keys, key=key))
    return queryset


@dataclass(frozen=True)
class _KeyedPage:
    """What DRF's ``CursorPagination`` orders, bounds by the cursor and slices when a list is
    :func:`paged_off` another index: the order and the bound go to ``keys`` (``column`` → ``key``),
    the slice becomes the subquery's ``LIMIT``/``OFFSET``, and the slice's answer is the rows
    whose ``column`` is in it, in the same order (the subquery gives at most a page and one)."""

    rows: QuerySet[Any]
    keys: QuerySet[Any]
    key: str
    column: str

    def _key(self, name: str) -> str:
        field = name.lstrip("-")
        if field != self.column:
            raise ValueError(f"{name!r}: a keyed page is ordered and bounded by {self.column!r} only")
        return name[: len(name) - len(field)] + self.key

    def order_by(self, *ordering: str) -> _KeyedPage:
        keys = self.keys.order_by(*(self._key(name) for name in ordering))
        return replace(self, rows=self.rows.order_by(*ordering), keys=keys)

    def filter(self, **bound: Any) -> _KeyedPage:
        keys = self.keys
        for lookup, value in bound.items():
            name, _, op = lookup.partition("__")
            keys = keys.filter(**{f"{self._key(name)}__{op or 'exact'}": value})
        return replace(self, keys=keys)

    def __getitem__(self, window: slice) -> QuerySet[Any]:
        page = self.keys.values(self.key)[window]
        return self.rows.filter(**{f"{self.column}__in": Subquery(page)})


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
        keyed: _Keys | None = getattr(queryset, _KEYS, None)
        ordering = self.get_ordering(request, queryset, view)
        if keyed is not None and len(ordering) == 1:
            page = _KeyedPage(keyed.rows, keyed.keys, keyed.key, column=ordering[0].lstrip("-"))
            return super().paginate_queryset(page, request, view)  # type: ignore[arg-type,no-any-return]
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
