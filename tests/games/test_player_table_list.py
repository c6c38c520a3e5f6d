"""``GET /api/v1/tables/?player=<id>`` reads a page off the player's seats (issue 33).

A page's ids come from ``seat_player_table_idx`` first, newest table first, with the cursor's
bound and the ``LIMIT`` inside that subquery, each seat's table checked against the list's other
filters; so a player whose games are all old does not make PostgreSQL walk everyone's newer
tables. The answers stay those of the plain join paged directly: the same pages, order and links.
"""

from __future__ import annotations

import base64
import itertools
import json
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

import pytest
from django.db import connection
from django.db.models import Count
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

import engine
from games import apis, services
from games.models import Player, Seat, Table

from .conftest import Actor, started_table


def newer_tables(players: list[Player], n: int) -> None:
    """``n`` tables of ``players`` written straight to the database: every status, game and size,
    two seats each (an open table of three has a free seat)."""
    position = engine.new_game("pacru", 2).to_dict()
    now = timezone.now()
    kinds = list(itertools.product(("open", "active", "finished"), ("pacru", "shacru", "azacru"), (2, 3)))
    tables = Table.objects.bulk_create(
        Table(
            game=kinds[i % len(kinds)][1],
            edition="302" if kinds[i % len(kinds)][1] == "pacru" else "",
            players=kinds[i % len(kinds)][2],
            status=kinds[i % len(kinds)][0],
            rated=bool(i % 2),
            created_by=players[i % len(players)],
            position=None if kinds[i % len(kinds)][0] == "open" else position,
            started_at=None if kinds[i % len(kinds)][0] == "open" else now,
            finished_at=now if kinds[i % len(kinds)][0] == "finished" else None,
        )
        for i in range(n)
    )
    Seat.objects.bulk_create(
        Seat(table=t, number=number, player=players[(i + number - 1) % len(players)], colour=colour)
        for i, t in enumerate(tables)
        for number, colour in ((1, "red"), (2, "black"))
    )


def my_tables(me: Actor, a: Actor, b: Actor) -> None:
    """The player's tables of every kind, through the services."""
    for i, game in enumerate(("pacru", "shacru", "azacru")):
        started_table([me, a], game=game, rated=bool(i % 2))  # active
        done = started_table([a, me], game=game)
        services.game_resign(table_id=done.pk, player=me.player)  # finished
        three = services.table_create(creator=me.player, game=game, players=3, rated=False)
        services.seat_join(table_id=three.pk, player=b.player)  # open, one seat free
        services.table_create(creator=me.player, game=game, players=2)  # open, alone


#: Every combination of the list's other filters (``open_seats=false`` filters nothing).
FILTERS = [
    {k: v for k, v in zip(("status", "game", "open_seats", "players", "rated"), values, strict=True) if v}
    for values in itertools.product(
        ("", "open", "active", "finished"),
        ("", "pacru", "azacru"),
        ("", "true", "false"),
        ("", "3"),
        ("", "false"),
    )
]


def reference_ids(player: Player, filters: dict[str, str]) -> list[int]:
    """The ids the list must show, newest first, by a plain query."""
    qs = Table.objects.filter(seats__player=player)
    for name in ("status", "game", "players"):
        if name in filters:
            qs = qs.filter(**{name: filters[name]})
    if "rated" in filters:
        qs = qs.filter(rated=filters["rated"] == "true")
    ids = list(qs.order_by("-id").values_list("id", flat=True))
    if filters.get("open_seats") == "true":
        tables = Table.objects.filter(status="open").annotate(n=Count("seats"))
        free = {t.pk for t in tables if t.n < t.players}  # type: ignore[attr-defined]
        ids = [i for i in ids if i in free]
    return ids


def walk(actor: Actor, url: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Every page from ``url`` along ``next``; and each page's ``previous`` page."""
    forward: list[dict[str, Any]] = []
    back: list[dict[str, Any]] = []
    while url:
        body = actor.get(url).json()
        forward.append(body)
        if body["previous"]:
            back.append(actor.get(body["previous"]).json())
        url = body["next"]
        assert len(forward) < 30, "the walk does not end"
    return forward, back


def plain_join(monkeypatch: pytest.MonkeyPatch) -> None:
    """The list as it was: the join, paged directly by the cursor (the reference)."""
    monkeypatch.setattr(apis, "paged_off", lambda queryset, **_kw: queryset)


def test_the_pages_are_those_of_the_plain_join_for_every_filter(
    make_actor: Callable[..., Actor], monkeypatch: pytest.MonkeyPatch
) -> None:
    me, a, b = make_actor("pl0"), make_actor("pl1"), make_actor("pl2")
    my_tables(me, a, b)  # old games of every kind
    others = [a.player, b.player] + [make_actor(f"pl{i}").player for i in range(3, 8)]
    newer_tables(others, 150)  # many newer tables of the others
    started_table([b, me], game="pacru")  # and one newer game of the player
    mine = reference_ids(me.player, {})
    assert len(mine) == 13 and Table.objects.count() == 163
    base = f"/api/v1/tables/?player={me.player.pk}&limit=2"
    for filters in FILTERS:
        url = f"{base}&{urlencode(filters)}" if filters else base
        forward, back = walk(me, url)
        expected = reference_ids(me.player, filters)
        pages = [[row["id"] for row in body["results"]] for body in forward]
        assert pages == ([expected[i : i + 2] for i in range(0, len(expected), 2)] or [[]]), filters
        assert [body["results"] for body in back] == [body["results"] for body in forward[:-1]], filters
        with monkeypatch.context() as patch:
            plain_join(patch)
            assert walk(me, url) == (forward, back), filters  # the same rows, order and links
    # cursors with an offset, or reversed, as a client might forge them
    for forged in (f"o=1&p={mine[4]}", f"o=2&r=1&p={mine[4]}", f"r=1&p={mine[-1]}", "o=3", "r=1"):
        url = f"{base}&cursor={base64.b64encode(forged.encode()).decode()}"
        body = me.get(url).json()
        with monkeypatch.context() as patch:
            plain_join(patch)
            assert me.get(url).json() == body, forged
        assert body["results"], forged


def list_statement(me: Actor, url: str) -> tuple[str, int]:
    """The statement that reads the page's tables, and how many statements the request made."""
    me.get(url)  # the token is looked up once, then cached
    with CaptureQueriesContext(connection) as queries:
        assert me.get(url).status_code == 200
    listed = [q["sql"] for q in queries if 'ORDER BY "games_table"."id"' in q["sql"]]
    assert len(listed) == 1, [q["sql"] for q in queries]
    return listed[0], len(queries)


#: The page's ids off the player's seats: bound, ordered newest first and cut inside the subquery.
SEAT_PAGE = re.compile(
    r'"games_table"\."id" IN \(SELECT (?P<a>\w+)\."table_id" AS "table_id" FROM "games_seat" (?P=a) '
    r'WHERE \(?(?P=a)\."player_id" = (?P<player>\d+)(?P<rest>.*?) ORDER BY (1|(?P=a)\."table_id") '
    r"(?P<dir>ASC|DESC) LIMIT (?P<limit>\d+)\)"
)


def test_the_list_reads_its_page_off_the_seats_and_its_queries_do_not_grow(
    make_actor: Callable[..., Actor],
) -> None:
    me, a, b = make_actor("sq0"), make_actor("sq1"), make_actor("sq2")
    my_tables(me, a, b)
    newer_tables([a.player, b.player], 40)
    url = f"/api/v1/tables/?player={me.player.pk}&limit=3"
    second = me.get(url).json()["next"]
    for name, u in {
        "first": url,
        "second": second,
        "previous": me.get(second).json()["previous"],
        "finished": f"{url}&status=finished",
        "open seats": f"{url}&open_seats=true&game=pacru",
    }.items():
        sql, _count = list_statement(me, u)
        shape = SEAT_PAGE.search(sql)
        assert shape, (name, sql)
        assert shape["player"] == str(me.player.pk) and shape["limit"] == "4", (name, sql)
        assert 'JOIN "games_seat"' not in sql, (name, sql)  # no join of the tables and the seats
        rest = shape["rest"]
        if name == "second":
            assert shape["dir"] == "DESC" and '."table_id" < ' in rest, sql  # the cursor inside
        elif name == "previous":
            assert shape["dir"] == "ASC" and '."table_id" > ' in rest, sql
        else:
            assert shape["dir"] == "DESC" and 'table_id" <' not in rest, sql
        if name in ("finished", "open seats"):  # each seat's table checked by its primary key
            assert re.search(r'= \(SELECT \w+\."id" AS "pk" FROM "games_table" \w+ WHERE', rest), sql
            assert "'finished'" in rest or "'open'" in rest, sql
        else:
            assert "SELECT" not in rest, sql  # the seats alone
    # the queries per page: the same for a player of 12 tables and of 112
    before = [list_statement(me, u)[1] for u in (url, second, f"{url}&status=finished")]
    for _ in range(25):
        my_tables_quick(me, a)
    assert Table.objects.filter(seats__player=me.player).count() == 112
    second = me.get(url).json()["next"]
    after = [list_statement(me, u)[1] for u in (url, second, f"{url}&status=finished")]
    assert before == after


def my_tables_quick(me: Actor, a: Actor) -> None:
    """Four more tables of the player's, unrated (open and active)."""
    for game in ("pacru", "shacru"):
        started_table([me, a], game=game, rated=False)
        services.table_create(creator=me.player, game=game, players=2, rated=False)


# ------------------------------------------------------------- PostgreSQL: the work it does
def rows_read(plan: dict[str, Any], relation: str) -> int:
    """The rows the plan's scans of ``relation`` read (kept or filtered out), over all loops."""
    own = 0
    if plan.get("Relation Name") == relation:
        per_loop = plan.get("Actual Rows", 0) + plan.get("Rows Removed by Filter", 0)
        own = round(per_loop * plan.get("Actual Loops", 1))
    return own + sum(rows_read(child, relation) for child in plan.get("Plans", []))


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)  # VACUUM runs outside a transaction
def test_a_player_whose_games_are_all_old_reads_their_tables_not_everyones(
    make_actor: Callable[..., Actor],
) -> None:
    me, a, b = make_actor("ol0"), make_actor("ol1"), make_actor("ol2")
    others = [a.player, b.player] + [make_actor(f"ol{i}").player for i in range(3, 20)]
    for _ in range(10):  # 40 old tables of the player (open and active)
        my_tables_quick(me, a)
    newer_tables(others, 6000)
    with connection.cursor() as cur:  # what autovacuum does to a table that has grown
        for name in ("games_table", "games_seat", "games_player"):
            cur.execute(f"VACUUM ANALYZE {name}")
    url = f"/api/v1/tables/?player={me.player.pk}&limit=10"
    second = me.get(url).json()["next"]
    for u in (url, second, f"{url}&status=active", f"{url}&status=finished", f"{url}&game=azacru"):
        sql, _count = list_statement(me, u)
        with connection.cursor() as cur:
            cur.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + sql)
            (raw,) = cur.fetchone()
        plan = (json.loads(raw) if isinstance(raw, str) else raw)[0]["Plan"]
        # at most each of the player's 40 tables once in the check, and the page's 11 rows
        assert rows_read(plan, "games_table") <= 40 + 11, (u, json.dumps(plan)[:3000])
        assert rows_read(plan, "games_seat") <= 40 + 11, (u, json.dumps(plan)[:3000])
