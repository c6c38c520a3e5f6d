"""The API's pagination: DRF's limit/offset, with the page size bounded."""

from __future__ import annotations

from rest_framework.pagination import LimitOffsetPagination


class Pagination(LimitOffsetPagination):
    """``?limit=`` above :attr:`max_limit` gives :attr:`max_limit` rows (an unbounded limit would
    overflow the database's 64-bit ``LIMIT``); an ``?offset=`` past the end gives no rows."""

    max_limit = 500
