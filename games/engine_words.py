"""The engine's English sentences in the reader's language, translated where they reach a person.

The engine (``engine/``) stays pure Python and speaks English: an :class:`engine.IllegalMove`
says why a move is refused (``"e1-e4: the chevron on e1 has power 1 (your markers in its
borderland) and cannot move 3 fields"``), :func:`engine.explain.effects` says what a move did
(``"a3-b4: moves 1 field NE, crossing into borderland b5"``). Each of those sentences is built
from a small number of patterns; this module recognises each pattern with a regular expression
and says the same sentence again as a gettext message with named placeholders, translating the
words inside it (compass directions, seat names) and, recursively, the sentences inside it (the
prompt after "… is not a valid choice.", the notation help, an effect before its ", taken instead
of the border marker").

* :func:`translate_illegal` – a refusal (a whole engine message, or its reason alone as
  :func:`engine.explain.without_move_echo` leaves it);
* :func:`translate_effect` – one phrase of a move's effects.

A sentence no pattern recognises is returned unchanged (English): a new engine message shows
in English until a pattern is added here (``tests/i18n/test_engine_words.py`` provokes the
engine's messages and fails on any such one). In English every translation is the sentence
itself, character for character.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext, pgettext

#: What a rule does with the named groups of its match: the translated sentence, or None when
#: a part inside it (an embedded sentence) is not recognised after all.
Say = Callable[[dict[str, str]], str | None]
Rule = tuple[re.Pattern[str], Say]

CELL = r"[a-i][1-9]"
BASE = rf"{CELL}[-x]{CELL}"
CELLS = rf"{CELL}(?:, {CELL})*"
DIRECTION = r"NE|NW|SE|SW|N|E|S|W"
DIRECTIONS = rf"(?:{DIRECTION})(?:, (?:{DIRECTION}))*"
GAME = r"Shacru|Azacru|Pacru"
#: A Python repr of a string, as the engine quotes what a player typed.
QUOTED = r"'.*'|\".*\""
TOKENS = rf"(?:{CELL}|\*)(?:,(?:{CELL}|\*))*"

#: The engine's notation help (``engine.notation.HELP``), said after "… is not a move:".
HELP = gettext_noop(
    # Translators: how to write a move; the notation (F-T, FxT, e1-e2, g9-e7(*), F< F> F<< F>>,
    # e5<(a1,b2), ^ < >, pass) stays as it is.
    "write F-T (e.g. e1-e2), FxT for a pincer, effects in parentheses "
    "(e.g. g9-e7(*) or e1-e2(e2)), F< F> F<< F>> with the removed markers to "
    "reorient (e.g. e5<(a1,b2)), a twist ^ < > after a border crossing in "
    "Shacru and Azacru, or pass"
)


def _rules(*pairs: tuple[str | re.Pattern[str], Say]) -> tuple[Rule, ...]:
    return tuple(
        (pattern if isinstance(pattern, re.Pattern) else re.compile(pattern, re.DOTALL), say)
        for pattern, say in pairs
    )


def _first(rules: Iterable[Rule], text: str) -> str | None:
    for pattern, say in rules:
        m = pattern.fullmatch(text)
        if m is not None:
            said = say(m.groupdict())
            if said is not None:
                return said
    return None


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


def _directions(names: str) -> str:
    return ", ".join(direction(d) for d in names.split(", "))


def person(name: str) -> str:
    """A player as the engine names one: a display name stays; ``seat 2`` (no name known) is
    said in the active language."""
    m = re.fullmatch(r"seat (\d+)", name)
    return _("seat %(seat)s") % {"seat": m.group(1)} if m else name


def _count(cells: str) -> int:
    return len(cells.split(", "))


def _help(g: dict[str, str], sentence: str) -> str | None:
    """``sentence`` (with ``%(help)s``) when the group ``help`` is the engine's notation help."""
    if g["help"] != HELP:
        return None
    return sentence % {**g, "help": _(HELP)}


# ---------------------------------------------------------------------------- refusals
def _reason_after_head(text: str) -> str | None:
    """``"<move>: <reason>"``: the move as typed, then a recognised reason."""
    start = 0
    while (i := text.find(": ", start)) >= 0:
        reason = _first(_REASONS, text[i + 2 :])
        if reason is not None:
            # Translators: a refused move as the player typed it, then why it is refused.
            return pgettext("refused move", "%(move)s: %(reason)s") % {"move": text[:i], "reason": reason}
        start = i + 1
    return None


def _prompt(text: str) -> str | None:
    return _first(_PROMPTS, text)


def _not_a_choice(g: dict[str, str]) -> str | None:
    prompt = _prompt(g["prompt"])
    if prompt is None:
        return None
    return _("%(choice)s is not a valid choice. %(prompt)s") % {"choice": g["choice"], "prompt": prompt}


def _facing(g: dict[str, str]) -> str:
    return _("the chevron on %(field)s faces %(facing)s and may move only %(allowed)s, not %(direction)s") % {
        "field": g["field"],
        "facing": direction(g["facing"]),
        "allowed": _directions(g["allowed"]),
        "direction": direction(g["direction"]),
    }


def _power(g: dict[str, str]) -> str:
    n = int(g["n"])
    return ngettext(
        "the chevron on %(field)s has power %(power)s (your markers in its borderland) "
        "and cannot move %(n)d field",
        "the chevron on %(field)s has power %(power)s (your markers in its borderland) "
        "and cannot move %(n)d fields",
        n,
    ) % {"field": g["field"], "power": g["power"], "n": n}


def _attackers(g: dict[str, str]) -> str:
    n = int(g["n"])
    return ngettext(
        "a pincer on %(field)s needs at least two of your chevrons attacking it at the start of "
        "your turn; %(n)d does",
        "a pincer on %(field)s needs at least two of your chevrons attacking it at the start of "
        "your turn; %(n)d do",
        n,
    ) % {"field": g["field"], "n": n}


def _reorient_cost(g: dict[str, str]) -> str:
    cost = int(g["cost"])
    return ngettext(
        "turning %(degrees)s° costs %(cost)d of your markers on fields without a chevron and you "
        "have %(have)s",
        "turning %(degrees)s° costs %(cost)d of your markers on fields without a chevron and you "
        "have %(have)s",
        cost,
    ) % {"degrees": g["degrees"], "cost": cost, "have": g["have"]}


def _reorient_list(g: dict[str, str]) -> str:
    cost = int(g["cost"])
    return ngettext(
        "list %(cost)d different field of your colour to remove",
        "list %(cost)d different fields of your colour to remove",
        cost,
    ) % {"cost": cost}


def _reorient_name(g: dict[str, str]) -> str:
    cost = int(g["cost"])
    return ngettext(
        "turning %(degrees)s° removes exactly %(cost)d of your markers; name them, e.g. %(example)s",
        "turning %(degrees)s° removes exactly %(cost)d of your markers; name them, e.g. %(example)s",
        cost,
    ) % {"degrees": g["degrees"], "cost": cost, "example": g["example"]}


def _no_effects(g: dict[str, str]) -> str:
    return _(
        # Translators: F-T and ^ < > are move notation: keep them as they are.
        "%(game)s moves have no effects or pincers; write F-T with a twist ^ < > after a border crossing"
    ) % {"game": g["game"]}


def _add_a_twist(g: dict[str, str]) -> str:
    return _(
        # Translators: ^ < > are move notation: keep them as they are.
        "the move crosses a border: add ^ (keep facing), < (turn 45° counter-clockwise) or > (clockwise), "
        "e.g. %(example)s"
    ) % {"example": g["example"]}


def _no_seat(g: dict[str, str]) -> str:
    players = int(g["players"])
    return ngettext(
        "there is no seat %(seat)s in a %(players)d-player game",
        "there is no seat %(seat)s in a %(players)d-player game",
        players,
    ) % {"seat": g["seat"], "players": players}


#: The questions the engine asks when a Pacru move needs a choice (``PacruState._effect_prompt``,
#: the meeting); said alone, or after "… is not a valid choice."
_PROMPTS = _rules(
    (
        rf"(?P<move>{BASE}) is a connection and crosses a border: choose \(\*\) or one cell of "
        rf"borderland (?P<land>{CELL}) \((?P<cells>(?:{CELLS})?)\)",
        lambda g: (
            _(
                "%(move)s is a connection and crosses a border: choose (*) or one cell of borderland "
                "%(land)s (%(cells)s)"
            )
            % g
        ),
    ),
    (
        rf"(?P<move>{BASE}) crosses into borderland (?P<land>{CELL}): choose a neutral field for your "
        rf"marker \((?P<cells>(?:{CELLS})?)\)",
        lambda g: (
            _("%(move)s crosses into borderland %(land)s: choose a neutral field for your marker (%(cells)s)")
            % g
        ),
    ),
    (
        rf"(?P<move>{BASE}) crosses into borderland (?P<land>{CELL}), which has no neutral field: choose a "
        rf"field of another colour to transform \((?P<cells>(?:{CELLS})?)\)",
        lambda g: (
            _(
                "%(move)s crosses into borderland %(land)s, which has no neutral field: choose a field of "
                "another colour to transform (%(cells)s)"
            )
            % g
        ),
    ),
    (
        rf"(?P<move>{BASE}) makes a meeting: choose one field to change to your colour \(any field "
        r"without a chevron that is not yours\)",
        lambda g: (
            _(
                "%(move)s makes a meeting: choose one field to change to your colour (any field without a "
                "chevron that is not yours)"
            )
            % g
        ),
    ),
)

#: Messages that stand alone: no move before them, or the move as their subject. The forms with
#: "this" and "the move" are what :func:`engine.explain.without_move_echo` leaves of them.
_WHOLE = _rules(
    (r"a move must be text, not (?P<type>\w+)", lambda g: _("a move must be text, not %(type)s") % g),
    (r"this is not a move: (?P<help>.+)", lambda g: _help(g, _("this is not a move: %(help)s"))),
    (
        rf"(?P<move>{QUOTED}) is not a move: (?P<help>.+)",
        lambda g: _help(g, _("%(move)s is not a move: %(help)s")),
    ),
    (
        r"this is not a base move such as e1-e2 or d9xd6",
        lambda g: _("this is not a base move such as e1-e2 or d9xd6"),
    ),
    (
        rf"(?P<move>{QUOTED}) is not a base move such as e1-e2 or d9xd6",
        lambda g: _("%(move)s is not a base move such as e1-e2 or d9xd6") % g,
    ),
    (r"this is not a chevron move such as c3-d4", lambda g: _("this is not a chevron move such as c3-d4")),
    (
        rf"(?P<move>{QUOTED}) is not a chevron move such as c3-d4",
        lambda g: _("%(move)s is not a chevron move such as c3-d4") % g,
    ),
    (r"this is not a legal move", lambda g: _("this is not a legal move")),
    (r"(?P<move>[^:]+) is not a legal move", lambda g: _("%(move)s is not a legal move") % g),
    (
        r"there is no passing in Pacru: move or reorient a chevron",
        lambda g: _("there is no passing in Pacru: move or reorient a chevron"),
    ),
    (
        r"you may pass only when none of your chevrons can move",
        lambda g: _("you may pass only when none of your chevrons can move"),
    ),
    (rf"(?P<game>{GAME}) has no reorientation", lambda g: _("%(game)s has no reorientation") % g),
    (
        r"seat (?P<seat>\d+) cannot resign: the game is over",
        lambda g: _("seat %(seat)s cannot resign: the game is over") % g,
    ),
    (
        r"seat (?P<seat>\d+) cannot timeout: the game is over",
        # Translators: a seat cannot lose on time once the game is over.
        lambda g: _("seat %(seat)s cannot timeout: the game is over") % g,
    ),
    (r"there is no seat (?P<seat>-?\d+) in a (?P<players>\d+)-player game", _no_seat),
    (
        r"seat (?P<seat>\d+) is already out of the game",
        lambda g: _("seat %(seat)s is already out of the game") % g,
    ),
    (
        rf"there is no chevron of the player on turn on (?P<field>{CELL})",
        lambda g: _("there is no chevron of the player on turn on %(field)s") % g,
    ),
    *_PROMPTS,
    (
        rf"the move is a connection and crosses a border: choose \(\*\) or one cell of borderland "
        rf"(?P<land>{CELL}) \((?P<cells>(?:{CELLS})?)\)",
        lambda g: (
            _(
                "the move is a connection and crosses a border: choose (*) or one cell of borderland "
                "%(land)s (%(cells)s)"
            )
            % g
        ),
    ),
    (
        rf"the move crosses into borderland (?P<land>{CELL}): choose a neutral field for your marker "
        rf"\((?P<cells>(?:{CELLS})?)\)",
        lambda g: (
            _("the move crosses into borderland %(land)s: choose a neutral field for your marker (%(cells)s)")
            % g
        ),
    ),
    (
        rf"the move crosses into borderland (?P<land>{CELL}), which has no neutral field: choose a field "
        rf"of another colour to transform \((?P<cells>(?:{CELLS})?)\)",
        lambda g: (
            _(
                "the move crosses into borderland %(land)s, which has no neutral field: choose a field of "
                "another colour to transform (%(cells)s)"
            )
            % g
        ),
    ),
    (
        r"the move makes a meeting: choose one field to change to your colour \(any field without a "
        r"chevron that is not yours\)",
        lambda g: _(
            "the move makes a meeting: choose one field to change to your colour (any field without a "
            "chevron that is not yours)"
        ),
    ),
)

#: Reasons the engine gives after the move ("<move>: <reason>"), or alone once the move is cut.
_REASONS = _rules(
    (rf"there is no chevron on (?P<field>{CELL})", lambda g: _("there is no chevron on %(field)s") % g),
    (
        rf"the chevron on (?P<field>{CELL}) belongs to seat (?P<owner>\d+), "
        r"and seat (?P<seat>\d+) is on turn",
        lambda g: _("the chevron on %(field)s belongs to seat %(owner)s, and seat %(seat)s is on turn") % g,
    ),
    (r"a move must leave its field", lambda g: _("a move must leave its field")),
    (
        rf"(?P<frm>{CELL}) to (?P<to>{CELL}) is not a straight line",
        lambda g: _("%(frm)s to %(to)s is not a straight line") % g,
    ),
    (
        rf"the chevron on (?P<field>{CELL}) faces (?P<facing>{DIRECTION}) and may move only "
        rf"(?P<allowed>{DIRECTIONS}), not (?P<direction>{DIRECTION})",
        _facing,
    ),
    (
        r"in Shacru a chevron moves one field at a time",
        lambda g: _("in Shacru a chevron moves one field at a time"),
    ),
    (
        rf"the chevron on (?P<field>{CELL}) has power (?P<power>\d+) \(your markers in its borderland\) "
        r"and cannot move (?P<n>\d+) fields?",
        _power,
    ),
    (rf"(?P<field>{CELL}) holds your own chevron", lambda g: _("%(field)s holds your own chevron") % g),
    (
        rf"(?P<field>{CELL}) holds a chevron, and you may not move onto a chevron",
        lambda g: _("%(field)s holds a chevron, and you may not move onto a chevron") % g,
    ),
    (
        rf"a pincer may not jump: a chevron stands on (?P<field>{CELL})",
        lambda g: _("a pincer may not jump: a chevron stands on %(field)s") % g,
    ),
    (
        rf"a pincer on (?P<field>{CELL}) needs at least two of your chevrons attacking it at the start "
        r"of your turn; (?P<n>\d+) (?:does|do)",
        _attackers,
    ),
    (
        rf"(?P<field>{CELL}) is seat (?P<seat>\d+)'s colour, "
        r"and you may not move onto another player's colour",
        lambda g: (
            _("%(field)s is seat %(seat)s's colour, and you may not move onto another player's colour") % g
        ),
    ),
    (
        rf"a chevron on (?P<field>{CELL}) stands in the way; only a connection \(from your colour to your "
        r"colour\) may jump chevrons",
        lambda g: (
            _(
                "a chevron on %(field)s stands in the way; only a connection (from your colour to your "
                "colour) may jump chevrons"
            )
            % g
        ),
    ),
    (
        rf"(?P<frm>{CELL})-(?P<to>{CELL}) is not a legal move",
        lambda g: _("%(frm)s-%(to)s is not a legal move") % g,
    ),
    (r"the game is over", lambda g: _("the game is over")),
    (
        r"Pacru has no twist after a border crossing",
        lambda g: _("Pacru has no twist after a border crossing"),
    ),
    (
        rf"unexpected (?P<tokens>{TOKENS}) in the parentheses \(this move has no choice to make\)",
        lambda g: _("unexpected %(tokens)s in the parentheses (this move has no choice to make)") % g,
    ),
    (
        rf"unexpected (?P<tokens>{TOKENS}) in the parentheses",
        lambda g: _("unexpected %(tokens)s in the parentheses") % g,
    ),
    (rf"(?P<choice>{CELL}|\*) is not a valid choice\. (?P<prompt>.+)", _not_a_choice),
    (
        rf"there is no chevron of yours on (?P<field>{CELL}) to reorient",
        lambda g: _("there is no chevron of yours on %(field)s to reorient") % g,
    ),
    (
        r"turning (?P<degrees>\d+)° costs (?P<cost>\d+) of your markers on fields without a chevron and "
        r"you have (?P<have>\d+)",
        _reorient_cost,
    ),
    (r"list (?P<cost>\d+) different fields? of your colour to remove", _reorient_list),
    (
        r"turning (?P<degrees>\d+)° removes exactly (?P<cost>\d+) of your markers; name them, "
        r"e\.g\. (?P<example>\S+)",
        _reorient_name,
    ),
    (
        rf"(?P<field>{CELL}) holds a chevron, so its marker cannot be removed",
        lambda g: _("%(field)s holds a chevron, so its marker cannot be removed") % g,
    ),
    (
        rf"(?P<field>{CELL}) is not your colour, so its marker cannot be removed",
        lambda g: _("%(field)s is not your colour, so its marker cannot be removed") % g,
    ),
    (
        rf"there is no reorientation in (?P<game>{GAME})",
        lambda g: _("there is no reorientation in %(game)s") % g,
    ),
    (
        rf"(?P<game>{GAME}) moves have no effects or pincers; write F-T with a twist \^ < > after a border "
        r"crossing",
        _no_effects,
    ),
    (
        r"a twist is allowed only after a border crossing",
        lambda g: _("a twist is allowed only after a border crossing"),
    ),
    (
        rf"the move crosses a border: add \^ \(keep facing\), < \(turn 45° counter-clockwise\) or > "
        rf"\(clockwise\), e\.g\. (?P<example>{BASE}\^)",
        _add_a_twist,
    ),
    (
        rf"(?P<token>{QUOTED}) in the parentheses is neither a field \(a1…i9\) nor \*",
        lambda g: _("%(token)s in the parentheses is neither a field (a1…i9) nor *") % g,
    ),
)


def translate_illegal(message: str) -> str:
    """An :class:`engine.IllegalMove` message (or its reason alone, after
    :func:`engine.explain.without_move_echo`) in the active language; unchanged if unknown."""
    text = str(message)
    said = _illegal(text)
    return text if said is None else said


def _illegal(text: str) -> str | None:
    return _first(_WHOLE, text) or _first(_REASONS, text) or _reason_after_head(text)


def recognises_illegal(message: str) -> bool:
    """Whether :func:`translate_illegal` knows the message (and every sentence inside it)."""
    return _illegal(str(message)) is not None


# ----------------------------------------------------------------------------- effects
def _travel(g: dict[str, str]) -> str:
    n = int(g["n"])
    values = {"move": g["move"], "n": n, "direction": direction(g["direction"]), "land": g.get("land")}
    if g.get("land"):
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


def _reorients(g: dict[str, str]) -> str:
    cost = int(g["cost"])
    values = {**g, "cost": cost, "facing": direction(g["facing"])}
    if g["sense"] == "clockwise":
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


def _inner(g: dict[str, str], sentence: Callable[[str], str]) -> str | None:
    """``sentence`` around the translated effect in the group ``effect`` (None if unknown)."""
    inner = _effect(g["effect"])
    return None if inner is None else sentence(inner)


def _jump(g: dict[str, str]) -> str:
    n = _count(g["cells"])
    return ngettext(
        "connection jump over the chevron on %(cells)s: the fields between keep their colours",
        "connection jump over the chevrons on %(cells)s: the fields between keep their colours",
        n,
    ) % {"cells": g["cells"]}


def _unchanged(g: dict[str, str]) -> str | None:
    n = _count(g["cells"])
    return _inner(
        g,
        lambda effect: (
            ngettext(
                "%(effect)s; %(cells)s unchanged: the supply of markers ran out",
                "%(effect)s; %(cells)s unchanged: the supply of markers ran out",
                n,
            )
            % {"effect": effect, "cells": g["cells"]}
        ),
    )


def _why(text: str) -> str | None:
    """Why a game ended, as said before ": the game ends …"."""
    m = re.fullmatch(r"the ply limit of (\d+) is reached", text)
    if m:
        return _("the ply limit of %(limit)s is reached") % {"limit": m.group(1)}
    reasons = {
        "too many plies without a new marker": _("too many plies without a new marker"),
        "nobody can move": _("nobody can move"),
        "nobody can gain another marker": _("nobody can gain another marker"),
        "the final turns are played": _("the final turns are played"),
        "the game is over": _("the game is over"),
    }
    return reasons.get(text)


def _ended(g: dict[str, str], sentence: str) -> str | None:
    why = _why(g["why"])
    if why is None:
        return None
    return sentence % {"why": why, "who": person(g.get("who") or "")}


def _who(g: dict[str, str], sentence: str) -> str:
    """``sentence`` with every player group said as :func:`person` says them."""
    keys = ("who", "owner", "victim", "first", "second", "third")
    return sentence % {**g, **{k: person(g[k]) for k in keys if g.get(k) is not None}}


_EFFECTS = _rules(
    # Endings added to another effect (peeled off first, the last one added first).
    (
        r"(?P<effect>.+) \(the supply of markers ran out\)",
        lambda g: _inner(g, lambda e: _("%(effect)s (the supply of markers ran out)") % {"effect": e}),
    ),
    (rf"(?P<effect>.+); (?P<cells>{CELLS}) unchanged: the supply of markers ran out", _unchanged),
    (
        r"(?P<effect>.+), taken instead of the border marker",
        lambda g: _inner(g, lambda e: _("%(effect)s, taken instead of the border marker") % {"effect": e}),
    ),
    # The move itself.
    (
        rf"(?P<move>{BASE}): moves (?P<n>\d+) fields? (?P<direction>{DIRECTION}), crossing into borderland "
        rf"(?P<land>{CELL})",
        _travel,
    ),
    (rf"(?P<move>{BASE}): moves (?P<n>\d+) fields? (?P<direction>{DIRECTION})", _travel),
    (
        rf"(?P<field>{CELL}): reorients (?P<degrees>\d+)° (?P<sense>clockwise|counter-clockwise) to face "
        rf"(?P<facing>{DIRECTION}), paying (?P<cost>\d+) markers? \((?P<paid>(?:{CELLS})?)\)",
        _reorients,
    ),
    (r"(?P<who>.+) passes: no chevron can move", lambda g: _who(g, _("%(who)s passes: no chevron can move"))),
    # Pacru's effects.
    (
        rf"pincer on (?P<field>{CELL}): (?P<victim>.+)'s chevron is removed and (?P=field) takes "
        r"(?P<who>.+)'s colour",
        lambda g: _who(
            g, _("pincer on %(field)s: %(victim)s's chevron is removed and %(field)s takes %(who)s's colour")
        ),
    ),
    (
        rf"pincer on (?P<field>{CELL}): (?P<victim>.+)'s chevron is removed",
        lambda g: _who(g, _("pincer on %(field)s: %(victim)s's chevron is removed")),
    ),
    (
        rf"connection jump over the chevrons? on (?P<cells>{CELLS}): the fields between keep their colours",
        _jump,
    ),
    (
        rf"connection (?P<frm>{CELL})–(?P<to>{CELL}) colours (?P<cells>{CELLS})",
        lambda g: _("connection %(frm)s–%(to)s colours %(cells)s") % g,
    ),
    (
        rf"connection (?P<frm>{CELL})–(?P<to>{CELL}): the fields between are already (?P<who>.+)'s",
        lambda g: _who(g, _("connection %(frm)s–%(to)s: the fields between are already %(who)s's")),
    ),
    (
        rf"connection (?P<frm>{CELL})–(?P<to>{CELL}) not taken: the border marker is chosen instead",
        lambda g: _("connection %(frm)s–%(to)s not taken: the border marker is chosen instead") % g,
    ),
    (
        rf"borderland change in (?P<land>{CELL}): marker on (?P<field>{CELL})",
        lambda g: _("borderland change in %(land)s: marker on %(field)s") % g,
    ),
    (
        rf"borderland transformation in (?P<land>{CELL}): (?P<field>{CELL}) changes from (?P<owner>.+)'s "
        r"colour to (?P<who>.+)'s",
        lambda g: _who(
            g,
            _(
                "borderland transformation in %(land)s: %(field)s changes from %(owner)s's colour to "
                "%(who)s's"
            ),
        ),
    ),
    (
        rf"borderland (?P<land>{CELL}) has no field to change",
        lambda g: _("borderland %(land)s has no field to change") % g,
    ),
    (
        rf"meeting on (?P<field>{CELL}) with the chevron on (?P<partner>{CELL}): (?P<cell>{CELL}) changes to "
        r"(?P<who>.+)'s colour",
        lambda g: _who(
            g, _("meeting on %(field)s with the chevron on %(partner)s: %(cell)s changes to %(who)s's colour")
        ),
    ),
    # Shacru's and Azacru's.
    (rf"marker on (?P<field>{CELL})", lambda g: _("marker on %(field)s") % g),
    (
        r"the chevron leaves the board: the connection passed over (?P<first>.+?)'s and (?P<second>.+?)'s "
        r"and (?P<third>.+)'s colour",
        lambda g: _who(
            g,
            _(
                "the chevron leaves the board: the connection passed over %(first)s's and %(second)s's and "
                "%(third)s's colour"
            ),
        ),
    ),
    (
        r"the chevron leaves the board: the connection passed over (?P<first>.+?)'s and "
        r"(?P<second>.+)'s colour",
        lambda g: _who(
            g,
            _("the chevron leaves the board: the connection passed over %(first)s's and %(second)s's colour"),
        ),
    ),
    (
        r"the chevron leaves the board: the connection passed over (?P<who>.+)'s colour",
        lambda g: _who(g, _("the chevron leaves the board: the connection passed over %(who)s's colour")),
    ),
    (
        rf"twist to (?P<facing>{DIRECTION})",
        lambda g: _("twist to %(facing)s") % {"facing": direction(g["facing"])},
    ),
    (
        rf"no twist: keeps facing (?P<facing>{DIRECTION})",
        lambda g: _("no twist: keeps facing %(facing)s") % {"facing": direction(g["facing"])},
    ),
    # Players going out.
    (
        r"(?P<who>.+) has lost the last chevron to the pincer and is out",
        lambda g: _who(g, _("%(who)s has lost the last chevron to the pincer and is out")),
    ),
    (r"(?P<who>.+) is blocked and out", lambda g: _who(g, _("%(who)s is blocked and out"))),
    (
        r"(?P<who>.+) resigns and is out; the markers stay on the board",
        lambda g: _who(g, _("%(who)s resigns and is out; the markers stay on the board")),
    ),
    (
        r"(?P<who>.+) runs out of time and is out; the markers stay on the board",
        lambda g: _who(g, _("%(who)s runs out of time and is out; the markers stay on the board")),
    ),
    # The end.
    (
        r"the end is triggered: every other player still in has one last turn",
        lambda g: _("the end is triggered: every other player still in has one last turn"),
    ),
    (
        r"(?P<who>.+) reaches the marker target of (?P<n>\d+): the game ends, (?P=who) wins",
        lambda g: _who(g, _("%(who)s reaches the marker target of %(n)s: the game ends, %(who)s wins")),
    ),
    (r"nobody is left: the game ends", lambda g: _("nobody is left: the game ends")),
    (
        r"only (?P<who>.+) is left in: the game ends, (?P=who) wins",
        lambda g: _who(g, _("only %(who)s is left in: the game ends, %(who)s wins")),
    ),
    (
        r"(?P<why>.+): the game ends without a single winner",
        lambda g: _ended(g, _("%(why)s: the game ends without a single winner")),
    ),
    (
        r"(?P<why>.+): the game ends, (?P<who>.+) wins on markers",
        lambda g: _ended(g, _("%(why)s: the game ends, %(who)s wins on markers")),
    ),
    (r"(?P<who>.+) is out", lambda g: _who(g, _("%(who)s is out"))),
)


def _effect(text: str) -> str | None:
    return _first(_EFFECTS, text)


def translate_effect(phrase: str) -> str:
    """One phrase of :func:`engine.explain.effects` in the active language; unchanged if unknown."""
    said = _effect(str(phrase))
    return str(phrase) if said is None else said


def recognises_effect(phrase: str) -> bool:
    """Whether :func:`translate_effect` knows the phrase (and every phrase inside it)."""
    return _effect(str(phrase)) is not None
