"""Names and deletion (issue 29, findings 6, 11 and 12): a deletion no name can block, look-alike
names and usernames refused by their confusables skeleton, and a deletion that scrubs the old
name from audit lines and others' notifications and holds the old username a while."""

from __future__ import annotations

import importlib
from datetime import timedelta
from typing import Any

import pytest
from django.apps import apps as django_apps
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from accounts import kinds, services
from accounts.models import Notification
from games import services as games
from games.models import Player
from games.names import HELD, name_key
from tests.games.conftest import Actor, as_organiser
from tournaments.competitions import services as clubs
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "correct-horse-9"
REGISTER = "/api/v1/auth/register/"


def register(username: str, display_name: str = "") -> Any:
    return APIClient().post(
        REGISTER,
        {"username": username, "password": "tall-hedge-maze-4", "display_name": display_name},
        format="json",
    )


def signup_page(username: str) -> Any:
    return Client().post(
        "/accounts/signup/",
        {"username": username, "password1": "tall-hedge-maze-4", "password2": "tall-hedge-maze-4"},
    )


# ------------------------------------------------------------------ finding 6


def test_nobody_can_take_a_deleted_players_name_or_username(db: None, alice: Actor) -> None:
    user = alice.player.user
    taken_name = register("mallory", f"deleted player {alice.player.pk}")
    assert taken_name.status_code == 400 and "reserved for deleted accounts" in taken_name.json()["detail"]
    look_alike = register("mallory", f"Dеleted Player {alice.player.pk}")  # Cyrillic е
    assert look_alike.status_code == 400
    taken_username = register(f"deleted-{user.pk}")
    assert taken_username.status_code == 400 and "reserved" in taken_username.json()["detail"]
    assert signup_page(f"deleted-{user.pk}").status_code == 200
    rename = Client()
    rename.force_login(register_and_get("trent").user)
    rename.post(
        "/accounts/settings/", {"action": "profile", "display_name": f"Deleted player {alice.player.pk}"}
    )
    assert not Player.objects.filter(display_name__iexact=f"deleted player {alice.player.pk}").exists()


def register_and_get(username: str) -> Player:
    assert register(username).status_code == 201
    return Player.objects.get(user__username=username)


def test_a_deletion_succeeds_even_if_its_names_were_taken_before(db: None, alice: Actor) -> None:
    """Accounts made before the names were reserved (or by the admin) cannot block a deletion."""
    user = alice.player.user
    squatter = get_user_model().objects.create_user(username=f"deleted-{user.pk}", password="x-long-pass-1")
    label = f"deleted player {alice.player.pk}"
    Player.objects.filter(user=squatter).update(display_name=label, name_key=name_key(label))
    services.delete_account(user=user, password=PASSWORD)
    user.refresh_from_db()
    player = Player.objects.get(pk=alice.player.pk)
    assert user.username == f"deleted:{user.pk}" and not user.is_active
    assert player.display_name == label
    assert Player.objects.get(user=squatter).display_name == label  # the squatter keeps theirs


# ------------------------------------------------------------------ finding 11


@pytest.mark.parametrize("look_alike", ["\u0430lice", "\u0391lice", "Alice\ufe0f"])
def test_look_alike_display_names_are_taken(db: None, alice: Actor, look_alike: str) -> None:
    answer = register("mallory", look_alike)
    assert answer.status_code == 400 and "taken by another player" in answer.json()["detail"]
    with pytest.raises(Exception, match="taken"):
        games.player_rename(player=register_and_get("trent"), display_name=look_alike)


def test_the_database_refuses_a_look_alike_name(db: None, alice: Actor, bob: Actor) -> None:
    bob.player.display_name = "\u0391lice"
    with pytest.raises(IntegrityError), transaction.atomic():
        bob.player.save()


@pytest.mark.parametrize("look_alike", ["\u0430lice", "\u0391lice", "ALICE"])
def test_look_alike_usernames_are_taken(db: None, alice: Actor, look_alike: str) -> None:
    answer = signup_page(look_alike)
    assert answer.status_code == 200
    assert b"is taken" in answer.content or b"already exists" in answer.content
    assert not get_user_model().objects.filter(username=look_alike).exists()


def test_ordinary_distinct_names_still_pass(db: None, alice: Actor) -> None:
    for username, name in [("alicia", "Alicia"), ("anna", "Anna"), ("ana", "Ana"), ("zoe", "Zoë"),
                           ("alice-smith", "Alice Smith"), ("bob99", "Bob 99")]:  # fmt: skip
        answer = register(username, name)
        assert answer.status_code == 201, answer.content
        assert answer.json()["display_name"] == name


# ------------------------------------------------------------------ finding 12


def test_deletion_scrubs_the_name_from_audit_lines_and_others_notifications(
    db: None, alice: Actor, bob: Actor, carol: Actor
) -> None:
    org = as_organiser(carol.player)
    league = clubs.league_create(organiser=org, name="Scrub Club")
    event = clubs.tournament_create(organiser=org, league=league, name="Night", game="shacru", seats=2)
    clubs.register(tournament_id=event.pk, player=alice.player, by=org)
    line = AuditEntry.objects.get(tournament=event, action="register")
    assert line.detail["name"] == "Alice"
    AuditEntry.objects.create(tournament=event, by=org, action="note", reason="Alice came late; Alicent not")
    Notification.objects.create(
        user=bob.player.user,
        kind="challenge",
        key="c:1",
        params={"by": "Alice", "ladder": "L", "expires": ""},
    )
    Notification.objects.create(
        user=bob.player.user,
        kind="your_turn",
        key="t:1",
        params={"game": "Pacru", "opponents": ["Alice", "Carol"], "table": 1},
    )
    services.delete_account(user=alice.player.user, password=PASSWORD)
    label = f"deleted player {alice.player.pk}"
    line.refresh_from_db()
    assert line.detail["name"] == label
    assert AuditEntry.objects.get(action="note").reason == f"{label} came late; Alicent not"
    challenge = Notification.objects.get(key="c:1")
    assert challenge.params["by"] == label and "Alice" not in kinds.title(challenge.kind, challenge.params)
    assert Notification.objects.get(key="t:1").params["opponents"] == [label, "Carol"]


def test_a_deleted_accounts_username_is_held_for_a_while(db: None, alice: Actor, settings: Any) -> None:
    settings.USERNAME_HOLD_DAYS = 30
    services.delete_account(user=alice.player.user, password=PASSWORD)
    for username in ("alice", "Alice", "\u0430lice"):
        assert signup_page(username).status_code == 200
    assert register("alice").status_code == 409
    # Once the hold ran out the name is free again.
    Player.objects.filter(pk=alice.player.pk).update(username_held_until=timezone.now() - timedelta(days=1))
    assert register("alice").status_code == 201


def test_the_migration_keys_existing_look_alikes_without_renaming_anyone(db: None, alice: Actor) -> None:
    migration = importlib.import_module("games.migrations.0011_mail_username_key_skeleton")
    twin = get_user_model().objects.create_user(username="\u0430lice-old", password="x-long-pass-1")
    Player.objects.filter(user=twin).update(display_name="\u0391lice", name_key=None, username_key=None)
    Player.objects.update(username_key=None)
    migration.fill_keys(django_apps, None)
    first, second = Player.objects.get(pk=alice.player.pk), Player.objects.get(user=twin)
    assert (first.display_name, first.name_key, first.username_key) == ("Alice", "alice", "alice")
    assert second.display_name == "\u0391lice" and second.name_key.startswith(HELD)
    # A later save that is not a rename keeps the held key; a rename makes a real one.
    second.save()
    assert Player.objects.get(pk=second.pk).name_key.startswith(HELD)
    games.player_rename(player=second, display_name="Twin")
    assert Player.objects.get(pk=second.pk).name_key == "twin"
