"""Round robins at 2–4 seats keep seat 1 and the last seat within one, through the service.

``pairing.round_robin`` chooses seat 1 and the last seat over the whole schedule; the service must seat
each round's tables in that order, not re-seat them round by round (which let the first seats drift
to a spread of 2 and the last seats to 5).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from games import services as games
from games.models import Player, Seat
from tournaments.competitions import services
from tournaments.models import Round, Tournament
from tournaments.organising import actions
from tournaments.pairing import round_robin

from ..games.conftest import as_organiser

COUNTS = range(4, 41)
PASSWORD = "correct-horse-9"
# Through the service: every count up to 16 and two larger ones (the whole 4-40 at both seat counts takes
# minutes there: every result entered pairs and stands the event); the pure schedule, which the service
# seats as it is, is checked for every count from 4 to 40 above.
SERVICE_COUNTS = [*range(4, 17), 20, 25]


def spreads(tables: list[tuple[int, ...]], players: list[int]) -> tuple[int, int]:
    """(first-seat spread, last-seat spread): most minus fewest times a player sat there."""
    first = Counter(t[0] for t in tables)
    last = Counter(t[-1] for t in tables)
    return (
        max(first[p] for p in players) - min(first[p] for p in players),
        max(last[p] for p in players) - min(last[p] for p in players),
    )


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_schedule_keeps_first_and_last_seats_within_one(seats: int) -> None:
    for n in COUNTS:
        ids = list(range(n))
        tables = [t.players for r in round_robin(ids, seats) for t in r.tables]
        assert max(spreads(tables, ids)) <= 1, (n, seats, spreads(tables, ids))


def play_through_the_service(
    org: Player, league: Any, people: list[Player], seats: int, capture: Callable[..., Any]
) -> list[tuple[int, ...]]:
    """A round robin of ``people`` created, started and played round by round with the organiser's
    result entry (seat 1 wins, then seat order); every table's seat order, as played."""
    t = services.tournament_create(
        organiser=org,
        league=league,
        name=f"RR {len(people)} at {seats}",
        game="shacru",
        seats=seats,
        format="round_robin",
        rated=False,
    )
    for p in people:
        services.register(tournament_id=t.pk, player=p)
    with capture(execute=True):
        services.start(tournament_id=t.pk, by=org)
    t.refresh_from_db()
    played: list[tuple[int, ...]] = []
    for number in range(1, t.rounds + 1):
        rnd = Round.objects.get(tournament=t, number=number)
        for rt in rnd.tables.order_by("number"):
            seated = Seat.objects.filter(table_id=rt.table_id).order_by("number")
            order = tuple(seated.values_list("player_id", flat=True))
            played.append(order)
            with capture(execute=True):
                actions.enter_result(
                    tournament_id=t.pk,
                    table_id=rt.table_id,
                    ranks={s: s for s in range(1, len(order) + 1)},
                    reason="test",
                    by=org,
                )
        t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED and t.current_round == t.rounds
    return played


@pytest.mark.django_db
@pytest.mark.parametrize("seats", [3, 4])
def test_round_robins_played_through_the_service_keep_first_and_last_seats_within_one(
    seats: int, django_capture_on_commit_callbacks: Any
) -> None:
    org = as_organiser(games.player_register(username="rrorg", password=PASSWORD, display_name="Org"))
    league = services.league_create(organiser=org, name="Seats Club")
    pool = [
        games.player_register(username=f"rr{i}", password=PASSWORD, display_name=f"Rr {i}")
        for i in range(max(SERVICE_COUNTS))
    ]
    for n in SERVICE_COUNTS:
        people = pool[:n]
        played = play_through_the_service(org, league, people, seats, django_capture_on_commit_callbacks)
        ids = [p.pk for p in people]
        assert Counter(p for t in played for p in t) == Counter(
            {p: math.ceil((n - 1) / (seats - 1)) for p in ids}
        ), "everyone played every round"
        assert max(spreads(played, ids)) <= 1, (n, seats, spreads(played, ids))


@pytest.mark.django_db
def test_a_two_seat_round_robin_through_the_service_shares_seat_one_within_one(
    django_capture_on_commit_callbacks: Any,
) -> None:
    org = as_organiser(games.player_register(username="rrorg", password=PASSWORD, display_name="Org"))
    league = services.league_create(organiser=org, name="Seats Club")
    pool = [
        games.player_register(username=f"rr{i}", password=PASSWORD, display_name=f"Rr {i}") for i in range(9)
    ]
    for n in (4, 5, 8, 9):
        played = play_through_the_service(org, league, pool[:n], 2, django_capture_on_commit_callbacks)
        ids = [p.pk for p in pool[:n]]
        assert max(spreads(played, ids)) <= 1, (n, spreads(played, ids))
