"""Reviewing a table: every recorded action with what it did, in words.

The move log is replayed from the start (as :func:`selectors.replayed_state` does) and each
step is compared with the one before by the engine (:func:`engine.explain.described`), so the
words always match the rules the table was played by; each effect comes with a code and params,
said in the reader's language by :mod:`games.engine_effects`.
"""

from __future__ import annotations

from typing import Any

import engine
from engine.explain import described

from .engine_effects import translate_effect
from .models import Move, Seat, Table
from .selectors import initial_state, replay_step


def seat_names(table: Table) -> dict[int, str]:
    """Seat number -> the seated player's display name."""
    rows = Seat.objects.filter(table=table).values_list("number", "player__display_name")
    return {number: name for number, name in rows}


def effects_in_words(before: engine.State, after: engine.State, names: dict[int, str]) -> list[str]:
    """The effects of the action from ``before`` to ``after`` in the active language, with the
    players' names (``seat N`` for a seat not in ``names``)."""
    return [translate_effect(effect, names) for effect in described(before, after)]


def table_review(table: Table) -> list[dict[str, Any]]:
    """One entry per recorded action, in order: ``{"seq", "ply", "seat", "kind", "notation",
    "effects"}``. ``notation`` is the canonical move (empty for a resignation or timeout, whose
    ``kind`` says which it was); ``effects`` lists short phrases in the active language."""
    names = seat_names(table)
    state = initial_state(table)
    out: list[dict[str, Any]] = []
    for move in Move.objects.filter(table=table).order_by("seq"):
        after = replay_step(state, move)
        out.append(
            {
                "seq": move.seq,
                "ply": move.ply,
                "seat": move.seat,
                "kind": move.kind,
                "notation": move.notation,
                "effects": effects_in_words(state, after, names),
            }
        )
        state = after
    return out
