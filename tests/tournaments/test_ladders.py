"""Ladders: order by rating, challenge reach, expiry, and the matchmaking queue."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Player, Table
from ratings.environment import conservative
from ratings.models import Rating
from tournaments import ladders
from tournaments.competitions.services import league_create
from tournaments.ladders.selectors import ladder_order
from tournaments.models import Challenge, Ladder, QueueEntry

from ..games.conftest import Actor, as_organiser


def rate(player: Player, game: str, mu: float, sigma: float = 2.0) -> None:
    Rating.objects.create(
        player=player, game=game, mu=mu, sigma=sigma, conservative=conservative(mu, sigma), games=5
    )


@pytest.fixture
def setup(make_actor: Callable[..., Actor]) -> tuple[Actor, list[Actor], Ladder]:
    org = make_actor("boss")
    league = league_create(organiser=as_organiser(org.player), name="Ladder Club")
    ladder = ladders.ladder_create(organiser=org.player, league=league, game="pacru", challenge_days=1)
    members = [make_actor(f"m{i}") for i in range(14)]
    for i, m in enumerate(members):
        ladders.ladder_join(ladder=ladder, player=m.player)
        if i < 12:
            rate(m.player, "pacru", mu=40 - i)  # m0 best … m11; m12, m13 unrated
    return org, members, ladder


def test_the_order_is_by_conservative_rating_then_the_unrated(
    setup: tuple[Actor, list[Actor], Ladder],
) -> None:
    _, members, ladder = setup
    order = ladder_order(ladder)
    assert [row["player"] for row in order] == [m.player.pk for m in members]
    assert order[0]["rating"] == pytest.approx(34.0) and order[-1]["rating"] is None


def test_challenge_reach_and_answers(setup: tuple[Actor, list[Actor], Ladder]) -> None:
    _, members, ladder = setup
    bottom = members[13].player  # place 14: reach max(10, 40% of 13 = 5) = 10 places → up to place 4
    assert ladders.reach(ladder=ladder, position=14) == 10 and ladders.reach(ladder=ladder, position=40) == 15
    with pytest.raises(Exception, match="up to 10 places"):
        ladders.challenge_create(ladder=ladder, challenger=bottom, challenged=members[2].player)
    c = ladders.challenge_create(ladder=ladder, challenger=bottom, challenged=members[3].player)
    with pytest.raises(Exception, match="only players above"):
        ladders.challenge_create(ladder=ladder, challenger=members[3].player, challenged=bottom)
    with pytest.raises(Exception, match="already"):
        ladders.challenge_create(ladder=ladder, challenger=bottom, challenged=members[3].player)
    with pytest.raises(Exception, match="only the challenged"):
        ladders.challenge_accept(challenge_id=c.pk, by=bottom)
    table = ladders.challenge_accept(challenge_id=c.pk, by=members[3].player)
    assert table.status == Table.Status.ACTIVE and table.rated
    assert dict(table.seats.values_list("number", "player_id")) == {1: bottom.pk, 2: members[3].player.pk}
    c2 = ladders.challenge_create(ladder=ladder, challenger=members[5].player, challenged=members[4].player)
    assert (
        ladders.challenge_answer(challenge_id=c2.pk, by=members[4].player, decision="decline").status
        == "declined"
    )


def test_unanswered_challenges_expire(setup: tuple[Actor, list[Actor], Ladder]) -> None:
    _, members, ladder = setup
    c = ladders.challenge_create(ladder=ladder, challenger=members[1].player, challenged=members[0].player)
    assert ladders.housekeeping()["expired"] == 0
    Challenge.objects.filter(pk=c.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert ladders.housekeeping()["expired"] == 1
    with pytest.raises(Exception, match="expired"):
        ladders.challenge_accept(challenge_id=c.pk, by=members[0].player)


def test_the_queue_forms_fair_tables_and_bounds_the_wait(make_actor: Callable[..., Actor]) -> None:
    org = make_actor("qboss")
    league = league_create(organiser=as_organiser(org.player), name="Queue Club")
    ladder = ladders.ladder_create(organiser=org.player, league=league, game="azacru", seats=3)
    people = [make_actor(f"q{i}").player for i in range(7)]
    for p in people:
        ladders.ladder_join(ladder=ladder, player=p)
    for p, mu in zip(people, [25, 25, 25, 60, 5, 45, 25], strict=True):
        rate(p, "azacru", mu=mu, sigma=1.0)
    for p in people[:4]:
        ladders.queue_join(ladder=ladder, player=p)
    made = ladders.matchmake(ladder=ladder)
    assert len(made) == 1 and sorted(made[0].seats.values_list("player_id", flat=True)) == sorted(
        p.pk for p in people[:3]
    ), "the three equal players form the table; the outlier waits"
    assert list(QueueEntry.objects.values_list("player_id", flat=True)) == [people[3].pk]
    ladders.queue_join(ladder=ladder, player=people[4])
    ladders.queue_join(ladder=ladder, player=people[5])
    assert ladders.matchmake(ladder=ladder) == [], "too unequal, and nobody has waited long"
    later = timezone.now() + timedelta(seconds=ladder.queue_wait_seconds + 1)
    assert len(ladders.matchmake(ladder=ladder, now=later)) == 1, "after the bounded wait any table will do"
    assert not QueueEntry.objects.exists()
    with pytest.raises(Exception, match="already"):
        ladders.ladder_join(ladder=ladder, player=people[0])


def test_the_ladder_api_and_page(setup: tuple[Actor, list[Actor], Ladder], anon: object) -> None:
    _, members, ladder = setup
    r = members[5].post(f"/api/v1/ladders/{ladder.pk}/challenge/", {"player": members[1].player.pk})
    assert r.status_code == 201, r.json()
    accepted = members[1].post(f"/api/v1/challenges/{r.json()['id']}/accept/")
    assert accepted.status_code == 200 and accepted.json()["table"]
    body = members[0].get(f"/api/v1/ladders/{ladder.pk}/").json()
    assert body["order"][0]["player"] == members[0].player.pk
    assert members[0].post(f"/api/v1/ladders/{ladder.pk}/queue/").status_code == 409
    page = members[0].client.get(f"/ladders/{ladder.pk}/")
    assert page.status_code == 200 and members[0].player.display_name in page.content.decode()
