"""Position ladders, challenge limits and the matchmaking queue's fairness."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from common.errors import Conflict
from games import services as games
from games.models import Player
from games.selectors import game_result
from tournaments import ladders
from tournaments.competitions.services import league_create
from tournaments.ladders.selectors import ladder_order
from tournaments.models import Challenge, Ladder, LadderMember, QueueEntry

from ..games.conftest import Actor, as_organiser
from .test_ladders import rate


def places(ladder: Ladder) -> list[int]:
    return [row["player"] for row in ladder_order(ladder)]


@pytest.fixture
def position_ladder(make_actor: Callable[..., Actor]) -> tuple[Ladder, list[Player]]:
    org = make_actor("pboss")
    league = league_create(organiser=as_organiser(org.player), name="Position Club")
    ladder = ladders.ladder_create(
        organiser=org.player, league=league, game="shacru", kind="position", max_declines=1
    )
    people = [make_actor(f"p{i}").player for i in range(6)]
    for p in people:
        ladders.ladder_join(ladder=ladder, player=p)
    return ladder, people


def play_challenge(c: Challenge, loser: Player, on_commit: Any) -> None:
    """Accept and play the challenge: ``loser`` resigns (the result is applied on commit)."""
    table = ladders.challenge_accept(challenge_id=c.pk, by=c.challenged)
    with on_commit(execute=True):
        games.game_resign(table_id=table.pk, player=loser)


def test_a_position_ladder_starts_in_joining_order_and_ratings_do_not_move_it(
    position_ladder: tuple[Ladder, list[Player]],
) -> None:
    ladder, people = position_ladder
    assert places(ladder) == [p.pk for p in people]
    rate(people[5], "shacru", mu=60)  # a strong rating from games elsewhere
    assert places(ladder) == [p.pk for p in people], "only the ladder's challenges move places"
    positions = (
        LadderMember.objects.filter(ladder=ladder).order_by("position").values_list("position", flat=True)
    )
    assert list(positions) == [1, 2, 3, 4, 5, 6]


def test_a_winning_challenger_takes_the_place_and_the_others_move_down(
    position_ladder: tuple[Ladder, list[Player]], django_capture_on_commit_callbacks: Any
) -> None:
    ladder, p = position_ladder
    c = ladders.challenge_create(ladder=ladder, challenger=p[4], challenged=p[1])
    play_challenge(c, loser=p[1], on_commit=django_capture_on_commit_callbacks)
    c.refresh_from_db()
    assert c.outcome == "challenger"
    assert places(ladder) == [p[0].pk, p[4].pk, p[1].pk, p[2].pk, p[3].pk, p[5].pk]
    # Recording the same result again changes nothing.
    assert ladders.challenge_table_finished(result=_result(c)) == "already recorded"
    assert places(ladder) == [p[0].pk, p[4].pk, p[1].pk, p[2].pk, p[3].pk, p[5].pk]


def _result(c: Challenge) -> Any:
    assert c.table_id is not None
    result = game_result(c.table_id)
    assert result is not None
    return result


def test_a_losing_challenger_changes_nothing(
    position_ladder: tuple[Ladder, list[Player]], django_capture_on_commit_callbacks: Any
) -> None:
    ladder, p = position_ladder
    c = ladders.challenge_create(ladder=ladder, challenger=p[3], challenged=p[0])
    play_challenge(c, loser=p[3], on_commit=django_capture_on_commit_callbacks)
    c.refresh_from_db()
    assert c.outcome == "challenged"
    assert places(ladder) == [x.pk for x in p]


def test_an_unanswered_challenge_is_a_forfeit_on_a_position_ladder(
    position_ladder: tuple[Ladder, list[Player]],
) -> None:
    ladder, p = position_ladder
    c = ladders.challenge_create(ladder=ladder, challenger=p[2], challenged=p[0])
    Challenge.objects.filter(pk=c.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert ladders.expire_challenges() == 1
    c.refresh_from_db()
    assert c.status == "expired" and c.outcome == "forfeit"
    assert places(ladder) == [p[2].pk, p[0].pk, p[1].pk, p[3].pk, p[4].pk, p[5].pk]
    assert ladders.expire_challenges() == 0, "once"


def test_declines_are_limited_on_a_position_ladder_and_followed_by_a_cooldown(
    position_ladder: tuple[Ladder, list[Player]],
) -> None:
    ladder, p = position_ladder
    first = ladders.challenge_create(ladder=ladder, challenger=p[3], challenged=p[1])
    ladders.challenge_answer(challenge_id=first.pk, by=p[1], decision="decline")
    with pytest.raises(Conflict, match="declined your challenge recently"):
        ladders.challenge_create(ladder=ladder, challenger=p[3], challenged=p[1])
    second = ladders.challenge_create(ladder=ladder, challenger=p[4], challenged=p[1])
    with pytest.raises(Conflict, match="declined 1 challenge in the last 30 days"):
        ladders.challenge_answer(challenge_id=second.pk, by=p[1], decision="decline")
    # After the cooldown the first challenger may try again.
    Challenge.objects.filter(pk=first.pk).update(answered_at=timezone.now() - timedelta(hours=25))
    assert ladders.challenge_create(ladder=ladder, challenger=p[3], challenged=p[1]).status == "pending"


def test_open_challenges_are_capped_and_never_doubled(
    position_ladder: tuple[Ladder, list[Player]],
) -> None:
    ladder, p = position_ladder
    Ladder.objects.filter(pk=ladder.pk).update(max_open_challenges=2)
    ladder.refresh_from_db()
    c = ladders.challenge_create(ladder=ladder, challenger=p[5], challenged=p[4])
    ladders.challenge_accept(challenge_id=c.pk, by=p[4])  # their game is running
    with pytest.raises(Conflict, match="open already"):
        ladders.challenge_create(ladder=ladder, challenger=p[5], challenged=p[4])
    ladders.challenge_create(ladder=ladder, challenger=p[5], challenged=p[3])
    with pytest.raises(Conflict, match="you have 2 open challenges"):
        ladders.challenge_create(ladder=ladder, challenger=p[5], challenged=p[2])
    ladders.challenge_create(ladder=ladder, challenger=p[1], challenged=p[0])
    ladders.challenge_create(ladder=ladder, challenger=p[2], challenged=p[0])
    with pytest.raises(Conflict, match="has 2 open challenges"):
        ladders.challenge_create(ladder=ladder, challenger=p[3], challenged=p[0])


def test_leaving_a_position_ladder_closes_the_gap(position_ladder: tuple[Ladder, list[Player]]) -> None:
    ladder, p = position_ladder
    ladders.ladder_leave(ladder=ladder, player=p[1])
    assert places(ladder) == [p[0].pk, p[2].pk, p[3].pk, p[4].pk, p[5].pk]
    assert sorted(LadderMember.objects.filter(ladder=ladder).values_list("position", flat=True)) == [
        1,
        2,
        3,
        4,
        5,
    ]
    ladders.ladder_join(ladder=ladder, player=p[1])
    assert places(ladder)[-1] == p[1].pk, "a returning member starts at the bottom"


def test_a_position_ladder_needs_tables_of_two(make_actor: Callable[..., Actor]) -> None:
    org = make_actor("xboss")
    league = league_create(organiser=as_organiser(org.player), name="X Club")
    with pytest.raises(Exception, match="tables of 2"):
        ladders.ladder_create(organiser=org.player, league=league, game="pacru", seats=3, kind="position")


# ----------------------------------------------------------------- the queue
def test_fairness_is_relative_to_equal_ratings_and_rejects_wide_spreads() -> None:
    even = [(25.0 + i, 2.0) for i in range(4)]
    assert ladders.fairness(game="pacru", ratings=[(25.0, 2.0)] * 4) == pytest.approx(1.0)
    assert ladders.fairness(game="pacru", ratings=even) >= ladders.FAIR_SHARE
    wide = [(25.0 + 14 * i / 3, 2.0) for i in range(4)]
    assert ladders.fairness(game="pacru", ratings=wide) < ladders.FAIR_SHARE, (
        "a μ spread of 14 at σ 2 is not fair"
    )
    # Uncertain ratings ask for less: the same spread among newcomers is fairer.
    assert ladders.fairness(game="pacru", ratings=[(mu, 8.3) for mu, _ in wide]) > ladders.fairness(
        game="pacru", ratings=wide
    )


def test_one_unmatched_player_does_not_block_a_fair_table_behind_them() -> None:
    waiting = [(1, (60.0, 1.0), 30.0), (2, (25.0, 1.0), 20.0), (3, (25.0, 1.0), 10.0), (4, (25.0, 1.0), 5.0)]
    assert ladders.plan_queue_tables(game="azacru", seats=3, waiting=waiting, wait_limit=120) == [[2, 3, 4]]
    # Once the outlier has waited long enough, they are seated first, fair or not.
    late = [(1, (60.0, 1.0), 130.0), *waiting[1:]]
    tables = ladders.plan_queue_tables(game="azacru", seats=3, waiting=late, wait_limit=120)
    assert len(tables) == 1 and tables[0][0] == 1


def test_the_queue_forms_the_fair_table_behind_an_outlier(make_actor: Callable[..., Actor]) -> None:
    org = make_actor("qqboss")
    league = league_create(organiser=as_organiser(org.player), name="Queue Two")
    ladder = ladders.ladder_create(organiser=org.player, league=league, game="azacru", seats=3)
    people = [make_actor(f"w{i}").player for i in range(4)]
    for p, mu in zip(people, [70, 25, 25, 25], strict=True):
        ladders.ladder_join(ladder=ladder, player=p)
        rate(p, "azacru", mu=mu, sigma=1.0)
        ladders.queue_join(ladder=ladder, player=p)
    made = ladders.matchmake(ladder=ladder)
    assert len(made) == 1
    assert sorted(made[0].seats.values_list("player_id", flat=True)) == sorted(p.pk for p in people[1:])
    assert list(QueueEntry.objects.values_list("player_id", flat=True)) == [people[0].pk]


def test_a_position_ladder_through_the_api(make_actor: Callable[..., Actor]) -> None:
    org = make_actor("apiboss")
    league_create(organiser=as_organiser(org.player), name="Api Club", slug="api-club")
    r = org.post("/api/v1/ladders/", {"league": "api-club", "game": "pacru", "kind": "position"})
    assert r.status_code == 201, r.json()
    body = r.json()
    assert body["kind"] == "position"
    bad = org.post(
        "/api/v1/ladders/", {"league": "api-club", "game": "azacru", "seats": 3, "kind": "position"}
    )
    assert bad.status_code == 400 and "tables of 2" in bad.json()["detail"]
