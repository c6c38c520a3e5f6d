"""The organiser's console for an arena (``tournaments.organising.arena_console``): its clock,
players, tables and leaderboard before, during and after; pausing its pairing; the round actions
refused with a reason and nothing changed; the exports. And recurring arenas: a series carries an
arena's duration and berserk to its occurrences (``tournaments.calendar.recurring``)."""

from __future__ import annotations

import csv
import io
import zipfile
from collections.abc import Callable
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import formats, timezone

from common.errors import Conflict, InvalidInput
from games import services as games
from games.models import Table
from tournaments.arena import services as arena_services
from tournaments.arena import wave
from tournaments.calendar import recurring
from tournaments.competitions import services
from tournaments.models import ArenaPlayer, ArenaTable, AuditEntry, EventSeries, League, Round, Tournament
from tournaments.organising import actions, arena_console

from ..games.conftest import Actor, as_organiser

pytestmark = pytest.mark.django_db

CLOCK = {"kind": "fischer", "base": 300, "increment": 2}


@pytest.fixture
def org(make_actor: Callable[..., Actor]) -> Actor:
    organiser = make_actor("consoleorg")
    as_organiser(organiser.player)
    return organiser


@pytest.fixture
def league(org: Actor) -> League:
    return services.league_create(organiser=org.player, name="Arena Club", slug="arena-club")


def make_arena(org: Actor, league: League, **options: Any) -> Tournament:
    options.setdefault("game", "pacru")
    options.setdefault("seats", 2)
    options.setdefault("rated", False)
    options.setdefault("time_control", CLOCK)
    options.setdefault("duration_minutes", 30)
    return services.tournament_create(
        organiser=org.player, league=league, name="Friday Arena", format="arena", **options
    )


def client_for(actor: Actor) -> Client:
    c = Client()
    c.force_login(actor.player.user)
    return c


def console(actor: Actor, t: Tournament) -> str:
    response = client_for(actor).get(f"/organiser/events/{t.pk}/")
    assert response.status_code == 200
    return response.content.decode()


def act(actor: Actor, t: Tournament, action: str, data: dict[str, Any] | None = None) -> list[str]:
    """POST a console action, follow it back to the console: the messages shown."""
    response = client_for(actor).post(f"/organiser/events/{t.pk}/{action}/", data or {}, follow=True)
    assert response.redirect_chain[-1] == (f"/organiser/events/{t.pk}/", 302)
    return [str(m) for m in response.context["messages"]]


def section(html: str, ident: str) -> str:
    return html.split(f'id="{ident}"', 1)[1].split("</section>", 1)[0]


def pair(capture: Any, now: datetime | None = None) -> dict[str, int]:
    """One pairing wave: what it did (counts above zero)."""
    with capture(execute=True):
        done = wave.sweep(now=now or timezone.now())
    return {k: v for k, v in done.items() if v}


def table_of(t: Tournament, actor: Actor) -> Table:
    row = ArenaPlayer.objects.get(tournament=t, player=actor.player)
    assert row.table_id is not None
    return Table.objects.get(pk=row.table_id)


def win(table: Table, winner: Actor, capture: Any) -> None:
    with capture(execute=True):
        for seat in table.seats.exclude(player=winner.player).select_related("player"):
            games.game_resign(table_id=table.pk, player=seat.player)


@pytest.fixture
def running(
    org: Actor, league: League, alice: Actor, bob: Actor, django_capture_on_commit_callbacks: Any
) -> tuple[Tournament, Any]:
    """An arena started from the console, Alice and Bob at one table."""
    t = make_arena(org, league)
    for who in (alice, bob):
        arena_services.arena_join(tournament_id=t.pk, player=who.player)
    with django_capture_on_commit_callbacks(execute=True):
        said = act(org, t, "start")
    t.refresh_from_db()
    ends = formats.date_format(timezone.localtime(t.ends_at), "DATETIME_FORMAT")
    assert said == [
        f"Friday Arena started with 2 players: they are paired within seconds, and it ends at {ends}"
    ]
    assert pair(django_capture_on_commit_callbacks) == {"tables": 1, "seated": 2}
    return t, django_capture_on_commit_callbacks


# ------------------------------------------------------------------------------- the console


def test_before_the_start_the_console_speaks_of_minutes_and_players_not_rounds(
    org: Actor, league: League, alice: Actor
) -> None:
    t = make_arena(org, league, duration_minutes=45)
    arena_services.arena_join(tournament_id=t.pk, player=alice.player)
    html = console(org, t)
    controls = section(html, "controls")
    assert "Run the arena" in controls and "45 minutes" in controls
    assert 'id="start-event"' in controls and "Start the arena (1 player)" in controls
    assert "1 player in the arena" in section(html, "arena-summary")
    assert "The leaderboard starts with the arena." in html
    assert "45 minutes, berserk allowed" in html  # the event's line
    for round_thing in ('id="next-round"', 'id="repair-form"', 'id="seeds"', 'id="results"', "round 0"):
        assert round_thing not in html, round_thing
    assert "The next round can be started" not in html and "crosstable.csv" not in html
    # Announcements, the audit log and the exports are there as for every event.
    assert 'id="announcements"' in html and 'id="audit"' in html and "standings.csv" in html


def test_while_it_runs_the_console_shows_time_players_tables_and_the_leaders(
    running: tuple[Tournament, Any], org: Actor, alice: Actor, bob: Actor
) -> None:
    t, capture = running
    html = console(org, t)
    controls = section(html, "controls")
    ends = formats.date_format(timezone.localtime(t.ends_at), "DATETIME_FORMAT")
    assert "left: it ends at" in controls and ends in controls
    assert 'id="pause-event"' in controls and "Pause pairing" in controls
    assert "round" not in controls.lower()
    summary = section(html, "arena-summary")
    assert "2 players in the arena" in summary and "2 at a table" in summary and "0 free" in summary
    assert "1 table in play" in summary and "0 tables counted" in summary
    assert f'href="/tables/{table_of(t, alice).pk}/"' in summary
    top = summary.split('id="arena-top"', 1)[1]
    assert "Alice" in top and "Bob" in top
    assert "Start round" not in html and 'id="next-round"' not in html and 'id="repair-form"' not in html

    # The clock with an injected moment: ten minutes in, twenty left.
    view = arena_console.arena_console(t=t, now=t.started_at + timedelta(minutes=10))
    assert (view.left, view.time_up, view.tables_playing) == ("20 min", False, 1)
    assert view.counts == arena_console.Counts(joined=2, paused=0, withdrawn=0, at_table=2, free=0)

    # Pausing the event pauses the pairing: the table plays on and counts, no new one is made.
    said = act(org, t, "pause")
    assert said == [
        "Friday Arena paused: the tables being played go on and count, and no new table is paired until "
        "you resume. The arena's clock runs on."
    ]
    win(table_of(t, alice), alice, capture)
    assert pair(capture) == {}
    assert ArenaTable.objects.filter(tournament=t).count() == 1
    html = console(org, t)
    assert 'id="resume-event"' in html and "Pairing is paused" in html
    summary = section(html, "arena-summary")
    assert "2 free, waiting for a table" in summary and "1 table counted" in summary
    assert "0 tables in play" in summary
    assert act(org, t, "resume") == ["Friday Arena resumed: its free players are paired again within seconds"]
    assert pair(capture) == {"tables": 1, "seated": 2}

    # A player removed from the roster is counted as withdrawn, their points kept.
    assert act(org, t, "remove", {"player": bob.player.pk})[0].startswith("Bob removed from Friday Arena")
    counts = arena_console.arena_console(t=t).counts
    assert (counts.joined, counts.withdrawn) == (1, 1)
    assert ArenaPlayer.objects.get(tournament=t, player=alice.player).points == 2


def test_every_round_action_is_refused_for_an_arena_and_changes_nothing(
    running: tuple[Tournament, Any], org: Actor, alice: Actor
) -> None:
    t, _capture = running
    table = table_of(t, alice)
    audited = AuditEntry.objects.filter(tournament=t).count()
    posts = {
        "seeds": {f"seed_{alice.player.pk}": "1"},
        "next-round": {},
        "repair": {"confirm": "yes"},
        "result": {"table": table.pk, "rank_1": "1", "rank_2": "2", "reason": "stuck"},
    }
    for action, data in posts.items():
        said = act(org, t, action, data)
        assert len(said) == 1 and said[0].startswith("Friday Arena is an arena:"), (action, said)
    assert "it has no seeds" in act(org, t, "seeds", posts["seeds"])[0]
    assert "it has no rounds" in act(org, t, "next-round")[0]
    assert "not entered or corrected by hand" in act(org, t, "result", posts["result"])[0]
    table.refresh_from_db()
    t.refresh_from_db()
    assert table.status == Table.Status.ACTIVE and t.current_round == 0
    assert not Round.objects.filter(tournament=t).exists()
    assert AuditEntry.objects.filter(tournament=t).count() == audited
    # The service refuses too (the API and any other caller), whatever the console does.
    with pytest.raises(Conflict, match="is an arena"):
        actions.enter_result(
            tournament_id=t.pk, table_id=table.pk, ranks={1: 1, 2: 2}, reason="x", by=org.player
        )
    # Other events keep their round actions.
    assert arena_console.round_action_refusal(t=Tournament(format="swiss", name="Cup"), action="seeds") == ""
    assert arena_console.round_action_refusal(t=t, action="announce") == ""


def test_seeds_are_refused_before_the_start_too(org: Actor, league: League, alice: Actor) -> None:
    t = make_arena(org, league)
    arena_services.arena_join(tournament_id=t.pk, player=alice.player)
    said = act(org, t, "seeds", {f"seed_{alice.player.pk}": "1"})
    assert said and "it has no seeds" in said[0]
    assert t.registrations.get(player=alice.player).seed is None


def test_after_the_time_the_console_shows_time_up_then_the_final_standings_and_exports(
    running: tuple[Tournament, Any], org: Actor, alice: Actor
) -> None:
    t, capture = running
    table = table_of(t, alice)
    late = t.ends_at + timedelta(seconds=1)
    pair(capture, now=late)  # time is up, a table still in play: the arena waits for it
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING
    view = arena_console.arena_console(t=t, now=late)
    assert view.time_up and view.left == "" and view.tables_playing == 1
    html = console(org, t)  # the real clock: the arena's time is not up yet
    assert 'id="pause-event"' in html

    win(table, alice, capture)
    pair(capture, now=late)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    html = console(org, t)
    controls = section(html, "controls")
    assert "The arena is over" in controls
    assert 'id="pause-event"' not in controls and 'id="resume-event"' not in controls
    summary = section(html, "arena-summary")
    assert "Final standings" in summary and "1 table counted" in summary and "0 tables in play" in summary

    c = client_for(org)
    rows = list(csv.reader(io.StringIO(c.get(f"/organiser/events/{t.pk}/standings.csv").content.decode())))
    assert rows[0] == ["place", "player", "points", "played", "wins", "performance", "tables"]
    assert rows[1][:5] == ["1", "Alice", "2", "1", "1"] and rows[1][6] == "2"
    archive = zipfile.ZipFile(io.BytesIO(c.get(f"/organiser/events/{t.pk}/records.zip").content))
    assert archive.namelist() == [f"table-001-{table.pk}.txt"]
    r = c.get(f"/organiser/events/{t.pk}/crosstable.csv", follow=True)
    assert [str(m) for m in r.context["messages"]] == [
        "an arena has no rounds, so no crosstable: export its standings"
    ]


def test_announcements_and_the_audit_log_work_for_an_arena(
    running: tuple[Tournament, Any], org: Actor
) -> None:
    t, _capture = running
    assert act(org, t, "announce", {"text": "Ten minutes left!"}) == ["Announcement posted on the event page"]
    html = console(org, t)
    assert "Ten minutes left!" in section(html, "announcements")
    assert "Nothing recorded yet." not in section(html, "audit")


# --------------------------------------------------------------------------- recurring arenas


ARENA_EVENT = {
    "game": "pacru",
    "seats": 3,
    "format": "arena",
    "rated": False,
    "duration_minutes": 60,
    "berserk": True,
    "time_control": {"kind": "fischer", "base": 180, "increment": 2},
}


def weekly(org: Actor, league: League, event: dict[str, Any]) -> EventSeries:
    return recurring.series_create(
        league=league,
        by=org.player,
        name="Weekly Arena",
        event=event,
        frequency="weekly",
        weekdays=[4],
        local_time=time(19, 0),
        time_zone="UTC",
        first_date=date(2030, 1, 4),
    )


def test_a_weekly_arena_creates_arenas_with_their_minutes_and_berserk(org: Actor, league: League) -> None:
    series = weekly(org, league, ARENA_EVENT)
    assert recurring.sweep(now=datetime(2030, 1, 1, 12, tzinfo=UTC)) == {"created": 1}
    t = Tournament.objects.get(series=series)
    assert (t.format, t.seats, t.duration_minutes, t.berserk, t.rounds) == ("arena", 3, 60, True, 0)
    assert t.starts_at == datetime(2030, 1, 4, 19, tzinfo=UTC)


def test_a_series_checks_an_arena_as_an_event_is_checked(org: Actor, league: League) -> None:
    no_minutes = {k: v for k, v in ARENA_EVENT.items() if k != "duration_minutes"}
    with pytest.raises(InvalidInput, match="an arena needs duration_minutes"):
        weekly(org, league, no_minutes)
    with pytest.raises(InvalidInput, match="an arena runs 5 to 1440 minutes, not 2"):
        weekly(org, league, {**ARENA_EVENT, "duration_minutes": 2})
    with pytest.raises(InvalidInput, match="only an arena has a duration"):
        weekly(org, league, {**ARENA_EVENT, "format": "swiss", "berserk": False})
    with pytest.raises(InvalidInput, match="berserk must be true or false"):
        weekly(org, league, {**ARENA_EVENT, "berserk": "yes"})
    assert not EventSeries.objects.exists()


def test_the_series_form_carries_an_arena_and_asks_for_its_minutes(org: Actor, league: League) -> None:
    c = client_for(org)
    page = c.get(f"/organiser/leagues/{league.slug}/series/").content.decode()
    assert 'data-formats="arena"' in page and 'name="duration_minutes"' in page and 'name="berserk"' in page
    form = {
        "name": "Weekly Arena",
        "frequency": "weekly",
        "interval": 1,
        "weekdays": ["4"],
        "local_time": "19:00",
        "time_zone": "",
        "first_date": "2030-01-04",
        "until": "",
        "create_days_ahead": 7,
        "game": "pacru",
        "seats": 3,
        "format": "arena",
        "advance": 1,
        "requested_bye": "half",
        "base_minutes": 3,
        "increment": 2,
        "berserk": "on",
    }
    r = c.post(f"/organiser/leagues/{league.slug}/series/", form)
    assert r.status_code == 200 and not EventSeries.objects.exists()  # no minutes: the form says so
    assert "an arena runs for a set time: say how many minutes" in r.content.decode()

    r = c.post(f"/organiser/leagues/{league.slug}/series/", {**form, "duration_minutes": 45}, follow=True)
    series = EventSeries.objects.get()
    assert series.event == {
        "game": "pacru",
        "seats": 3,
        "format": "arena",
        "rated": False,
        "duration_minutes": 45,
        "berserk": True,
        "time_control": {"kind": "fischer", "base": 180.0, "increment": 2.0},
    }
    page = c.get(f"/organiser/series/{series.pk}/").content.decode()
    assert 'name="duration_minutes" value="45"' in page
    assert recurring.sweep(now=datetime(2030, 1, 1, 12, tzinfo=UTC)) == {"created": 1}
    t = Tournament.objects.get(series=series)
    assert (t.format, t.duration_minutes, t.berserk) == ("arena", 45, True)
