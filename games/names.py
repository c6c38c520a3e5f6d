"""Display names: how they are normalised, which characters they may hold, and their key.

A name is NFKC-normalised, trimmed and its runs of spaces collapsed to one; it may not hold
control (Cc) or format (Cf) characters (bidirectional overrides such as U+202E, zero-width
spaces and joiners), private-use, unassigned or surrogate code points, line or paragraph
separators, or the few letters that draw nothing (U+3164 HANGUL FILLER, …); it needs at least
one visible character and at most :data:`MAX_LENGTH` characters after normalisation.

Two players may not have names with the same :func:`name_key` (the normalised name, case
folded): ``Player.name_key`` is unique in the database, so a race cannot make two.
"""

from __future__ import annotations

import re
import unicodedata

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

MAX_LENGTH = 40

#: Letters and symbols that are not Cc/Cf yet draw nothing (or only blank space).
INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e\u17b4\u17b5\u034f")
#: Categories refused anywhere in a name, with the refusal (``%(code)s`` is the code point,
#: ``U+202E``).
REFUSED_CATEGORIES = {
    "Cc": gettext_lazy("%(code)s (a control character) is not allowed in a name"),
    "Cf": gettext_lazy("%(code)s (an invisible formatting character) is not allowed in a name"),
    "Co": gettext_lazy("%(code)s (a private-use character) is not allowed in a name"),
    "Cs": gettext_lazy("%(code)s (a surrogate) is not allowed in a name"),
    "Cn": gettext_lazy("%(code)s (an unassigned code point) is not allowed in a name"),
    "Zl": gettext_lazy("%(code)s (a line separator) is not allowed in a name"),
    "Zp": gettext_lazy("%(code)s (a paragraph separator) is not allowed in a name"),
}
#: At most this many combining marks on one character (no "Zalgo" names that cover a page).
MAX_MARKS = 3
#: Names of the house bots (``games.housebots``): only bots may carry them.
BOT_NAME = re.compile(r"^(random|greedy|search) bot( \d+)?$")
#: Names of guest accounts: only guests may carry them.
GUEST_NAME = re.compile(r"^guest [0-9a-f]{6,8}$")


class InvalidName(ValueError):
    """A name that cannot be used; the message says why."""


def _nfkc(text: str) -> str:
    return unicodedata.normalize("NFKC", text)


def collapse(text: str) -> str:
    """NFKC, trimmed, every run of whitespace made one space (no validation)."""
    return " ".join(_nfkc(text).split())


def name_key(text: str) -> str | None:
    """The key two names must not share: the normalised name, case folded (None if empty)."""
    key = _nfkc(collapse(text).casefold())
    return key or None


def _refused(ch: str) -> str | None:
    cat = unicodedata.category(ch)
    code = f"U+{ord(ch):04X}"
    if cat in REFUSED_CATEGORIES:
        return str(REFUSED_CATEGORIES[cat]) % {"code": code}
    if ch in INVISIBLE:
        return _("%(code)s (an invisible character) is not allowed in a name") % {"code": code}
    return None


def clean_name(raw: str) -> str:
    """The normalised name, or :class:`InvalidName` saying which character or rule failed."""
    text = _nfkc(raw).strip()
    # The characters as sent first (NFKC can turn one invisible letter into another), then as kept.
    for ch in [*raw.strip(), *text]:
        if why := _refused(ch):
            raise InvalidName(why)
    marks = 0
    for ch in text:
        if unicodedata.category(ch) in ("Mn", "Me"):
            marks += 1
            if marks > MAX_MARKS:
                raise InvalidName(
                    ngettext(
                        "at most %(n)d combining mark on one character in a name",
                        "at most %(n)d combining marks on one character in a name",
                        MAX_MARKS,
                    )
                    % {"n": MAX_MARKS}
                )
        else:
            marks = 0
    name = " ".join(text.split())
    if not any(unicodedata.category(ch)[0] in "LNPS" for ch in name):
        raise InvalidName(_("a name needs at least one visible character"))
    if len(name) > MAX_LENGTH:
        raise InvalidName(
            ngettext(
                "a name can have at most %(max)d character (this one has %(n)d)",
                "a name can have at most %(max)d characters (this one has %(n)d)",
                MAX_LENGTH,
            )
            % {"max": MAX_LENGTH, "n": len(name)}
        )
    return name


def reserved(name: str, *, is_bot: bool = False, is_guest: bool = False) -> str | None:
    """Why ``name`` is reserved for another kind of account, or None."""
    key = name_key(name) or ""
    if not is_bot and BOT_NAME.match(key):
        return _("the name %(name)s is reserved for the house bots") % {"name": repr(name)}
    if not is_guest and GUEST_NAME.match(key):
        return _("the name %(name)s is reserved for guest accounts") % {"name": repr(name)}
    return None


def candidates(base: str, limit: int = 50) -> list[str]:
    """``base``, then ``base (2)``, ``base (3)``, … each at most :data:`MAX_LENGTH` long."""
    out = [base[:MAX_LENGTH]]
    for n in range(2, limit + 1):
        suffix = f" ({n})"
        out.append(base[: MAX_LENGTH - len(suffix)].rstrip() + suffix)
    return out
