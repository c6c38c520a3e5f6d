"""The season pages through Django's client: a season and a league's seasons archive for anybody,
the player's actions (register, withdraw, rounds they cannot play; logged in, CSRF-checked), and
the organiser's season pages (only the league's organisers; the form stores round times in UTC and
creates nothing from bad input)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from django.test import Client

from accounts.models import Account
from tournaments.competitions import services
from tournaments.models import Division, League, Season, SeasonEntry

from ..games.conftest import Actor, as_organiser
from .test_formats_flow import current_tables, finish_by_resignations

pytestmark = pytest.mark.django_db


@pytest.fixture
def org(make_actor: Callable[..., Actor]) -> Actor:
    actor = make_actor("seasonorg")
    as_organiser(actor.player)
    return actor


@pytest.fixture
def league(org: Actor) -> League:
    return services.league_create(organiser=org.player, name="Season Club", slug="season-club")


def client_for(actor: Actor, csrf: bool = False) -> Client:
    c = Client(enforce_csrf_checks=csrf)
    c.force_login(actor.player.user)
    return c


def messages_of(response: Any) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def make_season(league: League, org: Actor, **fields: Any) -> Season:
    fields.setdefault("kind", Season.Kind.DIVISIONS)
    fields.setdefault("game", "pacru")
    fields.setdefault("seats", 2)
    fields.setdefault("round_times", ["2030-01-07T18:00:00+00:00", "2030-01-14T18:00:00+00:00"])
    fields.setdefault("round_deadline_minutes", 7 * 24 * 60)
    fields.setdefault("prizes", [{"label": "Champion", "places": [1, 1], "rating_max": None}])
    return Season.objects.create(league=league, name="Winter 2030", created_by=org.player, **fields)


def season_url(season: Season, action: str = "") -> str:
    return f"/leagues/{season.league.slug}/seasons/{season.pk}/" + (f"{action}/" if action else "")


def member(league: League, actor: Actor) -> Actor:
    services.league_join(league=league, player=actor.player)
    return actor


# ---------------------------------------------------------------- reading


def test_the_season_page_shows_tables_movement_schedule_and_prizes(
    league: League, org: Actor, alice: Actor, bob: Actor, make_actor: Callable[..., Actor]
) -> None:
    season = make_season(league, org, promote=1, relegate=1, status=Season.Status.FINISHED)
    top = Division.objects.create(season=season, level=1, name="Premier")
    low = Division.objects.create(season=season, level=2)
    carol, dave = make_actor("carol"), make_actor("dave")
    moves = {alice: "stay", bob: "down", carol: "up", dave: "stay"}
    for division, actors in ((top, (alice, bob)), (low, (carol, dave))):
        for place, a in enumerate(actors, start=1):
            SeasonEntry.objects.create(
                season=season, player=a.player, division=division, place=place, movement=moves[a]
            )
    SeasonEntry.objects.filter(player=carol.player).update(arrived="new")
    page = Client().get(season_url(season))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Winter 2030" in html and "Premier" in html and "Division 2" in html
    assert html.index("Alice") < html.index("Bob") < html.index("Carol") < html.index("Dave")
    assert "season-down-zone" in html and "season-up-zone" in html
    assert "goes up" in html and "goes down" in html and "stays" in html
    assert ">new</span>" in html
    assert "Champion" in html and "won by Alice" in html
    assert 'datetime="2030-01-07T18:00:00+00:00"' in html


def test_anonymous_readers_are_asked_to_log_in(league: League, org: Actor) -> None:
    html = Client().get(season_url(make_season(league, org))).content.decode()
    assert "Log in</a> to register" in html and "Times in UTC" in html


def test_times_are_shown_in_the_readers_zone(league: League, org: Actor, alice: Actor) -> None:
    season = make_season(league, org)
    Account.objects.update_or_create(user=alice.player.user, defaults={"time_zone": "Europe/Madrid"})
    html = client_for(alice).get(season_url(season)).content.decode()
    assert "Europe/Madrid" in html and "19:00" in html  # 18:00 UTC is 19:00 in Madrid in January


def test_the_archive_lists_current_then_past_seasons_with_winners(
    league: League, org: Actor, alice: Actor
) -> None:
    old = make_season(league, org, status=Season.Status.FINISHED)
    old.name = "Autumn 2029"
    old.save()
    top = Division.objects.create(season=old, level=1)
    SeasonEntry.objects.create(season=old, player=alice.player, division=top, place=1)
    make_season(league, org)
    r = Client().get(f"/leagues/{league.slug}/seasons/")
    assert r.status_code == 200
    html = r.content.decode()
    assert html.index("Winter 2030") < html.index("Autumn 2029")
    assert f'href="/players/{alice.player.pk}/">Alice</a>' in html
    league_page = Client().get(f"/leagues/{league.slug}/").content.decode()
    assert f"/leagues/{league.slug}/seasons/" in league_page


def test_a_series_season_marks_the_results_that_count(
    league: League, org: Actor, alice: Actor, bob: Actor, django_capture_on_commit_callbacks: Any
) -> None:
    season = make_season(league, org, kind=Season.Kind.SERIES, series_points=[10, 6], best_of=1)
    for n, loser in enumerate((bob, alice), start=1):
        t = services.tournament_create(
            organiser=org.player, league=league, name=f"Prix {n}", game="shacru", seats=2,
            format="swiss", rounds=1, season=season,
        )  # fmt: skip
        for a in (alice, bob):
            services.register(tournament_id=t.pk, player=a.player)
        services.start(tournament_id=t.pk, by=org.player)
        t.refresh_from_db()
        (table,) = current_tables(t)
        seat = table.seats.get(player=loser.player).number
        with django_capture_on_commit_callbacks(execute=True):
            finish_by_resignations(table.pk, [seat, 3 - seat])
    html = Client().get(season_url(season)).content.decode()
    assert "Series points" in html and "The best result counts" in html
    assert html.count('class="season-counted"') == 2  # each player's best
    assert html.count('class="season-dropped"') == 2 and "(not counted)" in html


def test_an_unknown_season_is_404(league: League) -> None:
    assert Client().get(f"/leagues/{league.slug}/seasons/999999/").status_code == 404
    assert Client().get("/leagues/nowhere/seasons/").status_code == 404


# ---------------------------------------------------------------- the player's actions


def test_register_mark_rounds_and_withdraw(league: League, org: Actor, alice: Actor) -> None:
    season = make_season(league, org)
    c = client_for(member(league, alice))
    html = c.get(season_url(season)).content.decode()
    assert 'id="season-register"' in html
    r = c.post(season_url(season, "register"), follow=True)
    assert "You are registered for Winter 2030" in messages_of(r)
    entry = SeasonEntry.objects.get(season=season, player=alice.player)
    assert entry.status == SeasonEntry.Status.REGISTERED
    html = r.content.decode()
    assert "Rounds I cannot play" in html and "it pays 0.5 points" in html
    r = c.post(season_url(season, "unavailable"), {"round": ["2"]}, follow=True)
    entry.refresh_from_db()
    assert entry.unavailable == [2]
    assert any("you cannot play round 2" in m for m in messages_of(r))
    assert 'value="2" checked' in r.content.decode()
    r = c.post(season_url(season, "unavailable"), {"round": ["1", "9"]}, follow=True)
    entry.refresh_from_db()
    assert entry.unavailable == [2]  # round 9 is not on the calendar: nothing changes
    assert any("there is no round 9" in m for m in messages_of(r))
    r = c.post(season_url(season, "withdraw"), follow=True)
    entry.refresh_from_db()
    assert entry.status == SeasonEntry.Status.WITHDRAWN
    assert "You withdrew from Winter 2030" in messages_of(r)


def test_the_actions_need_login_and_a_valid_form(league: League, org: Actor, alice: Actor) -> None:
    season = make_season(league, org)
    r = Client().post(season_url(season, "register"))
    assert r.status_code == 302 and "/accounts/login/" in r["Location"]
    assert Client().get(season_url(season, "register")).status_code in (302, 405)
    c = client_for(member(league, alice), csrf=True)
    assert c.post(season_url(season, "register")).status_code == 403
    assert not SeasonEntry.objects.filter(season=season).exists()
    assert client_for(alice).post(season_url(season, "nonsense")).status_code == 404


# ---------------------------------------------------------------- the organiser


def season_form(**changes: Any) -> dict[str, Any]:
    form: dict[str, Any] = {
        "name": "Spring 2031", "kind": "divisions", "game": "pacru", "seats": 2,
        "format": "round_robin", "rounds": "", "base_minutes": 0, "increment": 0, "rated": "on",
        "division_size": 6, "promote": 2, "relegate": 2, "newcomers": "bottom",
        "deadline_days": 7, "deadline_rule": "draw", "series_points": "", "best_of": "",
        "round_time": ["2031-03-02T19:00", "2031-03-09T19:00", ""],
        "prize_label": ["Champion", "Under 1500", ""], "prize_first": ["1", "1", ""],
        "prize_last": ["1", "3", ""], "prize_rating_max": ["", "1500", ""],
    }  # fmt: skip
    form.update(changes)
    return form


def test_only_the_leagues_organisers_reach_its_season_pages(league: League, org: Actor, alice: Actor) -> None:
    season = make_season(league, org)
    url = f"/organiser/leagues/{league.slug}/seasons/"
    assert Client().get(url).status_code == 302
    c = client_for(alice)
    assert c.get(url).status_code == 403
    assert c.post(url, season_form()).status_code == 403
    r = c.post(f"{url}{season.pk}/start/", {"confirm": "yes"})
    assert r.status_code == 403
    assert not Season.objects.filter(name="Spring 2031").exists()
    page = client_for(org).get(url)
    assert page.status_code == 200 and 'id="create-season"' in page.content.decode()
    assert url in client_for(org).get("/organiser/").content.decode()


def test_the_form_creates_a_season_with_utc_round_times(league: League, org: Actor) -> None:
    Account.objects.update_or_create(user=org.player.user, defaults={"time_zone": "Europe/Madrid"})
    c = client_for(org)
    r = c.post(f"/organiser/leagues/{league.slug}/seasons/", season_form(), follow=True)
    assert any("Spring 2031 created" in m for m in messages_of(r)), messages_of(r)
    season = Season.objects.get(league=league, name="Spring 2031")
    assert season.kind == "divisions" and season.game == "pacru" and season.division_size == 6
    assert season.promote == 2 and season.relegate == 2 and season.deadline_rule == "draw"
    assert season.round_deadline_minutes == 7 * 24 * 60
    times = [datetime.fromisoformat(t) for t in season.round_times]
    assert times == [datetime(2031, 3, 2, 18, 0, tzinfo=UTC), datetime(2031, 3, 9, 18, 0, tzinfo=UTC)]
    assert season.prizes[1]["places"] == [1, 3] and season.prizes[1]["rating_max"] == 1500


def test_bad_input_shows_the_error_and_creates_nothing(league: League, org: Actor) -> None:
    c = client_for(org)
    url = f"/organiser/leagues/{league.slug}/seasons/"
    r = c.post(url, season_form(round_time=["2031-03-09T19:00", "2031-03-02T19:00"]))
    assert r.status_code == 200 and "the round dates must be in order" in r.content.decode()
    r = c.post(url, season_form(promote=5, relegate=5))
    assert "more players go up and down than a division holds" in r.content.decode()
    r = c.post(url, season_form(kind="series", series_points="ten, 8"))
    assert "is not a number" in r.content.decode()
    assert not Season.objects.filter(league=league).exists()


def test_start_needs_the_confirmation(league: League, org: Actor) -> None:
    season = make_season(league, org)
    c = client_for(org)
    r = c.post(f"/organiser/leagues/{league.slug}/seasons/{season.pk}/start/", follow=True)
    assert any("tick the box to confirm" in m for m in messages_of(r))
    season.refresh_from_db()
    assert season.status == Season.Status.REGISTRATION


def test_start_draws_the_divisions_and_close_is_refused_while_games_run(
    league: League, org: Actor, make_actor: Callable[..., Actor]
) -> None:
    times = [f"2030-01-{day:02d}T18:00:00+00:00" for day in (7, 14, 21)]
    season = make_season(league, org, division_size=4, promote=1, relegate=1, round_times=times)
    for name in ("p1", "p2", "p3", "p4"):
        client_for(make_actor(name)).post(season_url(season, "register"))
    assert SeasonEntry.objects.filter(season=season, status="registered").count() == 4
    c = client_for(org)
    base = f"/organiser/leagues/{league.slug}/seasons/{season.pk}"
    r = c.post(f"{base}/start/", {"confirm": "yes"}, follow=True)
    assert any("Winter 2030 started" in m for m in messages_of(r)), messages_of(r)
    season.refresh_from_db()
    assert season.status == Season.Status.RUNNING and season.divisions.count() == 1
    html = Client().get(season_url(season)).content.decode()
    assert "crosstable" in html and "P1" in html
    r = c.post(f"{base}/close/", {"confirm": "yes"}, follow=True)
    season.refresh_from_db()
    assert season.status == Season.Status.RUNNING and messages_of(r)


def test_more_rows_keeps_the_input_and_creates_nothing(league: League, org: Actor) -> None:
    r = client_for(org).post(f"/organiser/leagues/{league.slug}/seasons/", season_form(more="1"))
    html = r.content.decode()
    assert r.status_code == 200 and html.count('name="round_time"') == 5  # the 2 given and 3 more
    assert 'value="2031-03-02T19:00"' in html and 'value="Under 1500"' in html
    assert not Season.objects.filter(league=league).exists()


# ---------------------------------------------------------------- editing a season


def edit_url(season: Season) -> str:
    return f"/organiser/leagues/{season.league.slug}/seasons/{season.pk}/edit/"


def snapshot(season: Season) -> dict[str, Any]:
    season.refresh_from_db()
    return {f.name: getattr(season, f.name) for f in Season._meta.concrete_fields}


def test_the_edit_form_is_prefilled_with_round_times_in_the_organisers_zone(
    league: League, org: Actor
) -> None:
    Account.objects.update_or_create(user=org.player.user, defaults={"time_zone": "Europe/Madrid"})
    season = make_season(
        league, org, division_size=10, time_control={"kind": "fischer", "base": 300, "increment": 5}
    )
    c = client_for(org)
    assert edit_url(season) in c.get(f"/organiser/leagues/{league.slug}/seasons/").content.decode()
    r = c.get(edit_url(season))
    html = r.content.decode()
    assert r.status_code == 200 and 'id="edit-season"' in html and "Europe/Madrid" in html
    assert 'value="2030-01-07T19:00"' in html and 'value="2030-01-14T19:00"' in html  # 18:00 UTC
    assert 'name="name" value="Winter 2030"' in html and 'name="division_size" value="10"' in html
    assert 'name="deadline_days" value="7"' in html and 'name="base_minutes" value="5"' in html
    assert 'name="increment" value="5"' in html and 'value="Champion"' in html
    series = make_season(league, org, kind=Season.Kind.SERIES, series_points=[10, 8, 6.5], best_of=4)
    html = c.get(edit_url(series)).content.decode()
    assert 'value="10, 8, 6.5"' in html and 'name="best_of" value="4"' in html


def test_saving_the_edit_form_changes_the_season_with_utc_round_times(league: League, org: Actor) -> None:
    Account.objects.update_or_create(user=org.player.user, defaults={"time_zone": "Europe/Madrid"})
    season = make_season(league, org)
    form = season_form(name="Winter 2030 (open)", kind="series", base_minutes=10, increment=2)
    r = client_for(org).post(edit_url(season), form, follow=True)
    assert r.redirect_chain[-1][0] == f"/organiser/leagues/{league.slug}/seasons/"
    assert any("Winter 2030 (open) saved" in m for m in messages_of(r)), messages_of(r)
    season.refresh_from_db()
    assert season.name == "Winter 2030 (open)" and season.kind == Season.Kind.DIVISIONS  # the kind stays
    assert season.division_size == 6 and season.deadline_rule == "draw"
    assert season.time_control == {"kind": "fischer", "base": 600, "increment": 2}
    times = [datetime.fromisoformat(t) for t in season.round_times]
    assert times == [datetime(2031, 3, 2, 18, 0, tzinfo=UTC), datetime(2031, 3, 9, 18, 0, tzinfo=UTC)]
    assert [p["label"] for p in season.prizes] == ["Champion", "Under 1500"]
    assert season.prizes[1]["places"] == [1, 3] and season.prizes[1]["rating_max"] == 1500


def test_saving_untouched_fields_keeps_what_the_form_cannot_show(league: League, org: Actor) -> None:
    byoyomi = {"kind": "byoyomi", "base": 600, "periods": 3, "period": 30}
    season = make_season(league, org, time_control=byoyomi, round_deadline_minutes=90)
    form = season_form(name="Renamed", base_minutes=0, increment=0, deadline_days=1)
    client_for(org).post(edit_url(season), form)
    season.refresh_from_db()
    assert season.name == "Renamed" and season.time_control == byoyomi
    assert season.round_deadline_minutes == 90


def test_bad_edit_input_shows_the_error_and_changes_nothing(league: League, org: Actor) -> None:
    season = make_season(league, org)
    before = snapshot(season)
    c = client_for(org)
    r = c.post(edit_url(season), season_form(round_time=["2031-03-09T19:00", "2031-03-02T19:00"]))
    assert r.status_code == 200 and "the round dates must be in order" in r.content.decode()
    r = c.post(edit_url(season), season_form(promote=5, relegate=5))
    assert "more players go up and down than a division holds" in r.content.decode()
    r = c.post(edit_url(season), season_form(prize_first=["x", "", ""]))
    assert "places and rating are whole numbers" in r.content.decode()
    r = c.post(edit_url(season), season_form(division_size=4, promote=2, relegate=2))  # the service refuses
    assert r.status_code == 200 and messages_of(r) and 'value="Spring 2031"' in r.content.decode()
    assert snapshot(season) == before


def test_a_running_or_finished_season_cannot_be_edited(league: League, org: Actor) -> None:
    c = client_for(org)
    for status in (Season.Status.RUNNING, Season.Status.FINISHED):
        season = make_season(league, org, status=status)
        before = snapshot(season)
        assert edit_url(season) not in c.get(f"/organiser/leagues/{league.slug}/seasons/").content.decode()
        for r in (c.get(edit_url(season), follow=True), c.post(edit_url(season), season_form(), follow=True)):
            assert r.redirect_chain[-1][0] == f"/organiser/leagues/{league.slug}/seasons/"
            assert any("can be changed only before it starts" in m for m in messages_of(r)), messages_of(r)
        assert snapshot(season) == before


def test_only_the_leagues_organisers_and_staff_edit_a_season(
    league: League, org: Actor, alice: Actor, bob: Actor
) -> None:
    season = make_season(league, org)
    before = snapshot(season)
    r = Client().get(edit_url(season))
    assert r.status_code == 302 and "login" in r["Location"]
    assert Client().post(edit_url(season), season_form()).status_code == 302
    c = client_for(alice)
    assert c.get(edit_url(season)).status_code == 403
    assert c.post(edit_url(season), season_form()).status_code == 403
    assert client_for(org, csrf=True).post(edit_url(season), season_form()).status_code == 403  # no token
    other = services.league_create(organiser=org.player, name="Other Club", slug="other-club")
    assert (
        client_for(org).get(f"/organiser/leagues/{other.slug}/seasons/{season.pk}/edit/").status_code == 404
    )
    assert snapshot(season) == before
    bob.player.user.is_staff = True
    bob.player.user.save(update_fields=["is_staff"])
    assert client_for(bob).get(edit_url(season)).status_code == 200
    client_for(bob).post(edit_url(season), season_form(name="Staff edit"))
    season.refresh_from_db()
    assert season.name == "Staff edit"
