"""Which language a page or an API answer is in: the browser's Accept-Language, the footer's
switcher (a cookie), a signed-in player's saved choice; and the API's illegal-move refusal in
French with the same code as in English."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.utils import translation

from accounts.models import Account
from games.models import Table
from tests.games.conftest import Actor, started_table

pytestmark = pytest.mark.django_db


def words(lang: str, text: str, context: str | None = None) -> str:
    """``text`` as the catalogue of ``lang`` has it (and not the English: else the check is empty)."""
    with translation.override(lang):
        out = translation.pgettext(context, text) if context else translation.gettext(text)
    assert out != text or lang == "en", f"{lang} has no translation of {text!r}"
    return out


def word_js(lang: str, text: str) -> str:
    """``text`` as the browser scripts' catalogue of ``lang`` has it."""
    from django.utils.translation.trans_real import DjangoTranslation

    return DjangoTranslation(lang, domain="djangojs").gettext(text)


def html_lang(body: str) -> str:
    match = re.search(r'<html lang="([^"]+)"', body)
    assert match, "no <html lang>"
    return match.group(1)


def test_the_browsers_language_is_used() -> None:
    for lang in ["es", "fr", "de", "ru"]:
        r = Client().get("/rules/pacru/", HTTP_ACCEPT_LANGUAGE=f"{lang}-XX,{lang};q=0.9,en;q=0.5")
        body = r.content.decode()
        assert r.status_code == 200 and html_lang(body) == lang
        assert r["Content-Language"] == lang and "Accept-Language" in r["Vary"]
        assert words(lang, "Ladders") in body and words(lang, "Skip to content") in body


def test_an_unknown_or_missing_language_gives_english() -> None:
    for header in [None, "ja,zh;q=0.8", "xx"]:
        kw = {"HTTP_ACCEPT_LANGUAGE": header} if header else {}
        body = Client().get("/rules/pacru/", **kw).content.decode()
        assert html_lang(body) == "en" and "Skip to content" in body


def test_the_footer_switcher_sets_the_language_for_this_browser() -> None:
    client = Client()
    body = client.get("/ladders/").content.decode()
    assert 'action="/i18n/setlang/"' in body and 'name="language"' in body
    for code in ["en", "es", "fr", "de", "ru"]:
        assert f'value="{code}"' in body
    r = client.post("/i18n/setlang/", {"language": "de", "next": "/ladders/"}, HTTP_ACCEPT_LANGUAGE="fr")
    assert r.status_code == 302 and r["Location"] == "/ladders/"
    assert client.cookies["django_language"].value == "de"
    # The cookie beats the browser's header from now on.
    assert html_lang(client.get("/ladders/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()) == "de"


def test_the_switcher_refuses_an_unknown_language_and_changes_nothing() -> None:
    client = Client()
    r = client.post("/i18n/setlang/", {"language": "xx", "next": "/ladders/"})
    assert r.status_code == 302 and "django_language" not in client.cookies
    assert client.get("/i18n/setlang/").status_code == 405


def test_the_switcher_saves_a_players_choice_which_follows_them(alice: Actor) -> None:
    first = Client()
    first.force_login(alice.player.user)
    first.post("/i18n/setlang/", {"language": "ru", "next": "/"})
    assert Account.objects.get(user=alice.player.user).language == "ru"
    # Another browser, asking for German: the saved choice wins on pages.
    second = Client()
    second.force_login(alice.player.user)
    assert html_lang(second.get("/ladders/", HTTP_ACCEPT_LANGUAGE="de").content.decode()) == "ru"


def test_the_api_follows_accept_language_before_the_saved_choice(alice: Actor, bob: Actor) -> None:
    Account.objects.update_or_create(user=alice.player.user, defaults={"language": "de"})
    table = started_table([alice, bob], "pacru")
    url = f"/api/v1/tables/{table.pk}/moves/"
    answers = {}
    for lang in ["en", "fr", None]:
        kw = {"HTTP_ACCEPT_LANGUAGE": lang} if lang else {}
        r = alice.post(url, {"ply": 0, "move": "e1-e5"}, **kw)
        assert r.status_code == 400
        answers[lang] = r.json()
    assert answers["en"]["code"] == answers["fr"]["code"] == answers[None]["code"] == "illegal_move"
    assert "power 1" in answers["en"]["detail"]
    assert answers["fr"]["detail"] != answers["en"]["detail"]
    # No header: the player's saved German.
    assert answers[None]["detail"] not in (answers["en"]["detail"], answers["fr"]["detail"])
    table.refresh_from_db()
    assert table.ply == 0 and table.status == Table.Status.ACTIVE


def test_an_illegal_move_is_explained_in_french_with_the_english_code(alice: Actor, bob: Actor) -> None:
    table = started_table([alice, bob], "pacru")
    url = f"/api/v1/tables/{table.pk}/moves/"
    cases = ["e1-e5", "a3-a4", "a7-b7", "z9-a1", "pass", "a3-b4(j9)", "e5<(a1,b2)"]
    for move in cases:
        en = alice.post(url, {"ply": 0, "move": move}, HTTP_ACCEPT_LANGUAGE="en").json()
        fr = alice.post(url, {"ply": 0, "move": move}, HTTP_ACCEPT_LANGUAGE="fr").json()
        assert fr["code"] == en["code"] == "illegal_move", (move, en, fr)
        assert fr["detail"] != en["detail"], (move, fr)
    power = alice.post(url, {"ply": 0, "move": "e1-e5"}, HTTP_ACCEPT_LANGUAGE="fr").json()["detail"]
    # Field names stay as they are; the sentence around them is French.
    assert "e1" in power and "power" not in power


def test_the_browser_catalogue_is_per_language_and_cached() -> None:
    en = Client().get("/jsi18n/en.js")
    fr = Client().get("/jsi18n/fr.js")
    assert en.status_code == fr.status_code == 200
    assert "max-age=86400" in fr["Cache-Control"]
    french = word_js("fr", "Your turn.")
    assert french != "Your turn." and json.dumps(french).encode() in fr.content
    assert b"newcatalog = {}" not in fr.content and fr.content != en.content
    page = Client().get("/ladders/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert re.search(r'<script src="/jsi18n/fr\.js\?v=[0-9a-f]{10}">', page)


def test_dates_on_a_page_follow_the_language(alice: Actor) -> None:
    from datetime import UTC, datetime

    from games.models import Player

    Player.objects.filter(pk=alice.player.pk).update(created=datetime(2026, 3, 7, 18, 5, tzinfo=UTC))
    shown = {}
    for lang in ["en", "es", "fr", "de", "ru"]:
        body = Client().get(f"/players/{alice.player.pk}/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        assert html_lang(body) == lang
        shown[lang] = body
    assert "7 Mar 2026" in shown["en"]  # the site's British style (config/formats/en)
    assert "7. März 2026" in shown["de"]
    assert "7 марта 2026" in shown["ru"]
    assert "7 mars 2026" in shown["fr"]
    assert "7 de marzo de 2026" in shown["es"]


def test_a_token_reads_its_saved_language_with_the_token_and_follows_a_change(
    alice: Actor, bob: Actor
) -> None:
    """The saved language of a token's player comes with the token (each process caches it): no
    query of its own on a request; a saved change is followed from the next request."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from common import auth

    auth.forget_tokens()
    Account.objects.update_or_create(user=alice.player.user, defaults={"language": "fr"})
    table = started_table([alice, bob], "pacru")
    url = f"/api/v1/tables/{table.pk}/moves/"
    alice.post(url, {"ply": 0, "move": "e1-e5"})  # the token is read (and cached) here
    with CaptureQueriesContext(connection) as queries:
        fr = alice.post(url, {"ply": 0, "move": "e1-e5"}).json()
    assert not [q["sql"] for q in queries if "accounts_account" in q["sql"] or "authtoken_token" in q["sql"]]
    assert (
        fr["detail"]
        == alice.post(url, {"ply": 0, "move": "e1-e5"}, HTTP_ACCEPT_LANGUAGE="fr").json()["detail"]
    )
    account = Account.objects.get(user=alice.player.user)
    account.language = "de"
    account.save()
    de = alice.post(url, {"ply": 0, "move": "e1-e5"}).json()
    assert (
        de["detail"]
        == alice.post(url, {"ply": 0, "move": "e1-e5"}, HTTP_ACCEPT_LANGUAGE="de").json()["detail"]
    )
    assert de["detail"] != fr["detail"]
