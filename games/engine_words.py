"""The engine's refusals and effects in the reader's language, said from their codes.

The engine (``engine/``) stays pure Python and speaks English, but says everything twice: an
:class:`engine.IllegalMove` carries, beside its English message, a stable ``code`` and its
``params`` (``"power_too_low"``, ``{"move": "e1-e4", "field": "e1", "power": 1, "distance":
3}``), and :func:`engine.explain.described` gives each effect of a move the same way
(``"move"``, ``{"move": "a3-b4", "distance": 1, "direction": "NE", "land": "b5", …}``). Each code
maps here to an ordinary gettext message; the words inside (compass directions, seat names, the
engine's notation help, the question after "… is not a valid choice.") are said in the active
language too. The codes are listed in ``docs/engine-refusals.md``.

:func:`translate_illegal` says a refusal whole (as the engine says it) or its reason alone (the
move not repeated, for a page that shows the move beside it); :mod:`games.engine_effects` says
the effects of an action with the helpers here. In English every message is the engine's own
sentence, character for character (``tests/i18n/test_engine_words.py`` provokes every refusal
and checks it). A code without a message here (a newer engine) is said in the engine's English.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext, pgettext

import engine
from engine.errors import Params

#: A refusal said from its params: the whole sentence (``echo``: the move as the player wrote it,
#: then why) or the reason alone.
Say = Callable[[Params, bool], str]
#: A reason said from its params.
Reason = Callable[[Params], str]

#: The engine's notation help (``engine.notation.HELP``), said after "… is not a move:".
HELP = gettext_noop(
    # Translators: how to write a move; the notation (F-T, FxT, e1-e2, g9-e7(*), F< F> F<< F>>,
    # e5<(a1,b2), ^ < >, pass) stays as it is.
    "write F-T (e.g. e1-e2), FxT for a pincer, effects in parentheses "
    "(e.g. g9-e7(*) or e1-e2(e2)), F< F> F<< F>> with the removed markers to "
    "reorient (e.g. e5<(a1,b2)), a twist ^ < > after a border crossing in "
    "Shacru and Azacru, or pass"
)


# ------------------------------------------------------------------ words inside sentences
def direction(name: str) -> str:
    """A compass direction (the engine's ``N``, ``NE``, …) in the active language."""
    words = {
        # Translators: compass directions, abbreviated as on a map: a chevron faces and moves N, NE, E, …
        "N": pgettext("compass direction: north", "N"),
        "NE": pgettext("compass direction: north-east", "NE"),
        "E": pgettext("compass direction: east", "E"),
        "SE": pgettext("compass direction: south-east", "SE"),
        "S": pgettext("compass direction: south", "S"),
        "SW": pgettext("compass direction: south-west", "SW"),
        "W": pgettext("compass direction: west", "W"),
        "NW": pgettext("compass direction: north-west", "NW"),
    }
    return words.get(name, name)


def seat_name(seat: int, names: Mapping[int, str] | None = None) -> str:
    """A player by seat: the display name when known, else ``seat 2`` in the active language."""
    known = (names or {}).get(seat)
    return known or _("seat %(seat)s") % {"seat": seat}


def param_list(p: Params, key: str) -> list[str]:
    value = p.get(key)
    return [str(v) for v in value] if isinstance(value, list) else []


def param_text(p: Params, key: str, sep: str = ", ") -> str:
    """A param as text: a list of fields joined as the engine joins them."""
    value = p.get(key)
    if isinstance(value, list):
        return sep.join(param_list(p, key))
    return "" if value is None else str(value)


def param_int(p: Params, key: str) -> int:
    value = p.get(key)
    return value if isinstance(value, int) else 0


def _game(p: Params) -> str:
    """The game's name (a proper name, the same in every language)."""
    return param_text(p, "game").capitalize()


def _quoted(p: Params) -> str:
    """The move as the engine quotes what a player typed (a Python ``repr``)."""
    return repr(param_text(p, "move"))


def param_values(p: Params, *keys: str) -> dict[str, str]:
    return {key: param_text(p, key) for key in keys}


# ---------------------------------------------------------------------------- refusals
def _head(reason: Reason, quoted: bool = False) -> Say:
    """``"<move>: <reason>"``: the move as written, then why (the reason alone without echo)."""

    def say(p: Params, echo: bool) -> str:
        said = reason(p)
        if not echo or "move" not in p:
            return said
        move = _quoted(p) if quoted else param_text(p, "move")
        # Translators: a refused move as the player typed it, then why it is refused.
        return pgettext("refused move", "%(move)s: %(reason)s") % {"move": move, "reason": said}

    return say


def _alone(reason: Reason) -> Say:
    """A sentence without the move in it."""
    return lambda p, echo: reason(p)


def _subject(whole: Reason, short: Reason) -> Say:
    """A sentence with the move as its subject (``whole``); without echo, ``short`` says "this"
    or "the move" instead."""
    return lambda p, echo: whole(p) if echo else short(p)


def _facing(p: Params) -> str:
    return _("the chevron on %(field)s faces %(facing)s and may move only %(allowed)s, not %(direction)s") % {
        "field": param_text(p, "field"),
        "facing": direction(param_text(p, "facing")),
        "allowed": ", ".join(direction(d) for d in param_list(p, "allowed")),
        "direction": direction(param_text(p, "direction")),
    }


def _power(p: Params) -> str:
    n = param_int(p, "distance")
    return ngettext(
        "the chevron on %(field)s has power %(power)s (your markers in its borderland) "
        "and cannot move %(n)d field",
        "the chevron on %(field)s has power %(power)s (your markers in its borderland) "
        "and cannot move %(n)d fields",
        n,
    ) % {"field": param_text(p, "field"), "power": param_text(p, "power"), "n": n}


def _attackers(p: Params) -> str:
    n = param_int(p, "attackers")
    return ngettext(
        "a pincer on %(field)s needs at least two of your chevrons attacking it at the start of "
        "your turn; %(n)d does",
        "a pincer on %(field)s needs at least two of your chevrons attacking it at the start of "
        "your turn; %(n)d do",
        n,
    ) % {"field": param_text(p, "field"), "n": n}


def _reorient_cost(p: Params) -> str:
    cost = param_int(p, "cost")
    return ngettext(
        "turning %(degrees)s° costs %(cost)d of your markers on fields without a chevron and you "
        "have %(have)s",
        "turning %(degrees)s° costs %(cost)d of your markers on fields without a chevron and you "
        "have %(have)s",
        cost,
    ) % {"degrees": param_text(p, "degrees"), "cost": cost, "have": param_text(p, "have")}


def _reorient_list(p: Params) -> str:
    cost = param_int(p, "cost")
    return ngettext(
        "list %(cost)d different field of your colour to remove",
        "list %(cost)d different fields of your colour to remove",
        cost,
    ) % {"cost": cost}


def _reorient_name(p: Params) -> str:
    cost = param_int(p, "cost")
    return ngettext(
        "turning %(degrees)s° removes exactly %(cost)d of your markers; name them, e.g. %(example)s",
        "turning %(degrees)s° removes exactly %(cost)d of your markers; name them, e.g. %(example)s",
        cost,
    ) % {"degrees": param_text(p, "degrees"), "cost": cost, "example": param_text(p, "example")}


def _no_effects(p: Params) -> str:
    return _(
        # Translators: F-T and ^ < > are move notation: keep them as they are.
        "%(game)s moves have no effects or pincers; write F-T with a twist ^ < > after a border crossing"
    ) % {"game": _game(p)}


def _add_a_twist(p: Params) -> str:
    return _(
        # Translators: ^ < > are move notation: keep them as they are.
        "the move crosses a border: add ^ (keep facing), < (turn 45° counter-clockwise) or > (clockwise), "
        "e.g. %(example)s"
    ) % {"example": param_text(p, "example")}


def _no_seat(p: Params) -> str:
    players = param_int(p, "players")
    return ngettext(
        "there is no seat %(seat)s in a %(players)d-player game",
        "there is no seat %(seat)s in a %(players)d-player game",
        players,
    ) % {"seat": param_text(p, "seat"), "players": players}


def _cannot_leave(p: Params) -> str:
    if p.get("reason") == "timeout":
        # Translators: a seat cannot lose on time once the game is over.
        return _("seat %(seat)s cannot timeout: the game is over") % param_values(p, "seat")
    return _("seat %(seat)s cannot resign: the game is over") % param_values(p, "seat")


def _choose_effect(p: Params, echo: bool) -> str:
    values = {**param_values(p, "move", "land"), "cells": param_text(p, "options")}
    if echo:
        return (
            _(
                "%(move)s is a connection and crosses a border: choose (*) or one cell of borderland "
                "%(land)s (%(cells)s)"
            )
            % values
        )
    return (
        _(
            "the move is a connection and crosses a border: choose (*) or one cell of borderland "
            "%(land)s (%(cells)s)"
        )
        % values
    )


def _choose_border_marker(p: Params, echo: bool) -> str:
    values = {**param_values(p, "move", "land"), "cells": param_text(p, "options")}
    if echo:
        return (
            _("%(move)s crosses into borderland %(land)s: choose a neutral field for your marker (%(cells)s)")
            % values
        )
    return (
        _("the move crosses into borderland %(land)s: choose a neutral field for your marker (%(cells)s)")
        % values
    )


def _choose_transformation(p: Params, echo: bool) -> str:
    values = {**param_values(p, "move", "land"), "cells": param_text(p, "options")}
    if echo:
        return (
            _(
                "%(move)s crosses into borderland %(land)s, which has no neutral field: choose a field of "
                "another colour to transform (%(cells)s)"
            )
            % values
        )
    return (
        _(
            "the move crosses into borderland %(land)s, which has no neutral field: choose a field of "
            "another colour to transform (%(cells)s)"
        )
        % values
    )


def _choose_meeting(p: Params, echo: bool) -> str:
    if echo:
        return _(
            "%(move)s makes a meeting: choose one field to change to your colour (any field without a "
            "chevron that is not yours)"
        ) % param_values(p, "move")
    return _(
        "the move makes a meeting: choose one field to change to your colour (any field without a "
        "chevron that is not yours)"
    )


def _not_a_choice(p: Params) -> str:
    """The choice, then the question it does not answer (said whole: its move is its subject)."""
    question = REFUSALS.get(param_text(p, "prompt"))
    prompt = question(p, True) if question is not None else ""
    return _("%(choice)s is not a valid choice. %(prompt)s") % {
        "choice": param_text(p, "choice"),
        "prompt": prompt,
    }


def _not_a_move(p: Params, echo: bool) -> str:
    if echo:
        return _("%(move)s is not a move: %(help)s") % {"move": _quoted(p), "help": _(HELP)}
    return _("this is not a move: %(help)s") % {"help": _(HELP)}


#: Every refusal code of the engine (``engine.errors.REFUSAL_CODES``) and how to say it.
REFUSALS: dict[str, Say] = {
    # notation
    "not_text": _alone(lambda p: _("a move must be text, not %(type)s") % param_values(p, "type")),
    "not_a_move": _not_a_move,
    "bad_token": _head(
        lambda p: (
            _("%(token)s in the parentheses is neither a field (a1…i9) nor *")
            % {"token": repr(param_text(p, "token"))}
        ),
        quoted=True,
    ),
    "not_a_base_move": _subject(
        lambda p: _("%(move)s is not a base move such as e1-e2 or d9xd6") % {"move": _quoted(p)},
        lambda p: _("this is not a base move such as e1-e2 or d9xd6"),
    ),
    "not_a_chevron_move": _subject(
        lambda p: _("%(move)s is not a chevron move such as c3-d4") % {"move": _quoted(p)},
        lambda p: _("this is not a chevron move such as c3-d4"),
    ),
    # the game and its seats
    "game_over": _head(lambda p: _("the game is over")),
    "game_over_cannot_leave": _alone(_cannot_leave),
    "no_such_seat": _alone(_no_seat),
    "seat_already_out": _alone(
        lambda p: _("seat %(seat)s is already out of the game") % param_values(p, "seat")
    ),
    # why a chevron move is not legal
    "no_chevron": _head(lambda p: _("there is no chevron on %(field)s") % param_values(p, "field")),
    "not_your_chevron": _head(
        lambda p: (
            _("the chevron on %(field)s belongs to seat %(owner)s, and seat %(seat)s is on turn")
            % param_values(p, "field", "owner", "seat")
        )
    ),
    "null_move": _head(lambda p: _("a move must leave its field")),
    "not_a_line": _head(
        lambda p: (
            _("%(frm)s to %(to)s is not a straight line")
            % {"frm": param_text(p, "field"), "to": param_text(p, "to")}
        )
    ),
    "wrong_direction": _head(_facing),
    "one_field_at_a_time": _head(lambda p: _("in Shacru a chevron moves one field at a time")),
    "power_too_low": _head(_power),
    "own_chevron": _head(lambda p: _("%(field)s holds your own chevron") % param_values(p, "field")),
    "onto_chevron": _head(
        lambda p: (
            _("%(field)s holds a chevron, and you may not move onto a chevron") % param_values(p, "field")
        )
    ),
    "pincer_jump": _head(
        lambda p: _("a pincer may not jump: a chevron stands on %(field)s") % param_values(p, "field")
    ),
    "pincer_attackers": _head(_attackers),
    "foreign_colour": _head(
        lambda p: (
            _("%(field)s is seat %(seat)s's colour, and you may not move onto another player's colour")
            % param_values(p, "field", "seat")
        )
    ),
    "blocked": _head(
        lambda p: (
            _(
                "a chevron on %(field)s stands in the way; only a connection (from your colour to your "
                "colour) may jump chevrons"
            )
            % param_values(p, "field")
        )
    ),
    "not_legal": _head(
        lambda p: (
            _("%(frm)s-%(to)s is not a legal move")
            % {"frm": param_text(p, "field"), "to": param_text(p, "to")}
        )
    ),
    # Pacru choices
    "no_passing": _alone(lambda p: _("there is no passing in Pacru: move or reorient a chevron")),
    "no_twist_in_pacru": _head(lambda p: _("Pacru has no twist after a border crossing")),
    "choose_effect": _choose_effect,
    "choose_border_marker": _choose_border_marker,
    "choose_transformation": _choose_transformation,
    "choose_meeting": _choose_meeting,
    "not_a_valid_choice": _head(_not_a_choice),
    "unexpected_tokens": _head(
        lambda p: _("unexpected %(tokens)s in the parentheses") % {"tokens": param_text(p, "tokens", ",")}
    ),
    "no_choice_to_make": _head(
        lambda p: (
            _("unexpected %(tokens)s in the parentheses (this move has no choice to make)")
            % {"tokens": param_text(p, "tokens", ",")}
        )
    ),
    # Pacru reorientation
    "no_chevron_to_reorient": _head(
        lambda p: _("there is no chevron of yours on %(field)s to reorient") % param_values(p, "field")
    ),
    "reorient_cost": _head(_reorient_cost),
    "reorient_list": _head(_reorient_list),
    "reorient_name": _head(_reorient_name),
    "marker_holds_chevron": _head(
        lambda p: _("%(field)s holds a chevron, so its marker cannot be removed") % param_values(p, "field")
    ),
    "marker_not_yours": _head(
        lambda p: (
            _("%(field)s is not your colour, so its marker cannot be removed") % param_values(p, "field")
        )
    ),
    "no_chevron_on_turn": _alone(
        lambda p: _("there is no chevron of the player on turn on %(field)s") % param_values(p, "field")
    ),
    # Shacru and Azacru
    "no_reorientation": _head(lambda p: _("there is no reorientation in %(game)s") % {"game": _game(p)}),
    "no_reorientations": _alone(lambda p: _("%(game)s has no reorientation") % {"game": _game(p)}),
    "pass_not_allowed": _alone(lambda p: _("you may pass only when none of your chevrons can move")),
    "no_effects": _head(_no_effects),
    "twist_not_allowed": _head(lambda p: _("a twist is allowed only after a border crossing")),
    "twist_required": _head(_add_a_twist),
    "unlisted_twist": _subject(
        lambda p: _("%(move)s is not a legal move") % param_values(p, "move"),
        lambda p: _("this is not a legal move"),
    ),
}


def translate_illegal(exc: engine.IllegalMove, *, echo: bool = True) -> str:
    """An :class:`engine.IllegalMove` in the active language, from its code and params: whole, or
    (``echo=False``) its reason alone, the move the player sent not said again. A code without a
    message is said as the engine says it."""
    say = REFUSALS.get(exc.code)
    return str(exc) if say is None else say(exc.params, echo)


def refusal(exc: engine.IllegalMove) -> dict[str, object]:
    """The refusal as the API gives it beside its words: ``{"code": …, "params": {…}}`` (the
    engine's code and params, the same in every language)."""
    return {"code": exc.code, "params": dict(exc.params)}
