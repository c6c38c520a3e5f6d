"""Sign-up is written once (issue 32, item 7): the sign-up page and the register API both go
through ``accounts.services.sign_up``, so they refuse the same names the same way, send the one
verification mail, always leave an account row, and a refusal part-way (a mail limit reached
after the user was written) leaves nothing behind. Every action of ``accounts.services`` takes
its arguments by keyword, as the other apps' services do."""

from __future__ import annotations

import inspect
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from accounts import services
from accounts.mail_limits import MailLimited
from accounts.models import Account, OutgoingMail
from common.errors import InvalidInput
from games.models import Player
from tests.games.conftest import Actor

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "tall-hedge-maze-4"
REGISTER = "/api/v1/auth/register/"


def by_page(username: str, **extra: str) -> Any:
    data = {"username": username, "password1": PASSWORD, "password2": PASSWORD, **extra}
    return Client().post("/accounts/signup/", data)


def by_api(username: str, **extra: str) -> Any:
    return APIClient().post(REGISTER, {"username": username, "password": PASSWORD, **extra}, format="json")


def verification_mails(username: str) -> list[OutgoingMail]:
    user = get_user_model().objects.get(username=username)
    return list(OutgoingMail.objects.filter(key__startswith=f"verify:{user.pk}:"))


def nothing_of(username: str, address: str) -> bool:
    return not (
        get_user_model().objects.filter(username=username).exists()
        or Player.objects.filter(user__username=username).exists()
        or Account.objects.filter(user__username=username).exists()
        or OutgoingMail.objects.filter(to__iexact=address).exists()
    )


def test_the_page_and_the_api_sign_up_through_the_one_service(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[dict[str, Any]] = []
    real = services.sign_up

    def spy(**kwargs: Any) -> Any:
        calls.append(kwargs)
        return real(**kwargs)

    monkeypatch.setattr(services, "sign_up", spy)
    assert by_page("erin", email="erin@example.org", display_name="Erin").status_code == 302
    assert by_api("finn", email="finn@example.org", display_name="Finn").status_code == 201
    assert [(c["username"], c["email"], c["display_name"]) for c in calls] == [
        ("erin", "erin@example.org", "Erin"),
        ("finn", "finn@example.org", "Finn"),
    ]
    assert all(c["client"] == "127.0.0.1" for c in calls)  # the mail limits count the asker
    for username in ("erin", "finn"):
        [mail] = verification_mails(username)
        assert mail.to == f"{username}@example.org"
        assert Account.objects.get(user__username=username).email_verified_at is None


def test_every_sign_up_has_its_account_row_with_or_without_an_address() -> None:
    assert by_page("gail").status_code == 302
    assert by_api("hugo").status_code == 201
    player = services.sign_up(username="ivan", password=PASSWORD)
    assert player.user.username == "ivan" and player.display_name == "ivan"
    for username in ("gail", "hugo", "ivan"):
        assert Account.objects.filter(user__username=username, pending_email="").exists()
        assert OutgoingMail.objects.filter(user__username=username).count() == 0


def test_a_look_alike_name_is_refused_the_same_way_on_both_paths(alice: Actor) -> None:
    look_alike = "\u0430lice"  # a Cyrillic а
    with pytest.raises(InvalidInput) as refusal:
        services.sign_up(username="mallory", password=PASSWORD, display_name=look_alike)
    [problem] = refusal.value.extra["fields"]["display_name"]
    assert "taken by another player" in problem
    api = by_api("mallory", display_name=look_alike)
    assert api.status_code == 400
    assert api.json()["detail"] == str(refusal.value)
    page = by_page("mallory", display_name=look_alike)
    assert page.status_code == 200
    assert page.context["form"].errors["display_name"] == [problem]
    assert not get_user_model().objects.filter(username="mallory").exists()


def test_a_refusal_part_way_leaves_nothing_half_written(settings: Any) -> None:
    """The mail limit refuses in the last step, after the user, its player and its account row
    were written: all of them go, and no mail is queued."""
    settings.MAIL_LIMIT_ADDRESS = "0/day"
    with pytest.raises(MailLimited):
        services.sign_up(username="jack", password=PASSWORD, email="jack@example.org")
    assert nothing_of("jack", "jack@example.org")
    api = by_api("kate", email="kate@example.org")
    assert api.status_code == 429 and api.json()["code"] == "throttled"
    assert nothing_of("kate", "kate@example.org")
    page = by_page("liam", email="liam@example.org")
    assert page.status_code == 200 and "too many e-mails" in page.context["form"].errors["email"][0]
    assert nothing_of("liam", "liam@example.org")


def test_the_service_keeps_the_apis_rules_and_words(settings: Any) -> None:
    settings.SIGNUP_EMAIL_REQUIRED = True
    with pytest.raises(InvalidInput) as refusal:
        services.sign_up(username="mona", password=PASSWORD)
    assert refusal.value.extra["fields"] == {"email": ["required"]}
    assert by_api("mona").json()["detail"] == str(refusal.value)
    settings.SIGNUP_EMAIL_REQUIRED = False
    with pytest.raises(InvalidInput, match="password"):
        services.sign_up(username="nina", password="12345678")  # too common, all digits
    assert not get_user_model().objects.filter(username__in=["mona", "nina"]).exists()


def test_every_action_of_accounts_services_takes_keywords_only() -> None:
    positional = [
        f"{name}({parameter})"
        for name, function in inspect.getmembers(services, inspect.isfunction)
        if function.__module__ == services.__name__ and not name.startswith("_")
        for parameter, p in inspect.signature(function).parameters.items()
        if p.kind is not inspect.Parameter.KEYWORD_ONLY
    ]
    assert positional == []
    assert "sign_up" in dir(services)
