"""Mail bombing and what sign-up, address changes and resets tell (issue 29, findings 5 and 16).

Mails nobody confirmed they want (verification, reset, notices) are limited per recipient address,
per requesting client and per account (``accounts.mail_limits``); sign-up answers the same for an
address in use, an unverified address blocks nobody, changing the address needs the password and
tells the old one, and a reset for an unknown address does the same work as for a known one."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from accounts import services
from accounts.models import Account, OutgoingMail
from common.errors import Forbidden
from tests.games.conftest import Actor

from .conftest import verified

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "correct-horse-9"
REGISTER = "/api/v1/auth/register/"


def browser_for(actor: Actor) -> Client:
    browser = Client()
    browser.force_login(actor.player.user)
    return browser


def mails_to(address: str) -> list[OutgoingMail]:
    return list(OutgoingMail.objects.filter(to__iexact=address).order_by("pk"))


def age_mails() -> None:
    """As if the last mails were sent a few minutes ago (past the once-a-minute rule)."""
    OutgoingMail.objects.update(created_at=timezone.now() - timedelta(minutes=5))


def register(username: str, email: str, client: APIClient | None = None) -> Any:
    return (client or APIClient()).post(
        REGISTER, {"username": username, "password": "tall-hedge-maze-4", "email": email}, format="json"
    )


# ------------------------------------------------------------------ finding 5: limits


def test_five_accounts_pointing_at_one_address_send_it_at_most_three_mails(db: None, make_actor: Any) -> None:
    actors = [verified(make_actor(f"bomber{i}")) for i in range(5)]
    answers = []
    for actor in actors:
        answers.append(
            browser_for(actor).post(
                "/accounts/settings/",
                {"action": "email", "email": "victim@example.org", "password": PASSWORD},
            )
        )
    assert len(mails_to("victim@example.org")) == 3
    # The fourth and fifth are told, and nothing changed on their accounts.
    assert all(a.status_code == 302 for a in answers[:3])
    for answer, actor in zip(answers[3:], actors[3:], strict=True):
        assert answer.status_code == 200 and b"too many e-mails" in answer.content
        assert Account.objects.get(user=actor.player.user).pending_email == ""
    # A "+tag" or capitals make no new inbox.
    assert register("tagged", "Victim+x@example.org").status_code == 429
    assert len(mails_to("victim+x@example.org")) == 0


def test_the_api_answers_429_throttled_past_the_limit_per_client_and_makes_no_account(
    db: None, settings: Any
) -> None:
    settings.MAIL_LIMIT_CLIENT = "3/hour"
    api = APIClient()
    for i in range(3):
        assert register(f"fresh{i}", f"fresh{i}@example.org", api).status_code == 201
    refused = register("fresh9", "fresh9@example.org", api)
    assert refused.status_code == 429
    body = refused.json()
    assert body["code"] == "throttled" and "too many e-mails" in body["detail"]
    assert not get_user_model().objects.filter(username="fresh9").exists()
    assert mails_to("fresh9@example.org") == []


def test_an_account_gets_at_most_its_limit_of_verification_mails(
    db: None, settings: Any, alice: Actor
) -> None:
    settings.MAIL_LIMIT_ACCOUNT = "3/day"
    verified(alice, "alice@example.org")
    browser = browser_for(alice)
    answers = []
    for i in range(3):
        answers.append(
            browser.post(
                "/accounts/settings/",
                {"action": "email", "email": f"new{i}@example.org", "password": PASSWORD},
            )
        )
        age_mails()
    # Each change: a link to the new address and a notice to the old one (counted both).
    verifications = OutgoingMail.objects.filter(key__startswith=f"verify:{alice.player.user_id}:")
    assert verifications.count() == 2 and OutgoingMail.objects.count() == 3
    assert b"too many e-mails" in answers[2].content
    assert Account.objects.get(user=alice.player.user).pending_email == "new1@example.org"


def test_a_guest_cannot_set_an_address(db: None, settings: Any) -> None:
    settings.GUEST_PLAY = True
    browser = Client()
    browser.post("/play-bot/", {"level": "random", "game": "pacru"})
    guest = get_user_model().objects.get(player__is_guest=True)
    with pytest.raises(Forbidden):
        services.set_email(user=guest, email="victim@example.org")
    answer = browser.post("/accounts/settings/", {"action": "email", "email": "victim@example.org"})
    assert answer.status_code == 200
    assert Account.objects.filter(user=guest, pending_email__gt="").count() == 0
    assert get_user_model().objects.get(pk=guest.pk).email == ""
    assert mails_to("victim@example.org") == []


def test_password_resets_for_one_address_stop_at_the_limit_and_answer_the_same(
    db: None, alice: Actor
) -> None:
    verified(alice, "alice@example.org")
    answers = []
    for _ in range(5):
        answers.append(Client().post("/accounts/password_reset/", {"email": "alice@example.org"}))
        age_mails()
    assert len(mails_to("alice@example.org")) == 3
    assert {(a.status_code, a["Location"]) for a in answers} == {(302, "/accounts/password_reset/done/")}


# ------------------------------------------------------------------ finding 16: what is told


def test_signing_up_with_an_address_in_use_answers_as_a_fresh_one_and_tells_its_owner(
    db: None, alice: Actor
) -> None:
    verified(alice, "alice@example.org")
    fresh = register("erin", "erin@example.org")
    in_use = register("mallory", "alice@example.org")
    assert fresh.status_code == in_use.status_code == 201
    personal = ("id", "username", "display_name", "token", "email", "created")
    same = [{k: v for k, v in r.json().items() if k not in personal} for r in (fresh, in_use)]
    assert same[0] == same[1] and same[0]["email_verified"] is False
    assert (fresh.json()["email"], in_use.json()["email"]) == ("erin@example.org", "alice@example.org")
    # The owner is told, and gets no link that would confirm the address for the other account.
    [notice] = mails_to("alice@example.org")
    assert "Someone tried to use your e-mail address" in notice.subject
    assert "/accounts/verify/" not in notice.text
    assert Account.objects.get(user=alice.player.user).email_verified_at is not None
    # The same through the sign-up page.
    page = Client().post(
        "/accounts/signup/",
        {
            "username": "trudy",
            "email": "alice@example.org",
            "password1": "tall-hedge-maze-4",
            "password2": "tall-hedge-maze-4",
        },
    )
    assert page.status_code == 302


def test_an_unverified_address_blocks_nobody_and_verifying_it_takes_it_from_the_others(
    db: None,
) -> None:
    User = get_user_model()
    assert register("squatter", "dana@example.org").status_code == 201
    assert register("dana", "dana@example.org").status_code == 201
    dana = User.objects.get(username="dana")
    token = services.signing.dumps({"u": dana.pk, "e": "dana@example.org"}, salt=services.VERIFY_SALT)
    assert Client().get(f"/accounts/verify/{token}/").status_code == 200
    assert Account.objects.get(user=dana).email_verified_at is not None
    assert User.objects.get(username="squatter").email == ""
    # Now it is dana's: the squatter's own old link no longer confirms it.
    squatter = User.objects.get(username="squatter")
    old = services.signing.dumps({"u": squatter.pk, "e": "dana@example.org"}, salt=services.VERIFY_SALT)
    assert Client().get(f"/accounts/verify/{old}/").status_code == 400


def test_changing_the_address_needs_the_password_and_tells_the_old_address(db: None, alice: Actor) -> None:
    verified(alice, "alice@example.org")
    browser = browser_for(alice)
    for password in ("", "wrong-password"):
        answer = browser.post(
            "/accounts/settings/", {"action": "email", "email": "alice@new.example", "password": password}
        )
        assert answer.status_code == 200
        assert Account.objects.get(user=alice.player.user).pending_email == ""
    assert OutgoingMail.objects.count() == 0
    answer = browser.post(
        "/accounts/settings/", {"action": "email", "email": "alice@new.example", "password": PASSWORD}
    )
    assert answer.status_code == 302
    assert Account.objects.get(user=alice.player.user).pending_email == "alice@new.example"
    [notice] = mails_to("alice@example.org")
    assert "is being changed" in notice.subject and "alice@new.example" in notice.text
    [link] = mails_to("alice@new.example")
    assert "/accounts/verify/" in link.text


def reset_queries(address: str) -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        answer = Client().post("/accounts/password_reset/", {"email": address})
    assert answer.status_code == 302
    return [q["sql"] for q in queries.captured_queries]


def test_a_reset_for_an_unknown_address_does_the_same_work_as_for_a_known_one(
    db: None, alice: Actor, bob: Actor
) -> None:
    verified(alice, "alice@example.org")
    Client().get("/accounts/password_reset/")  # the first request's one-off work is done
    known = reset_queries("alice@example.org")
    unknown = reset_queries("nobody@example.org")
    inserts = [q for q in known if 'INSERT INTO "accounts_outgoingmail"' in q]
    assert len(inserts) == 1
    assert len([q for q in unknown if 'INSERT INTO "accounts_outgoingmail"' in q]) == 1
    assert len(known) == len(unknown)
    # Only the known address's mail is kept.
    assert [m.to for m in OutgoingMail.objects.all()] == ["alice@example.org"]


def test_a_reset_goes_only_to_the_account_that_verified_the_address(db: None, alice: Actor) -> None:
    verified(alice, "alice@example.org")
    assert register("mallory", "alice@example.org").status_code == 201
    OutgoingMail.objects.all().delete()
    Client().post("/accounts/password_reset/", {"email": "alice@example.org"})
    [reset] = mails_to("alice@example.org")
    assert reset.user_id == alice.player.user_id
