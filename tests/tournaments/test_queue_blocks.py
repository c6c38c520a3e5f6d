"""The 3–4 seat ladder queue never seats two players of a block together (``games.blocks``)."""

from __future__ import annotations

from collections.abc import Callable

from games import blocks
from games.models import Player, Seat
from tournaments import ladders
from tournaments.competitions.services import league_create
from tournaments.models import QueueEntry

from ..games.conftest import Actor, as_organiser

EVEN = (25.0, 2.0)


def test_a_blocked_pair_is_split_even_when_it_would_be_the_best_table() -> None:
    # 0..3 are alike; 4 and 5 far below: without the block, 0, 1, 2 sit together.
    queue = [(i, EVEN, 0.0) for i in range(4)] + [(4, (18.0, 2.0), 0.0), (5, (18.0, 2.0), 0.0)]
    assert ladders.plan_queue_tables(game="pacru", seats=3, waiting=queue, wait_limit=120)[0] == [0, 1, 2]
    planned = ladders.plan_queue_tables(game="pacru", seats=3, waiting=queue, wait_limit=120, blocks=[(1, 0)])
    assert planned and all(not {0, 1} <= set(t) for t in planned)
    assert planned[0] == [0, 2, 3]


def test_a_block_either_way_round_keeps_the_head_waiting_when_no_other_table_exists() -> None:
    queue = [(0, EVEN, 500.0), (1, EVEN, 10.0), (2, EVEN, 5.0)]
    assert ladders.plan_queue_tables(game="pacru", seats=3, waiting=queue, wait_limit=120) == [[0, 1, 2]]
    for pair in [(0, 2), (2, 0)]:
        assert (
            ladders.plan_queue_tables(game="pacru", seats=3, waiting=queue, wait_limit=120, blocks=[pair])
            == []
        )


def test_behind_a_blocked_head_the_others_still_play() -> None:
    # The head (long past the wait limit) blocked everyone behind but one: 1..4 play.
    queue = [(0, EVEN, 500.0)] + [(i, EVEN, 1.0) for i in range(1, 5)]
    planned = ladders.plan_queue_tables(
        game="pacru", seats=4, waiting=queue, wait_limit=120, blocks=[(0, 1), (0, 2)]
    )
    assert planned == [[1, 2, 3, 4]]


def test_matchmake_reads_the_blocks(make_actor: Callable[..., Actor]) -> None:
    org = make_actor("blockboss")
    league = league_create(organiser=as_organiser(org.player), name="Block Queue Club")
    ladder = ladders.ladder_create(organiser=org.player, league=league, game="pacru", seats=3)
    people: list[Player] = [make_actor(f"bq{i}").player for i in range(4)]
    for p in people:
        ladders.ladder_join(ladder=ladder, player=p)
        ladders.queue_join(ladder=ladder, player=p)
    # 0 and 1 blocked each other (one way is enough), so do 1 and 2: 1 cannot sit with 0 or 2.
    blocks.block(player=people[1], other_id=people[0].pk)
    blocks.block(player=people[2], other_id=people[1].pk)
    made = ladders.matchmake(ladder=ladder)
    assert len(made) == 1
    seated = set(Seat.objects.filter(table=made[0]).values_list("player_id", flat=True))
    assert seated == {people[0].pk, people[2].pk, people[3].pk}
    waiting = QueueEntry.objects.filter(ladder=ladder).values_list("player_id", flat=True)
    assert list(waiting) == [people[1].pk]
