"""The pools' pairing wave on the database (``tournaments.pools.wave.sweep``), with an injected
clock: tables of the pool's size, rated as the pool, the seated players' entries gone and their
waits kept; blocks and last tables read from the rows; who may no longer wait let go; two waves
never seat a player twice; and after the commit each seated player's pages hear of it (live
topics) and each is told (a notification)."""

from __future__ import annotations

import threading
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from accounts import kinds
from accounts.models import Notification
from games import services as games
from games.models import Block, Player, Seat, Table
from ratings.models import Rating
from tournaments import play_now
from tournaments.models import Pool, PoolEntry, PoolTable
from tournaments.pools import services, wave

from ..games.conftest import Actor
from .test_queue_table_ready import published

pytestmark = pytest.mark.django_db

FIVE = {"kind": "fischer", "base": 300.0, "increment": 3.0}


def at(seconds: float) -> datetime:
    return timezone.now().replace(microsecond=0) + timedelta(seconds=seconds)


def make_pool(**kw: Any) -> Pool:
    return Pool.objects.create(**{"game": "shacru", "players": 3, "time_control": FIVE, "rated": True, **kw})


def players(*names: str) -> list[Player]:
    return [Actor(n).player for n in names]


def wait_in(pool: Pool, people: list[Player], joined: datetime) -> None:
    for p in people:
        services.pool_join(player=p, pool_id=pool.pk)
    PoolEntry.objects.filter(player__in=people).update(joined=joined)


def seated_together(table: Table) -> set[int]:
    return set(Seat.objects.filter(table=table).values_list("player_id", flat=True))


def test_a_wave_seats_tables_of_the_pools_size_rated_as_the_pool() -> None:
    start = at(0)
    rated, casual = make_pool(), make_pool(players=2, rated=False)
    six = players("ann", "ben", "cat", "dan", "eve", "fay")
    two = players("gus", "hal")
    wait_in(rated, six, start)
    wait_in(casual, two, start + timedelta(seconds=4))
    done = wave.sweep(now=start + timedelta(seconds=10))
    assert done == {"tables": 3, "seated": 8, "dropped": 0}
    assert PoolEntry.objects.count() == 0
    made = {pt.table_id: pt for pt in PoolTable.objects.all()}
    tables = Table.objects.filter(pk__in=made)
    assert sorted((t.players, t.rated, t.status) for t in tables) == [
        (2, False, "active"),
        (3, True, "active"),
        (3, True, "active"),
    ]
    everyone = [p for t in tables for p in seated_together(t)]
    assert sorted(everyone) == sorted(p.pk for p in six + two)
    for t in tables:
        assert t.time_control == made[t.pk].pool.time_control
        assert t.game == "shacru"
    waits = sorted((pt.pool_id, pt.wait_seconds, pt.max_wait_seconds) for pt in made.values())
    assert waits == [(rated.pk, 10.0, 10.0), (rated.pk, 10.0, 10.0), (casual.pk, 6.0, 6.0)]


def test_too_few_waiting_wait_for_the_next_wave() -> None:
    pool = make_pool(players=4)
    three = players("ann", "ben", "cat")
    wait_in(pool, three, at(0))
    assert wave.sweep(now=at(5)) == {"tables": 0, "seated": 0, "dropped": 0}
    assert PoolEntry.objects.count() == 3


def test_the_rating_range_widens_with_the_wait() -> None:
    pool = make_pool(players=2)
    ann, ben = players("ann", "ben")
    Rating.objects.create(player=ann, game="shacru", mu=25.0, sigma=2.0, conservative=19.0)
    Rating.objects.create(player=ben, game="shacru", mu=30.0, sigma=2.0, conservative=24.0)  # 300 apart
    wait_in(pool, [ann, ben], at(0))
    assert wave.sweep(now=at(2))["tables"] == 0
    assert wave.sweep(now=at(60))["tables"] == 1


def test_blocked_players_are_not_seated_together() -> None:
    pool = make_pool(players=2)
    ann, ben, cat, dan = players("ann", "ben", "cat", "dan")
    Block.objects.create(player=ben, blocked=ann)
    Block.objects.create(player=cat, blocked=dan)
    wait_in(pool, [ann], at(0))
    wait_in(pool, [ben, cat, dan], at(1))
    assert wave.sweep(now=at(10))["tables"] == 2
    for table in Table.objects.filter(pool_table__isnull=False):
        assert seated_together(table) not in ({ann.pk, ben.pk}, {cat.pk, dan.pk})


def test_no_immediate_rematch_when_another_table_exists() -> None:
    pool = make_pool(players=2)
    ann, ben, cat, dan = players("ann", "ben", "cat", "dan")
    # ann and ben just played each other (their last table), cat and dan too.
    for a, b in ((ann, ben), (cat, dan)):
        t = games.table_create(creator=a, game="shacru", players=2, rated=False)
        games.seat_join(table_id=t.pk, player=b)
        games.game_resign(table_id=t.pk, player=a)
    wait_in(pool, [ann, ben, cat, dan], at(0))
    wave.sweep(now=at(3))
    pairs = sorted(sorted(seated_together(t)) for t in Table.objects.filter(pool_table__isnull=False))
    assert {ann.pk, ben.pk} not in map(set, pairs) and {cat.pk, dan.pk} not in map(set, pairs)
    assert len(pairs) == 2


def test_a_rematch_is_made_when_it_is_the_only_table() -> None:
    pool = make_pool(players=2)
    ann, ben = players("ann", "ben")
    t = games.table_create(creator=ann, game="shacru", players=2, rated=False)
    games.seat_join(table_id=t.pk, player=ben)
    games.game_resign(table_id=t.pk, player=ann)
    wait_in(pool, [ann, ben], at(0))
    assert wave.sweep(now=at(3))["tables"] == 1


def test_a_second_wave_seats_nobody_twice() -> None:
    pool = make_pool()
    wait_in(pool, players("ann", "ben", "cat", "dan"), at(0))
    first = wave.sweep(now=at(5))
    second = wave.sweep(now=at(5))
    assert first["seated"] == 3 and second == {"tables": 0, "seated": 0, "dropped": 0}
    assert Seat.objects.filter(table__pool_table__isnull=False).count() == 3
    assert PoolEntry.objects.count() == 1


def test_who_may_no_longer_wait_is_let_go() -> None:
    pool, closed = make_pool(players=2), make_pool(players=4)
    ann, ben, cat, dan = players("ann", "ben", "cat", "dan")
    wait_in(pool, [ann], at(-services.ENTRY_LIMIT_SECONDS - 60))  # waited past the limit
    wait_in(pool, [ben], at(0))
    wait_in(closed, [cat], at(0))
    Pool.objects.filter(pk=closed.pk).update(active=False)
    # dan waits, then sits down at a live table of his own
    wait_in(pool, [dan], at(0))
    live = games.table_create(creator=dan, game="shacru", players=2, rated=False, time_control=FIVE)
    games.seat_join(table_id=live.pk, player=players("eli")[0])
    done = wave.sweep(now=at(5))
    assert done == {"tables": 0, "seated": 0, "dropped": 3}
    assert list(PoolEntry.objects.values_list("player_id", flat=True)) == [ben.pk]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_waves_at_once_seat_every_player_once() -> None:
    pool = make_pool(players=2)
    wait_in(pool, players("ann", "ben", "cat", "dan", "eve", "fay"), at(0))
    barrier = threading.Barrier(2)
    results: list[dict[str, int]] = []

    def run() -> None:
        try:
            barrier.wait()
            results.append(wave.sweep(now=at(5)))
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(r["tables"] for r in results) == 3
    seated = list(Seat.objects.values_list("player_id", flat=True))
    assert len(seated) == len(set(seated)) == 6


def test_seating_is_published_and_each_player_told_after_the_commit(
    settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    pool = make_pool(rated=False)
    three = players("ann", "ben", "cat")
    wait_in(pool, three, at(0))
    channels = ["live:lobby", *(f"live:player:{p.pk}" for p in three)]

    def seat() -> None:
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            assert wave.sweep(now=at(4))["tables"] == 1
        assert not Notification.objects.filter(kind="pool_table").exists()
        for callback in callbacks:
            callback()

    _, heard = published(channels, seat, settings)
    assert set(channels) <= heard, f"not published: {set(channels) - heard}"
    table = Table.objects.get(pool_table__pool=pool)
    notices = {n.user_id: n for n in Notification.objects.filter(kind="pool_table")}
    assert set(notices) == {p.user_id for p in three}
    n = notices[three[0].user_id]
    assert n.url == f"/tables/{table.pk}/"
    assert kinds.title(n.kind, n.params) == "Your Shacru table is ready (quick pairing)"
    assert kinds.detail(n.kind, n.params).startswith("Casual, ")
    assert f"(table {table.pk})" in kinds.detail(n.kind, n.params)


def test_the_play_now_wave_runs_the_pools() -> None:
    pool = make_pool(players=2)
    wait_in(pool, players("ann", "ben"), at(0))
    done = play_now.wave(now=at(3))
    assert done["pools.tables"] == 1 and done["pools.seated"] == 2
