"""The events, ladders and leagues list pages: reachable from the site bar, filtered, paged,
and a constant number of queries however many rows they show."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tournaments import ladders
from tournaments.competitions import services
from tournaments.models import League, Tournament

from ..games.conftest import Actor, as_organiser

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(make_actor: Callable[..., Actor]) -> tuple[Actor, League]:
    organiser = make_actor("organiser")
    as_organiser(organiser.player)
    return organiser, services.league_create(organiser=organiser.player, name="The Club", slug="club")


def event(club: tuple[Actor, League], name: str, game: str = "pacru", **options: object) -> Tournament:
    organiser, league = club
    return services.tournament_create(
        organiser=organiser.player, league=league, name=name, game=game, seats=2, **options
    )


def names(html: str, section: str) -> list[str]:
    """The event names listed in one section of the events page."""
    part = html.split(f'id="{section}"', 1)[1].split("</section>", 1)[0]
    return re.findall(r'<a href="/tournaments/\d+/">([^<]+)</a>', part)


def test_the_site_bar_leads_to_events_ladders_and_leagues() -> None:
    html = Client().get("/").content.decode()
    for url, label in (("/tournaments/", "Events"), ("/ladders/", "Ladders"), ("/leagues/", "Leagues")):
        assert f'<a href="{url}">{label}</a>' in html
        assert Client().get(url).status_code == 200


def test_events_are_listed_by_status_with_drafts_hidden_and_filtered_by_game(
    club: tuple[Actor, League], alice: Actor
) -> None:
    event(club, "Spring Open")
    event(club, "Azacru Cup", game="azacru")
    event(club, "Secret Draft", open_registration=False)
    finished = event(club, "Last Year")
    Tournament.objects.filter(pk=finished.pk).update(status="finished", finished_at=timezone.now())
    services.register(tournament_id=event(club, "With Alice").pk, player=alice.player)
    html = Client().get("/tournaments/").content.decode()
    assert names(html, "registration") == ["With Alice", "Azacru Cup", "Spring Open"]
    assert names(html, "finished") == ["Last Year"] and "Secret Draft" not in html
    assert names(Client().get("/tournaments/", {"game": "azacru"}).content.decode(), "registration") == [
        "Azacru Cup"
    ]
    only = Client().get("/tournaments/", {"status": "finished", "game": "nonsense"}).content.decode()
    assert 'id="registration"' not in only and names(only, "finished") == ["Last Year"]
    assert re.search(r"With Alice</a>.*?<td class=\"num\">1</td>", html, re.S), "entrants counted"


def test_finished_events_page_back_with_a_constant_number_of_queries(club: tuple[Actor, League]) -> None:
    made = [event(club, f"Event {n:02d}") for n in range(45)]
    done = Tournament.objects.filter(pk__in=[t.pk for t in made])
    done.update(status="finished", finished_at=timezone.now())
    seen: list[str] = []
    counts = []
    url = "/tournaments/?status=finished"
    while url:
        with CaptureQueriesContext(connection) as queries:
            html = Client().get(url).content.decode()
        counts.append(len(queries))
        seen += names(html, "finished")
        older = re.search(r'href="\?status=finished&amp;before=(\d+)#finished"', html)
        url = f"/tournaments/?status=finished&before={older.group(1)}" if older else ""
    assert seen == [f"Event {n:02d}" for n in reversed(range(45))]
    assert len(counts) == 3 and len(set(counts)) == 1, counts


def test_ladders_and_leagues_list_with_their_counts_in_constant_queries(
    club: tuple[Actor, League], make_actor: Callable[..., Actor]
) -> None:
    organiser, league = club

    def measure(url: str) -> int:
        with CaptureQueriesContext(connection) as queries:
            assert Client().get(url).status_code == 200
        return len(queries)

    ladder = ladders.ladder_create(
        organiser=organiser.player, league=league, game="shacru", name="Shacru Ladder"
    )
    few = (measure("/ladders/"), measure("/leagues/"))
    for n in range(6):
        player = make_actor(f"member{n}").player
        ladders.ladder_join(ladder=ladder, player=player)
        league.members.add(player)
        other = services.league_create(organiser=organiser.player, name=f"Club {n}", slug=f"club-{n}")
        ladders.ladder_create(organiser=organiser.player, league=other, game="pacru", name=f"Pacru {n}")
        event(club, f"Cup {n}")
        other.organisers.add(player)
    assert (measure("/ladders/"), measure("/leagues/")) == few
    html = Client().get("/ladders/", {"game": "shacru"}).content.decode()
    assert "Shacru Ladder" in html and "Pacru 0" not in html
    assert re.search(r"Shacru Ladder</a>.*?<td class=\"num\">6</td>", html, re.S)
    leagues = Client().get("/leagues/").content.decode()
    row = leagues.split('href="/leagues/club/"', 1)[1].split("</tr>", 1)[0]
    # members (the organiser too), events, ladders
    assert re.findall(r'<td class="num">(\d+)</td>', row) == ["7", "6", "1"]
