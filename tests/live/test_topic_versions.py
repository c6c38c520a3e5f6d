"""Without Redis, the hub reads a topic's version to learn that its pages changed: each must
change when what its pages show changes, and stay put otherwise."""

from __future__ import annotations

from typing import Any

import pytest

from games import services as games
from live.reads import _topic_version, parse_topic
from tests.games.conftest import Actor, as_organiser, started_table
from tournaments import ladders
from tournaments.competitions import services as clubs
from tournaments.models import Pool
from tournaments.pools import services as pools

# The reads close stale connections (as the hub's threads must): the tests commit, like the hub sees.
pytestmark = pytest.mark.django_db(transaction=True)


def test_the_lobby_version_follows_tables(alice: Actor, bob: Actor) -> None:
    before = _topic_version("lobby")
    assert _topic_version("lobby") == before
    table = games.table_create(creator=alice.player, game="pacru", players=2)
    opened = _topic_version("lobby")
    assert opened != before
    games.seat_join(table_id=table.pk, player=bob.player)
    assert _topic_version("lobby") != opened


def test_the_lobby_version_follows_who_waits_in_the_pools(alice: Actor, bob: Actor) -> None:
    """Without Redis, "Play now" shows each pool's waiting count: the lobby's version follows it."""
    pool = Pool.objects.create(game="pacru", players=2, time_control={}, rated=False)
    before = _topic_version("lobby")
    pools.pool_join(player=alice.player, pool_id=pool.pk)
    joined = _topic_version("lobby")
    assert joined != before
    pools.pool_leave(player=alice.player)
    assert _topic_version("lobby") != joined


def test_the_player_version_follows_their_tables_and_challenges(alice: Actor, bob: Actor) -> None:
    topic = f"player:{alice.player.pk}"
    before = _topic_version(topic)
    started_table([alice, bob])
    assert _topic_version(topic) != before
    assert _topic_version("player:999999") == "gone"


def test_event_and_ladder_versions(alice: Actor, bob: Actor) -> None:
    org = as_organiser(alice.player)
    league = clubs.league_create(organiser=org, name="Club")
    t = clubs.tournament_create(organiser=org, league=league, name="Open", game="pacru", seats=2, rounds=1)
    event = f"tournament:{t.pk}"
    before = _topic_version(event)
    clubs.register(tournament_id=t.pk, player=bob.player)
    assert _topic_version(event) != before
    ladder = ladders.ladder_create(organiser=org, league=league, game="pacru", kind="position")
    for p in (alice, bob):
        ladders.ladder_join(ladder=ladder, player=p.player)
    topic = f"ladder:{ladder.pk}"
    joined = _topic_version(topic)
    first = ladder.members.order_by("position").first()
    assert first is not None
    top, below = (alice, bob) if first.player_id == alice.player.pk else (bob, alice)
    ladders.challenge_create(ladder=ladder, challenger=below.player, challenged=top.player)
    assert _topic_version(topic) != joined


@pytest.mark.parametrize(
    "topic,ok",
    [
        ("lobby", True),
        ("lobby:1", False),
        ("player:3", True),
        ("ladder:x", False),
        ("table:1", False),
        ("", False),
        # ASCII digits as the pages write them, within 64 bits: one channel per topic, no traceback.
        ("player:\u00b2", False),
        ("tournament:\u0663", False),
        ("ladder:05", False),
        ("ladder:+5", False),
        ("ladder: 5", False),
        (f"player:{2**63 - 1}", True),
        (f"player:{2**63}", False),
        ("player:" + "9" * 40, False),
    ],
)
def test_only_known_topics_are_valid(topic: str, ok: bool, **_: Any) -> None:
    assert (parse_topic(topic) is not None) is ok
