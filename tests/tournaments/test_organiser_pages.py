"""The organiser's pages through Django's client: the dashboard's forms, the event management page
and each of its actions (confirmations in words, permissions, nothing changed when refused), and
the exports."""

from __future__ import annotations

import csv
import io
import re
import zipfile
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from games.models import Player, Table
from tournaments.competitions import services
from tournaments.models import Announcement, AuditEntry, League, Registration, Round, Tournament

from ..games.conftest import Actor, as_organiser
from .test_formats_flow import current_tables, finish_by_resignations

pytestmark = pytest.mark.django_db


@pytest.fixture
def org(make_actor: Callable[..., Actor]) -> Actor:
    actor = make_actor("pageorg")
    as_organiser(actor.player)
    return actor


@pytest.fixture
def league(org: Actor) -> League:
    return services.league_create(organiser=org.player, name="Page Club")


def client_for(actor: Actor) -> Client:
    c = Client()
    c.force_login(actor.player.user)
    return c


def messages_of(response: Any) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def make_event(org: Actor, league: League, **settings: Any) -> Tournament:
    settings.setdefault("seats", 2)
    return services.tournament_create(
        organiser=org.player, league=league, name="Club Night", game="shacru", **settings
    )


def url(t: Tournament, action: str = "") -> str:
    return f"/organiser/events/{t.pk}/" + (f"{action}/" if action else "")


# ---------------------------------------------------------------- dashboard


def test_the_dashboard_creates_a_league_and_an_event_with_its_rules(org: Actor) -> None:
    c = client_for(org)
    page = c.get("/organiser/").content.decode()
    assert 'id="create-league"' in page and 'id="create-event"' not in page
    r = c.post(
        "/organiser/", {"form": "league", "name": "Friday Club", "description": "Fridays"}, follow=True
    )
    assert "League Friday Club created: you are its organiser" in messages_of(r)
    league = League.objects.get(name="Friday Club")
    assert league.description == "Fridays" and league.organisers.filter(pk=org.player.pk).exists()
    page = c.get("/organiser/").content.decode()
    assert 'id="create-event"' in page
    assert 'data-formats="swiss"' in page and 'data-formats="knockout"' in page
    form = {
        "form": "event", "league": league.pk, "name": "Cup", "game": "shacru", "seats": 2,
        "format": "knockout",
        "rounds": "", "advance": 1, "max_players": 16, "rating_min": 1200, "rating_max": 1900,
        "registration_opens": "2030-01-01T10:00", "registration_closes": "2030-01-02T10:00",
        "check_in": "on", "base_minutes": 5, "increment": 2, "rated": "on",
    }  # fmt: skip
    r = c.post("/organiser/", form, follow=True)
    t = Tournament.objects.get(name="Cup")
    assert r.redirect_chain[-1][0] == url(t)
    assert "Cup created (knockout, up to 16 players): registration is open" in messages_of(r)
    assert (t.format, t.max_players, t.rating_min, t.rating_max, t.check_in) == (
        "knockout",
        16,
        1200,
        1900,
        True,
    )
    assert t.registration_opens.year == 2030 and t.registration_opens < t.registration_closes
    page = c.get("/organiser/").content.decode()
    assert f'href="{url(t)}"' in page and "registration open" in page
    bad = dict(form, name="Bad", rating_min=2000, rating_max=1000)
    r = c.post("/organiser/", bad, follow=True)
    assert any("above the maximum" in m for m in messages_of(r))
    assert not Tournament.objects.filter(name="Bad").exists()


def test_a_player_without_the_role_cannot_create_a_league(make_actor: Callable[..., Actor]) -> None:
    plain = make_actor("plain")
    c = client_for(plain)
    page = c.get("/organiser/").content.decode()
    assert 'id="create-league"' not in page
    r = c.post("/organiser/", {"form": "league", "name": "Sneaky"}, follow=True)
    assert not League.objects.filter(name="Sneaky").exists()
    assert any("for organisers" in m for m in messages_of(r))


# ------------------------------------------------------- the management page


def test_non_organisers_get_403_and_never_the_links(
    org: Actor, league: League, make_actor: Callable[..., Actor]
) -> None:
    t = make_event(org, league)
    nosy = make_actor("nosy")
    services.register(tournament_id=t.pk, player=nosy.player)
    c = client_for(nosy)
    for path in (url(t), url(t) + "standings.csv", url(t) + "crosstable.csv", url(t) + "records.zip"):
        assert c.get(path).status_code == 403, path
    for action, data in (
        ("start", {}),
        ("register", {"player_name": "pageorg"}),
        ("remove", {"player": nosy.player.pk}),
        ("announce", {"text": "hi"}),
        ("add-bot", {"level": "greedy"}),
    ):
        assert c.post(url(t, action), data).status_code == 403, action
    t.refresh_from_db()
    assert t.status == "registration" and not Announcement.objects.exists()
    assert Registration.objects.filter(tournament=t).count() == 1
    assert url(t) not in c.get(f"/tournaments/{t.pk}/").content.decode()
    assert Client().get(url(t)).status_code == 302, "anonymous: to the sign-in page"
    assert client_for(org).get("/organiser/events/999999/").status_code == 404
    staff = client_for(make_actor("boss", staff=True))
    assert staff.get(url(t)).status_code == 200, "staff manage every event"
    r = staff.post(url(t, "announce"), {"text": "from staff"}, follow=True)
    assert "Announcement posted on the event page" in messages_of(r)


def test_register_by_name_with_choices_check_in_seed_and_remove(
    org: Actor, league: League, make_actor: Callable[..., Actor]
) -> None:
    t = make_event(org, league, max_players=3, check_in=True, format="knockout")
    alice, alina, bob = make_actor("alice"), make_actor("alina"), make_actor("bob")
    c = client_for(org)
    page = c.get(url(t)).content.decode()
    assert 'id="register-player"' in page and 'name="player_name"' in page and 'id="start-event"' in page
    r = c.post(url(t, "register"), {"player_name": "ALICE"}, follow=True)
    assert "Alice registered (checked in): 1 of 3 places" in messages_of(r)
    r = c.post(url(t, "register"), {"player_name": "ali"}, follow=True)
    assert any("2 players match 'ali'" in m for m in messages_of(r))
    html = r.content.decode()
    assert "Register Alina" in html and "Register Alice" not in html
    assert re.search(r"Alice\s*<small class=\"hint\">registered already</small>", html)
    r = c.post(url(t, "register"), {"player": alina.player.pk}, follow=True)
    assert "Alina registered (checked in): 2 of 3 places" in messages_of(r)
    r = c.post(url(t, "register"), {"player_name": "nobody-like-this"}, follow=True)
    assert any("nobody is called" in m for m in messages_of(r))
    services.register(tournament_id=t.pk, player=bob.player)
    r = c.post(url(t, "register"), {"player_name": "pageorg"}, follow=True)
    assert "the event is full: 3 of 3 places taken" in messages_of(r)
    r = c.post(url(t, "check-in"), {"player": bob.player.pk}, follow=True)
    assert "Bob checked in" in messages_of(r)
    assert Registration.objects.get(tournament=t, player=bob.player).status == "checked_in"
    seeds = {f"seed_{bob.player.pk}": "1", f"seed_{alina.player.pk}": "2", f"seed_{alice.player.pk}": ""}
    r = c.post(url(t, "seeds"), seeds, follow=True)
    assert "Seeds saved: 1. Bob, 2. Alina" in messages_of(r)
    r = c.post(url(t, "seeds"), {f"seed_{alice.player.pk}": "1"}, follow=True)
    assert any("seed 1 is given twice" in m for m in messages_of(r))
    assert Registration.objects.get(tournament=t, player=alice.player).seed is None
    r = c.post(url(t, "remove"), {"player": alina.player.pk}, follow=True)
    assert "Alina removed from Club Night: 2 of 3 places" in messages_of(r)
    entries = set(AuditEntry.objects.filter(tournament=t).values_list("action", flat=True))
    assert entries == {"register", "check in", "seeds", "remove"}
    html = c.get(url(t)).content.decode()
    assert "removed Alina" in html and "checked in" in html


def test_start_pause_resume_and_next_round(
    org: Actor,
    league: League,
    make_actor: Callable[..., Actor],
    django_capture_on_commit_callbacks: Any,
) -> None:
    t = make_event(org, league, rounds=3, rated=False)
    players = [make_actor(n) for n in ("ann", "ben", "cat", "dan", "eve")]
    for p in players:
        services.register(tournament_id=t.pk, player=p.player)
    c = client_for(org)
    with django_capture_on_commit_callbacks(execute=True):
        r = c.post(url(t, "start"), follow=True)
    rnd = Round.objects.get(tournament=t, number=1)
    bye = Player.objects.get(pk=rnd.byes[0]).display_name
    assert f"Club Night started. Round 1 paired: 2 tables, bye for {bye}" in messages_of(r)
    html = r.content.decode()
    assert 'id="pause-event"' in html and 'id="next-round"' not in html
    assert "round 1 is still being played (2 tables playing)" in html
    assert html.count('class="result-form"') == 2 and 'data-board="1"' in html and 'name="rank_2"' in html
    assert 'id="repair-round"' in html
    r = c.post(url(t, "next-round"), follow=True)
    assert "round 1 is still being played" in messages_of(r)
    r = c.post(url(t, "pause"), follow=True)
    assert any(m.startswith("Club Night paused: round 1 plays on") for m in messages_of(r))
    assert 'id="resume-event"' in r.content.decode()
    t.refresh_from_db()
    for table in current_tables(t):
        with django_capture_on_commit_callbacks(execute=True):
            finish_by_resignations(table.pk, [1, 2])
    assert Tournament.objects.get(pk=t.pk).current_round == 1
    html = c.get(url(t)).content.decode()
    assert 'id="next-round"' in html
    with django_capture_on_commit_callbacks(execute=True):
        r = c.post(url(t, "resume"), follow=True)
    (msg,) = messages_of(r)
    assert msg.startswith("Club Night resumed. Round 2 paired: 2 tables, bye for ")
    assert Tournament.objects.get(pk=t.pk).current_round == 2
    with django_capture_on_commit_callbacks(execute=True):
        r = c.post(url(t, "repair"), {"confirm": "yes"}, follow=True)
    assert messages_of(r)[0].startswith("Round 2 paired again: 2 tables")


def test_result_entry_and_correction_through_the_page(
    org: Actor,
    league: League,
    make_actor: Callable[..., Actor],
    django_capture_on_commit_callbacks: Any,
) -> None:
    t = make_event(org, league, rounds=2, rated=False)
    for n in ("ann", "ben"):
        services.register(tournament_id=t.pk, player=make_actor(n).player)
    with django_capture_on_commit_callbacks(execute=True):
        services.start(tournament_id=t.pk, by=org.player)
    (table,) = current_tables(Tournament.objects.get(pk=t.pk))
    names = {s.number: s.player.display_name for s in table.seats.select_related("player")}
    c = client_for(org)
    r = c.post(url(t, "result"), {"table": table.pk, "rank_1": 2, "rank_2": 1, "reason": ""}, follow=True)
    assert any("a reason is required" in m for m in messages_of(r))
    assert Table.objects.get(pk=table.pk).status == "active"
    nosy = client_for(make_actor("nosy"))
    assert (
        nosy.post(url(t, "result"), {"table": table.pk, "rank_1": 2, "rank_2": 1, "reason": "x"}).status_code
        == 403
    )
    with django_capture_on_commit_callbacks(execute=True):
        r = c.post(
            url(t, "result"),
            {"table": table.pk, "rank_1": 2, "rank_2": 1, "reason": "flag fell"},
            follow=True,
        )
    assert messages_of(r) == [
        f"Result of round 1, board 1 entered: {names[2]} 1st, {names[1]} 2nd (reason: flag fell) "
        "Round 1 is complete; round 2 has been paired."
    ]
    assert Tournament.objects.get(pk=t.pk).current_round == 2
    r = c.post(
        url(t, "result"),
        {"table": table.pk, "rank_1": 1, "rank_2": 2, "reason": "appeal upheld"},
        follow=True,
    )
    assert (
        f"Result of round 1, board 1 corrected: {names[1]} 1st, {names[2]} 2nd (reason: appeal upheld)"
        in messages_of(r)
    )
    html = r.content.decode()
    assert "appeal upheld" in html and "corrected a result for round 1, board 1" in html


def test_announcements_through_the_page(org: Actor, league: League) -> None:
    t = make_event(org, league)
    c = client_for(org)
    assert 'id="announce"' in c.get(url(t)).content.decode()
    r = c.post(url(t, "announce"), {"text": "Bring a clock"}, follow=True)
    assert "Announcement posted on the event page" in messages_of(r)
    item = Announcement.objects.get(tournament=t)
    assert "Bring a clock" in r.content.decode()
    r = c.post(url(t, "announcement-delete"), {"announcement": item.pk}, follow=True)
    assert "Announcement deleted" in messages_of(r) and not Announcement.objects.exists()


def test_exports_through_the_page(
    org: Actor,
    league: League,
    make_actor: Callable[..., Actor],
    django_capture_on_commit_callbacks: Any,
) -> None:
    t = make_event(org, league, rounds=2, rated=False)
    for n in ("ann", "ben", "cat"):
        services.register(tournament_id=t.pk, player=make_actor(n).player)
    with django_capture_on_commit_callbacks(execute=True):
        services.start(tournament_id=t.pk, by=org.player)
    c = client_for(org)
    r = c.get(url(t) + "standings.csv")
    assert r["Content-Type"].startswith("text/csv") and "attachment" in r["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(r.content.decode())))
    assert rows[0][:3] == ["place", "player", "points"] and len(rows) == 4
    assert sorted(row[1] for row in rows[1:]) == ["Ann", "Ben", "Cat"]
    r = c.get(url(t) + "crosstable.csv")
    cross = list(csv.reader(io.StringIO(r.content.decode())))
    assert cross[0] == ["place", "player", "points", "round 1"]
    assert sorted(row[3].split(" v ")[0] for row in cross[1:]) == ["bye", "playing", "playing"]
    r = c.get(url(t) + "records.zip")
    assert r["Content-Type"] == "application/zip"
    names = zipfile.ZipFile(io.BytesIO(r.content)).namelist()
    assert len(names) == 1 and re.fullmatch(r"round-01-board-01-table-\d+\.txt", names[0])
