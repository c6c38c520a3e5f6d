"""Finish and compile the catalogues in ``locale/`` with polib (no GNU gettext needed).

* sets each catalogue's header (language, plural rule: Russian has three forms);
* fills the English catalogue with its own text, so English is a complete catalogue too;
* writes every ``.mo`` next to its ``.po``.

Run by ``scripts/messages`` after extraction; ``tests/i18n/test_catalogues.py`` checks that the
committed ``.mo`` files are what this produces.
"""

from __future__ import annotations

import sys
from pathlib import Path

import polib

LOCALE = Path(__file__).resolve().parent.parent / "locale"

PLURALS = {
    "en": "nplurals=2; plural=(n != 1);",
    "es": "nplurals=2; plural=(n != 1);",
    "de": "nplurals=2; plural=(n != 1);",
    "fr": "nplurals=2; plural=(n > 1);",
    "ru": (
        "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : "
        "n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);"
    ),
}
NAMES = {"en": "English", "es": "Spanish", "fr": "French", "de": "German", "ru": "Russian"}


def finish(po: polib.POFile, lang: str) -> None:
    po.metadata.update(
        {
            "Project-Id-Version": "pacru-ladder",
            "Language": lang,
            "Language-Team": NAMES[lang],
            "MIME-Version": "1.0",
            "Content-Type": "text/plain; charset=UTF-8",
            "Content-Transfer-Encoding": "8bit",
            "Plural-Forms": PLURALS[lang],
        }
    )
    for key in ("Report-Msgid-Bugs-To", "Last-Translator"):
        po.metadata.pop(key, None)
    if lang == "en":
        for entry in po:
            if entry.msgid_plural:
                entry.msgstr_plural = {0: entry.msgid, 1: entry.msgid_plural}
            else:
                entry.msgstr = entry.msgid
            if "fuzzy" in entry.flags:
                entry.flags.remove("fuzzy")


def catalogues() -> list[tuple[str, Path]]:
    return [(path.parent.parent.name, path) for path in sorted(LOCALE.glob("*/LC_MESSAGES/*.po"))]


def main() -> int:
    for lang, path in catalogues():
        po = polib.pofile(str(path), wrapwidth=0)
        finish(po, lang)
        po.save(str(path))
        po.save_as_mofile(str(path.with_suffix(".mo")))
        print(f"{path.relative_to(LOCALE.parent)}: {len(po)} messages, {po.percent_translated()}% translated")
    return 0


if __name__ == "__main__":
    sys.exit(main())
