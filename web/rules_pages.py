"""The rules pages (``/rules/<game>/``): each rule in plain words with small boards on which the
reader plays an example move.

Every diagram of ``web/rules_content.py`` is built by the engine here, its example move is played
by the engine, and both positions (before and after) are embedded in the page as JSON;
``static/js/diagram.js`` only draws them. A diagram whose move the engine refused would fail the
page, so ``tests/games/test_rules_pages.py`` keeps every example legal.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

import engine
from engine.board import CELL_NAMES
from engine.notation import parse
from engine.pacru import power
from engine.state import SEAT_COLOURS

from .rules_content import PAGES, Diagram, RulesPage

_CODE = re.compile(r"`([^`]+)`")
_OUT = {"blocked": "cannot move and is out", "captured": "lost its last chevron and is out"}


def words(text: str) -> SafeString:
    """Escape ``text`` and show `backticked` notation as code."""
    return mark_safe(_CODE.sub(r"<code>\1</code>", str(escape(text))))  # the text is escaped first


def _colour(seat: int) -> str:
    return SEAT_COLOURS[seat].capitalize()


def _powers(state: engine.State) -> dict[str, int]:
    """Each chevron's power (1 in a game without long moves), for the diagram's power dots."""
    long_moves = getattr(state, "long_moves", True)
    return {
        CELL_NAMES[cell]: power(state.tiles, cell, seat) if long_moves else 1
        for cell, seat, _ in state.chevrons()
    }


def _changed(before: engine.State, after: engine.State) -> list[str]:
    """Fields whose marker or chevron differs after the move."""
    return [
        CELL_NAMES[c] for c in range(81) if before.tiles[c] != after.tiles[c] or before.occ[c] != after.occ[c]
    ]


def _status(before: engine.State, after: engine.State) -> str:
    """What stands after the move, read from the engine: who is out, the end, who is on turn."""
    parts = [f"{_colour(seat)} {_OUT.get(reason, 'is out')}." for seat, reason in after.last_eliminations]
    if before.end_triggered_by is None and after.end_triggered_by is not None and not after.is_over:
        parts.append(f"The end is triggered: {after.final_turns_left} last turn(s) to play.")
    counts = ", ".join(f"{SEAT_COLOURS[s]} {n}" for s, n in after.scores.items())
    if after.is_over:
        winner = f"{_colour(after.winner)} wins." if after.winner else "Nobody wins outright."
        parts.append(f"Game over: {winner} Markers on the board: {counts}.")
    else:
        parts.append(f"{_colour(after.to_move)} to move. Markers on the board: {counts}.")
    return " ".join(parts)


def diagram_data(game: str, diagram: Diagram) -> dict[str, Any]:
    """The JSON a diagram is drawn from: both positions, computed by the engine."""
    before = diagram.position(game)
    after = before.play(diagram.move)
    parsed = parse(diagram.move)
    return {
        "key": diagram.key,
        "move": after.last_move,
        "from": CELL_NAMES[parsed.frm] if parsed.frm >= 0 else None,
        "to": CELL_NAMES[parsed.to] if parsed.to >= 0 else None,
        "before": before.to_dict(),
        "after": after.to_dict(),
        "powers_before": _powers(before),
        "powers_after": _powers(after),
        "changed": _changed(before, after),
        "status": _status(before, after),
    }


@cache
def _page_context(game: str) -> dict[str, Any]:
    """Everything one rules page shows; the content is fixed, so it is built once per process."""
    page: RulesPage = PAGES[game]
    sections = [
        {
            "key": s.key,
            "title": s.title,
            "text": [words(t) for t in s.text],
            "differs": words(s.differs) if s.differs else "",
            "diagrams": [
                {"key": d.key, "move": d.move, "caption": words(d.caption), "after": words(d.after)}
                for d in s.diagrams
            ],
        }
        for s in page.sections
    ]
    data = {d.key: diagram_data(game, d) for s in page.sections for d in s.diagrams}
    return {
        "game": game,
        "label": page.label,
        "intro": [words(t) for t in page.intro],
        "sections": sections,
        "diagram_data": data,
        "pages": [(p.game, p.label) for p in PAGES.values()],
    }


def rules_page(request: HttpRequest, game: str) -> HttpResponse:
    if game not in PAGES:
        raise Http404("no such game")
    return render(request, "rules/page.html", _page_context(game))
