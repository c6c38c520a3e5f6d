"""What players read about the bot levels: each level's translated name and one-sentence
description, for the pages and the API. The levels themselves (their work per move) are
:mod:`engine.bots.levels`."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from engine.bots import levels


@dataclass(frozen=True)
class LevelText:
    number: int
    code: str  # "1" … "8": what forms and the API take
    name: Promise  # translated, e.g. "Club"
    description: Promise  # translated, one sentence

    @property
    def label(self) -> Promise:
        """``"4 · Club"``: the level as pickers show it (lazy: in the language of the request)."""
        return format_lazy("{} · {}", self.number, self.name)


_TEXTS: dict[int, tuple[Promise, Promise]] = {
    # Translators: the names of the eight bot levels, weakest to strongest (the context keeps
    # "Casual" and "Club" apart from the unrated game and the organisation).
    1: (
        pgettext_lazy("bot level", "Beginner"),
        _("Plays any legal move at random: the place to learn the rules."),
    ),
    2: (
        pgettext_lazy("bot level", "Novice"),
        _("Takes what looks best right now half the time, and any move the other half."),
    ),
    3: (
        pgettext_lazy("bot level", "Casual"),
        _("Takes what looks best right now, but one move in five is careless."),
    ),
    4: (
        pgettext_lazy("bot level", "Club"),
        _("Takes whatever looks best right now, without looking ahead."),
    ),
    5: (
        pgettext_lazy("bot level", "Strong"),
        _("Looks a few moves ahead, but misses what lies further on."),
    ),
    6: (
        pgettext_lazy("bot level", "Expert"),
        _("Looks further ahead than level 5: it punishes loose pieces and simple traps."),
    ),
    7: (
        pgettext_lazy("bot level", "Master"),
        _("Searches deeply, though not as carefully as the strongest level."),
    ),
    8: (
        pgettext_lazy("bot level", "Grandmaster"),
        _("The strongest level: searches deeply every move, a second or two a move."),
    ),
}

LEVEL_TEXTS: tuple[LevelText, ...] = tuple(
    LevelText(lv.number, lv.code, *_TEXTS[lv.number]) for lv in levels.LEVELS
)


def level_text(level: int | str) -> LevelText:
    """The texts of a level (a number, ``"3"``, a code name or a legacy kind such as ``"greedy"``)."""
    return LEVEL_TEXTS[levels.level(level).number - 1]


def choices() -> list[tuple[str, Promise]]:
    """``[("1", "1 · Beginner"), …]`` for a select (lazy labels: the language of the request)."""
    return [(t.code, t.label) for t in LEVEL_TEXTS]


def as_dicts() -> list[dict[str, object]]:
    """The levels for the API and page scripts: number, code name, translated name and description."""
    return [
        {
            "number": t.number,
            "code": t.code,
            "key": levels.LEVELS[t.number - 1].name,
            "name": str(t.name),
            "description": str(t.description),
        }
        for t in LEVEL_TEXTS
    ]
