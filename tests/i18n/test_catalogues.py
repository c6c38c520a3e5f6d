"""The catalogues are complete and current: every message the source marks is in them, every
language translates every message (no empty and no fuzzy entry, Russian with its three plural
forms), translations keep the placeholders of their message, and the committed ``.mo`` files
are the compiled ``.po`` files."""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest
from django.conf import settings

from tests.i18n.catalogue_source import Message, python_messages, script_messages, template_messages

LOCALE = Path(settings.LOCALE_PATHS[0])
LANGS = [code for code, _ in settings.LANGUAGES]
TRANSLATED = [code for code in LANGS if code != settings.LANGUAGE_CODE]
DOMAINS = ["django", "djangojs"]
#: Python's named and positional placeholders (%(name)s, %s, %d; %% is a plain percent sign).
PLACEHOLDER = re.compile(r"%(?:\([A-Za-z_][A-Za-z0-9_]*\))?[-#0+]*\d*(?:\.\d+)?[sdif]")
#: The number of plural forms each language has.
FORMS = {"en": 2, "es": 2, "fr": 2, "de": 2, "ru": 3}


def catalogue(lang: str, domain: str) -> polib.POFile:
    path = LOCALE / lang / "LC_MESSAGES" / f"{domain}.po"
    assert path.exists(), f"{path} is missing: run scripts/messages"
    return polib.pofile(str(path))


def keyed(po: polib.POFile) -> set[Message]:
    return {(e.msgctxt or "", e.msgid, e.msgid_plural or "") for e in po if not e.obsolete}


def placeholders(text: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(text.replace("%%", "")))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("domain", DOMAINS)
def test_every_entry_is_translated_and_none_is_fuzzy(lang: str, domain: str) -> None:
    po = catalogue(lang, domain)
    assert len(po) > 0
    untranslated = [e.msgid for e in po.untranslated_entries() if not e.obsolete]
    fuzzy = [e.msgid for e in po.fuzzy_entries()]
    assert untranslated == [], f"{lang}/{domain}: {len(untranslated)} untranslated, e.g. {untranslated[:5]}"
    assert fuzzy == [], f"{lang}/{domain}: {len(fuzzy)} fuzzy, e.g. {fuzzy[:5]}"
    for entry in po:
        if entry.msgid_plural:
            forms = [entry.msgstr_plural.get(i, "") for i in range(FORMS[lang])]
            assert all(forms), f"{lang}/{domain}: {entry.msgid_plural!r} lacks a plural form: {forms}"


@pytest.mark.parametrize("lang", LANGS)
def test_the_plural_rule_is_the_languages_own(lang: str) -> None:
    for domain in DOMAINS:
        rule = catalogue(lang, domain).metadata.get("Plural-Forms", "")
        assert f"nplurals={FORMS[lang]};" in rule.replace(" ", ""), (lang, domain, rule)


@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.parametrize("domain", DOMAINS)
def test_translations_keep_their_placeholders(lang: str, domain: str) -> None:
    wrong = []
    for entry in catalogue(lang, domain).translated_entries():
        if entry.msgid_plural:
            # Every form keeps the plural message's placeholders: a Russian "one" form also
            # says 21, 31, ..., so it must print the number too.
            wanted = set(placeholders(entry.msgid_plural))
            wrong += [
                (entry.msgid, form)
                for form in entry.msgstr_plural.values()
                if set(placeholders(form)) != wanted
            ]
        elif placeholders(entry.msgid) != placeholders(entry.msgstr):
            wrong.append((entry.msgid, entry.msgstr))
    assert wrong == [], f"{lang}/{domain}: {len(wrong)} translations change placeholders, e.g. {wrong[:3]}"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("domain", DOMAINS)
def test_the_compiled_catalogues_are_current(lang: str, domain: str) -> None:
    po = catalogue(lang, domain)
    mo_path = LOCALE / lang / "LC_MESSAGES" / f"{domain}.mo"
    assert mo_path.exists(), f"{mo_path} is missing: run scripts/messages --compile"
    compiled = {
        (e.msgctxt or "", e.msgid): (e.msgstr, dict(e.msgstr_plural)) for e in polib.mofile(str(mo_path))
    }
    source = {
        (e.msgctxt or "", e.msgid): (e.msgstr, {int(k): v for k, v in e.msgstr_plural.items()})
        for e in po.translated_entries()
    }
    compiled.pop(("", ""), None)  # the header
    stale = sorted(k for k in source.keys() | compiled.keys() if source.get(k) != compiled.get(k))
    assert stale == [], (
        f"{mo_path} differs from its .po ({len(stale)} messages): run scripts/messages --compile"
    )


def test_the_catalogues_hold_every_marked_message() -> None:
    server = keyed(catalogue(settings.LANGUAGE_CODE, "django"))
    browser = keyed(catalogue(settings.LANGUAGE_CODE, "djangojs"))
    missing_server = sorted((python_messages() | template_messages()) - server)
    missing_browser = sorted(script_messages() - browser)
    assert missing_server == [], (
        f"{len(missing_server)} marked but not extracted: {missing_server[:5]} (scripts/messages)"
    )
    assert missing_browser == [], f"{len(missing_browser)} marked but not extracted: {missing_browser[:5]}"


def test_every_language_has_the_same_messages() -> None:
    for domain in DOMAINS:
        english = keyed(catalogue(settings.LANGUAGE_CODE, domain))
        for lang in TRANSLATED:
            assert keyed(catalogue(lang, domain)) == english, (lang, domain)


def test_the_source_reader_finds_marked_messages() -> None:
    """The reader behind the check above really reads each kind of source."""
    assert ("", "Skip to content", "") in template_messages()  # templates/base.html
    assert any(m[0] == "navigation" and m[1] == "main" for m in template_messages())
    assert any(m[1] == "%(turns)s table waiting for your move" and m[2] for m in template_messages())
    assert python_messages(), "no Python message found"
    assert script_messages(), "no browser-script message found"
