"""The API's long lists scale with the history (docs/operators/scale.md).

Every list is a keyset page (``next``/``previous``, no ``count``): its queries are the same in
number for a short history and a long one, a walk along ``next`` sees every row once, a forged
cursor is a 404 in the API's error shape; on PostgreSQL the lists' queries and the lobby's tag
read indexes, never the whole table.
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import selectors, services
from games.models import Player, Seat, Table
from ratings.tasks import rate_pending
from tournaments.competitions import services as events

from .conftest import Actor, as_organiser, started_table


def history(actors: list[Actor], n: int) -> None:
    """``n`` finished rated tables, ``n`` open ones and a tournament, among ``actors``."""
    boss = actors[0]
    league = events.league_create(
        organiser=as_organiser(boss.player), name=f"Club {n}", slug=f"club-{n}-{Table.objects.count()}"
    )
    for i in range(n):
        a, b = actors[i % len(actors)], actors[(i + 1) % len(actors)]
        table = started_table([a, b], game=("pacru", "shacru", "azacru")[i % 3])
        services.game_resign(table_id=table.pk, player=a.player)
        services.table_create(creator=b.player, game="pacru", players=3)
        events.tournament_create(
            organiser=boss.player, league=league, name=f"Cup {i}", game="pacru", seats=2, rounds=3
        )
    rate_pending()


def cursor(query: str) -> str:
    return base64.b64encode(query.encode()).decode()


def urls(me: Actor, second_page: str) -> list[str]:
    return [
        "/api/v1/tables/",
        "/api/v1/tables/?status=finished",
        "/api/v1/tables/?status=finished&game=pacru",
        f"/api/v1/tables/?player={me.player.pk}",
        "/api/v1/tables/?open_seats=true",
        second_page,
        "/api/v1/players/",
        f"/api/v1/players/{me.player.pk}/",
        f"/api/v1/players/{me.player.pk}/ratings/",
        f"/api/v1/players/{me.player.pk}/ratings/?game=pacru",
        "/api/v1/tournaments/",
    ]


def counts(me: Actor) -> list[int]:
    second_page = me.get("/api/v1/tables/?status=finished&limit=1").json()["next"]
    assert second_page
    out = []
    for url in urls(me, second_page):
        me.get(url)  # warm up (the token is cached), then count
        with CaptureQueriesContext(connection) as queries:
            r = me.get(url)
        assert r.status_code == 200, (url, r.status_code, r.content[:300])
        out.append(len(queries))
    return out


def test_every_list_costs_the_same_queries_for_2_rows_and_30(make_actor: Callable[..., Actor]) -> None:
    actors = [make_actor(f"h{i}") for i in range(3)]
    me = actors[0]
    history(actors, 2)
    small = counts(me)
    history(actors, 28)
    assert Table.objects.filter(status=Table.Status.FINISHED).count() == 30
    large = counts(me)
    second_page = me.get("/api/v1/tables/?status=finished&limit=1").json()["next"]
    assert small == large, dict(zip(urls(me, second_page), zip(small, large, strict=True), strict=True))


def test_the_table_list_neither_counts_nor_groups_nor_reads_unshown_columns(
    make_actor: Callable[..., Actor],
) -> None:
    actors = [make_actor(f"g{i}") for i in range(2)]
    history(actors, 3)
    for url in ("/api/v1/tables/", "/api/v1/tables/?status=finished"):
        with CaptureQueriesContext(connection) as queries:
            body = actors[0].get(url).json()
        assert list(body) == ["next", "previous", "results"]
        listed = [q["sql"] for q in queries if 'FROM "games_table"' in q["sql"]]
        assert listed, [q["sql"] for q in queries]
        for sql in listed:
            assert "COUNT(" not in sql.upper() and "GROUP BY" not in sql.upper(), sql
            assert "initial_position" not in sql and "bot_seats" not in sql, sql
    open_rows = actors[0].get("/api/v1/tables/?status=open").json()["results"]
    assert open_rows and all(t["seats_taken"] == len(t["seats"]) == 1 for t in open_rows)
    # an archived finished table (position dropped) lists the same scores, from its result
    finished = actors[0].get("/api/v1/tables/?status=finished").json()["results"]
    Table.objects.filter(status=Table.Status.FINISHED).update(position=None)
    assert actors[0].get("/api/v1/tables/?status=finished").json()["results"] == finished
    assert all(t["scores"] for t in finished)


def walk(actor: Actor, url: str) -> list[list[int]]:
    """The ids of every page from ``url`` along ``next``."""
    pages: list[list[int]] = []
    while url:
        body = actor.get(url).json()
        pages.append([row["id"] for row in body["results"]])
        url = body["next"]
        assert len(pages) < 20, "the walk does not end"
    return pages


def test_a_cursor_walk_sees_every_table_once_newest_first(make_actor: Callable[..., Actor]) -> None:
    a, b = make_actor("wa"), make_actor("wb")
    made = [services.table_create(creator=a.player, game="pacru", players=2).pk for _ in range(7)]
    pages = walk(b, "/api/v1/tables/?limit=3")
    assert [len(p) for p in pages] == [3, 3, 1]
    ids = [i for page in pages for i in page]
    assert ids == sorted(made, reverse=True)  # complete, once each, strictly decreasing
    # and back: ``previous`` from the last page gives the page before it
    first = b.get("/api/v1/tables/?limit=3").json()
    last = b.get(b.get(first["next"]).json()["next"]).json()
    assert first["previous"] is None and last["next"] is None
    assert [row["id"] for row in b.get(last["previous"]).json()["results"]] == pages[1]
    # a filtered list walks its own rows; players walk in the order they registered
    services.seat_join(table_id=made[0], player=b.player)
    assert walk(b, f"/api/v1/tables/?player={b.player.pk}&limit=1") == [[made[0]]]
    players = walk(b, "/api/v1/players/?limit=1")
    assert players == [[a.player.pk], [b.player.pk]]


def test_limit_is_bounded(make_actor: Callable[..., Actor]) -> None:
    a = make_actor("la")
    for _ in range(3):
        services.table_create(creator=a.player, game="pacru", players=2)
    assert len(a.get("/api/v1/tables/?limit=2").json()["results"]) == 2
    assert len(a.get("/api/v1/tables/?limit=100000").json()["results"]) == 3  # capped at 500
    assert len(a.get("/api/v1/tables/?limit=0").json()["results"]) == 3  # the default (50)
    assert len(a.get("/api/v1/tables/?limit=x").json()["results"]) == 3


@pytest.mark.parametrize(
    "url",
    [
        "/api/v1/tables/?cursor=not-base64!",
        f"/api/v1/tables/?cursor={cursor('p=abc')}",
        f"/api/v1/tables/?cursor={cursor('p=99999999999999999999')}",
        f"/api/v1/tables/?cursor={cursor('p=1%00')}",
        f"/api/v1/tables/?cursor={cursor('o=-1&p=3')}",
        f"/api/v1/tables/?status=finished&cursor={cursor('r=x')}",
        f"/api/v1/players/?cursor={cursor('p=1.5')}",
        f"/api/v1/tournaments/?cursor={cursor('p=%E2%82%AC')}",
        "/api/v1/players/{me}/ratings/?cursor=" + cursor("p=not-a-time"),
    ],
)
def test_a_bad_cursor_is_a_404_in_the_error_shape(make_actor: Callable[..., Actor], url: str) -> None:
    me = make_actor("cursor")
    r = me.get(url.replace("{me}", str(me.player.pk)))
    assert r.status_code == 404, r.content[:300]
    assert r.json() == {"detail": "Invalid cursor", "code": "not_found"}


def test_open_seats_and_a_player_filter_together(make_actor: Callable[..., Actor]) -> None:
    a, b, c = make_actor("oa"), make_actor("ob"), make_actor("oc")
    three = services.table_create(creator=a.player, game="pacru", players=3).pk
    services.seat_join(table_id=three, player=b.player)  # 2 of 3 seated: still open
    full = started_table([a, c]).pk
    assert {t["id"] for t in c.get(f"/api/v1/tables/?player={a.player.pk}").json()["results"]} == {
        three,
        full,
    }
    rows = c.get(f"/api/v1/tables/?player={a.player.pk}&open_seats=true").json()["results"]
    assert [(t["id"], t["seats_taken"]) for t in rows] == [(three, 2)]
    # the pages read ``seats_taken`` off the rows of table_list() (no aggregate)
    assert {t.pk: t.seats_taken for t in selectors.table_list()} == {three: 2, full: 2}
    mine = selectors.tables_with_open_seats(selectors.tables_of_player(selectors.table_list(), b.player.pk))
    assert [(t.pk, t.seats_taken) for t in mine] == [(three, 2)]
    detail = c.get(f"/api/v1/players/{a.player.pk}/").json()
    assert [t["id"] for t in detail["tables"]] == [full, three] and detail["tables_played"] == 2


# ------------------------------------------------------------- PostgreSQL plans
def plan(sql: str, params: Any = None) -> str:
    with connection.cursor() as cur:
        cur.execute("EXPLAIN " + sql, params)
        return "\n".join(row[0] for row in cur.fetchall())


def bulk_history(players: list[Player], n: int) -> None:
    """``n`` tables of two seats written straight to the database (a long club history in a
    second): nine in ten finished, the rest open or active; ``players[0]`` sits at one in 25."""
    now = timezone.now()
    statuses = [Table.Status.FINISHED] * 9 + [Table.Status.OPEN, Table.Status.ACTIVE] * 1
    tables = Table.objects.bulk_create(
        Table(
            game="pacru",
            edition="302",
            players=2,
            status=statuses[i % len(statuses)],
            created_by=players[i % len(players)],
            finished_at=now - timedelta(minutes=n - i) if statuses[i % len(statuses)] == "finished" else None,
            started_at=now - timedelta(minutes=n - i, seconds=30),
        )
        for i in range(n)
    )
    seats = []
    for i, table in enumerate(tables):
        first = players[0] if i % 25 == 0 else players[1 + i % (len(players) - 1)]
        second = players[1 + (i + 7) % (len(players) - 1)]
        if second == first:
            second = players[1 + (i + 8) % (len(players) - 1)]
        seats += [
            Seat(table=table, number=1, player=first, colour="red"),
            Seat(table=table, number=2, player=second, colour="black"),
        ]
    Seat.objects.bulk_create(seats)
    with connection.cursor() as cur:  # what autovacuum does to a table that has grown
        for name in ("games_table", "games_seat", "games_player"):
            cur.execute(f"VACUUM ANALYZE {name}")


def explain(sql: str, params: Any = None) -> str:
    """The plan with sequential scans disabled: any usable index is taken."""
    with transaction.atomic():
        with connection.cursor() as cur:
            cur.execute("SET LOCAL enable_seqscan = off")
        return plan(sql, params)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)  # VACUUM runs outside a transaction
def test_the_lists_and_the_lobby_tag_read_indexes(make_actor: Callable[..., Actor]) -> None:
    from games.apis import TableFilter, TableListApi

    me = make_actor("pg0")
    players = [me.player] + [
        services.player_register(username=f"pg{i}", password="correct-horse-9") for i in range(1, 40)
    ]
    bulk_history(players, 4000)
    # the finished list: the view's queryset, filtered and ordered as the paginator does, a first
    # page of 50 and a later one; read in order off an index (no Sort), never the whole table
    qs = TableFilter({"status": "finished"}, queryset=TableListApi().get_queryset()).qs.order_by("-id")
    middle = Table.objects.order_by("id").values_list("id", flat=True)[2000]
    for page in (qs[:51], qs.filter(id__lt=middle)[:51]):
        text = explain(*page.query.sql_with_params())
        assert "Seq Scan on games_table" not in text and "Sort" not in text, text
    # the requests themselves, as sent: every list query on the tables, and the seats prefetch
    second = me.get("/api/v1/tables/?status=finished&limit=2").json()["next"]
    for url in (
        "/api/v1/tables/",
        "/api/v1/tables/?status=finished",
        second,
        f"/api/v1/tables/?player={me.player.pk}",
        "/api/v1/tables/?open_seats=true",
        f"/api/v1/players/{me.player.pk}/",
        "/api/v1/players/",
    ):
        found = plans_of(lambda url=url: me.get(url))
        assert found, url
        for sql, text in found:
            assert "Seq Scan on games_table" not in text, (url, sql, text)
            assert "Seq Scan on games_seat" not in text, (url, sql, text)
            bounded = '"games_table"."id" IN (' in sql  # a page of ids read off an index: sorting it is free
            if 'ORDER BY "games_table"."id"' in sql and not bounded:  # a page of the list: in index order
                assert "Sort" not in text, (url, sql, text)
    # the lobby's change tag: the tables in play by the status index, the last end by its index
    found = plans_of(lambda: selectors.lobby_version(None))
    assert len(found) == 2
    for sql, text in found:
        assert "Seq Scan on games_table" not in text, (sql, text)
    assert "table_ended_idx" in found[1][1], found[1][1]
    # a player's latest tables: their ids off seat_player_table_idx, newest first, then those rows
    seats, tables = plans_of(lambda: list(selectors.player_tables(me.player)))[:2]
    assert "seat_player_table_idx" in seats[1] and "Sort" not in seats[1], seats
    assert "Seq Scan" not in tables[1], tables


def plans_of(call: Callable[[], Any]) -> list[tuple[str, str]]:
    """The plans of the queries ``call`` makes on ``games_table`` or ``games_seat`` (as sent)."""
    with CaptureQueriesContext(connection) as queries:
        call()
    return [
        (q["sql"], explain(q["sql"]))
        for q in queries
        if q["sql"].lstrip().upper().startswith("SELECT")
        and ('"games_table"' in q["sql"] or '"games_seat"' in q["sql"])
    ]
