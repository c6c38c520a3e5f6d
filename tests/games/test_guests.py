"""Guests: casual games against bots and watching only; a creation limit per address; cleanup."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import timedelta
from io import StringIO
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from common.errors import Forbidden
from games import services, tasks
from games.guests import cleanup_guests
from games.housebots import house_bot
from games.models import Player, Table
from tournaments import ladders
from tournaments.competitions import services as events

from .conftest import Actor, as_organiser

GUEST_WORDS = "guests can play casual games against bots; create an account to"


@pytest.fixture(autouse=True)
def _fresh_cache(settings: Any) -> Iterator[None]:
    settings.GUEST_PLAY = True
    cache.clear()
    yield
    cache.clear()


def guest_client() -> tuple[Client, Player]:
    """A visitor who clicked "play as guest": their client and guest player."""
    client = Client()
    r = client.post("/play-bot/", {"game": "shacru", "level": "random"})
    assert r.status_code == 302, r.content
    user = get_user_model().objects.get(pk=client.session["_auth_user_id"])
    return client, user.player


def api_as(player: Player) -> APIClient:
    client = APIClient()
    client.force_authenticate(user=player.user)
    return client


def test_play_as_guest_makes_an_explicit_guest(db: None) -> None:
    _, guest = guest_client()
    assert guest.is_guest and not guest.is_bot and guest.display_name.startswith("Guest ")
    assert not guest.user.has_usable_password()
    table = Table.objects.get(seats__player=guest)
    assert not table.rated and table.status == Table.Status.ACTIVE


def test_a_guest_cannot_open_or_join_rated_tables(db: None, alice: Actor) -> None:
    _, guest = guest_client()
    api = api_as(guest)
    r = api.post("/api/v1/tables/", {"game": "pacru", "players": 2, "rated": True}, format="json")
    assert r.status_code == 403 and r.json()["detail"].startswith(GUEST_WORDS), r.content
    rated = services.table_create(creator=alice.player, game="pacru", players=2, rated=True)
    r = api.post(f"/api/v1/tables/{rated.pk}/join/", {}, format="json")
    assert r.status_code == 403 and GUEST_WORDS in r.json()["detail"]
    assert rated.seats.count() == 1
    # Casual play stays open to them: a casual table with a bot, and someone's casual table.
    r = api.post(
        "/api/v1/tables/", {"game": "pacru", "players": 2, "rated": False, "bot": "random"}, format="json"
    )
    assert r.status_code == 201 and r.json()["status"] == "active"
    casual = services.table_create(creator=alice.player, game="pacru", players=2, rated=False)
    assert api.post(f"/api/v1/tables/{casual.pk}/join/", {}, format="json").status_code == 200


def test_a_guest_cannot_open_a_rated_table_from_the_lobby_form(db: None) -> None:
    client, _ = guest_client()
    before = Table.objects.count()
    r = client.post(
        "/tables/new/",
        {"game": "pacru", "players": 2, "edition": "302", "time_control": "untimed", "rated": "on",
         "bot": "", "bots": 1},
        follow=True,
    )  # fmt: skip
    assert GUEST_WORDS in r.content.decode()
    assert Table.objects.count() == before


def test_a_guest_cannot_enter_leagues_ladders_or_tournaments(make_actor: Callable[..., Actor]) -> None:
    alice = make_actor("olga", staff=True)  # staff may organise
    _, guest = guest_client()
    with pytest.raises(Forbidden, match="create an account to create leagues"):
        events.league_create(organiser=guest, name="Guest League")
    league = events.league_create(organiser=as_organiser(alice.player), name="Club")
    with pytest.raises(Forbidden, match="join leagues"):
        events.league_join(league=league, player=guest)
    tournament = events.tournament_create(
        organiser=alice.player, league=league, name="Open", game="pacru", seats=2, rounds=3
    )
    with pytest.raises(Forbidden, match="play in tournaments"):
        events.register(tournament_id=tournament.pk, player=guest)
    ladder = ladders.ladder_create(organiser=alice.player, league=league, game="pacru")
    with pytest.raises(Forbidden, match="join ladders"):
        ladders.ladder_join(ladder=ladder, player=guest)
    assert not league.members.filter(pk=guest.pk).exists()
    # Through the API: 403 with the same words.
    r = api_as(guest).post("/api/v1/leagues/", {"name": "Mine"}, format="json")
    assert r.status_code == 403 and GUEST_WORDS in r.json()["detail"], r.content


def test_guest_creation_is_limited_per_address(db: None, settings: Any) -> None:
    settings.GUEST_RATE = "2/hour"
    for _ in range(2):
        guest_client()
    r = Client().post("/play-bot/", {"game": "pacru", "level": "random"})
    assert r.status_code == 429 and "too many guest accounts" in r.content.decode()
    assert Player.objects.filter(is_guest=True).count() == 2
    # Another address is counted apart; a signed-in guest playing again makes no new account.
    assert Client(REMOTE_ADDR="10.0.0.9").post("/play-bot/", {"level": "random"}).status_code == 302
    assert Player.objects.filter(is_guest=True).count() == 3


def _age(player: Player, hours: float) -> None:
    then = timezone.now() - timedelta(hours=hours)
    Player.objects.filter(pk=player.pk).update(created=then)
    get_user_model().objects.filter(pk=player.user_id).update(last_login=then)
    Table.objects.filter(seats__player=player).update(
        created_at=then, started_at=then, turn_started_at=then, finished_at=None
    )


def test_stale_guests_go_with_their_bot_games_and_nothing_else(db: None, alice: Actor, bob: Actor) -> None:
    _, stale = guest_client()
    _, fresh = guest_client()
    _, with_person = guest_client()
    stale_table = Table.objects.get(seats__player=stale)
    _age(stale, 30)
    _age(fresh, 2)
    # A guest at a casual table with a person: that person's record keeps its opponent.
    shared = services.table_create(creator=alice.player, game="pacru", players=2, rated=False)
    services.seat_join(table_id=shared.pk, player=with_person)
    _age(with_person, 30)
    # A guest from before the rules, with a rated game against a person: kept.
    legacy = services.player_register(username="guest-0ld", password="correct-horse-9", display_name="Old")
    table = services.table_create(creator=legacy, game="pacru", players=2, rated=True)
    services.seat_join(table_id=table.pk, player=bob.player)
    Player.objects.filter(pk=legacy.pk).update(is_guest=True)
    _age(legacy, 30)

    assert cleanup_guests() == {"deleted": 1, "kept": 2}
    assert not Player.objects.filter(pk=stale.pk).exists()
    assert not get_user_model().objects.filter(pk=stale.user_id).exists()
    assert not Table.objects.filter(pk=stale_table.pk).exists()
    assert Player.objects.filter(pk__in=[fresh.pk, with_person.pk, legacy.pk]).count() == 3
    assert Table.objects.filter(pk__in=[shared.pk, table.pk]).count() == 2
    assert house_bot("random").is_bot  # the bots stay
    assert Player.objects.filter(pk__in=[alice.player.pk, bob.player.pk]).count() == 2


def test_a_recent_move_keeps_an_old_guest(db: None) -> None:
    _, guest = guest_client()
    _age(guest, 30)
    Table.objects.filter(seats__player=guest).update(turn_started_at=timezone.now())
    assert cleanup_guests()["deleted"] == 0


def test_cleanup_runs_as_a_command_a_task_and_on_the_beat_schedule(db: None) -> None:
    _, guest = guest_client()
    _age(guest, 30)
    out = StringIO()
    call_command("cleanup_guests", "--hours", "48", stdout=out)
    assert "deleted: 0" in out.getvalue() and Player.objects.filter(pk=guest.pk).exists()
    assert tasks.guest_cleanup() == {"deleted": 1, "kept": 0}
    schedule = django_settings.CELERY_BEAT_SCHEDULE["guest-cleanup"]
    assert schedule["task"] == "games.tasks.guest_cleanup" == tasks.guest_cleanup.name
    assert django_settings.GUEST_TTL_HOURS == 24 and django_settings.GUEST_RATE == "10/hour"


def test_the_in_process_sweeper_cleans_guests_too(db: None) -> None:
    _, guest = guest_client()
    _age(guest, 30)
    call_command("clock_sweeper", "--once", stdout=StringIO())
    assert not Player.objects.filter(pk=guest.pk).exists()
