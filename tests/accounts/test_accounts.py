"""Account pages and actions: settings, e-mail on sign-up through the API, sessions and "log out
everywhere", deletion that keeps every game, the data export, rated play that needs a verified
address, and the notifications of events (entered, started, paired, finished) and the API."""

from __future__ import annotations

import io
import json
import zipfile
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounts.models import Account, Notification, SessionRecord, describe_agent
from accounts.notify import email_modes
from games import services as games
from games.models import Player, Seat, Table
from ratings.models import RatingChange
from tests.games.conftest import Actor, as_organiser, every_seat_moves, play_random, started_table
from tournaments.competitions import services as clubs
from tournaments.models import Registration, Tournament

from .conftest import verified

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "correct-horse-9"


def logged_in(actor: Actor) -> Client:
    browser = Client()
    assert browser.login(username=actor.player.user.username, password=PASSWORD)
    return browser


# ------------------------------------------------------------------ sign-up and e-mail


def test_the_api_takes_an_email_on_sign_up_and_refuses_a_bad_one(db: None) -> None:
    api = APIClient()
    made = api.post(
        "/api/v1/auth/register/",
        {"username": "erin", "password": "tall-hedge-maze-4", "email": "Erin@Example.ORG"},
        format="json",
    )
    assert made.status_code == 201, made.content
    assert made.json()["email"] == "Erin@example.org" and made.json()["email_verified"] is False
    bad = api.post(
        "/api/v1/auth/register/",
        {"username": "fred", "password": "tall-hedge-maze-4", "email": "not-an-address"},
        format="json",
    )
    assert bad.status_code == 400 and "not an e-mail address" in bad.json()["detail"]
    taken = api.post(
        "/api/v1/auth/register/",
        {"username": "gina", "password": "tall-hedge-maze-4", "email": "erin@example.org"},
        format="json",
    )
    # An address in use is answered as any other (sign-up does not tell who has an account):
    # unverified, it is nobody's yet (tests/accounts/test_mail_limits.py).
    assert taken.status_code == 201 and taken.json()["email"] == "erin@example.org"
    # A refused sign-up makes no account.
    assert not get_user_model().objects.filter(username="fred").exists()


def test_a_site_may_require_an_email_on_sign_up(db: None, settings: Any) -> None:
    settings.SIGNUP_EMAIL_REQUIRED = True
    api = APIClient()
    answer = api.post(
        "/api/v1/auth/register/", {"username": "hal", "password": "tall-hedge-maze-4"}, format="json"
    )
    assert answer.status_code == 400 and "e-mail" in answer.json()["detail"]
    page = Client().post(
        "/accounts/signup/",
        {"username": "hal", "password1": "tall-hedge-maze-4", "password2": "tall-hedge-maze-4"},
    )
    assert page.status_code == 200 and b"This field is required" in page.content
    assert not get_user_model().objects.filter(username="hal").exists()


def test_rated_play_may_need_a_verified_address(db: None, settings: Any, alice: Actor, bob: Actor) -> None:
    settings.RATED_NEEDS_VERIFIED_EMAIL = True
    refused = alice.post("/api/v1/tables/", {"game": "pacru", "players": 2, "rated": True})
    assert refused.status_code == 403 and refused.json()["code"] == "email_not_verified"
    assert alice.post("/api/v1/tables/", {"game": "pacru", "players": 2, "rated": False}).status_code == 201
    verified(alice)
    made = alice.post("/api/v1/tables/", {"game": "pacru", "players": 2, "rated": True})
    assert made.status_code == 201
    joined = bob.post(f"/api/v1/tables/{made.json()['id']}/join/")
    assert joined.status_code == 403 and joined.json()["code"] == "email_not_verified"


# ------------------------------------------------------------------ settings


def test_the_settings_page_renames_and_saves_preferences(db: None, alice: Actor, bob: Actor) -> None:
    browser = logged_in(alice)
    assert browser.get("/accounts/settings/").status_code == 200
    browser.post("/accounts/settings/", {"action": "profile", "display_name": "Alice Liddell"})
    alice.player.refresh_from_db()
    assert alice.player.display_name == "Alice Liddell"
    taken = browser.post("/accounts/settings/", {"action": "profile", "display_name": "bob"})
    Player.objects.get(pk=alice.player.pk)
    assert taken.status_code == 200  # the form again, with the reason
    answer = browser.post(
        "/accounts/settings/", {"action": "preferences", "language": "de", "time_zone": "Europe/Berlin"}
    )
    assert answer.status_code == 302
    account = Account.objects.get(user=alice.player.user)
    assert (account.language, account.time_zone) == ("de", "Europe/Berlin")
    bad = browser.post(
        "/accounts/settings/", {"action": "preferences", "language": "xx", "time_zone": "Mars/Base"}
    )
    assert bad.status_code == 200
    assert Account.objects.get(user=alice.player.user).time_zone == "Europe/Berlin"


def test_pages_show_times_in_the_players_time_zone(db: None, alice: Actor) -> None:
    browser = logged_in(alice)
    browser.post("/accounts/settings/", {"action": "preferences", "language": "", "time_zone": "Asia/Tokyo"})
    page = browser.get("/accounts/settings/")
    from datetime import datetime
    from zoneinfo import ZoneInfo

    tokyo = datetime.now(ZoneInfo("Asia/Tokyo")).strftime("%H:")
    assert f"It is now {tokyo}".encode() in page.content


def test_the_notification_settings_are_saved_per_kind(db: None, alice: Actor) -> None:
    browser = logged_in(alice)
    form = {name: mode for name, mode in email_modes(user_id=alice.player.user_id).items()}
    form["game_over"] = "daily"
    form["challenge"] = "off"
    assert browser.post("/accounts/settings/notifications/", form).status_code == 302
    modes = email_modes(user_id=alice.player.user_id)
    assert modes["game_over"] == "daily" and modes["challenge"] == "off" and modes["your_turn"] == "immediate"
    form["round"] = "weekly"
    assert browser.post("/accounts/settings/notifications/", form).status_code == 200  # refused
    assert email_modes(user_id=alice.player.user_id)["round"] == "immediate"


def test_sessions_are_listed_and_log_out_everywhere_ends_them_and_the_token(db: None, alice: Actor) -> None:
    here, there = logged_in(alice), logged_in(alice)
    page = here.get("/accounts/settings/sessions/")
    assert page.content.count(b"<tr") == 3  # the head and two sessions
    assert b"(this browser)" in page.content
    other = SessionRecord.objects.exclude(session_key=here.session.session_key).get()
    here.post("/accounts/settings/sessions/", {"session": other.public_id()})  # an opaque id, not the key
    assert there.get("/accounts/settings/").status_code == 302  # logged out: to the login page
    assert here.get("/accounts/settings/").status_code == 200
    assert alice.get("/api/v1/notifications/").status_code == 200  # the token still works
    third = logged_in(alice)
    here.post("/accounts/settings/sessions/", {"action": "all"})
    assert third.get("/accounts/settings/").status_code == 302
    assert here.get("/accounts/settings/").status_code == 302
    assert not Token.objects.filter(user=alice.player.user).exists()
    assert alice.get("/api/v1/notifications/").status_code == 401
    assert not SessionRecord.objects.filter(user=alice.player.user).exists()


def test_changing_the_password_logs_out_the_other_browsers(db: None, alice: Actor) -> None:
    here, there = logged_in(alice), logged_in(alice)
    answer = here.post(
        "/accounts/password_change/",
        {
            "old_password": PASSWORD,
            "new_password1": "a-brand-new-secret-7",
            "new_password2": "a-brand-new-secret-7",
        },
    )
    assert answer.status_code == 302
    assert here.get("/accounts/settings/").status_code == 200
    assert there.get("/accounts/settings/").status_code == 302
    assert [r.session_key for r in SessionRecord.objects.all()] == [here.session.session_key]


# ------------------------------------------------------------------ deletion and export


def test_deleting_an_account_keeps_its_games_and_removes_its_personal_data(
    db: None, alice: Actor, bob: Actor, carol: Actor
) -> None:
    verified(alice, "alice@example.org")
    finished = every_seat_moves(started_table([alice, bob], game="shacru"))
    games.game_resign(table_id=finished.pk, player=bob.player)
    playing = every_seat_moves(started_table([alice, carol], game="pacru"))  # under way: rated
    waiting = games.table_create(creator=alice.player, game="azacru", players=3)
    assert RatingChange.objects.filter(player=alice.player).count() == 1
    browser = logged_in(alice)
    wrong = browser.post("/accounts/settings/data/", {"password": "nope", "confirm": "delete my account"})
    assert wrong.status_code == 200 and get_user_model().objects.get(pk=alice.player.user_id).is_active
    answer = browser.post("/accounts/settings/data/", {"password": PASSWORD, "confirm": "delete my account"})
    assert answer.status_code == 302
    user = get_user_model().objects.get(pk=alice.player.user_id)
    player = Player.objects.get(pk=alice.player.pk)
    assert (user.username, user.email, user.is_active) == (f"deleted:{user.pk}", "", False)
    assert not user.has_usable_password()
    assert player.display_name == f"deleted player {player.pk}"
    assert Account.objects.get(user=user).deleted_at is not None
    assert not Token.objects.filter(user=user).exists()
    assert not Notification.objects.filter(user=user).exists()
    # The games stay: the finished one with its result and rating, the running one resigned.
    assert Seat.objects.get(table=finished, player=player).rank == 1
    playing.refresh_from_db()
    assert playing.status == Table.Status.FINISHED
    assert Seat.objects.get(table=playing, player=player).elimination_reason == "resigned"
    assert Table.objects.get(pk=waiting.pk).status == Table.Status.ABORTED
    assert RatingChange.objects.filter(player=player).count() == 2  # both rated games
    assert alice.get("/api/v1/notifications/").status_code == 401
    assert not Client().login(username="alice", password=PASSWORD)
    # The name is free again for someone else.
    assert games.display_name_check(display_name="Alice") == "Alice"


def test_deleting_an_account_withdraws_it_from_events(db: None, alice: Actor, bob: Actor) -> None:
    league = clubs.league_create(organiser=as_organiser(bob.player), name="Club")
    t = clubs.tournament_create(
        organiser=bob.player, league=league, name="Open", game="pacru", seats=2, rounds=3
    )
    clubs.register(tournament_id=t.pk, player=alice.player)
    logged_in(alice).post("/accounts/settings/data/", {"password": PASSWORD, "confirm": "delete my account"})
    assert Registration.objects.get(tournament=t, player=alice.player).status == "withdrawn"


def test_the_export_holds_the_account_games_ratings_and_records(db: None, alice: Actor, bob: Actor) -> None:
    table = started_table([alice, bob], game="shacru")
    play_random(table, {1: alice.player, 2: bob.player}, plies=2)
    games.game_resign(table_id=table.pk, player=bob.player)
    answer = logged_in(alice).get("/accounts/settings/data/export/")
    assert answer.status_code == 200 and answer["Content-Type"] == "application/zip"
    archive = zipfile.ZipFile(io.BytesIO(answer.content))
    names = set(archive.namelist())
    assert {"account.json", "games.json", "ratings.json", f"records/table-{table.pk}.txt"} <= names
    account = json.loads(archive.read("account.json"))
    assert account["username"] == "alice"
    [game] = json.loads(archive.read("games.json"))
    assert game["table"] == table.pk and len(game["moves"]) >= 2
    assert [s["you"] for s in game["seats"]] == [True, False]
    ratings = json.loads(archive.read("ratings.json"))
    assert ratings["changes"][0]["table"] == table.pk
    assert Client().get("/accounts/settings/data/export/").status_code == 302  # log in first


# ------------------------------------------------------------------ notifications of events, and the API


def test_events_tell_their_players_when_entered_started_paired_and_finished(
    db: None, alice: Actor, bob: Actor
) -> None:
    org = as_organiser(bob.player)
    league = clubs.league_create(organiser=org, name="Club")
    t = clubs.tournament_create(
        organiser=org, league=league, name="Autumn Swiss", game="shacru", seats=2, rounds=1
    )
    clubs.register(tournament_id=t.pk, player=alice.player, by=org)
    clubs.register(tournament_id=t.pk, player=bob.player)
    clubs.start(tournament_id=t.pk, by=org)
    kinds = list(
        Notification.objects.filter(user=alice.player.user).order_by("pk").values_list("kind", flat=True)
    )
    assert kinds[:3] == ["entered", "event", "round"]
    paired = Notification.objects.get(user=alice.player.user, kind="round")
    assert paired.params["opponents"] == ["Bob"] and paired.url.startswith("/tables/")
    table = Table.objects.get(round_table__round__tournament=t)
    loser = next(s.player for s in table.seats.all() if s.player_id == bob.player.pk)
    games.game_resign(table_id=table.pk, player=loser)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    done = Notification.objects.get(user=alice.player.user, kind="event", key=f"event:{t.pk}:finished")
    assert done.params["place"] == 1 and done.params["of"] == 2
    from accounts.kinds import title

    assert title(done.kind, done.params) == "Autumn Swiss has finished: you placed 1st of 2"


def test_the_notifications_api_lists_and_marks_read(db: None, alice: Actor, bob: Actor) -> None:
    table = started_table([alice, bob], game="shacru")
    games.game_resign(table_id=table.pk, player=bob.player)
    listed = alice.get("/api/v1/notifications/").json()
    assert listed["unread"] == 1
    [item] = listed["results"]
    assert item["kind"] == "game_over" and item["title"].startswith("Your Shacru game against Bob ended")
    assert item["url"] == f"/tables/{table.pk}/" and item["read"] is False
    assert alice.get("/api/v1/notifications/?before=x").status_code == 400
    assert bob.post("/api/v1/notifications/read/", {"ids": [item["id"]]}).json()["marked"] == 0  # not Bob's
    assert alice.post("/api/v1/notifications/read/", {"ids": [item["id"]]}).json() == {
        "marked": 1,
        "unread": 0,
    }
    assert alice.get("/api/v1/notifications/?unread=true").json()["results"] == []
    assert APIClient().get("/api/v1/notifications/").status_code == 401


def test_the_inbox_page_and_the_bell(db: None, alice: Actor, bob: Actor) -> None:
    table = started_table([alice, bob], game="shacru")
    games.game_resign(table_id=table.pk, player=bob.player)
    browser = logged_in(alice)
    home = browser.get("/").content.decode()
    assert 'aria-label="Notifications: 1 unread"' in home
    n = Notification.objects.get(user=alice.player.user)
    opened = browser.get(f"/notifications/{n.pk}/")
    assert opened.status_code == 302 and opened["Location"] == f"/tables/{table.pk}/"
    assert Notification.objects.get(pk=n.pk).read_at is not None
    assert 'aria-label="Notifications"' in browser.get("/").content.decode()
    # Someone else's notification is not found, and opens nothing.
    bobs = Notification.objects.get(user=bob.player.user)
    assert browser.get(f"/notifications/{bobs.pk}/").status_code == 404


@pytest.mark.parametrize(
    "agent,said",
    [
        (
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0",
            "Firefox on Windows",
        ),
        (
            "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 "
            "Safari/537.36",
            "Chrome on Linux",
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Version/18.0 "
            "Safari/604.1",
            "Safari on iPhone",
        ),
        (
            "Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 Chrome/140.0 Safari/537.36 Edg/140.0",
            "Edge on Windows",
        ),
        ("curl/8.5.0", "curl"),
        ("", "unknown browser"),
    ],
)
def test_sessions_name_the_browser_and_system(agent: str, said: str) -> None:
    assert describe_agent(agent) == said
