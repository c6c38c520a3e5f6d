"""The quick pairing API: ``GET /api/v1/quick-pairing/`` lists the pools, ``POST`` joins one (by
id, or by game, players and time control as listed), ``DELETE`` leaves; refusals change nothing."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from games import services as games
from tournaments.models import Pool, PoolEntry, PoolTable

from ..games.conftest import Actor

pytestmark = pytest.mark.django_db

URL = "/api/v1/quick-pairing/"
CLOCK = {"kind": "fischer", "base": 420.0, "increment": 4.0}


@pytest.fixture
def pool() -> Pool:
    return Pool.objects.create(game="azacru", players=3, time_control=CLOCK, rated=False, position=0)


def listed(data: list[dict[str, Any]], pool: Pool) -> dict[str, Any]:
    return next(row for row in data if row["id"] == pool.pk)


def test_anyone_lists_the_active_pools_with_waits(pool: Pool) -> None:
    Pool.objects.create(game="pacru", players=2, time_control=CLOCK, active=False)
    ann = Actor("ann")
    ann.post(URL, {"pool": pool.pk})
    table = games.table_create(creator=ann.player, game="azacru", players=2, rated=False, join=False)
    PoolTable.objects.create(pool=pool, table=table, wait_seconds=12.5, max_wait_seconds=20)
    data = APIClient().get(URL).json()
    assert all(Pool.objects.get(pk=row["id"]).active for row in data)
    row = listed(data, pool)
    assert row == {
        "id": pool.pk,
        "game": "azacru",
        "players": 3,
        "time_control": CLOCK,
        "time_control_text": pool.time_control_text,
        "rated": False,
        "waiting": 1,
        "typical_wait": 12.5,
    }
    # A signed-in player also reads where they wait.
    mine = ann.get(URL).json()
    assert listed(mine, pool)["joined"] is True
    assert sum(r["joined"] for r in mine) == 1
    other = next(r for r in mine if r["id"] != pool.pk)
    assert other["typical_wait"] is None


def test_join_by_description_leave_and_switch(pool: Pool) -> None:
    ann = Actor("ann")
    r = ann.post(URL, {"game": "azacru", "players": 3, "time_control": {**CLOCK, "base": 420}})
    assert r.status_code == 200, r.content
    assert r.json()["joined"] is True and r.json()["waiting"] == 1
    other = Pool.objects.create(game="azacru", players=2, time_control=CLOCK)
    assert ann.post(URL, {"pool": other.pk}).status_code == 200
    assert list(PoolEntry.objects.values_list("pool_id", flat=True)) == [other.pk]
    assert ann.client.delete(URL).status_code == 204
    assert not PoolEntry.objects.exists()
    assert ann.client.delete(URL).status_code == 204  # waiting nowhere: nothing to do


@pytest.mark.parametrize(
    "body,code",
    [
        ({}, 400),
        ({"game": "azacru", "players": 3}, 400),
        ({"pool": 1, "game": "azacru"}, 400),
        ({"game": "azacru", "players": 3, "time_control": {"kind": "fischer", "base": -1}}, 400),
        ({"game": "azacru", "players": 3, "time_control": {"kind": "fischer", "base": 11}}, 404),
        ({"pool": 999_999}, 404),
    ],
)
def test_bad_joins_are_refused_and_change_nothing(pool: Pool, body: dict[str, Any], code: int) -> None:
    ann = Actor("ann")
    ann.post(URL, {"pool": pool.pk})
    r = ann.post(URL, body)
    assert r.status_code == code, r.content
    assert r.json()["detail"]
    assert list(PoolEntry.objects.values_list("player_id", "pool_id")) == [(ann.player.pk, pool.pk)]


def test_anonymous_and_guests_cannot_join(pool: Pool) -> None:
    assert APIClient().post(URL, {"pool": pool.pk}, format="json").status_code == 401
    assert APIClient().delete(URL).status_code == 401
    guest = games.guest_create()
    client = APIClient()
    client.force_authenticate(guest.user)
    r = client.post(URL, {"pool": pool.pk}, format="json")
    assert r.status_code == 403 and "bots only" in r.json()["detail"]
    assert not PoolEntry.objects.exists()


def test_a_player_at_a_live_table_is_refused_with_its_id(pool: Pool) -> None:
    ann = Actor("ann")
    table = games.table_create(creator=ann.player, game="azacru", players=2, rated=False, time_control=CLOCK)
    games.seat_join(table_id=table.pk, player=Actor("bea").player)  # full: the game is on
    r = ann.post(URL, {"pool": pool.pk})
    assert r.status_code == 409 and str(table.pk) in r.json()["detail"]
    assert not PoolEntry.objects.exists()
