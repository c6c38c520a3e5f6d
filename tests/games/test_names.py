"""Display names: normalised, no invisible or control characters, unique after case folding."""

from __future__ import annotations

import importlib
from collections.abc import Callable

import pytest
from django.apps import apps as django_apps
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from common.errors import InvalidInput
from games import services
from games.housebots import house_bot
from games.models import Player
from games.names import name_key

from .conftest import Actor

REGISTER = "/api/v1/auth/register/"


def register(username: str, display_name: str) -> object:
    return APIClient().post(
        REGISTER, {"username": username, "password": "long-enough-pass", "display_name": display_name}
    )


@pytest.mark.parametrize(
    ("raw", "char"),
    [
        ("Ali\u202ece", "U+202E"),  # right-to-left override
        ("Al\u200bice", "U+200B"),  # zero-width space
        ("Ali\u2066ce", "U+2066"),  # left-to-right isolate
        ("Al\x07ice", "U+0007"),  # bell
        ("Al\nice", "U+000A"),
        ("\u3164", "U+3164"),  # Hangul filler: a letter that draws nothing
        ("Bob\ufeff", "U+FEFF"),
    ],
)
def test_the_api_refuses_invisible_and_control_characters_naming_them(db: None, raw: str, char: str) -> None:
    r = register("mallory", raw)
    assert r.status_code == 400, r.content
    body = r.json()
    assert f"{char} " in body["detail"] and "is not allowed in a name" in body["detail"]
    assert "display_name" in body["fields"]
    assert not get_user_model().objects.filter(username="mallory").exists()


def test_names_are_normalised_trimmed_and_collapsed(db: None) -> None:
    r = register(
        "wide", "  \uff21\uff4e\uff4e   \u00a0 Lee\u2003 "
    )  # full-width "Ann", no-break and em spaces
    assert r.status_code == 201, r.content
    player = Player.objects.get(user__username="wide")
    assert player.display_name == "Ann Lee" and player.name_key == "ann lee"


def test_length_is_counted_after_normalisation(db: None) -> None:
    assert register("longname", "x" * 41).status_code == 400
    assert register("spaced", "  " + "y" * 40 + "   ").status_code == 201
    detail = register("blank", "   ").json()
    # An all-blank display name falls back to the username (as an empty one always did).
    assert detail["display_name"] == "blank"
    r = register("marks", "a\u0301\u0302\u0303\u0304\u0305")
    assert r.status_code == 400 and "combining marks" in r.json()["detail"]


def test_a_name_that_only_differs_in_case_or_width_is_taken(alice: Actor) -> None:
    for clash in ["alice", "ALICE", " Alice ", "\uff21lice"]:
        r = register("mallory", clash)
        assert r.status_code == 400, clash
        assert "taken" in r.json()["detail"] and r.json()["fields"]["display_name"]
    assert register("mallory", "Alice B").status_code == 201


def test_renaming_checks_the_same_rules_and_keeps_ones_own_name(alice: Actor, bob: Actor) -> None:
    with pytest.raises(InvalidInput, match="taken"):
        services.player_rename(player=bob.player, display_name="ALICE")
    with pytest.raises(InvalidInput, match="U\\+202E"):
        services.player_rename(player=bob.player, display_name="Bo\u202eb")
    services.player_rename(player=alice.player, display_name="ALICE")  # her own name, new case
    alice.player.refresh_from_db()
    assert alice.player.display_name == "ALICE" and alice.player.name_key == "alice"


def test_the_database_refuses_two_players_with_one_key(alice: Actor) -> None:
    user = get_user_model().objects.create_user(username="sneaky")
    player = user.player
    player.display_name = "aLiCe"
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():
        player.save()


def test_an_account_whose_username_clashes_gets_a_free_name(alice: Actor) -> None:
    # Made outside the services (admin, createsuperuser): the player gets "alice (2)".
    user = get_user_model().objects.create_user(username="ALICE_")
    assert user.player.display_name == "ALICE_"
    other = get_user_model().objects.create_user(username="Alice")
    assert other.player.display_name == "Alice (2)"


def test_bot_and_guest_names_are_reserved(db: None) -> None:
    assert "reserved" in register("faker", "Greedy Bot").json()["detail"]
    assert "reserved" in register("faker", "greedy bot 2").json()["detail"]
    assert "reserved" in register("faker", "Guest 1a2b3c4d").json()["detail"]
    bot = house_bot("greedy")
    assert bot.display_name == "Greedy Bot" and bot.is_bot


def test_house_bots_keep_working_when_their_name_was_taken_before_the_rules(db: None) -> None:
    # A person named "Random Bot" from before the reservation keeps the name; the bot gets another.
    user = get_user_model().objects.create_user(username="person")
    Player.objects.filter(user=user).update(display_name="Random Bot", name_key=name_key("Random Bot"))
    bot = house_bot("random")
    assert bot.is_bot and bot.display_name == "Random Bot (2)"


def test_the_sign_up_page_shows_name_errors_on_the_form(alice: Actor) -> None:
    def signup(username: str, display_name: str) -> object:
        return Client().post(
            "/accounts/signup/",
            {"username": username, "display_name": display_name, "password1": "a-long-passphrase-77",
             "password2": "a-long-passphrase-77"},
        )  # fmt: skip

    r = signup("mallory", "ali\u202ece")
    assert r.status_code == 200 and "U+202E" in r.content.decode()
    r = signup("mallory", "ALICE")
    assert r.status_code == 200 and "taken" in r.content.decode()
    assert not get_user_model().objects.filter(username="mallory").exists()
    assert signup("mallory", "  Mal   Lory ").status_code == 302
    assert Player.objects.get(user__username="mallory").display_name == "Mal Lory"


def test_the_admin_form_applies_the_rules(alice: Actor, admin_client: Client) -> None:
    bob = services.player_register(username="bob", password="correct-horse-9", display_name="Bob")
    r = admin_client.post(
        f"/admin/games/player/{bob.pk}/change/",
        {"user": bob.user_id, "display_name": "alice", "bot_level": "", "bot_budget": "0.5"},
    )
    assert r.status_code == 200 and "taken" in r.content.decode()
    bob.refresh_from_db()
    assert bob.display_name == "Bob"


def test_the_migration_cleans_and_deduplicates_existing_names(db: None) -> None:
    migration = importlib.import_module("games.migrations.0006_names_and_guests")
    User = get_user_model()
    made: list[Player] = []
    for username, name in [("old", "Dup"), ("newer", "dup "), ("newest", "DUP"), ("evil", "Ev\u202eil"),
                           ("guest-abc123", "Guest abc123"), ("empty", "\u200b")]:  # fmt: skip
        user = User.objects.create_user(username=username)
        if username.startswith("guest-"):
            user.set_unusable_password()
            user.save()
        Player.objects.filter(user=user).update(display_name=name, name_key=None)
        made.append(Player.objects.get(user=user))
    migration.fill_keys(django_apps, None)
    names = {p.user.username: (p.display_name, p.name_key, p.is_guest) for p in Player.objects.all()}
    assert names["old"] == ("Dup", "dup", False)
    assert names["newer"] == ("dup (2)", "dup (2)", False)
    assert names["newest"] == ("DUP (3)", "dup (3)", False)
    assert names["evil"][0] == "Evil"
    assert names["empty"][0] == "empty"
    assert names["guest-abc123"][2] is True


def test_concurrent_style_rename_race_is_caught(alice: Actor, make_actor: Callable[..., Actor]) -> None:
    # The check passed but another player took the name before the save: a clean 400, not a 500.
    bob = make_actor("bob")
    Player.objects.filter(pk=alice.player.pk).update(display_name="Zed", name_key="zed")
    from unittest import mock

    with (
        mock.patch("games.services.players.display_name_check", return_value="Zed"),
        pytest.raises(InvalidInput, match="taken"),
    ):
        services.player_rename(player=bob.player, display_name="Zed")
