"""The league page: what the league holds, and joining it."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client

from tournaments import ladders
from tournaments.competitions import services
from tournaments.models import League

from ..games.conftest import Actor, as_organiser

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(make_actor: Callable[..., Actor]) -> tuple[Actor, League]:
    organiser = make_actor("organiser")
    as_organiser(organiser.player)
    league = services.league_create(
        organiser=organiser.player, name="The Club", slug="club", description="Tuesday evenings."
    )
    return organiser, league


def logged_in(actor: Actor) -> Client:
    client = Client()
    client.force_login(actor.player.user)
    return client


def test_the_league_page_lists_its_events_and_ladders(club: tuple[Actor, League], alice: Actor) -> None:
    organiser, league = club
    services.tournament_create(
        organiser=organiser.player, league=league, name="Autumn Swiss", game="pacru", seats=2
    )
    services.tournament_create(
        organiser=organiser.player,
        league=league,
        name="Hidden Draft",
        game="pacru",
        seats=2,
        open_registration=False,
    )
    ladder = ladders.ladder_create(
        organiser=organiser.player, league=league, game="shacru", name="Shacru Ladder"
    )
    ladders.ladder_join(ladder=ladder, player=alice.player)
    html = Client().get("/leagues/club/").content.decode()
    assert "Tuesday evenings." in html and "Organised by" in html and "Organiser</a>" in html
    assert "2 members" in html  # the organiser and Alice (who joined through the ladder)
    assert "Autumn Swiss</a></td><td>registration open</td>" in html and "Hidden Draft" not in html
    assert f'<a href="/ladders/{ladder.pk}/">Shacru Ladder</a>' in html and "1 player" in html
    assert "<button" not in html.split("<main", 1)[1].split("</main>", 1)[0] and "to join this league" in html


def test_joining_the_league_from_its_page(club: tuple[Actor, League], bob: Actor) -> None:
    _, league = club
    client = logged_in(bob)
    html = client.get("/leagues/club/").content.decode()
    assert 'id="join-league"' in html and "You are a member" not in html
    response = client.post("/leagues/club/join/", follow=True)
    assert [str(m) for m in response.context["messages"]] == ["You joined The Club"]
    assert league.members.filter(pk=bob.player.pk).exists()
    html = response.content.decode()
    assert "You are a member" in html and 'id="join-league"' not in html and "2 members" in html
    again = client.post("/leagues/club/join/", follow=True)
    assert [str(m) for m in again.context["messages"]] == ["You are a member of The Club already"]
    assert client.get("/leagues/club/join/").status_code == 405
    assert client.post("/leagues/nowhere/join/").status_code == 404


def test_joining_needs_a_login_and_csrf(club: tuple[Actor, League], carol: Actor) -> None:
    _, league = club
    response = Client().post("/leagues/club/join/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(carol.player.user)
    assert strict.post("/leagues/club/join/").status_code == 403
    assert not league.members.filter(pk=carol.player.pk).exists()
