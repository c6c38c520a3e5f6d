"""The calendar feeds (iCalendar, read back with the library's own parser), the private feed's
secret address, the league's calendar page and "What's next" on My page."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.utils import timezone
from icalendar import Calendar

from accounts.models import Account
from tournaments.calendar import feeds, recurring, starts
from tournaments.competitions import services
from tournaments.models import Division, League, Round, Season, SeasonEntry, Tournament

from ..games.conftest import Actor, as_organiser, started_table

pytestmark = pytest.mark.django_db

UTC = dt.UTC
SITE = "http://testserver"


@pytest.fixture(autouse=True)
def _site(settings: object) -> None:
    settings.SITE_URL = SITE  # type: ignore[attr-defined]


@pytest.fixture
def club(make_actor: Callable[..., Actor]) -> tuple[Actor, League]:
    organiser = make_actor("organiser")
    as_organiser(organiser.player)
    league = services.league_create(organiser=organiser.player, name="The Club", slug="club")
    return organiser, league


def soon(days: float = 0, hours: float = 0) -> dt.datetime:
    base = timezone.now().replace(second=0, microsecond=0)
    return base + dt.timedelta(days=days, hours=hours)


def scheduled(organiser: Actor, league: League, name: str, at: dt.datetime, **kw: object) -> Tournament:
    return services.tournament_create(
        organiser=organiser.player, league=league, name=name, game="pacru", seats=2, starts_at=at, **kw
    )


def vevents(body: bytes) -> dict[str, Any]:
    cal = Calendar.from_ical(body)
    events = list(cal.walk("VEVENT"))
    uids = [str(e["UID"]) for e in events]
    assert len(uids) == len(set(uids)), f"a UID twice: {uids}"
    return {str(e["UID"]): e for e in events}


def start_of(event: Any) -> dt.datetime:
    return event["DTSTART"].dt  # type: ignore[no-any-return]


# ------------------------------------------------------------------ the league's feed
def test_the_league_feed_has_one_vevent_per_scheduled_event(club: tuple[Actor, League]) -> None:
    organiser, league = club
    friday = soon(days=3)
    t = scheduled(
        organiser,
        league,
        "Friday Swiss",
        friday,
        rounds=5,
        time_control={"kind": "fischer", "base": 300, "increment": 3},
    )
    services.tournament_create(
        organiser=organiser.player, league=league, name="By hand", game="pacru", seats=2
    )
    response = Client().get("/leagues/club/calendar.ics")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    assert "max-age" in response["Cache-Control"]
    assert Client().head("/leagues/club/calendar.ics").status_code == 200
    found = vevents(response.content)
    assert list(found) == [f"event-{t.pk}@testserver"]
    ev = found[f"event-{t.pk}@testserver"]
    assert start_of(ev) == friday and start_of(ev).utcoffset() == dt.timedelta(0)
    assert b"DTSTART:" + friday.strftime("%Y%m%dT%H%M%SZ").encode() in response.content
    assert str(ev["URL"]) == f"{SITE}/tournaments/{t.pk}/"
    assert str(ev["SUMMARY"]) == "Friday Swiss"
    # 5 rounds of two players with 5 min + 40 x 3 s each (14 min a game), and 4 pauses of 5 min.
    assert ev["DTEND"].dt - friday == dt.timedelta(minutes=5 * 14 + 4 * 5)
    assert "DTSTAMP" in ev and "SEQUENCE" in ev and "LAST-MODIFIED" in ev


def test_unknown_league_has_no_feed(db: None) -> None:
    assert Client().get("/leagues/nowhere/calendar.ics").status_code == 404


def test_a_moved_and_renamed_event_keeps_its_uid(club: tuple[Actor, League]) -> None:
    organiser, league = club
    t = scheduled(organiser, league, "Friday Swiss", soon(days=3))
    uid = f"event-{t.pk}@testserver"
    before = vevents(feeds.league_calendar(league))[uid]
    Tournament.objects.filter(pk=t.pk).update(name="Friday Blitz Swiss")
    later = soon(days=4, hours=2)
    starts.postpone(tournament_id=t.pk, starts_at=later, by=organiser.player)
    after = vevents(feeds.league_calendar(league))
    assert list(after) == [uid]  # updated in place, not duplicated
    assert start_of(after[uid]) == later and str(after[uid]["SUMMARY"]) == "Friday Blitz Swiss"
    assert int(after[uid]["SEQUENCE"]) > int(before["SEQUENCE"])
    assert after[uid]["LAST-MODIFIED"].dt >= before["LAST-MODIFIED"].dt


def test_a_called_off_event_is_cancelled_in_the_feed(club: tuple[Actor, League]) -> None:
    organiser, league = club
    t = scheduled(organiser, league, "Friday Swiss", soon(days=3))
    starts.call_off(tournament_id=t.pk, by=organiser.player, reason="Hall closed")
    ev = vevents(feeds.league_calendar(league))[f"event-{t.pk}@testserver"]
    assert str(ev["STATUS"]) == "CANCELLED"
    html = Client().get("/leagues/club/calendar/").content.decode()
    assert "Friday Swiss" in html and "called off" in html


def test_season_rounds_are_in_the_feed(club: tuple[Actor, League]) -> None:
    _organiser, league = club
    times = [soon(days=7 * n + 1) for n in range(3)]
    season = Season.objects.create(
        league=league,
        name="Winter",
        kind=Season.Kind.DIVISIONS,
        status=Season.Status.RUNNING,
        round_times=[t.isoformat() for t in times],
    )
    found = vevents(feeds.league_calendar(league))
    uids = [f"season-{season.pk}-round-{n}@testserver" for n in (1, 2, 3)]
    assert sorted(found) == sorted(uids)
    assert [start_of(found[u]) for u in uids] == times
    assert str(found[uids[1]]["SUMMARY"]) == "Winter: round 2"


def test_recurring_occurrences_are_never_duplicated(club: tuple[Actor, League]) -> None:
    organiser, league = club
    now = timezone.now()
    first = (now + dt.timedelta(days=1)).astimezone(ZoneInfo("Europe/Madrid")).date()
    series = recurring.series_create(
        league=league,
        by=organiser.player,
        name="Friday Blitz",
        event={"game": "pacru", "seats": 2, "rounds": 5},
        frequency="weekly",
        local_time=dt.time(19, 0),
        time_zone="Europe/Madrid",
        first_date=first,
        create_days_ahead=7,
    )
    planned = {
        o.date: o.starts_at for o in recurring.occurrences(series, start=now, end=now + dt.timedelta(days=21))
    }
    before = vevents(feeds.league_calendar(league, now=now))
    assert {u for u in before} >= {f"series-{series.pk}-{d.isoformat()}@testserver" for d in planned}
    recurring.sweep(now=now)
    created = Tournament.objects.filter(series=series).get()
    after = vevents(feeds.league_calendar(league, now=now))
    uid = f"series-{series.pk}-{created.occurrence.isoformat()}@testserver"
    assert uid in before and uid in after and f"event-{created.pk}@testserver" not in after
    assert str(after[uid]["URL"]) == f"{SITE}/tournaments/{created.pk}/"  # now the event's page
    assert start_of(after[uid]) == planned[created.occurrence]
    assert set(after) == set(before)  # the siblings not created yet stay, once each


# ------------------------------------------------------------------ the private feed
def _registered(t: Tournament, actor: Actor) -> None:
    Account.objects.update_or_create(user=actor.player.user, defaults={"email_verified_at": timezone.now()})
    actor.player.user.email = f"{actor.player.user.username}@example.org"
    actor.player.user.save(update_fields=["email"])
    services.register(tournament_id=t.pk, player=actor.player, by=t.created_by)


def test_the_private_feed_has_only_the_players_own_things(club: tuple[Actor, League], alice: Actor) -> None:
    organiser, league = club
    mine = scheduled(organiser, league, "Alice's event", soon(days=2))
    scheduled(organiser, league, "Someone else's", soon(days=2, hours=1))
    _registered(mine, alice)
    season = Season.objects.create(
        league=league,
        name="Winter",
        kind=Season.Kind.DIVISIONS,
        status=Season.Status.RUNNING,
        round_times=[soon(days=5).isoformat()],
    )
    division = Division.objects.create(season=season, level=2, name="Division 2")
    SeasonEntry.objects.create(season=season, player=alice.player, division=division)
    other = Season.objects.create(
        league=league, name="Other", kind=Season.Kind.DIVISIONS, round_times=[soon(days=6).isoformat()]
    )
    feed = feeds.feed_for(player=alice.player)
    response = Client().get(f"/calendar/{feed.secret}.ics")
    assert response.status_code == 200 and response["Content-Type"] == "text/calendar; charset=utf-8"
    assert "private" in response["Cache-Control"]
    found = vevents(response.content)
    assert set(found) == {f"event-{mine.pk}@testserver", f"season-{season.pk}-round-1@testserver"}
    assert "Division 2" in str(found[f"season-{season.pk}-round-1@testserver"]["DESCRIPTION"])
    assert f"season-{other.pk}-round-1@testserver" not in found


def test_the_private_feed_speaks_its_owners_language(club: tuple[Actor, League], alice: Actor) -> None:
    """Calendar clients send no session: the feed is written in the language the player chose."""
    _, league = club
    season = Season.objects.create(
        league=league,
        name="Winter",
        kind=Season.Kind.DIVISIONS,
        status=Season.Status.RUNNING,
        round_times=[soon(days=5).isoformat()],
    )
    SeasonEntry.objects.create(season=season, player=alice.player)
    feed = feeds.feed_for(player=alice.player)
    uid = f"season-{season.pk}-round-1@testserver"

    def description() -> str:
        return str(vevents(Client().get(f"/calendar/{feed.secret}.ics").content)[uid]["DESCRIPTION"])

    assert "Winter: round 1 of 1." in description()
    Account.objects.update_or_create(user=alice.player.user, defaults={"language": "de"})
    assert "Winter: Runde 1 von 1." in description()


def test_round_deadlines_are_in_the_private_feed(club: tuple[Actor, League], alice: Actor) -> None:
    organiser, league = club
    t = scheduled(organiser, league, "Correspondence league", soon(days=1))
    _registered(t, alice)
    deadline = soon(days=8)
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.RUNNING)
    rnd = Round.objects.create(tournament=t, number=1, deadline=deadline)
    found = vevents(feeds.player_calendar(alice.player))
    uid = f"round-{rnd.pk}-deadline@testserver"
    assert start_of(found[uid]) == deadline and str(found[uid]["URL"]) == f"{SITE}/tournaments/{t.pk}/"
    # A round all played before its deadline has no deadline left to meet: it leaves the feeds.
    Round.objects.filter(pk=rnd.pk).update(status=Round.Status.FINISHED)
    assert uid not in vevents(feeds.player_calendar(alice.player))
    assert uid not in vevents(feeds.league_calendar(t.league))
    Round.objects.filter(pk=rnd.pk).update(deadline_applied=True)
    assert uid not in vevents(feeds.player_calendar(alice.player))


def test_a_correspondence_move_due_is_in_the_feed_of_the_player_on_move(alice: Actor, bob: Actor) -> None:
    table = started_table([alice, bob], time_control={"kind": "correspondence", "days": 3})
    assert table.deadline is not None
    on_move = alice if table.to_move == 1 else bob
    waiting = bob if on_move is alice else alice
    uid = f"table-{table.pk}-move@testserver"
    found = vevents(feeds.player_calendar(on_move.player))
    assert start_of(found[uid]) == table.deadline.replace(microsecond=0)
    assert str(found[uid]["URL"]) == f"{SITE}/tables/{table.pk}/"
    assert uid not in vevents(feeds.player_calendar(waiting.player))


def test_an_unknown_secret_is_404_and_a_reset_retires_the_old_one(alice: Actor) -> None:
    assert Client().get("/calendar/no-such-secret.ics").status_code == 404
    browser = Client()
    browser.force_login(alice.player.user)
    page = browser.get("/accounts/settings/").content.decode()
    old = feeds.feed_for(player=alice.player).secret
    assert f"{SITE}/calendar/{old}.ics" in page and "Reset the address" in page
    assert Client().get(f"/calendar/{old}.ics").status_code == 200
    assert browser.post("/calendar/feed/reset/").status_code == 302
    new = feeds.feed_for(player=alice.player).secret
    assert new != old
    assert Client().get(f"/calendar/{old}.ics").status_code == 404
    assert Client().get(f"/calendar/{new}.ics").status_code == 200
    assert Client().post("/calendar/feed/reset/").status_code == 302  # to the sign-in page
    assert feeds.feed_for(player=alice.player).secret == new


# ------------------------------------------------------------------ the pages
def _in_zone(actor: Actor, zone: str) -> Client:
    Account.objects.update_or_create(user=actor.player.user, defaults={"time_zone": zone})
    browser = Client()
    browser.force_login(actor.player.user)
    return browser


def test_the_league_calendar_page_shows_local_times(club: tuple[Actor, League], alice: Actor) -> None:
    organiser, league = club
    at = soon(days=2).replace(hour=18, minute=30)
    t = scheduled(organiser, league, "Evening Swiss", at)
    html = _in_zone(alice, "Asia/Tokyo").get("/leagues/club/calendar/").content.decode()
    tokyo = at.astimezone(ZoneInfo("Asia/Tokyo"))
    assert "Asia/Tokyo" in html and f"/tournaments/{t.pk}/" in html
    assert tokyo.strftime("%H:%M") in html and "cal-countdown" in html
    assert "/leagues/club/calendar.ics" in html
    assert 'id="league-calendar"' in Client().get("/leagues/club/").content.decode()


def test_whats_next_on_my_page(club: tuple[Actor, League], alice: Actor) -> None:
    organiser, league = club
    at = soon(days=1, hours=3)
    t = scheduled(organiser, league, "Tomorrow's Swiss", at)
    _registered(t, alice)
    html = _in_zone(alice, "America/New_York").get("/").content.decode()
    part = html.split('class="cal-whats-next"', 1)[1].split("</section>", 1)[0]
    local = at.astimezone(ZoneInfo("America/New_York"))
    assert "Tomorrow&#x27;s Swiss" in part and local.strftime("%H:%M") in part
    assert "1 day 2 h" in part or "1 day 3 h" in part
    assert f"/calendar/{feeds.feed_for(player=alice.player).secret}.ics" in part
