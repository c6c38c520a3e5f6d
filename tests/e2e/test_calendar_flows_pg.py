"""The calendar in a real browser: an organiser creates a weekly recurring event and a season with
divisions (its round dates) from the dashboard; a player registers for the season, marks a round
they cannot play, and once the organiser has started the season sees the next round in their own
time on My page ("What's next"). Screenshots of the series page, the season page and My page at
laptop and phone size."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from accounts.models import Account
from games import services as games
from games.models import Player
from tests.games.conftest import as_organiser
from tournaments.calendar import tick
from tournaments.competitions import services as events
from tournaments.models import EventSeries, Season, SeasonEntry
from tournaments.seasons import services as seasons

from .conftest import PASSWORD, Browsers, for_docs

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

SIZES = {"laptop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


def register(username: str, zone: str = "") -> Player:
    player = games.player_register(username=username, password=PASSWORD, display_name=username.title())
    Account.objects.update_or_create(
        user=player.user, defaults={"email_verified_at": timezone.now(), "time_zone": zone}
    )
    Player.objects.filter(pk=player.pk).update(email_verified=True)
    player.refresh_from_db()
    return player


def fits(page: Page) -> bool:
    """No sideways scrolling."""
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"))


def shoot(people: Browsers, who: str, url: str, name: str, artifacts: Path) -> dict[str, Path]:
    """``url`` as ``who`` at both sizes: artifacts/calendar-NAME-SIZE.png, each checked to fit."""
    shots = {}
    for size, viewport in SIZES.items():
        page = people.open(who, viewport=viewport)
        response = page.goto(people.base_url + url)
        assert response is not None and response.status == 200, url
        shots[size] = artifacts / f"calendar-{name}-{size}.png"
        page.screenshot(path=str(shots[size]), full_page=True)
        assert fits(page), f"{url} scrolls sideways at {size} size"
    return shots


def test_an_organiser_creates_a_weekly_event_and_a_season_and_a_player_sees_the_next_round_in_their_time(
    people: Browsers, live_server: Any, artifacts: Path
) -> None:
    organiser = as_organiser(register("olga"))
    alice_p = register("alice", zone="Asia/Tokyo")
    others = [register(name) for name in ("bob", "carol", "dave", "erin", "frank", "grace", "heidi")]
    events.league_create(organiser=organiser, name="Riverside Club", slug="riverside")
    today = timezone.now().astimezone(ZoneInfo("Europe/Madrid")).date()

    # The organiser: a weekly recurring event, from the dashboard.
    olga = people.open("olga")
    olga.goto(f"{live_server.url}/organiser/")
    olga.get_by_role("link", name=re.compile("Recurring events of Riverside Club")).click()
    form = olga.locator("#create-series")
    form.locator('[name="name"]').fill("Friday Blitz Swiss")
    form.locator('[name="frequency"]').select_option("weekly")
    form.locator('[name="weekdays"][value="4"]').check()
    form.locator('[name="local_time"]').fill("19:00")
    form.locator('[name="time_zone"]').select_option("Europe/Madrid")
    form.locator('[name="first_date"]').fill(today.isoformat())
    form.locator('[name="create_days_ahead"]').fill("7")
    form.locator('[name="game"]').select_option("pacru")
    form.locator('[name="format"]').select_option("swiss")
    form.locator('[name="rounds"]').fill("5")
    form.locator('[name="base_minutes"]').fill("3")
    form.locator('[name="increment"]').fill("2")
    form.locator("button[type=submit]").click()
    expect(olga.locator(".messages")).to_contain_text("Friday Blitz Swiss created")
    series = EventSeries.objects.get(name="Friday Blitz Swiss")
    assert (series.weekdays, series.time_zone, series.local_time.hour) == ([4], "Europe/Madrid", 19)
    assert series.event["time_control"] == {"kind": "fischer", "base": 180, "increment": 2}
    expect(olga).to_have_url(f"{live_server.url}/organiser/series/{series.pk}/")
    # The calendar tick creates the next Friday's event, registration open.
    assert tick.tick().get("recurring.created") == 1
    (occurrence,) = series.occurrences.all()
    assert occurrence.status == "registration"
    assert occurrence.starts_at.astimezone(ZoneInfo("Europe/Madrid")).strftime("%a %H:%M") == "Fri 19:00"

    # The organiser: a season with two divisions of four, three weekly rounds (UTC: olga set no zone).
    first = (timezone.now() + timedelta(days=2)).replace(hour=19, minute=0, second=0, microsecond=0)
    rounds = [first + timedelta(weeks=i) for i in range(3)]
    olga.goto(f"{live_server.url}/organiser/")
    olga.get_by_role("link", name=re.compile("Seasons of Riverside Club")).click()
    form = olga.locator("#create-season")
    form.locator('[name="name"]').fill("Winter season")
    form.locator('[name="kind"]').select_option("divisions")
    form.locator('[name="game"]').select_option("shacru")
    form.locator('[name="seats"]').select_option("2")
    form.locator('[name="format"]').select_option("round_robin")
    form.locator('[name="division_size"]').fill("4")
    form.locator('[name="promote"]').fill("1")
    form.locator('[name="relegate"]').fill("1")
    form.locator('[name="deadline_days"]').fill("7")
    for box, moment in zip(form.locator('[name="round_time"]').all(), rounds, strict=False):
        box.fill(moment.strftime("%Y-%m-%dT%H:%M"))
    form.get_by_role("button", name="Create the season").click()
    expect(olga.locator(".messages")).to_contain_text("Winter season created")
    season = Season.objects.get(name="Winter season")
    assert season.round_times == [m.isoformat() for m in rounds]
    assert (season.division_size, season.round_deadline_minutes) == (4, 7 * 24 * 60)

    # A player registers and marks round 3 as one they cannot play.
    alice = people.open("alice")
    alice.goto(f"{live_server.url}/leagues/riverside/seasons/{season.pk}/")
    alice.locator("#season-register").click()
    expect(alice.locator(".season-you")).to_contain_text("You are registered")
    alice.locator('.season-rounds [name="round"][value="3"]').check()
    alice.get_by_role("button", name="Save my rounds").click()
    expect(alice.locator(".season-schedule")).to_contain_text("your bye")
    assert SeasonEntry.objects.get(season=season, player=alice_p).unavailable == [3]
    for player in others:
        seasons.season_register(season_id=season.pk, player=player)

    # The organiser starts it: two divisions drawn, round 1 scheduled.
    olga.goto(f"{live_server.url}/organiser/leagues/riverside/seasons/")
    olga.locator("details.season-confirm summary").click()
    olga.locator('details.season-confirm [name="confirm"]').check()
    olga.locator("details.season-confirm button[type=submit]").click()
    expect(olga.locator(".messages")).to_contain_text("Winter season started")
    season.refresh_from_db()
    assert season.status == "running" and season.divisions.count() == 2

    # My page: the next round of the season, in Alice's own time (Tokyo).
    alice.goto(f"{live_server.url}/")
    round_1 = alice.locator(".cal-whats-next .cal-next-season")
    expect(round_1).to_contain_text("Winter season")
    tokyo = rounds[0].astimezone(ZoneInfo("Asia/Tokyo"))
    expect(round_1.locator("time").first).to_have_attribute("datetime", tokyo.isoformat())
    expect(round_1.locator("time").first).to_contain_text(f"{tokyo.day} {tokyo:%B}, {tokyo:%H:%M}")

    # Both sizes of the three pages.
    series_shots = shoot(people, "olga", f"/organiser/series/{series.pk}/", "series", artifacts)
    season_shots = shoot(people, "alice", f"/leagues/riverside/seasons/{season.pk}/", "season", artifacts)
    my_shots = shoot(people, "alice", "/", "my-page", artifacts)
    for_docs(series_shots["laptop"], "calendar-series.png")
    for_docs(season_shots["laptop"], "season-page.png")
    for_docs(my_shots["phone"], "whats-next-phone.png")
