"""What a bye pays: the organiser's (a requested bye) as the event says, the pairing's a win.

FIDE: only the pairing-allocated bye (the odd player out of a round) pays a win; a bye the
organiser gives, at the player's request or not, pays half or nothing as the event's rules say.
Each event stores its choice (``Tournament.requested_bye``, FIDE's half point by default); the
standings, the tiebreaks' virtual opponents and the event page follow it. Through the services:
create an event, give a bye, enter the results, read the standings.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from common.errors import InvalidInput
from games.models import Table
from tournaments.competitions import selectors, services
from tournaments.models import League, Round, Tournament
from tournaments.organising import actions

from ..games.conftest import Actor, as_organiser
from .test_formats_flow import current_tables

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(make_actor: Callable[..., Actor]) -> tuple[Actor, League]:
    org = make_actor("bye-org")
    as_organiser(org.player)
    return org, services.league_create(organiser=org.player, name="Bye Club")


def event(
    club: tuple[Actor, League], make_actor: Callable[..., Actor], n: int, prefix: str = "b", **settings: Any
) -> tuple[Tournament, list[Actor]]:
    """An unrated event of ``n`` registered players (not started; their names start with ``prefix``)."""
    org, league = club
    t = services.tournament_create(
        organiser=org.player, league=league, name="Bye Night", game="shacru", rated=False, **settings
    )
    people = [make_actor(f"{prefix}{i}") for i in range(n)]
    for p in people:
        services.register(tournament_id=t.pk, player=p.player)
    return t, people


def start(t: Tournament, org: Actor, capture: Any) -> None:
    with capture(execute=True):
        services.start(tournament_id=t.pk, by=org.player)
    t.refresh_from_db()


def play_round(t: Tournament, org: Actor, capture: Any) -> None:
    """Every table of the current round ends in seat order: seat 1 first, seat 2 second..."""
    for table in current_tables(t):
        if table.status != Table.Status.ACTIVE:
            continue
        ranks = {seat: seat for seat in table.seats.values_list("number", flat=True)}
        with capture(execute=True):
            actions.enter_result(
                tournament_id=t.pk,
                table_id=table.pk,
                ranks=ranks,
                reason="played over the board",
                by=org.player,
            )
    t.refresh_from_db()


def points_after(t: Tournament, number: int) -> dict[int, float]:
    return {row.player: row.points for row in selectors.current_standings(t, after_round=number)}


@pytest.mark.parametrize(("rule", "paid"), [("zero", 0.0), ("half", 0.5)])
def test_a_given_bye_pays_the_events_choice_at_two_seats_and_the_pairing_bye_a_win(
    club: tuple[Actor, League],
    make_actor: Callable[..., Actor],
    django_capture_on_commit_callbacks: Any,
    rule: str,
    paid: float,
) -> None:
    org = club[0]
    t, people = event(club, make_actor, 4, seats=2, rounds=2, requested_bye=rule)
    asked = people[0].player
    services.give_bye(tournament_id=t.pk, player=asked, by=org.player)
    start(t, org, django_capture_on_commit_callbacks)
    rnd = Round.objects.get(tournament=t, number=1)
    (allocated,) = [p for p in rnd.byes if p != asked.pk]  # three left: the pairing's odd player out
    assert asked.pk in rnd.byes
    play_round(t, org, django_capture_on_commit_callbacks)
    points = points_after(t, 1)
    assert points[asked.pk] == paid, "the organiser's bye pays what the event says"
    assert points[allocated] == 1.0, "the pairing's own bye still pays a win"
    assert sorted(points.values()) == sorted([paid, 1.0, 1.0, 0.0])
    rows = {row.player: row for row in selectors.current_standings(t, after_round=1)}
    assert rows[asked.pk].played == 0 and rows[asked.pk].wins == 0, "a bye is not a game"


@pytest.mark.parametrize(("rule", "paid"), [("zero", 0.0), ("half", 1.5)])
def test_a_given_bye_at_four_seats_never_beats_an_average_table(
    club: tuple[Actor, League],
    make_actor: Callable[..., Actor],
    django_capture_on_commit_callbacks: Any,
    rule: str,
    paid: float,
) -> None:
    # Four seats, scale 3-2-1-0: a played table averages 1.5. The old rule paid the bye 2.
    org = club[0]
    t, people = event(club, make_actor, 5, seats=4, rounds=2, requested_bye=rule)
    asked = people[0].player
    services.give_bye(tournament_id=t.pk, player=asked, by=org.player)
    start(t, org, django_capture_on_commit_callbacks)
    assert Round.objects.get(tournament=t, number=1).byes == [asked.pk]
    play_round(t, org, django_capture_on_commit_callbacks)
    points = points_after(t, 1)
    assert points[asked.pk] == paid
    assert sorted(p for who, p in points.items() if who != asked.pk) == [0.0, 1.0, 2.0, 3.0]
    assert paid <= 1.5, "skipping never pays more than an average table"


def test_the_default_is_fides_half_point_and_a_bad_choice_is_refused(
    club: tuple[Actor, League], make_actor: Callable[..., Actor]
) -> None:
    t, _ = event(club, make_actor, 2, seats=2)
    assert t.requested_bye == "half"
    org, league = club
    with pytest.raises(InvalidInput):
        services.tournament_create(
            organiser=org.player, league=league, name="Odd", game="shacru", seats=2, requested_bye="full"
        )


def test_the_api_and_the_dashboard_set_the_choice(club: tuple[Actor, League]) -> None:
    org, league = club
    r = org.client.post(
        "/api/v1/tournaments/",
        {"league": league.slug, "name": "Api Night", "game": "shacru", "seats": 2, "requested_bye": "zero"},
        format="json",
    )
    assert r.status_code == 201, r.content
    assert r.json()["requested_bye"] == "zero"
    assert Tournament.objects.get(name="Api Night").requested_bye == "zero"
    web = Client()
    web.force_login(org.player.user)
    page = web.get("/organiser/").content.decode()
    assert 'name="requested_bye"' in page
    form = {"form": "event", "league": league.pk, "name": "Form Night", "game": "shacru", "seats": 2,
            "format": "swiss", "rounds": 3, "advance": 1, "base_minutes": 5, "increment": 3,
            "requested_bye": "zero"}  # fmt: skip
    assert web.post("/organiser/", form).status_code == 302
    assert Tournament.objects.get(name="Form Night").requested_bye == "zero"
    del form["requested_bye"]
    form["name"] = "Older Form"
    assert web.post("/organiser/", form).status_code == 302
    assert Tournament.objects.get(name="Older Form").requested_bye == "half"


@pytest.mark.parametrize(
    ("seats", "rule", "words"),
    [
        (2, "half", "A bye the organisers give pays 0.5 points, as a draw; the pairing’s"),
        (
            2,
            "zero",
            "A bye the organisers give pays nothing; the pairing’s own bye (the odd player out) pays 1",
        ),
        (4, "half", "A bye the organisers give pays 1.5 points, as a draw"),
    ],
)
def test_the_event_page_tells_what_a_bye_pays(
    club: tuple[Actor, League], make_actor: Callable[..., Actor], seats: int, rule: str, words: str
) -> None:
    t, _ = event(club, make_actor, 2, seats=seats, requested_bye=rule)
    html = Client().get(f"/tournaments/{t.pk}/").content.decode().replace("&#x27;", "’").replace("'", "’")
    assert '<dt>Byes</dt><dd id="bye-rule">' in html
    assert words in html


def test_a_round_robin_page_says_a_sit_out_scores_nothing(
    club: tuple[Actor, League], make_actor: Callable[..., Actor]
) -> None:
    """A round robin's schedule sits players out (everyone as often); that is no win."""
    t, _ = event(club, make_actor, 3, seats=2, format="round_robin")
    html = Client().get(f"/tournaments/{t.pk}/").content.decode().replace("&#x27;", "’").replace("'", "’")
    assert "a round the schedule sits you out scores nothing" in html
    assert "odd player out" not in html
