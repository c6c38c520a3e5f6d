"""The event page: the viewer's actions (register, withdraw, check in), "your game is ready",
results in words, crosstable, bracket, and a constant number of queries."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import services as games
from games.models import Player, Table
from tournaments.competitions import services
from tournaments.models import Announcement, League, Registration, Round, Tournament

from ..games.conftest import Actor, as_organiser

pytestmark = pytest.mark.django_db


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
    """POST an action, follow the redirect: the response and the messages shown."""
    response = client_for(actor).post(f"/tournaments/{t.pk}/{action}/", follow=True)
    assert response.redirect_chain == [(f"/tournaments/{t.pk}/", 302)]
    return response, [str(m) for m in response.context["messages"]]


@pytest.fixture
def org(make_actor: Callable[..., Actor]) -> Actor:
    organiser = make_actor("organiser")
    as_organiser(organiser.player)
    return organiser


def event(org: Actor, name: str = "Autumn Swiss", **options: Any) -> Tournament:
    league = League.objects.filter(slug="club").first() or services.league_create(
        organiser=org.player, name="The Club", slug="club"
    )
    options.setdefault("game", "pacru")
    options.setdefault("seats", 2)
    return services.tournament_create(organiser=org.player, league=league, name=name, **options)


def people(make_actor: Callable[..., Actor], n: int, prefix: str = "p") -> list[Actor]:
    return [make_actor(f"{prefix}{i}") for i in range(n)]


def entered(org: Actor, actors: list[Actor], capture: Any, **options: Any) -> Tournament:
    t = event(org, **options)
    for a in actors:
        services.register(tournament_id=t.pk, player=a.player)
    with capture(execute=True):
        services.start(tournament_id=t.pk, by=org.player)
    t.refresh_from_db()
    return t


def resign_all_but_last(table_id: int, capture: Any) -> None:
    """End a table: every seat but the last resigns (the last seat wins)."""
    seats = list(Table.objects.get(pk=table_id).seats.order_by("number").select_related("player"))
    with capture(execute=True):
        for seat in seats[:-1]:
            games.game_resign(table_id=table_id, player=seat.player)


def round_tables(t: Tournament, number: int) -> list[Table]:
    rnd = Round.objects.get(tournament=t, number=number)
    return [rt.table for rt in rnd.tables.order_by("number").select_related("table")]


def section(html: str, ident: str) -> str:
    return html.split(f'id="{ident}"', 1)[1].split("</section>", 1)[0]


# ------------------------------------------------------------------------ register, withdraw, check in
def test_register_check_in_and_withdraw_through_the_page(org: Actor, alice: Actor, bob: Actor) -> None:
    t = event(org, check_in=True, max_players=4)
    services.register(tournament_id=t.pk, player=bob.player)
    html = page(alice, t)
    you = section(html, "your-part")
    assert 'id="register"' in you and 'id="withdraw"' not in you and 'id="check-in"' not in you
    assert "1 of 4 places taken." in you and "Check-in required" in you

    response, said = post(alice, t, "register")
    assert said == [
        "You are registered for Autumn Swiss: 2 of 4 places taken. "
        "Check in before the start: only players who checked in are paired."
    ]
    you = section(response.content.decode(), "your-part")
    assert "You are <strong>registered</strong>" in you
    assert 'id="check-in"' in you and 'id="withdraw"' in you and 'id="register"' not in you

    _, said = post(alice, t, "check-in")
    assert said == ["You are checked in for Autumn Swiss: you will be paired when it starts."]
    assert Registration.objects.get(tournament=t, player=alice.player).status == "checked_in"
    you = section(page(alice, t), "your-part")
    assert "You are <strong>checked in</strong>" in you and 'id="check-in"' not in you
    roster = section(page(None, t), "roster")
    assert re.search(r"Alice</a></td><td class=\"num\">1500\?</td><td>checked in", roster)

    response, said = post(alice, t, "withdraw")
    assert said == ["You have withdrawn from Autumn Swiss: your place is free again (1 of 4 places taken)."]
    you = section(response.content.decode(), "your-part")
    assert "You withdrew from this event." in you and ">Register again</button>" in you
    assert "withdrawn" in section(response.content.decode(), "roster")


def test_refusals_are_shown_and_explained(
    org: Actor, alice: Actor, bob: Actor, make_actor: Callable[..., Actor]
) -> None:
    closed = event(org, "Closed Cup")
    Tournament.objects.filter(pk=closed.pk).update(registration_closes=timezone.now() - timedelta(hours=1))
    you = section(page(alice, closed), "your-part")
    assert 'id="register"' not in you and "Registration closed" in you
    _, said = post(alice, closed, "register")
    assert said == ["registration is closed at this time"]
    assert not Registration.objects.filter(tournament=closed).exists()

    t = event(org)
    post(alice, t, "register")
    _, said = post(alice, t, "register")
    assert said == ["you are registered already"]

    # rating bounds on the display scale: a player without a rating counts as 1500
    strong = event(org, "Masters", rating_min=1600)
    you = section(page(bob, strong), "your-part")
    assert "Your Pacru rating, 1500, is below the minimum of 1600." in you and 'id="register"' not in you
    assert "Open to players rated 1600 or more in Pacru." in you
    _, said = post(bob, strong, "register")
    assert said == ["your Pacru rating is 1500, below this event's minimum of 1600"]

    small = event(org, "Small", max_players=2)
    for name in ("first", "second"):
        services.register(tournament_id=small.pk, player=make_actor(name).player)
    you = section(page(bob, small), "your-part")
    assert "The event is full: 2 of 2 places taken." in you and 'id="register"' not in you
    _, said = post(bob, small, "register")
    assert said == ["the event is full: 2 of 2 places taken"]


def test_anonymous_visitors_are_sent_to_log_in(org: Actor) -> None:
    t = event(org)
    html = page(None, t)
    assert 'id="login-to-register"' in html and "Log in to register" in html
    response = Client().post(f"/tournaments/{t.pk}/register/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert not Registration.objects.filter(tournament=t).exists()


def test_actions_are_post_only_and_need_csrf(org: Actor, alice: Actor) -> None:
    t = event(org)
    assert client_for(alice).get(f"/tournaments/{t.pk}/register/").status_code == 405
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(alice.player.user)
    assert strict.post(f"/tournaments/{t.pk}/register/").status_code == 403
    assert not Registration.objects.filter(tournament=t).exists()
    assert client_for(alice).post("/tournaments/999999/register/").status_code == 404


# ------------------------------------------------------------------------ playing
def test_your_game_is_ready_and_results_in_words(
    org: Actor, make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    actors = people(make_actor, 4)
    t = entered(org, actors, django_capture_on_commit_callbacks, rounds=2)
    first, second = round_tables(t, 1)
    seated = dict(first.seats.values_list("number", "player_id"))
    by_id = {a.player.pk: a for a in actors}
    one, two = by_id[seated[1]], by_id[seated[2]]

    html = page(one, t)
    box = html.split('class="your-game"', 1)[1].split("</div>", 1)[0]
    assert f"Round 1 is paired: your game against {two.player.display_name} is ready — <a" in box
    assert f'id="your-game" href="/tables/{first.pk}/">play now</a>' in box
    assert 'class="your-game"' not in page(None, t), "nobody's game for an anonymous visitor"

    resign_all_but_last(first.pk, django_capture_on_commit_callbacks)
    html = page(None, t)
    rounds = section(html, "rounds")
    winner, loser = two.player.display_name, one.player.display_name
    assert f"<strong>{winner} won</strong> — {loser}: resigned" in rounds
    assert f"1st {winner} (" in rounds and f"2nd {loser} (" in rounds
    assert "playing, ply 0" in rounds and "being played: 1 of 2 tables finished" in rounds
    assert not re.search(r"\[\d\]", rounds), "no rank brackets"
    assert 'class="your-game"' not in page(one, t), "a finished table is no longer waiting"

    standings = section(html, "standings")
    buchholz = "Buchholz: sum of the opponents&#x27; points, an opponent&#x27;s unplayed rounds"
    assert f'title="{buchholz}' in standings
    assert ">Buchholz</abbr>" in standings
    resign_all_but_last(second.pk, django_capture_on_commit_callbacks)
    t.refresh_from_db()
    assert t.current_round == 2
    html = page(None, t)
    assert re.search(r"Round 2</strong> — being played", html)
    assert '<details class="round" id="round-1">' in html, "earlier rounds collapsed"

    (playing, _) = round_tables(t, 2)
    quitter = next(a for a in actors if playing.seats.filter(player=a.player).exists())
    _, said = post(quitter, t, "withdraw")
    assert said == [
        "You have withdrawn from Autumn Swiss: you will not be paired again."
        " Your game being played was resigned."
    ]
    playing.refresh_from_db()
    assert playing.status == "finished"


def test_a_bye_is_named_and_told_to_the_player(
    org: Actor, make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    actors = people(make_actor, 3)
    t = entered(org, actors, django_capture_on_commit_callbacks, rounds=2)
    rnd = Round.objects.get(tournament=t, number=1)
    (bye,) = rnd.byes
    name = Player.objects.get(pk=bye).display_name
    assert f"Bye: {name}" in section(page(None, t), "rounds")
    html = page(next(a for a in actors if a.player.pk == bye), t)
    assert 'id="your-bye"' in html and "You have a bye in round 1" in html


def test_finished_event_names_the_winner_and_the_podium(
    org: Actor, make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    actors = people(make_actor, 2)
    t = entered(org, actors, django_capture_on_commit_callbacks, rounds=1)
    (table,) = round_tables(t, 1)
    resign_all_but_last(table.pk, django_capture_on_commit_callbacks)
    t.refresh_from_db()
    assert t.status == "finished"
    seats = dict(table.seats.values_list("number", "player__display_name"))
    html = page(None, t)
    assert f"Winner: <strong>{seats[2]}</strong>" in html
    assert re.search(
        rf'<span class="place">1st</span> {seats[2]}</li><li><span class="place">2nd</span> {seats[1]}', html
    )
    winner = next(a for a in actors if a.player.display_name == seats[2])
    assert "you finished <strong>1st</strong>" in section(page(winner, t), "your-part")


def test_announcements_newest_first_and_a_pause_in_words(
    org: Actor, make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    t = entered(org, people(make_actor, 2), django_capture_on_commit_callbacks, rounds=2)
    Announcement.objects.create(tournament=t, author=org.player, text="Round one starts now")
    Announcement.objects.create(tournament=t, author=org.player, text="Round two is tomorrow")
    Tournament.objects.filter(pk=t.pk).update(paused=True)
    html = page(None, t)
    news = section(html, "announcements")
    assert news.index("Round two is tomorrow") < news.index("Round one starts now")
    assert "paused by the organisers" in html and "Paused by the organisers" in html


# ------------------------------------------------------------------------ crosstable, bracket
def test_round_robin_has_a_crosstable(
    org: Actor, make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    actors = people(make_actor, 4)
    t = entered(org, actors, django_capture_on_commit_callbacks, format="round_robin")
    first = round_tables(t, 1)[0]
    resign_all_but_last(first.pk, django_capture_on_commit_callbacks)
    seats = dict(first.seats.values_list("number", "player__display_name"))
    html = page(None, t)
    table = section(html, "crosstable")
    assert '<div class="scroll"><table class="list crosstable">' in table
    rows = re.findall(r"<tr><td class=\"num\">\d+</td><td>([^<]+)</td>(.*?)</tr>", table)
    assert sorted(name for name, _ in rows) == sorted(a.player.display_name for a in actors)
    winner_row = dict(rows)[seats[2]]
    assert f'title="Round 1: {seats[2]} against {seats[1]}: {seats[2]} won"' in winner_row
    assert f'<a href="/tables/{first.pk}/">1</a>' in winner_row
    assert f'<a href="/tables/{first.pk}/">0</a>' in dict(rows)[seats[1]]
    assert 'id="bracket"' not in html


def test_three_seat_round_robin_crosstable_lists_places_by_round(
    org: Actor, make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    actors = people(make_actor, 6)
    t = entered(org, actors, django_capture_on_commit_callbacks, format="round_robin", seats=3)
    first = round_tables(t, 1)[0]
    resign_all_but_last(first.pk, django_capture_on_commit_callbacks)
    seats = dict(first.seats.values_list("number", "player__display_name"))
    table = section(page(None, t), "crosstable")
    assert '<th class="num" title="Round 1">R1</th>' in table
    rows = dict(re.findall(r"<tr><td class=\"num\">\d+</td><td>([^<]+)</td>(.*?)</tr>", table))
    assert f'<a href="/tables/{first.pk}/">1st</a>' in rows[seats[3]]
    assert f'<a href="/tables/{first.pk}/">3rd</a>' in rows[seats[1]]


def test_knockout_draws_its_bracket_as_svg(
    org: Actor, make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    actors = people(make_actor, 5)
    t = entered(org, actors, django_capture_on_commit_callbacks, format="knockout", rated=False)
    (table,) = round_tables(t, 1)
    resign_all_but_last(table.pk, django_capture_on_commit_callbacks)
    winner = table.seats.get(number=2).player.display_name
    html = page(None, t)
    part = section(html, "bracket")
    svg = re.search(r"<svg.*</svg>", part, re.S)
    assert svg and '<div class="scroll bracket-wrap">' in part
    root = ET.fromstring(svg.group(0))
    ns = "{http://www.w3.org/2000/svg}"
    texts = " ".join("".join(el.itertext()) for el in root.iter(f"{ns}text"))
    for a in actors:
        assert a.player.display_name in texts
    advanced = [g for g in root.iter(f"{ns}g") if g.get("class") == "advanced"]
    shown = {el.text for g in advanced for el in g.iter(f"{ns}title")}
    assert winner in shown, "the table's winner is marked as going through"
    assert "Round 3 · final" in texts and "to be decided" in texts, "the rounds to come are drawn"
    assert 'id="crosstable"' not in html


# ------------------------------------------------------------------------ queries
def test_the_page_reads_in_a_constant_number_of_queries(
    org: Actor, make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    def measure(t: Tournament, viewer: Actor | None) -> int:
        client = client_for(viewer)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(f"/tournaments/{t.pk}/").status_code == 200
        return len(queries)

    def played(n: int, prefix: str, rounds_played: int) -> tuple[Tournament, Actor]:
        actors = people(make_actor, n, prefix)
        t = entered(org, actors, django_capture_on_commit_callbacks, rounds=3)
        for number in range(1, rounds_played + 1):
            for table in round_tables(t, number):
                resign_all_but_last(table.pk, django_capture_on_commit_callbacks)
        t.refresh_from_db()
        Announcement.objects.create(tournament=t, author=org.player, text="hello")
        return t, actors[0]

    small, small_player = played(4, "s", 1)
    large, large_player = played(10, "l", 2)
    assert large.current_round == 3 and small.current_round == 2
    assert measure(small, None) == measure(large, None)
    assert measure(small, small_player) == measure(large, large_player)
    knockout_small = entered(
        org, people(make_actor, 4, "ks"), django_capture_on_commit_callbacks, format="knockout"
    )
    knockout_large = entered(
        org, people(make_actor, 12, "kl"), django_capture_on_commit_callbacks, format="knockout"
    )
    resign_all_but_last(round_tables(knockout_small, 1)[0].pk, django_capture_on_commit_callbacks)
    for table in round_tables(knockout_large, 1)[:3]:
        resign_all_but_last(table.pk, django_capture_on_commit_callbacks)
    assert measure(knockout_small, None) == measure(knockout_large, None)


def test_live_fragments_refresh_the_results_and_your_game(
    org: Actor, make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    actors = people(make_actor, 2)
    t = entered(org, actors, django_capture_on_commit_callbacks, rounds=2)
    html = page(actors[0], t)
    assert f'data-live="/tournaments/{t.pk}/?fragment=1"' in html
    assert f'data-live="/tournaments/{t.pk}/?fragment=top"' in html
    viewer = client_for(actors[0])
    top = viewer.get(f"/tournaments/{t.pk}/?fragment=top")
    assert 'id="your-game"' in top.content.decode() and "<html" not in top.content.decode()
    body = viewer.get(f"/tournaments/{t.pk}/?fragment=1")
    assert 'id="rounds"' in body.content.decode() and 'id="your-part"' not in body.content.decode()
    again = viewer.get(f"/tournaments/{t.pk}/?fragment=1", HTTP_IF_NONE_MATCH=body["ETag"])
    assert again.status_code == 304, "nothing changed"
    (table,) = round_tables(t, 1)
    resign_all_but_last(table.pk, django_capture_on_commit_callbacks)
    changed = viewer.get(f"/tournaments/{t.pk}/?fragment=1", HTTP_IF_NONE_MATCH=body["ETag"])
    assert changed.status_code == 200 and " won</strong>" in changed.content.decode()


def test_double_elimination_bracket_shows_both_brackets(
    org: Actor, make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    actors = people(make_actor, 4)
    t = entered(org, actors, django_capture_on_commit_callbacks, format="double_elim", rated=False)
    for table in round_tables(t, 1):
        resign_all_but_last(table.pk, django_capture_on_commit_callbacks)
    html = page(None, t)
    root = ET.fromstring(re.search(r"<svg.*</svg>", section(html, "bracket"), re.S).group(0))  # type: ignore[union-attr]
    texts = ["".join(el.itertext()) for el in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "Winners bracket" in texts and "Losers bracket" in texts
    assert re.search(r"Board \d</a> · Losers bracket round 1", section(html, "rounds"))
    assert ">Losses</abbr>" in section(html, "standings")


def test_only_the_leagues_organisers_see_the_link_to_manage_the_event(
    make_actor: Callable[..., Actor],
) -> None:
    organiser = make_actor("olga")
    as_organiser(organiser.player)
    league = services.league_create(organiser=organiser.player, name="Hill Club", slug="hill")
    t = services.tournament_create(
        organiser=organiser.player, league=league, name="Hill Open", game="pacru", seats=2
    )
    other = make_actor("otto")
    as_organiser(other.player)
    services.league_create(organiser=other.player, name="Other Club", slug="other")
    assert League.objects.count() == 2
    link = f'href="/organiser/events/{t.pk}/"'
    assert link in page(organiser, t)
    assert link not in page(other, t)  # organises another league
    assert link not in page(None, t)
