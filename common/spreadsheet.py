"""CSV that is safe to open in a spreadsheet: every export writes its rows through :func:`csv_text`.

A spreadsheet (Excel, LibreOffice, Google Sheets) runs a cell that starts with ``=``, ``+``,
``-`` or ``@`` as a formula, and tab and carriage return let a cell start over as one; a display
name like ``=HYPERLINK("http://x", "y")`` would then act in the organiser's spreadsheet (CSV
injection). As OWASP advises, such a *text* cell is written with a single quote in front, which a
spreadsheet shows as text and does not compute. Numbers the service itself writes (``int``,
``float``) stay numbers, so a negative score is still ``-1``; the ``csv`` module keeps the file
otherwise valid (quotes, commas and line breaks inside a cell).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable

#: First characters that make a spreadsheet read a cell as a formula (OWASP "CSV Injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

Cell = str | int | float | None


def safe_cell(value: Cell) -> str:
    """One cell as written: a number as a number (``2``, ``1.5``, ``-1``), ``None`` empty, text
    with a ``'`` in front when it would start a formula."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return f"{value:g}"
    text = str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def csv_text(rows: Iterable[Iterable[Cell]]) -> str:
    """``rows`` as CSV text, every cell through :func:`safe_cell`."""
    out = io.StringIO()
    writer = csv.writer(out)
    for row in rows:
        writer.writerow([safe_cell(cell) for cell in row])
    return out.getvalue()
