"""The Bots page (``/bots/``): every bot level, what it is, and its strength measured by the ladder.

One game at a time (``?game=``, Pacru by default): a table of the levels at 2 seats with a button
to play each, then the same levels' ratings at 3 and 4 seats. Ratings are on the players' display
scale (:mod:`ratings.display`), measured only among the bots (:mod:`analysis.ladder`).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.models import GameKind

from . import ladder


def _line(text: ladder.LevelText, row: ladder.Row) -> dict[str, Any]:
    return {
        "level": text,
        "row": row,
        "score_pct": None if row.score_below is None else round(100 * row.score_below),
    }


def bots_page(request: HttpRequest) -> HttpResponse:
    game = request.GET.get("game", "pacru")
    if game not in GameKind.values:
        game = "pacru"
    texts = ladder.level_texts()
    stored = ladder.all_stored_rows()
    sections = []
    for players in ladder.SEATS:
        rows = {r.level: r for r in stored[(game, players)]}
        lines = [_line(t, rows[t.number]) for t in texts]
        if players > 2:  # only the levels measured there (the 2-player table lists every level)
            lines = [line for line in lines if line["row"].measured]
        sections.append(
            {"players": players, "lines": lines, "measured": any(line["row"].measured for line in lines)}
        )
    context = {
        "game": game,
        "game_label": GameKind(game).label,
        "games": [(value, GameKind(value).label) for value in ladder.GAMES],
        "sections": sections,
        "measured": any(s["measured"] for s in sections),
    }
    return render(request, "analysis/bots.html", context)
