"""Joining and leaving quick pairing pools (``tournaments.pools.services``): one pool at a time,
switching atomically, and every refusal changing nothing."""

from __future__ import annotations

from typing import Any

import pytest

from common.errors import Conflict, Forbidden, NotFound
from games import services as games
from games.models import Player
from tournaments.models import Pool, PoolEntry, PoolTable
from tournaments.pools import selectors, services

from ..games.conftest import Actor

pytestmark = pytest.mark.django_db

FIVE = {"kind": "fischer", "base": 300.0, "increment": 3.0}


def make_pool(**kw: Any) -> Pool:
    kw = {"game": "shacru", "players": 3, "time_control": FIVE, "rated": True, **kw}
    return Pool.objects.create(**kw)


def entries() -> list[tuple[int, int]]:
    return sorted(PoolEntry.objects.values_list("player_id", "pool_id"))


def test_join_waits_in_the_pool_and_joining_again_keeps_the_place() -> None:
    pool, ann = make_pool(), Actor("ann").player
    first = services.pool_join(player=ann, pool_id=pool.pk)
    again = services.pool_join(player=ann, pool_id=pool.pk)
    assert entries() == [(ann.pk, pool.pk)]
    assert again.joined == first.joined


def test_joining_another_pool_leaves_the_first() -> None:
    a, b, ann = make_pool(), make_pool(players=2), Actor("ann").player
    services.pool_join(player=ann, pool_id=a.pk)
    services.pool_join(player=ann, pool_id=b.pk)
    assert entries() == [(ann.pk, b.pk)]
    rows = {r.id: r for r in selectors.pools_for(ann)}
    assert rows[a.pk].waiting == 0 and rows[a.pk].joined is False
    assert rows[b.pk].waiting == 1 and rows[b.pk].joined is True


def test_leave_stops_waiting_and_leaving_twice_changes_nothing() -> None:
    pool, ann = make_pool(), Actor("ann").player
    services.pool_join(player=ann, pool_id=pool.pk)
    assert services.pool_leave(player=ann) == pool
    assert services.pool_leave(player=ann) is None
    assert entries() == []


def test_a_guest_is_refused_and_nothing_changes() -> None:
    pool = make_pool(rated=False)
    guest = games.guest_create()
    with pytest.raises(Forbidden, match="guests play against bots only"):
        services.pool_join(player=guest, pool_id=pool.pk)
    assert entries() == []


def test_an_inactive_or_missing_pool_is_refused() -> None:
    pool, ann = make_pool(active=False), Actor("ann").player
    with pytest.raises(NotFound):
        services.pool_join(player=ann, pool_id=pool.pk)
    with pytest.raises(NotFound):
        services.pool_join(player=ann, pool_id=pool.pk + 1000)
    assert entries() == []


def test_a_rated_pool_asks_for_a_verified_email_where_the_site_does(settings: Any) -> None:
    settings.RATED_NEEDS_VERIFIED_EMAIL = True
    rated, casual = make_pool(), make_pool(rated=False)
    ann = Actor("ann").player
    other = make_pool(players=2, rated=False)
    services.pool_join(player=ann, pool_id=other.pk)
    with pytest.raises(Forbidden, match="verify your e-mail"):
        services.pool_join(player=ann, pool_id=rated.pk)
    assert entries() == [(ann.pk, other.pk)]  # the refused switch left the first pool alone
    services.pool_join(player=ann, pool_id=casual.pk)
    Player.objects.filter(pk=ann.pk).update(email_verified=True)
    ann.refresh_from_db()
    services.pool_join(player=ann, pool_id=rated.pk)
    assert entries() == [(ann.pk, rated.pk)]


def test_a_player_in_a_live_game_is_refused_but_untimed_correspondence_and_open_tables_do_not_count() -> None:
    pool, ann, ben = make_pool(), Actor("ann").player, Actor("ben").player
    corr = games.table_create(
        creator=ann, game="shacru", players=2, rated=False, time_control={"kind": "correspondence", "days": 3}
    )
    games.seat_join(table_id=corr.pk, player=ben)
    services.pool_join(player=ann, pool_id=pool.pk)
    services.pool_leave(player=ann)
    untimed = games.table_create(creator=ann, game="shacru", players=2, rated=False)
    games.seat_join(table_id=untimed.pk, player=ben)
    services.pool_join(player=ann, pool_id=pool.pk)  # an untimed game does not hold her either
    services.pool_leave(player=ann)
    live = games.table_create(creator=ann, game="shacru", players=2, rated=False, time_control=FIVE)
    services.pool_join(player=ann, pool_id=pool.pk)  # a table waiting for players does not count
    services.pool_leave(player=ann)
    games.seat_join(table_id=live.pk, player=Actor("cid").player)
    with pytest.raises(Conflict, match=f"you are playing at table {live.pk}"):
        services.pool_join(player=ann, pool_id=pool.pk)
    assert entries() == []
    games.game_resign(table_id=live.pk, player=ann)
    services.pool_join(player=ann, pool_id=pool.pk)
    assert entries() == [(ann.pk, pool.pk)]


def test_find_pool_compares_clocks_normalised() -> None:
    clock = {"kind": "fischer", "base": 420.0, "increment": 4.0}
    pool = make_pool(time_control=clock)
    same = {"kind": "fischer", "base": 420, "increment": 4}
    assert services.find_pool(game="shacru", players=3, time_control=same) == pool
    with pytest.raises(NotFound):
        services.find_pool(game="shacru", players=3, time_control={"kind": "fischer", "base": 420})
    with pytest.raises(NotFound):
        services.find_pool(game="pacru", players=3, time_control=clock)


def test_typical_wait_is_the_median_of_recent_tables_or_none() -> None:
    pool, quiet = make_pool(), make_pool(players=4)
    ann = Actor("ann").player
    for wait in (10.0, 40.0, 20.0):
        table = games.table_create(creator=ann, game="shacru", players=2, rated=False, join=False)
        PoolTable.objects.create(pool=pool, table=table, wait_seconds=wait, max_wait_seconds=wait)
    rows = {r.id: r for r in selectors.pools_for(None)}
    assert rows[pool.pk].typical_wait == 20.0
    assert rows[quiet.pk].typical_wait is None
    assert rows[pool.pk].joined is None
