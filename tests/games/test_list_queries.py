"""Lists cost the same number of queries however many rows they show (no query per row)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services

from .conftest import Actor, started_table


def queries(call: Callable[[], Any]) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = call()
    assert response.status_code == 200
    return len(captured)


def add_tables(actors: list[Actor], n: int) -> None:
    for i in range(n):
        a, b = actors[i % len(actors)], actors[(i + 1) % len(actors)]
        table = started_table([a, b], game=("pacru", "shacru", "azacru")[i % 3])
        if i % 2:
            services.game_resign(table_id=table.pk, player=b.player)
        services.table_create(creator=a.player, game="pacru", players=3)


def test_the_table_list_and_the_lobby_do_not_query_per_table(make_actor: Callable[..., Actor]) -> None:
    actors = [make_actor(f"q{i}") for i in range(4)]
    me = actors[0]
    add_tables(actors, 2)
    me.get("/api/v1/tables/")  # the token is looked up once, then cached
    small = (
        queries(lambda: me.get("/api/v1/tables/")),
        queries(lambda: me.get("/api/v1/players/")),
        queries(lambda: me.client.get("/")),
    )
    add_tables(actors, 8)
    large = (
        queries(lambda: me.get("/api/v1/tables/")),
        queries(lambda: me.get("/api/v1/players/")),
        queries(lambda: me.client.get("/")),
    )
    assert len(me.get("/api/v1/tables/").json()["results"]) == 20
    assert small == large
