"""Keyset paging for pages: "Older …" links that carry the last id shown (``?before=``), so the
hundredth page costs what the first does."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from common.validation import ascii_int_or_none

Row = TypeVar("Row")


def before_id(value: str | None) -> int | None:
    """The ``?before=`` id of a page, or ``None`` (the first page) for anything but a 64-bit id."""
    return ascii_int_or_none(value)


def keyset_page(fetch: Callable[[int], Sequence[Row]], per_page: int) -> tuple[list[Row], Any]:
    """One page of rows from ``fetch(n)`` (the first ``n`` rows, newest first) and the id to continue
    from ("Older …"), or ``None`` on the last page. One row more than a page is read to know."""
    rows = list(fetch(per_page + 1))
    older = rows[per_page - 1].pk if len(rows) > per_page else None  # type: ignore[attr-defined]
    return rows[:per_page], older
