"""The 3–4 player ladder queue seats its longest-waiting player at a fair table when one exists.

Raw match quality falls with the players' uncertainty, so the table of best raw quality may be one
of established players that is unfair to the head of the queue while a table with newcomers is fair
for them. The head must get that fair table at once, not wait out the bounded wait.
"""

from __future__ import annotations

from collections.abc import Callable

from games.models import Player
from ratings import environment
from ratings.environment import conservative
from ratings.models import Rating
from tournaments import ladders
from tournaments.competitions.services import league_create
from tournaments.models import QueueEntry

from ..games.conftest import Actor, as_organiser

HEAD = (30.0, 2.0)
ESTABLISHED = (22.0, 2.0)  # far below the head: a table of them with the head is unfair


def waiting(ratings: list[tuple[float, float]]) -> list[tuple[int, tuple[float, float], float]]:
    return [(i, r, 0.0) for i, r in enumerate(ratings)]


def test_the_head_gets_the_fair_table_with_newcomers_at_three_seats() -> None:
    queue = waiting([HEAD, ESTABLISHED, ESTABLISHED, (28.0, 8.3), (30.0, 8.3)])
    best = environment.quality("pacru", [HEAD, ESTABLISHED, ESTABLISHED])
    assert best > environment.quality("pacru", [HEAD, (28.0, 8.3), (30.0, 8.3)]), (
        "the scenario: the best raw quality is the unfair table"
    )
    assert ladders.fairness(game="pacru", ratings=[HEAD, ESTABLISHED, ESTABLISHED]) < ladders.FAIR_SHARE
    assert ladders.plan_queue_tables(game="pacru", seats=3, waiting=queue, wait_limit=120) == [[0, 3, 4]]


def test_the_head_gets_the_fair_table_with_newcomers_at_four_seats() -> None:
    newcomers = [(29.0, 8.3), (30.0, 8.3), (31.0, 8.3)]
    queue = waiting([HEAD, ESTABLISHED, ESTABLISHED, ESTABLISHED, *newcomers])
    assert ladders.plan_queue_tables(game="pacru", seats=4, waiting=queue, wait_limit=120) == [[0, 4, 5, 6]]


def test_without_a_fair_table_for_the_head_others_still_play() -> None:
    """Unchanged: an unmatched head never blocks a fair table behind them (until the wait runs out)."""
    queue = waiting([(60.0, 1.0), (25.0, 1.0), (25.0, 1.0), (25.0, 1.0)])
    assert ladders.plan_queue_tables(game="pacru", seats=3, waiting=queue, wait_limit=120) == [[1, 2, 3]]
    late = [(0, (60.0, 1.0), 121.0), *queue[1:]]
    assert ladders.plan_queue_tables(game="pacru", seats=3, waiting=late, wait_limit=120)[0][0] == 0


def test_matchmake_seats_the_head_at_once(make_actor: Callable[..., Actor]) -> None:
    org = make_actor("fairboss")
    league = league_create(organiser=as_organiser(org.player), name="Fair Queue Club")
    ladder = ladders.ladder_create(organiser=org.player, league=league, game="pacru", seats=3)
    people: list[Player] = [make_actor(f"fq{i}").player for i in range(5)]
    for p, (mu, sigma) in zip(
        people, [HEAD, ESTABLISHED, ESTABLISHED, (28.0, 8.3), (30.0, 8.3)], strict=True
    ):
        ladders.ladder_join(ladder=ladder, player=p)
        Rating.objects.create(
            player=p, game="pacru", mu=mu, sigma=sigma, conservative=conservative(mu, sigma), games=5
        )
        ladders.queue_join(ladder=ladder, player=p)
    made = ladders.matchmake(ladder=ladder)
    assert len(made) == 1
    assert sorted(made[0].seats.values_list("player_id", flat=True)) == sorted(
        [people[0].pk, people[3].pk, people[4].pk]
    ), "the head of the queue sits with the two newcomers"
    assert sorted(QueueEntry.objects.filter(ladder=ladder).values_list("player_id", flat=True)) == sorted(
        [people[1].pk, people[2].pk]
    )
