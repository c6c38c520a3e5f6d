"""Mail and notifications in the recipient's language and time zone, whoever's request (or
which worker) makes them: ``accounts.notify.recipient_language`` picks the language (the
account's choice, else the site's), every mail says it in ``Content-Language``, and its words and
times are written with that language and the recipient's zone active.

The project's catalogues may not hold a message yet, so these tests do not look for translated
sentences: they read the header, and the dates, whose weekday and month names come from
Django's own catalogues."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.utils import formats, timezone, translation

from accounts import outbox
from accounts.models import Account, OutgoingMail
from accounts.notify import notify, recipient_language, send_digests, set_email_mode
from tests.accounts.conftest import verified
from tests.accounts.smtp import SmtpServer, text_of
from tests.games.conftest import Actor

DEADLINE = datetime(2020, 11, 24, 10, 0, tzinfo=UTC)  # a Tuesday


def choose(actor: Actor, language: str = "", time_zone: str = "") -> None:
    Account.objects.update_or_create(
        user=actor.player.user, defaults={"language": language, "time_zone": time_zone}
    )
    actor.player.user.refresh_from_db()  # forget a cached account


def your_turn(actor: Actor, key: str = "turn:41:3") -> Any:
    return notify(
        user_id=actor.player.user_id,
        kind="your_turn",
        key=key,
        params={
            "table": 41,
            "ply": 3,
            "game": "Pacru",
            "opponents": ["Bob"],
            "deadline": "Tue 24 Nov 10:00 (UTC)",
            "deadline_at": DEADLINE.isoformat(),
        },
        url="/tables/41/",
    )


def written(language: str) -> str:
    """The deadline as a notification writes it in ``language``, in Paris."""
    with translation.override(language):
        return formats.date_format(
            DEADLINE.astimezone(ZoneInfo("Europe/Paris")),
            translation.pgettext("date format", "D d M H:i"),
        )


def test_the_recipient_language_is_their_choice_else_the_site_language(
    db: None, alice: Actor, settings: Any
) -> None:
    assert recipient_language(user=None) == settings.LANGUAGE_CODE == "en"
    assert recipient_language(user=alice.player.user) == "en"  # no account row yet
    choose(alice, "fr")
    assert recipient_language(user=alice.player.user) == "fr"
    assert recipient_language(user=alice.player.user, default="de") == "fr"  # the choice wins
    choose(alice, "")
    assert recipient_language(user=alice.player.user) == "en"
    # A mail the recipient asked for themselves: their page's language, when they chose none.
    assert recipient_language(user=alice.player.user, default="es") == "es"
    assert recipient_language(user=alice.player.user, default="de-AT") == "de"
    assert recipient_language(user=alice.player.user, default="xx") == "en"
    choose(alice, "xx")  # a language the site no longer offers
    assert recipient_language(user=alice.player.user) == "en"


def test_a_notification_mail_is_written_in_french_for_a_french_player(
    db: None, smtp: SmtpServer, alice: Actor
) -> None:
    verified(alice)
    choose(alice, "fr", "Europe/Paris")
    # Made in somebody else's request (their move), in German.
    with translation.override("de"):
        made = your_turn(alice)
    assert made is not None
    [queued] = OutgoingMail.objects.filter(key=f"n:{made.pk}")
    assert queued.headers["Content-Language"] == "fr"
    assert outbox.send_due() == {"sent": 1}
    [mail] = smtp.to(alice.player.user.email)
    assert mail["Content-Language"] == "fr"
    # The deadline in her zone, with French day and month names.
    assert written("fr") != written("en")
    assert f"{written('fr')} (Europe/Paris)" in text_of(mail)
    assert "11:00 (Europe/Paris)" in text_of(mail)
    assert translation.get_language() == "en"  # nothing leaks out of the mail's language


def test_a_player_who_chose_no_language_gets_the_site_language_and_utc(
    db: None, smtp: SmtpServer, alice: Actor
) -> None:
    verified(alice)
    with translation.override("ru"):
        made = your_turn(alice)
    assert made is not None
    outbox.send_due()
    [mail] = smtp.to(alice.player.user.email)
    assert mail["Content-Language"] == "en"
    assert "Move by Tue 24 Nov 10:00 (UTC)." in text_of(mail)


def test_a_digest_is_written_in_the_recipient_language(db: None, smtp: SmtpServer, alice: Actor) -> None:
    verified(alice)
    choose(alice, "fr", "Europe/Paris")
    set_email_mode(user_id=alice.player.user_id, kind="your_turn", mode="hourly")
    your_turn(alice, "turn:41:3")
    your_turn(alice, "turn:42:5")
    assert send_digests(now=timezone.now() + timedelta(hours=1, minutes=1)) == 1
    outbox.send_due()
    [mail] = smtp.to(alice.player.user.email)
    assert mail["Content-Language"] == "fr"
    assert f"{written('fr')} (Europe/Paris)" in text_of(mail)


def test_the_password_reset_mail_is_in_the_account_language(db: None, smtp: SmtpServer, alice: Actor) -> None:
    verified(alice, "alice@example.org")
    choose(alice, "de")
    answer = Client().post(
        "/accounts/password_reset/", {"email": "alice@example.org"}, HTTP_ACCEPT_LANGUAGE="es"
    )
    assert answer.status_code == 302
    outbox.send_due()
    [mail] = smtp.to("alice@example.org")
    assert mail["Content-Language"] == "de"


def test_without_a_choice_a_mail_one_asked_for_follows_the_page_language(
    db: None, smtp: SmtpServer, alice: Actor
) -> None:
    verified(alice, "alice@example.org")
    choose(alice, "")
    Client().post("/accounts/password_reset/", {"email": "alice@example.org"}, HTTP_ACCEPT_LANGUAGE="es")
    browser = Client(HTTP_ACCEPT_LANGUAGE="ru")
    browser.force_login(alice.player.user)
    answer = browser.post(
        "/accounts/settings/",
        {"action": "email", "email": "alice@new.example", "password": "correct-horse-9"},
    )
    assert answer.status_code == 302
    outbox.send_due()
    # (The old address is also told of the change: accounts.services.change_email.)
    [reset] = [m for m in smtp.to("alice@example.org") if "reset." in str(m["Message-ID"])]
    assert reset["Content-Language"] == "es"
    [verify] = smtp.to("alice@new.example")
    assert verify["Content-Language"] == "ru"


@pytest.mark.parametrize("language", ["fr", ""])
def test_a_verification_mail_follows_the_saved_choice(
    db: None, smtp: SmtpServer, alice: Actor, language: str
) -> None:
    choose(alice, language)
    browser = Client(HTTP_ACCEPT_LANGUAGE="de")
    browser.force_login(alice.player.user)
    browser.post(
        "/accounts/settings/",
        {"action": "email", "email": "alice@example.org", "password": "correct-horse-9"},
    )
    outbox.send_due()
    [mail] = smtp.to("alice@example.org")
    assert mail["Content-Language"] == (language or "de")


def test_saving_a_language_on_the_settings_page_is_used_at_once_and_in_mail(
    db: None, smtp: SmtpServer, alice: Actor
) -> None:
    verified(alice)
    browser = Client(HTTP_ACCEPT_LANGUAGE="de")
    browser.force_login(alice.player.user)
    assert browser.get("/accounts/settings/")["Content-Language"] == "de"
    answer = browser.post("/accounts/settings/", {"action": "preferences", "language": "fr", "time_zone": ""})
    assert answer.status_code == 302
    assert Account.objects.get(user=alice.player.user).language == "fr"
    assert browser.get("/accounts/settings/")["Content-Language"] == "fr"
    with translation.override("en"):
        your_turn(alice)
    outbox.send_due()
    [mail] = smtp.to(alice.player.user.email)
    assert mail["Content-Language"] == "fr"
    # Back to the browser's choice.
    browser.post("/accounts/settings/", {"action": "preferences", "language": "", "time_zone": ""})
    assert browser.get("/accounts/settings/")["Content-Language"] == "de"
