"""The effects of an action (what a move did) in the reader's language, said from their codes.

:func:`engine.explain.described` gives each effect of an action as a stable ``code`` with
``params`` of plain values (seats as numbers) beside its English ``text``; each code maps here to
an ordinary gettext message, with the players named in the table's names and the compass
directions in the active language (:mod:`games.engine_words` does the same for refusals). In
English each message is the engine's own phrase, character for character
(``tests/i18n/test_engine_words.py`` checks every effect the engine produces).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine.errors import Params
from engine.explain import Effect

from .engine_words import direction, param_int, param_list, param_text, param_values, seat_name

#: An effect said from its params, with a function naming a seat.
Tell = Callable[[Params, Callable[[int], str]], str]


def _travel(p: Params, who: Callable[[int], str]) -> str:
    n = param_int(p, "distance")
    values = {
        "move": param_text(p, "move"),
        "n": n,
        "direction": direction(param_text(p, "direction")),
        "land": p.get("land"),
    }
    if p.get("land"):
        return (
            ngettext(
                "%(move)s: moves %(n)d field %(direction)s, crossing into borderland %(land)s",
                "%(move)s: moves %(n)d fields %(direction)s, crossing into borderland %(land)s",
                n,
            )
            % values
        )
    return (
        ngettext("%(move)s: moves %(n)d field %(direction)s", "%(move)s: moves %(n)d fields %(direction)s", n)
        % values
    )


def _reorients(p: Params, who: Callable[[int], str]) -> str:
    cost = param_int(p, "cost")
    values = {
        **param_values(p, "field", "degrees"),
        "cost": cost,
        "facing": direction(param_text(p, "facing")),
        "paid": param_text(p, "paid"),
    }
    if p.get("sense") == "clockwise":
        return (
            ngettext(
                "%(field)s: reorients %(degrees)s° clockwise to face %(facing)s, paying %(cost)d marker "
                "(%(paid)s)",
                "%(field)s: reorients %(degrees)s° clockwise to face %(facing)s, paying %(cost)d markers "
                "(%(paid)s)",
                cost,
            )
            % values
        )
    return (
        ngettext(
            "%(field)s: reorients %(degrees)s° counter-clockwise to face %(facing)s, paying %(cost)d marker "
            "(%(paid)s)",
            "%(field)s: reorients %(degrees)s° counter-clockwise to face %(facing)s, paying %(cost)d markers "
            "(%(paid)s)",
            cost,
        )
        % values
    )


def _ran_out(p: Params, effect: str) -> str:
    """``effect``, and that the supply of markers ran out before its field was coloured."""
    if not p.get("supply_ran_out"):
        return effect
    return _("%(effect)s (the supply of markers ran out)") % {"effect": effect}


def _pincer(p: Params, who: Callable[[int], str]) -> str:
    values = {
        "field": param_text(p, "field"),
        "victim": who(param_int(p, "victim")),
        "who": who(param_int(p, "seat")),
    }
    if not p.get("takes_colour"):
        return _("pincer on %(field)s: %(victim)s's chevron is removed") % values
    return _ran_out(
        p,
        _("pincer on %(field)s: %(victim)s's chevron is removed and %(field)s takes %(who)s's colour")
        % values,
    )


def _jump(p: Params, who: Callable[[int], str]) -> str:
    return ngettext(
        "connection jump over the chevron on %(cells)s: the fields between keep their colours",
        "connection jump over the chevrons on %(cells)s: the fields between keep their colours",
        len(param_list(p, "cells")),
    ) % {"cells": param_text(p, "cells")}


def _connection(p: Params, effect: str) -> str:
    """A connection change, taken instead of the border marker, with the fields left unchanged."""
    if p.get("instead"):
        effect = _("%(effect)s, taken instead of the border marker") % {"effect": effect}
    unchanged = param_list(p, "unchanged")
    if unchanged:
        effect = ngettext(
            "%(effect)s; %(cells)s unchanged: the supply of markers ran out",
            "%(effect)s; %(cells)s unchanged: the supply of markers ran out",
            len(unchanged),
        ) % {"effect": effect, "cells": ", ".join(unchanged)}
    return effect


def _colours(p: Params, who: Callable[[int], str]) -> str:
    values = {"frm": param_text(p, "from"), "to": param_text(p, "to"), "cells": param_text(p, "cells")}
    return _connection(p, _("connection %(frm)s–%(to)s colours %(cells)s") % values)


def _already(p: Params, who: Callable[[int], str]) -> str:
    values = {"frm": param_text(p, "from"), "to": param_text(p, "to"), "who": who(param_int(p, "seat"))}
    return _connection(p, _("connection %(frm)s–%(to)s: the fields between are already %(who)s's") % values)


def _transformation(p: Params, who: Callable[[int], str]) -> str:
    values = {
        **param_values(p, "land", "field"),
        "owner": who(param_int(p, "owner")),
        "who": who(param_int(p, "seat")),
    }
    return _ran_out(
        p,
        _("borderland transformation in %(land)s: %(field)s changes from %(owner)s's colour to %(who)s's")
        % values,
    )


def _meeting(p: Params, who: Callable[[int], str]) -> str:
    values = {**param_values(p, "field", "partner", "cell"), "who": who(param_int(p, "seat"))}
    return _ran_out(
        p,
        _("meeting on %(field)s with the chevron on %(partner)s: %(cell)s changes to %(who)s's colour")
        % values,
    )


def _leaves(p: Params, who: Callable[[int], str]) -> str:
    names = [who(int(seat)) for seat in param_list(p, "seats")]
    if len(names) >= 3:
        return _(
            "the chevron leaves the board: the connection passed over %(first)s's and %(second)s's and "
            "%(third)s's colour"
        ) % {"first": names[0], "second": names[1], "third": ", ".join(names[2:])}
    if len(names) == 2:
        return _(
            "the chevron leaves the board: the connection passed over %(first)s's and %(second)s's colour"
        ) % {
            "first": names[0],
            "second": names[1],
        }
    return _("the chevron leaves the board: the connection passed over %(who)s's colour") % {
        "who": ", ".join(names)
    }


def _why(p: Params) -> str:
    """Why a game ended, as said before ": the game ends …"."""
    reason = p.get("reason")
    if reason == "ply-limit":
        return _("the ply limit of %(limit)s is reached") % {"limit": param_text(p, "ply_limit")}
    reasons = {
        "no-progress": _("too many plies without a new marker"),
        "no-moves": _("nobody can move"),
        "no-gain": _("nobody can gain another marker"),
        "end-trigger": _("the final turns are played"),
    }
    return reasons.get(str(reason), _("the game is over"))


#: Every effect code of the engine (``engine.explain.EFFECT_CODES``) and how to say it.
EFFECTS: dict[str, Tell] = {
    "move": _travel,
    "reorient": _reorients,
    "pass": lambda p, who: _("%(who)s passes: no chevron can move") % {"who": who(param_int(p, "seat"))},
    "pincer": _pincer,
    "connection_jump": _jump,
    "connection_colours": _colours,
    "connection_already": _already,
    "connection_not_taken": lambda p, who: (
        _("connection %(frm)s–%(to)s not taken: the border marker is chosen instead")
        % {"frm": param_text(p, "from"), "to": param_text(p, "to")}
    ),
    "border_marker": lambda p, who: _ran_out(
        p, _("borderland change in %(land)s: marker on %(field)s") % param_values(p, "land", "field")
    ),
    "border_transformation": _transformation,
    "border_unchanged": lambda p, who: (
        _("borderland %(land)s has no field to change") % param_values(p, "land")
    ),
    "meeting": _meeting,
    "marker": lambda p, who: _("marker on %(field)s") % param_values(p, "field"),
    "chevron_leaves": _leaves,
    "twist": lambda p, who: _("twist to %(facing)s") % {"facing": direction(param_text(p, "facing"))},
    "no_twist": lambda p, who: (
        _("no twist: keeps facing %(facing)s") % {"facing": direction(param_text(p, "facing"))}
    ),
    "out_captured": lambda p, who: (
        _("%(who)s has lost the last chevron to the pincer and is out") % {"who": who(param_int(p, "seat"))}
    ),
    "out_blocked": lambda p, who: _("%(who)s is blocked and out") % {"who": who(param_int(p, "seat"))},
    "out_resigned": lambda p, who: (
        _("%(who)s resigns and is out; the markers stay on the board") % {"who": who(param_int(p, "seat"))}
    ),
    "out_timed_out": lambda p, who: (
        _("%(who)s runs out of time and is out; the markers stay on the board")
        % {"who": who(param_int(p, "seat"))}
    ),
    "out": lambda p, who: _("%(who)s is out") % {"who": who(param_int(p, "seat"))},
    "end_triggered": lambda p, who: _("the end is triggered: every other player still in has one last turn"),
    "target_reached": lambda p, who: (
        _("%(who)s reaches the marker target of %(n)s: the game ends, %(who)s wins")
        % {"who": who(param_int(p, "seat")), "n": param_text(p, "target")}
    ),
    "nobody_left": lambda p, who: _("nobody is left: the game ends"),
    "last_standing": lambda p, who: (
        _("only %(who)s is left in: the game ends, %(who)s wins") % {"who": who(param_int(p, "seat"))}
    ),
    "ended_without_winner": lambda p, who: (
        _("%(why)s: the game ends without a single winner") % {"why": _why(p)}
    ),
    "ended_on_markers": lambda p, who: (
        _("%(why)s: the game ends, %(who)s wins on markers")
        % {"why": _why(p), "who": who(param_int(p, "seat"))}
    ),
}


def translate_effect(effect: Effect, names: Mapping[int, str] | None = None) -> str:
    """One effect of :func:`engine.explain.described` in the active language, the players named
    by ``names`` (``seat N`` for a seat not in it). A code without a message is said as the
    engine says it."""
    tell = EFFECTS.get(effect.code)
    if tell is None:
        return effect.text
    return tell(effect.params, lambda seat: seat_name(seat, names))
