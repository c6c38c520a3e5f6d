"""Errors the engine raises. Both are ``ValueError`` so callers can catch either.

An :class:`IllegalMove` says what is wrong twice: in English words (``str(exc)``, for the
command line and the logs) and as a stable ``code`` with ``params`` of plain values (for a
caller that says it again in another language, or a program that reacts to it). The codes
are listed in :data:`REFUSAL_CODES` and described in ``docs/engine-refusals.md``.
"""

from __future__ import annotations

from typing import Any

#: A parameter of a refusal or an effect: plain JSON-ready values only.
Param = str | int | bool | None | list[str] | list[int]
Params = dict[str, Param]

#: Every code an :class:`IllegalMove` can carry (see ``docs/engine-refusals.md``).
REFUSAL_CODES = frozenset(
    {
        # notation
        "not_text",
        "not_a_move",
        "bad_token",
        "not_a_base_move",
        "not_a_chevron_move",
        # the game and its seats
        "game_over",
        "game_over_cannot_leave",
        "no_such_seat",
        "seat_already_out",
        # why a chevron move is not legal (explain_unlisted)
        "no_chevron",
        "not_your_chevron",
        "null_move",
        "not_a_line",
        "wrong_direction",
        "one_field_at_a_time",
        "power_too_low",
        "own_chevron",
        "onto_chevron",
        "pincer_jump",
        "pincer_attackers",
        "foreign_colour",
        "blocked",
        "not_legal",
        # Pacru choices
        "no_passing",
        "no_twist_in_pacru",
        "choose_effect",
        "choose_border_marker",
        "choose_transformation",
        "choose_meeting",
        "not_a_valid_choice",
        "unexpected_tokens",
        "no_choice_to_make",
        # Pacru reorientation
        "no_chevron_to_reorient",
        "reorient_cost",
        "reorient_list",
        "reorient_name",
        "marker_holds_chevron",
        "marker_not_yours",
        "no_chevron_on_turn",
        # Shacru and Azacru
        "no_reorientation",
        "no_reorientations",
        "pass_not_allowed",
        "no_effects",
        "twist_not_allowed",
        "twist_required",
        "unlisted_twist",
    }
)


class IllegalMove(ValueError):
    """A move (or other action) that the rules do not allow in this position.

    The message says in words what is wrong, e.g. ``"e1-e4: the chevron on e1
    has power 1 and cannot move 3 fields"``; ``code`` says which refusal it is
    (``"power_too_low"``) and ``params`` its particulars (``{"move": "e1-e4",
    "field": "e1", "power": 1, "distance": 3}``), so that it can be said again
    in any language without reading the English.
    """

    def __init__(self, message: str, code: str, params: Params | None = None) -> None:
        assert code in REFUSAL_CODES, code
        super().__init__(message)
        self.code = code
        self.params: Params = dict(params or {})

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (e.g. between processes) with its code and params, not the message alone.
        return (type(self), (str(self), self.code, self.params))


class InvalidPosition(ValueError):
    """A position document (RULES §9 JSON) or game record that cannot be loaded."""
