"""Recurring events (``tournaments.calendar.recurring``): the dates in local time over daylight-saving
changes, the sweep creating each occurrence exactly once ahead of time, skipping, validation, the
API and its permissions. The clock is injected (``now=``)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import UTC, date, datetime, time
from typing import Any

import pytest
from django.db import connection
from django.test import Client

from common.errors import Conflict, Forbidden, InvalidInput
from tournaments import events
from tournaments.calendar import recurring
from tournaments.competitions import services
from tournaments.models import AuditEntry, EventSeries, League, Registration, Tournament

from ..games.conftest import Actor, as_organiser

pytestmark = pytest.mark.django_db

BLITZ = {
    "game": "shacru",
    "seats": 2,
    "format": "swiss",
    "rounds": 5,
    "time_control": {"kind": "fischer", "base": 180, "increment": 2},
}


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


@pytest.fixture
def org(make_actor: Callable[..., Actor]) -> Actor:
    actor = make_actor("seriesorg")
    as_organiser(actor.player)
    return actor


@pytest.fixture
def league(org: Actor) -> League:
    return services.league_create(organiser=org.player, name="Friday Club")


def make_series(org: Actor, league: League, **kw: Any) -> EventSeries:
    settings: dict[str, Any] = {
        "name": "Friday Blitz Swiss",
        "event": BLITZ,
        "frequency": "weekly",
        "weekdays": [4],
        "local_time": time(19, 0),
        "time_zone": "Europe/Madrid",
        "first_date": date(2026, 10, 2),
    }
    settings.update(kw)
    return recurring.series_create(league=league, by=org.player, **settings)


def starts(series: EventSeries, start: datetime, end: datetime) -> list[tuple[str, datetime]]:
    return [(o.date.isoformat(), o.starts_at) for o in recurring.occurrences(series, start=start, end=end)]


# ---------------------------------------------------------------- the dates


def test_a_weekly_friday_keeps_19_00_in_madrid_over_the_october_change(org: Actor, league: League) -> None:
    series = make_series(org, league)
    got = starts(series, utc(2026, 10, 15), utc(2026, 11, 7))
    assert got == [
        ("2026-10-16", utc(2026, 10, 16, 17)),  # summer time: UTC+2
        ("2026-10-23", utc(2026, 10, 23, 17)),
        ("2026-10-30", utc(2026, 10, 30, 18)),  # after 25 October: UTC+1
        ("2026-11-06", utc(2026, 11, 6, 18)),
    ]


def test_a_time_the_clocks_skip_moves_to_the_first_minute_after_and_a_doubled_one_takes_the_first(
    org: Actor, league: League
) -> None:
    series = make_series(
        org, league, frequency="daily", weekdays=[], local_time=time(2, 30), first_date=date(2027, 3, 26)
    )
    got = starts(series, utc(2027, 3, 26), utc(2027, 3, 30))
    assert got == [
        ("2027-03-26", utc(2027, 3, 26, 1, 30)),
        ("2027-03-27", utc(2027, 3, 27, 1, 30)),
        ("2027-03-28", utc(2027, 3, 28, 1, 0)),  # 02:30 does not exist: 03:00 local
        ("2027-03-29", utc(2027, 3, 29, 0, 30)),
    ]
    autumn = recurring.occurrence_on(series, date(2027, 10, 31))  # 02:30 happens twice
    assert autumn is not None and autumn.starts_at == utc(2027, 10, 31, 0, 30)  # the first, at UTC+2


def test_daily_every_other_day_and_monthly_series(org: Actor, league: League) -> None:
    daily = make_series(
        org, league, frequency="daily", interval=2, weekdays=[], time_zone="UTC", first_date=date(2027, 1, 1)
    )
    assert [d for d, _ in starts(daily, utc(2027, 1, 1), utc(2027, 1, 8))] == [
        "2027-01-01",
        "2027-01-03",
        "2027-01-05",
        "2027-01-07",
    ]
    monthly = make_series(
        org,
        league,
        frequency="monthly",
        weekdays=[],
        time_zone="America/New_York",
        first_date=date(2027, 1, 15),
    )
    assert starts(monthly, utc(2027, 1, 1), utc(2027, 4, 1)) == [
        ("2027-01-15", utc(2027, 1, 16, 0)),  # 19:00 EST
        ("2027-02-15", utc(2027, 2, 16, 0)),
        ("2027-03-15", utc(2027, 3, 15, 23)),  # 19:00 EDT (from 14 March)
    ]


def test_until_and_skipped_dates_end_and_leave_out_occurrences(org: Actor, league: League) -> None:
    series = make_series(org, league, until=date(2026, 10, 23))
    series.skipped = ["2026-10-09"]
    assert [d for d, _ in starts(series, utc(2026, 10, 1), utc(2026, 12, 1))] == [
        "2026-10-02",
        "2026-10-16",
        "2026-10-23",
    ]


# ---------------------------------------------------------------- the sweep


def test_the_sweep_creates_each_occurrence_within_its_days_ahead_once(org: Actor, league: League) -> None:
    series = make_series(org, league, first_date=date(2026, 11, 27), create_days_ahead=7)
    now = utc(2026, 11, 26, 12)
    assert recurring.sweep(now=now) == {"created": 1}
    assert recurring.sweep(now=now) == {}
    (t,) = Tournament.objects.filter(series=series)
    assert (t.name, t.occurrence, t.starts_at) == (
        "Friday Blitz Swiss — 27 Nov",
        date(2026, 11, 27),
        utc(2026, 11, 27, 18),
    )
    assert t.status == Tournament.Status.REGISTRATION
    assert (t.game, t.seats, t.format, t.rounds, t.time_control["base"]) == ("shacru", 2, "swiss", 5, 180)
    assert AuditEntry.objects.filter(tournament=t, action="series_occurrence").count() == 1
    # a week later: 4 December comes within reach (and 27 November is not made again)
    assert recurring.sweep(now=utc(2026, 11, 27, 18, 30)) == {"created": 1}
    assert [x.name for x in Tournament.objects.filter(series=series).order_by("occurrence")] == [
        "Friday Blitz Swiss — 27 Nov",
        "Friday Blitz Swiss — 4 Dec",
    ]


def test_past_occurrences_are_not_created(org: Actor, league: League) -> None:
    series = make_series(org, league, first_date=date(2026, 11, 6))
    assert recurring.sweep(now=utc(2026, 11, 27, 18)) == {"created": 1}  # 27 Nov 19:00 is now: 4 Dec only
    assert list(Tournament.objects.filter(series=series).values_list("occurrence", flat=True)) == [
        date(2026, 12, 4)
    ]


def test_a_racing_tick_is_kept_out_by_the_unique_constraint(
    org: Actor, league: League, monkeypatch: pytest.MonkeyPatch
) -> None:
    series = make_series(org, league, first_date=date(2026, 11, 27))
    recurring.sweep(now=utc(2026, 11, 26))
    # the other tick made it after this one looked: this one sees nothing and tries again
    monkeypatch.setattr(recurring, "_created", lambda series, dates: set())
    assert recurring.sweep(now=utc(2026, 11, 26)) == {}
    assert Tournament.objects.filter(series=series).count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_ticks_at_once_create_the_occurrence_once(org: Actor, league: League) -> None:
    series = make_series(org, league, first_date=date(2026, 11, 27))
    barrier = threading.Barrier(2)
    results: list[dict[str, int]] = []

    def tick() -> None:
        try:
            barrier.wait()
            results.append(recurring.sweep(now=utc(2026, 11, 26)))
        finally:
            connection.close()

    threads = [threading.Thread(target=tick) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results, key=len) == [{}, {"created": 1}]
    assert Tournament.objects.filter(series=series).count() == 1


def test_a_moved_occurrence_is_not_created_again(org: Actor, league: League) -> None:
    series = make_series(org, league, first_date=date(2026, 11, 27))
    recurring.sweep(now=utc(2026, 11, 26))
    Tournament.objects.filter(series=series).update(starts_at=utc(2026, 11, 28, 18))  # postponed a day
    assert recurring.sweep(now=utc(2026, 11, 26, 1)) == {}
    assert Tournament.objects.filter(series=series).count() == 1


def test_changes_apply_to_occurrences_not_created_yet(org: Actor, league: League) -> None:
    series = make_series(org, league, first_date=date(2026, 11, 27))
    recurring.sweep(now=utc(2026, 11, 26))
    recurring.series_update(series_id=series.pk, by=org.player, local_time=time(20, 0), name="Blitz")
    recurring.sweep(now=utc(2026, 11, 28))
    rows = list(
        Tournament.objects.filter(series=series).order_by("occurrence").values_list("name", "starts_at")
    )
    assert rows == [
        ("Friday Blitz Swiss — 27 Nov", utc(2026, 11, 27, 18)),
        ("Blitz — 4 Dec", utc(2026, 12, 4, 19)),
    ]


def test_a_series_no_longer_weekly_drops_its_days(org: Actor, league: League) -> None:
    series = make_series(org, league)
    series = recurring.series_update(series_id=series.pk, by=org.player, frequency="daily")
    assert (series.frequency, series.weekdays) == ("daily", [])


def test_a_paused_or_deleted_series_creates_nothing_and_keeps_its_events(org: Actor, league: League) -> None:
    series = make_series(org, league, first_date=date(2026, 11, 27))
    recurring.series_pause(series_id=series.pk, by=org.player)
    assert recurring.sweep(now=utc(2026, 11, 26)) == {}
    recurring.series_resume(series_id=series.pk, by=org.player)
    assert recurring.sweep(now=utc(2026, 11, 26)) == {"created": 1}
    recurring.series_delete(series_id=series.pk, by=org.player)
    assert recurring.sweep(now=utc(2026, 12, 1)) == {}
    (t,) = Tournament.objects.filter(name__startswith="Friday Blitz Swiss")
    assert (t.series_id, t.occurrence) == (None, date(2026, 11, 27))


# ---------------------------------------------------------------- skipping


def test_a_skipped_date_is_not_created(org: Actor, league: League) -> None:
    series = make_series(org, league, first_date=date(2026, 11, 27), create_days_ahead=14)
    assert recurring.series_skip(series_id=series.pk, date=date(2026, 12, 4), by=org.player) is None
    recurring.sweep(now=utc(2026, 11, 26))
    assert list(Tournament.objects.filter(series=series).values_list("occurrence", flat=True)) == [
        date(2026, 11, 27)
    ]
    series.refresh_from_db()
    assert series.skipped == ["2026-12-04"]


def test_skipping_a_created_occurrence_calls_it_off_and_tells_its_players(
    org: Actor, league: League, alice: Actor, django_capture_on_commit_callbacks: Any
) -> None:
    series = make_series(org, league, first_date=date(2026, 11, 27))
    recurring.sweep(now=utc(2026, 11, 26))
    t = Tournament.objects.get(series=series)
    services.register(tournament_id=t.pk, player=alice.player, by=alice.player)
    told: list[Any] = []
    events.event_changed.connect(
        lambda sender, **kw: told.append(kw["event"]), weak=False, dispatch_uid="t.skip"
    )
    try:
        with django_capture_on_commit_callbacks(execute=True):
            recurring.series_skip(
                series_id=series.pk, date=date(2026, 11, 27), by=org.player, now=utc(2026, 11, 26)
            )
    finally:
        events.event_changed.disconnect(dispatch_uid="t.skip")
    t.refresh_from_db()
    assert t.status == Tournament.Status.CANCELLED
    assert AuditEntry.objects.filter(tournament=t, action="called_off").exists()
    (news,) = told
    assert (news.tournament_id, news.state, [p.id for p in news.entrants]) == (
        t.pk,
        "called_off",
        [alice.player.pk],
    )
    assert recurring.sweep(now=utc(2026, 11, 26, 1)) == {}  # not made again


def test_skipping_refuses_dates_without_an_occurrence_and_started_events(org: Actor, league: League) -> None:
    series = make_series(org, league, first_date=date(2026, 11, 27))
    with pytest.raises(InvalidInput, match="no occurrence on 2026-11-28"):
        recurring.series_skip(series_id=series.pk, date=date(2026, 11, 28), by=org.player)
    recurring.sweep(now=utc(2026, 11, 26))
    Tournament.objects.filter(series=series).update(status=Tournament.Status.RUNNING)
    with pytest.raises(Conflict, match="already started"):
        recurring.series_skip(
            series_id=series.pk, date=date(2026, 11, 27), by=org.player, now=utc(2026, 11, 26)
        )
    series.refresh_from_db()
    assert series.skipped == []


# ---------------------------------------------------------------- validation


@pytest.mark.parametrize(
    "change,words",
    [
        ({"time_zone": "Europe/Atlantis"}, "is not a time zone"),
        ({"weekdays": [7]}, r"0 \(Monday\) to 6 \(Sunday\)"),
        ({"interval": 0}, "interval must be 1 to"),
        ({"until": date(2026, 9, 1)}, "must come after the first date"),
        ({"frequency": "yearly"}, "frequency must be one of"),
        ({"frequency": "daily"}, "weekly series only"),
        ({"event": {**BLITZ, "seats": 5}}, "seats must be 2, 3 or 4"),
        ({"event": {**BLITZ, "rounds": 40}}, "a Swiss needs 1 to 30 rounds"),
        ({"event": {**BLITZ, "colour": "red"}}, "cannot set colour"),
        ({"event": {"seats": 2}}, "need at least a game"),
        ({"create_days_ahead": 0}, "1 to 90 days"),
        ({"name": " "}, "needs a name"),
    ],
)
def test_invalid_settings_are_refused_and_create_nothing(
    org: Actor, league: League, change: dict[str, Any], words: str
) -> None:
    with pytest.raises(InvalidInput, match=words):
        make_series(org, league, **change)
    assert EventSeries.objects.count() == 0 and Tournament.objects.count() == 0


def test_only_the_league_organisers_manage_its_series(org: Actor, league: League, bob: Actor) -> None:
    with pytest.raises(Forbidden, match="only organisers"):
        recurring.series_create(
            league=league,
            by=bob.player,
            name="X",
            event=BLITZ,
            frequency="daily",
            local_time=time(19),
            time_zone="UTC",
            first_date=date(2027, 1, 1),
        )
    series = make_series(org, league)
    for call in (recurring.series_pause, recurring.series_delete):
        with pytest.raises(Forbidden, match="only organisers"):
            call(series_id=series.pk, by=bob.player)
    assert EventSeries.objects.filter(pk=series.pk, active=True).exists()


# ---------------------------------------------------------------- the API


def test_the_api_creates_lists_and_skips(org: Actor, league: League, alice: Actor) -> None:
    body = {
        "name": "Friday Blitz Swiss",
        "event": BLITZ,
        "frequency": "weekly",
        "weekdays": [4],
        "local_time": "19:00",
        "time_zone": "Europe/Madrid",
        "first_date": "2030-01-04",
    }
    r = org.post(f"/api/v1/leagues/{league.slug}/series/", body)
    assert r.status_code == 201, r.content
    made = r.json()
    assert (made["league"], made["local_time"], made["weekdays"], made["active"]) == (
        league.slug,
        "19:00:00",
        [4],
        True,
    )
    assert made["next"][0] == {
        "date": "2030-01-04",
        "starts_at": "2030-01-04T18:00:00Z",
        "tournament": None,
        "status": "",
    }
    listed = alice.client.get(f"/api/v1/leagues/{league.slug}/series/").json()
    assert [s["id"] for s in listed] == [made["id"]]
    r = org.post(f"/api/v1/series/{made['id']}/skip/", {"date": "2030-01-04"})
    assert r.status_code == 200, r.content
    assert r.json()["skipped"] == ["2030-01-04"] and r.json()["next"][0]["date"] == "2030-01-11"
    r = org.client.patch(
        f"/api/v1/series/{made['id']}/", {"local_time": "20:00", "active": False}, format="json"
    )
    assert r.status_code == 200 and r.json()["active"] is False
    assert r.json()["next"][0]["starts_at"] == "2030-01-11T19:00:00Z"
    r = org.post(f"/api/v1/leagues/{league.slug}/series/", {**body, "time_zone": "Mars/Olympus"})
    assert r.status_code == 400 and "is not a time zone" in r.json()["detail"]
    assert org.client.delete(f"/api/v1/series/{made['id']}/").json() == {"id": made["id"], "deleted": True}
    assert org.client.get(f"/api/v1/series/{made['id']}/").status_code == 404


def test_the_api_refuses_others(org: Actor, league: League, alice: Actor, anon: Any) -> None:
    series = make_series(org, league)
    body = {
        "name": "X",
        "event": BLITZ,
        "frequency": "daily",
        "local_time": "19:00",
        "time_zone": "UTC",
        "first_date": "2030-01-01",
    }
    assert alice.post(f"/api/v1/leagues/{league.slug}/series/", body).status_code == 403
    assert alice.post(f"/api/v1/series/{series.pk}/skip/", {"date": "2026-10-09"}).status_code == 403
    assert (
        alice.client.patch(f"/api/v1/series/{series.pk}/", {"name": "Mine"}, format="json").status_code == 403
    )
    assert alice.client.delete(f"/api/v1/series/{series.pk}/").status_code == 403
    assert anon.post(f"/api/v1/leagues/{league.slug}/series/", body).status_code == 401
    assert org.post("/api/v1/leagues/nowhere/series/", body).status_code == 404
    assert org.post("/api/v1/series/999999/skip/", {"date": "2026-10-09"}).status_code == 404
    series.refresh_from_db()
    assert (series.name, series.skipped, EventSeries.objects.count()) == ("Friday Blitz Swiss", [], 1)
    assert Registration.objects.count() == 0


# ---------------------------------------------------------------- the organiser's pages


def test_the_organiser_creates_edits_and_skips_from_the_pages(org: Actor, league: League, bob: Actor) -> None:
    c = Client()
    c.force_login(org.player.user)
    assert f"/organiser/leagues/{league.slug}/series/" in c.get("/organiser/").content.decode()
    assert 'id="league-series"' in c.get(f"/leagues/{league.slug}/").content.decode()
    page = c.get(f"/organiser/leagues/{league.slug}/series/").content.decode()
    assert 'id="create-series"' in page and 'name="weekdays"' in page and 'value="Europe/Madrid"' in page
    form = {
        "name": "Friday Blitz Swiss",
        "frequency": "weekly",
        "interval": 1,
        "weekdays": ["4"],
        "local_time": "19:00",
        "time_zone": "Europe/Madrid",
        "first_date": "2030-01-04",
        "until": "",
        "create_days_ahead": 7,
        "game": "shacru",
        "seats": 2,
        "format": "swiss",
        "rounds": 5,
        "advance": 1,
        "requested_bye": "half",
        "base_minutes": 3,
        "increment": 2,
        "rated": "on",
    }
    r = c.post(f"/organiser/leagues/{league.slug}/series/", form, follow=True)
    series = EventSeries.objects.get()
    assert r.redirect_chain[-1][0] == f"/organiser/series/{series.pk}/"
    assert (series.weekdays, series.local_time, series.time_zone) == ([4], time(19), "Europe/Madrid")
    assert series.event == {
        "game": "shacru",
        "seats": 2,
        "format": "swiss",
        "rated": True,
        "check_in": False,
        "requested_bye": "half",
        "rounds": 5,
        "time_control": {"kind": "fischer", "base": 180.0, "increment": 2.0},
    }
    page = r.content.decode()
    assert page.count('class="skip-date"') == 8 and 'value="2030-01-04"' in page
    r = c.post(f"/organiser/series/{series.pk}/skip/", {"date": "2030-01-04"}, follow=True)
    assert "2030-01-04 skipped: no event will be created that day" in [str(m) for m in r.context["messages"]]
    r = c.post(f"/organiser/series/{series.pk}/", {**form, "local_time": "20:00"}, follow=True)
    series.refresh_from_db()
    assert series.local_time == time(20) and series.skipped == ["2030-01-04"]
    # another member of the club may not
    other = Client()
    other.force_login(bob.player.user)
    assert other.get(f"/organiser/series/{series.pk}/").status_code == 403
    assert other.post(f"/organiser/series/{series.pk}/delete/").status_code == 403
    assert other.get(f"/organiser/leagues/{league.slug}/series/").status_code == 403
    assert EventSeries.objects.filter(pk=series.pk).exists()
