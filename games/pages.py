"""Server-rendered pages (the same selectors as the API)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

import engine
from engine.render import board_text

from . import selectors
from .models import Table


def home(request: HttpRequest) -> HttpResponse:
    tables = selectors.table_list()
    context = {
        "open_tables": selectors.tables_with_open_seats(tables).order_by("-created_at")[:20],
        "active_tables": tables.filter(status=Table.Status.ACTIVE).order_by("-started_at")[:20],
        "finished_tables": tables.filter(status=Table.Status.FINISHED).order_by("-finished_at")[:20],
    }
    return render(request, "games/home.html", context)


def table_page(request: HttpRequest, table_id: int) -> HttpResponse:
    try:
        table = selectors.table_detail(table_id)
    except Table.DoesNotExist:
        raise Http404(f"there is no table {table_id}") from None
    board = board_text(engine.load(table.position)) if table.position else ""
    context = {"table": table, "board": board, "moves": selectors.move_history(table)}
    return render(request, "games/table.html", context)
