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
from django.utils.functional import Promise
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import capfirst
from django.utils.translation import get_language, ngettext, pgettext_lazy
from django.utils.translation import gettext as _

import engine
from engine.board import CELL_NAMES
from engine.notation import parse
from engine.pacru import power
from engine.state import SEAT_COLOURS

from .rules_content import PAGES, Diagram, RulesPage

_CODE = re.compile(r"`([^`]+)`")
#: The seats' colours as the status line names them (``engine.state.SEAT_COLOURS``, in words).
COLOUR_NAMES = {
    1: pgettext_lazy("player colour", "red"),
    2: pgettext_lazy("player colour", "black"),
    3: pgettext_lazy("player colour", "yellow"),
    4: pgettext_lazy("player colour", "green"),
}
assert set(COLOUR_NAMES) == set(SEAT_COLOURS)


def words(text: str | Promise) -> SafeString:
    """Escape ``text`` (a lazy text is translated here, in the active language) and show
    `backticked` notation as code."""
    return mark_safe(_CODE.sub(r"<code>\1</code>", str(escape(str(text)))))  # the text is escaped first


def _colour(seat: int) -> str:
    """The seat's colour, capitalised to start a sentence ("Red")."""
    return capfirst(str(COLOUR_NAMES[seat]))


def _out(seat: int, reason: str) -> str:
    colour = _colour(seat)
    if reason == "blocked":
        # Translators: %(colour)s is a player's colour standing for the player ("Red", "Black", …).
        return _("%(colour)s cannot move and is out.") % {"colour": colour}
    if reason == "captured":
        # Translators: %(colour)s is a player's colour standing for the player ("Red", "Black", …).
        return _("%(colour)s lost its last chevron and is out.") % {"colour": colour}
    # Translators: %(colour)s is a player's colour standing for the player ("Red", "Black", …).
    return _("%(colour)s is out.") % {"colour": colour}


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
    parts = [_out(seat, reason) for seat, reason in after.last_eliminations]
    if before.end_triggered_by is None and after.end_triggered_by is not None and not after.is_over:
        n = after.final_turns_left
        parts.append(
            ngettext(
                "The end is triggered: %(n)d last turn to play.",
                "The end is triggered: %(n)d last turns to play.",
                n,
            )
            % {"n": n}
        )
    counts = ", ".join(f"{COLOUR_NAMES[s]} {n}" for s, n in after.scores.items())
    if after.is_over:
        if after.winner:
            # Translators: %(colour)s is the winner's colour ("Red", "Black", …).
            parts.append(_("Game over: %(colour)s wins.") % {"colour": _colour(after.winner)})
        else:
            parts.append(_("Game over: Nobody wins outright."))
    else:
        # Translators: %(colour)s is the colour of the player on turn ("Red", "Black", …).
        parts.append(_("%(colour)s to move.") % {"colour": _colour(after.to_move)})
    # Translators: %(counts)s lists each colour with its number of markers: "red 12, black 9".
    parts.append(_("Markers on the board: %(counts)s.") % {"counts": counts})
    return " ".join(parts)


def diagram_data(game: str, diagram: Diagram) -> dict[str, Any]:
    """The JSON a diagram is drawn from: both positions, computed by the engine, and the status
    line in words (in the active language: plain strings, ready for ``json_script``)."""
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
def _page_context(game: str, language: str | None) -> dict[str, Any]:
    """Everything one rules page shows, in ``language`` (the active one: every lazy text of
    ``rules_content`` becomes a plain string here); the content is fixed, so it is built once per
    process and language."""
    page: RulesPage = PAGES[game]
    sections = [
        {
            "key": s.key,
            "title": str(s.title),
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
    return render(request, "rules/page.html", _page_context(game, get_language()))
