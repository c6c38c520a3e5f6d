"""An arena's pages: the event page before, during and after (the time left, the leaderboard with
its sheet and marks, the reader's own row and table, the podium), the join / pause / resume /
withdraw forms and their refusals, the arena strip and the Berserk button on the table page, and
the organiser's form creating an arena."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games import services as games
from games.models import Table
from tournaments.arena import wave
from tournaments.competitions import services
from tournaments.models import ArenaPlayer, ArenaTable, League, Tournament

from ..games.conftest import Actor, as_organiser

pytestmark = pytest.mark.django_db

CLOCK = {"kind": "fischer", "base": 300, "increment": 2}


def client_for(actor: Actor | None) -> Client:
    c = Client()
    if actor is not None:
        c.force_login(actor.player.user)
    return c


def page(actor: Actor | None, t: Tournament) -> str:
    response = client_for(actor).get(f"/tournaments/{t.pk}/")
    assert response.status_code == 200
    return response.content.decode()


def post(actor: Actor, t: Tournament, action: str) -> tuple[Any, list[str]]:
    """POST an arena action, follow the redirect: the response and the messages shown."""
    response = client_for(actor).post(f"/tournaments/{t.pk}/arena/{action}/", follow=True)
    assert response.redirect_chain == [(f"/tournaments/{t.pk}/", 302)]
    return response, [str(m) for m in response.context["messages"]]


def section(html: str, ident: str) -> str:
    return html.split(f'id="{ident}"', 1)[1].split("</section>", 1)[0]


@pytest.fixture
def org(make_actor: Callable[..., Actor]) -> Actor:
    organiser = make_actor("organiser")
    as_organiser(organiser.player)
    return organiser


def arena(org: Actor, name: str = "Friday Arena", **options: Any) -> Tournament:
    league = League.objects.filter(slug="club").first() or services.league_create(
        organiser=org.player, name="The Club", slug="club"
    )
    options.setdefault("game", "pacru")
    options.setdefault("seats", 2)
    options.setdefault("rated", False)
    options.setdefault("time_control", CLOCK)
    options.setdefault("duration_minutes", 30)
    return services.tournament_create(
        organiser=org.player, league=league, name=name, format="arena", **options
    )


def started(org: Actor, t: Tournament, capture: Any) -> Tournament:
    with capture(execute=True):
        services.start(tournament_id=t.pk, by=org.player)
    t.refresh_from_db()
    return t


def pair(t: Tournament, capture: Any) -> None:
    with capture(execute=True):
        wave.sweep(now=timezone.now())


def my_table(t: Tournament, actor: Actor) -> Table:
    row = ArenaPlayer.objects.get(tournament=t, player=actor.player)
    assert row.table_id is not None
    return Table.objects.get(pk=row.table_id)


def win(table: Table, winner: Actor, capture: Any) -> None:
    """Everyone at the table but ``winner`` resigns (the table is counted by the arena)."""
    with capture(execute=True):
        for seat in table.seats.exclude(player=winner.player).select_related("player"):
            games.game_resign(table_id=table.pk, player=seat.player)


@pytest.fixture
def playing(
    org: Actor, alice: Actor, bob: Actor, django_capture_on_commit_callbacks: Any
) -> tuple[Tournament, Any]:
    """A running arena where Alice and Bob have joined and sit at one table."""
    t = arena(org)
    for a in (alice, bob):
        services_join(t, a)
    t = started(org, t, django_capture_on_commit_callbacks)
    pair(t, django_capture_on_commit_callbacks)
    return t, django_capture_on_commit_callbacks


def services_join(t: Tournament, actor: Actor) -> None:
    from tournaments.arena import services as arena_services  # the arena's own service, as the API's

    arena_services.arena_join(tournament_id=t.pk, player=actor.player)


# ------------------------------------------------------------------------------- before the start
def test_before_the_start_anyone_sees_how_long_it_runs_and_a_player_joins(
    org: Actor, alice: Actor, bob: Actor
) -> None:
    t = arena(org, duration_minutes=45)
    html = page(None, t)
    assert "45 minutes" in section(html, "arena-clock")
    assert 'id="login-to-join"' in html
    assert 'id="rounds"' not in html and 'id="crosstable"' not in html and 'id="your-game"' not in html
    assert "Nobody has joined yet." in html

    you = section(page(alice, t), "arena-you")
    assert 'id="arena-join"' in you and "Join the arena" in you
    response, said = post(alice, t, "join")
    assert said == ["You joined Friday Arena: you are paired as soon as it starts."]
    html = response.content.decode()
    you = section(html, "arena-you")
    assert 'id="arena-join"' not in you and 'id="arena-withdraw"' in you
    assert 'id="arena-pause"' not in you  # pausing is for while it runs
    assert "1 player has joined: Alice." in section(html, "leaderboard")

    # Joining twice is refused, with the service's reason, and changes nothing.
    _, said = post(alice, t, "join")
    assert said == ["you are in this arena already"]
    # Pausing before the start is refused too.
    _, said = post(alice, t, "pause")
    assert said and "while it runs" in said[0]
    assert not ArenaPlayer.objects.filter(tournament=t).exists()

    # The organiser sees the page like anyone, with the link to manage it.
    html = page(org, t)
    assert 'id="manage-event"' in html and 'id="arena-join"' in html
    assert "Duration" in html and "berserk allowed" in html


# --------------------------------------------------------------------------------------- running
def test_while_it_runs_the_leaderboard_the_time_left_and_your_table(
    playing: tuple[Tournament, Any], alice: Actor, bob: Actor, make_actor: Callable[..., Actor]
) -> None:
    t, capture = playing
    table = my_table(t, alice)
    html = page(alice, t)
    clock = section(html, "arena-clock")
    assert "data-arena-end=" in clock and "ends at" in clock and "left" in clock
    you = section(html, "arena-you")
    assert f'data-go="/tournaments/{t.pk}/"' not in you
    assert f'data-go="/tables/{table.pk}/"' in you and 'id="arena-pause"' in you
    board = section(html, "leaderboard")
    assert 'id="my-row"' in board and "Alice" in board and "Bob" in board
    assert f'href="/tables/{table.pk}/"' in board  # each playing player's table to watch

    # A visitor sees the leaderboard, not anyone's buttons.
    html = page(None, t)
    assert 'id="my-row"' not in html and 'id="arena-pause"' not in html and 'id="login-to-join"' in html

    # Alice wins: 2 points; both are free again and wait (two free players are paired by the wave).
    win(table, alice, capture)
    html = page(alice, t)
    you = section(html, "arena-you")
    assert "<strong>#1</strong> with <strong>2 points</strong>" in you
    assert "one win: win the next table too" in you
    assert 'id="arena-waiting"' in you and "2 players are free, you included" in you
    board = section(html, "leaderboard")
    assert 'title="2 points"' in board

    # A third player joins late and is waiting at once.
    carol = make_actor("carol")
    response, said = post(carol, t, "join")
    assert said == ["You joined Friday Arena: you are paired as soon as a table can be made."]
    assert 'id="arena-waiting"' in section(response.content.decode(), "arena-you")

    # Two wins in a row: Alice is on fire, and the third win is doubled ("4s" on her sheet).
    pair(t, capture)
    table = my_table(t, alice)
    win(table, alice, capture)
    pair(t, capture)
    table = my_table(t, alice)
    win(table, alice, capture)
    row = ArenaPlayer.objects.get(tournament=t, player=alice.player)
    assert row.sheet == ["2", "2", "4s"] and row.points == 8
    html = page(bob, t)
    board = section(html, "leaderboard")
    assert 'class="fire-badge"' in board and 'class="mark streak"' in board
    assert 'title="4 points: doubled on a streak"' in board
    assert 'id="my-row"' in board  # Bob's own row, highlighted for him


def test_pause_resume_and_withdraw_through_the_page(playing: tuple[Tournament, Any], alice: Actor) -> None:
    t, _ = playing
    response, said = post(alice, t, "pause")
    assert said == [
        "You paused in Friday Arena: you are not paired again until you resume. "
        "A table you are playing goes on."
    ]
    html = response.content.decode()
    you = section(html, "arena-you")
    assert 'id="arena-resume"' in you and 'id="arena-pause"' not in you
    assert "paused" in section(html, "leaderboard")
    assert ArenaPlayer.objects.get(tournament=t, player=alice.player).paused

    _, said = post(alice, t, "pause")
    assert said == ["you are paused already"]

    _, said = post(alice, t, "resume")
    assert said == ["You are back in Friday Arena: you are paired again as soon as you are free."]
    assert not ArenaPlayer.objects.get(tournament=t, player=alice.player).paused
    _, said = post(alice, t, "resume")
    assert said == ["you are not paused"]

    response, said = post(alice, t, "withdraw")
    assert said == ["You left Friday Arena: you are not paired again. Your points stay on the leaderboard."]
    you = section(response.content.decode(), "arena-you")
    assert "You left this arena." in you and "Join again" in you
    assert ArenaPlayer.objects.get(tournament=t, player=alice.player).withdrawn
    _, said = post(alice, t, "withdraw")
    assert said == ["you are not in this arena (or left it already)"]


def test_the_actions_need_a_login_a_post_and_an_arena(org: Actor, alice: Actor) -> None:
    t = arena(org)
    anonymous = Client().post(f"/tournaments/{t.pk}/arena/join/")
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    assert client_for(alice).get(f"/tournaments/{t.pk}/arena/join/").status_code == 405
    assert client_for(alice).post(f"/tournaments/{t.pk}/arena/dance/").status_code == 404
    assert client_for(alice).post("/tournaments/999999/arena/join/").status_code == 404
    league = League.objects.get(slug="club")
    swiss = services.tournament_create(
        organiser=org.player, league=league, name="Swiss", game="pacru", seats=2
    )
    _, said = post(alice, swiss, "join")
    assert said == ["Swiss is not an arena"]


def test_a_rated_arena_refuses_a_house_bot_and_says_why(org: Actor) -> None:
    from games.housebots import house_bot

    t = arena(org, rated=True)
    bot = house_bot("random")
    from tournaments.arena import services as arena_services  # the refusal the page shows

    with pytest.raises(Exception) as refused:
        arena_services.arena_join(tournament_id=t.pk, player=bot)
    assert "unrated arenas only" in str(refused.value)


# ---------------------------------------------------------------------------------------- after
def test_after_the_end_the_podium_and_the_final_standings(
    playing: tuple[Tournament, Any], alice: Actor, bob: Actor
) -> None:
    t, capture = playing
    win(my_table(t, alice), alice, capture)
    with capture(execute=True):
        wave.sweep(now=t.ends_at + timedelta(seconds=1))
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    for viewer in (None, alice, bob):
        html = page(viewer, t)
        podium = section(html, "podium")
        assert "Winner:" in podium and "<strong>Alice</strong>" in podium
        assert "1st" in podium and "2nd" in podium
        assert "Final standings" in html and "The arena is over" in html
        assert 'id="arena-join"' not in html and 'id="arena-pause"' not in html
        assert 'id="rounds"' not in html and "data-arena-end" not in html
    assert "You finished <strong>1st</strong> with <strong>2 points</strong>." in page(alice, t)
    assert "You finished <strong>2nd</strong> with <strong>0 points</strong>." in page(bob, t)
    assert 'id="arena-you"' not in page(None, t)  # nothing left to do for a visitor


def test_the_time_is_up_while_tables_finish(playing: tuple[Tournament, Any], alice: Actor) -> None:
    t, _ = playing
    Tournament.objects.filter(pk=t.pk).update(started_at=timezone.now() - timedelta(minutes=31))
    html = page(alice, t)
    assert 'id="arena-time-up"' in html and "finish and count" in html
    assert 'id="arena-pause"' not in html and 'id="arena-waiting"' not in html


# ------------------------------------------------------------------------------------ table page
def test_the_table_page_strip_berserk_and_the_next_table(
    playing: tuple[Tournament, Any], alice: Actor, bob: Actor
) -> None:
    t, capture = playing
    table = my_table(t, alice)
    html = client_for(alice).get(f"/tables/{table.pk}/").content.decode()
    assert 'id="arena-strip"' in html
    assert f'data-topics="player:{alice.player.pk} tournament:{t.pk}"' in html
    assert 'id="arena-link"' in html and "Friday Arena" in html and "0 points" in html
    assert 'id="berserk"' in html  # before her first move, berserk on, a running clock
    # The table belongs to the arena: the way back to it, and no rematch outside it.
    assert f'Part of <a href="/tournaments/{t.pk}/">Friday Arena (arena)</a>' in html
    assert 'id="back-to"' in html and 'id="rematch-form"' not in html
    # A spectator sees the arena's name, no berserk and no points.
    html = Client().get(f"/tables/{table.pk}/").content.decode()
    assert 'id="arena-strip"' in html and 'id="berserk"' not in html and "points" not in section_strip(html)

    response = client_for(alice).post(f"/tables/{table.pk}/berserk/", follow=True)
    said = [str(m) for m in response.context["messages"]]
    assert said == ["You went berserk: your clock is halved, and a win earns you a point more."]
    assert alice.player.pk in ArenaTable.objects.get(table=table).berserk
    html = response.content.decode()
    assert 'id="berserk"' not in html and 'id="arena-berserk"' in html
    response = client_for(alice).post(f"/tables/{table.pk}/berserk/", follow=True)
    assert [str(m) for m in response.context["messages"]] == ["you went berserk at this table already"]

    # Her table ends; the arena pairs her again: the strip's refresh brings her next table.
    win(table, alice, capture)
    strip = client_for(alice).get(f"/tables/{table.pk}/?fragment=arena").content.decode()
    assert 'id="arena-next"' not in strip and 'id="arena-waiting"' in strip
    pair(t, capture)
    new = my_table(t, alice)
    assert new.pk != table.pk
    strip = client_for(alice).get(f"/tables/{table.pk}/?fragment=arena").content.decode()
    assert f'data-go="/tables/{new.pk}/"' in strip and "2 points" in strip

    # At the end, the strip says the arena is over.
    with capture(execute=True):
        for seat in new.seats.exclude(player=alice.player).select_related("player"):
            games.game_resign(table_id=new.pk, player=seat.player)
        wave.sweep(now=t.ends_at + timedelta(seconds=1))
    strip = client_for(alice).get(f"/tables/{new.pk}/?fragment=arena").content.decode()
    assert 'id="arena-over"' in strip and 'id="berserk"' not in strip


def section_strip(html: str) -> str:
    return html.split('id="arena-strip"', 1)[1].split("</div>", 1)[0]


def test_no_berserk_where_the_arena_has_none(
    org: Actor, alice: Actor, bob: Actor, django_capture_on_commit_callbacks: Any
) -> None:
    t = arena(org, berserk=False)
    for a in (alice, bob):
        services_join(t, a)
    t = started(org, t, django_capture_on_commit_callbacks)
    pair(t, django_capture_on_commit_callbacks)
    table = my_table(t, alice)
    html = client_for(alice).get(f"/tables/{table.pk}/").content.decode()
    assert 'id="arena-strip"' in html and 'id="berserk"' not in html
    response = client_for(alice).post(f"/tables/{table.pk}/berserk/", follow=True)
    assert [str(m) for m in response.context["messages"]] == ["berserk is off in Friday Arena"]
    assert ArenaTable.objects.get(table=table).berserk == []


def test_an_ordinary_table_has_no_strip(alice: Actor) -> None:
    table = games.table_create(creator=alice.player, game="pacru", players=2)
    html = client_for(alice).get(f"/tables/{table.pk}/").content.decode()
    assert 'id="arena-strip"' not in html and "live.js" not in html
    assert client_for(alice).get(f"/tables/{table.pk}/?fragment=arena").status_code == 404


# ----------------------------------------------------------------------------------- organiser form
def test_the_organiser_form_creates_an_arena(org: Actor) -> None:
    league = services.league_create(organiser=org.player, name="The Club", slug="club")
    c = client_for(org)
    html = c.get("/organiser/").content.decode()
    assert 'data-formats="arena"' in html and 'name="duration_minutes"' in html and 'name="berserk"' in html
    form = {
        "form": "event", "league": league.pk, "name": "Blitz Arena", "game": "pacru", "seats": 3,
        "format": "arena", "duration_minutes": 40, "berserk": "on", "base_minutes": 3, "increment": 2,
        "requested_bye": "half", "round_start": "asap", "deadline_unit": "days", "deadline_rule": "score",
    }  # fmt: skip
    r = c.post("/organiser/", form, follow=True)
    t = Tournament.objects.get(name="Blitz Arena")
    assert (t.format, t.duration_minutes, t.berserk, t.seats, t.rated) == ("arena", 40, True, 3, False)
    assert r.redirect_chain[-1][0] == f"/organiser/events/{t.pk}/"

    # Without a duration the form says what is missing, and nothing is made.
    r = c.post("/organiser/", dict(form, name="No Time", duration_minutes=""))
    assert r.status_code == 200
    assert "an arena runs for a set time" in r.content.decode()
    assert not Tournament.objects.filter(name="No Time").exists()


def test_the_events_list_and_the_dashboard_say_when_a_running_arena_ends(
    playing: tuple[Tournament, Any], org: Actor
) -> None:
    t, _ = playing
    html = Client().get("/tournaments/").content.decode()
    row = html.split(f'href="/tournaments/{t.pk}/"', 1)[1].split("</tr>", 1)[0]
    assert "30 minutes" in row and "ends in" in row
    html = client_for(org).get("/organiser/").content.decode()
    assert "arena: ends in 29 min" in html or "arena: ends in 30 min" in html
    assert "round 0" not in html


def test_my_page_says_when_my_arena_ends_and_links_my_table(
    playing: tuple[Tournament, Any], alice: Actor
) -> None:
    t, capture = playing
    table = my_table(t, alice)
    html = client_for(alice).get("/").content.decode()
    mine = html.split('id="events-h"', 1)[1].split("</section>", 1)[0]
    assert "Friday Arena" in mine and "arena, ends in" in mine and "your table is ready" in mine
    assert f'href="/tables/{table.pk}/"' in mine
    win(table, alice, capture)
    mine = client_for(alice).get("/").content.decode().split('id="events-h"', 1)[1].split("</section>", 1)[0]
    assert "waiting for your next table" in mine and "round 0" not in mine
