"""The ratings API: no N+1 queries, and responses as the OpenAPI schema documents them."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from games import services as games
from games.models import Player
from ratings.environment import PROVISIONAL_SIGMA
from ratings.models import Rating, RatingChange
from ratings.tasks import rate_pending

from ..games.conftest import every_seat_moves
from ..tournaments.test_read_side import check, schema_of


def rated_tables(players: list[Player], tables: int, game: str = "pacru") -> None:
    """``tables`` finished rated 2-player tables among ``players`` (each seat moves, then the first
    resigns), rated."""
    for i in range(tables):
        a, b = players[i % len(players)], players[(i + 1) % len(players)]
        table = games.table_create(creator=a, game=game, players=2)
        games.seat_join(table_id=table.pk, player=b)
        every_seat_moves(table)
        games.game_resign(table_id=table.pk, player=a)
    rate_pending()


def make_players(prefix: str, n: int) -> list[Player]:
    return [
        games.player_register(
            username=f"{prefix}{i}", password="correct-horse-9", display_name=f"{prefix} {i}"
        )
        for i in range(n)
    ]


def urls(first: Player, others: list[Player]) -> list[str]:
    ids = ",".join(str(p.pk) for p in [first, *others[:2]])
    return [
        "/api/v1/ratings/pacru/",
        "/api/v1/ratings/pacru/?ordering=mu&limit=5&offset=1",
        "/api/v1/ratings/pacru/?provisional=true&active_days=30",
        f"/api/v1/players/{first.pk}/ratings/",
        f"/api/v1/players/{first.pk}/ratings/?game=pacru",
        f"/api/v1/ratings/pacru/quality/?players={ids}",
        "/ratings/pacru/?all=1",
        f"/players/{first.pk}/",
    ]


def counts(first: Player, others: list[Player]) -> list[int]:
    client = Client()
    out = []
    for url in urls(first, others):
        client.get(url)  # warm up, then count
        with CaptureQueriesContext(connection) as queries:
            r = client.get(url)
        assert r.status_code == 200, (url, r.status_code)
        out.append(len(queries))
    return out


def test_the_ratings_api_and_pages_do_not_query_per_row(db: None) -> None:
    few = make_players("few", 3)
    rated_tables(few, 2)
    rated_tables(few, 1, game="azacru")  # the player page reads each game's history: the same games
    small = counts(few[0], few[1:])
    many = make_players("many", 12)
    rated_tables(many, 30)
    rated_tables(many[:4], 6, game="azacru")
    assert RatingChange.objects.filter(player=many[0]).count() > 5
    big = counts(many[0], many[1:])
    assert small == big, dict(zip(urls(many[0], many[1:]), zip(small, big, strict=True), strict=True))


@pytest.fixture
def rated(db: None) -> list[Player]:
    players = make_players("r", 5)
    rated_tables(players, 7)
    rated_tables(players[:3], 2, game="azacru")
    return players


def test_the_leaderboard_has_the_documented_shape(rated: list[Player]) -> None:
    api = APIClient()
    schema = schema_of(api)
    path = "/api/v1/ratings/{game}/"
    body = check(schema, path, "get", api.get("/api/v1/ratings/pacru/"))
    assert list(body) == ["game", "count", "results"] and body["game"] == "pacru" and body["count"] == 5
    keys = [
        "position",
        "player",
        "game",
        "mu",
        "sigma",
        "conservative",
        "games",
        "provisional",
        "last_played",
        "display_rating",
        "display_uncertainty",
    ]
    stored = {r.player_id: r for r in Rating.objects.filter(game="pacru")}
    for i, row in enumerate(body["results"], start=1):
        assert list(row) == keys and row["position"] == i
        assert list(row["player"]) == ["id", "username", "display_name"]
        r = stored[row["player"]["id"]]
        assert (row["mu"], row["sigma"], row["conservative"]) == (
            round(r.mu, 3),
            round(r.sigma, 3),
            round(r.conservative, 3),
        )
        assert row["provisional"] is (r.sigma > PROVISIONAL_SIGMA) and row["last_played"].endswith("Z")
        assert row["display_rating"] == max(0, round(60 * r.mu)) and row["display_uncertainty"] == round(
            60 * r.sigma
        )
    assert [row["conservative"] for row in body["results"]] == sorted(
        (row["conservative"] for row in body["results"]), reverse=True
    )
    page = check(schema, path, "get", api.get("/api/v1/ratings/pacru/?ordering=mu&limit=2&offset=2"))
    assert [row["position"] for row in page["results"]] == [3, 4] and page["count"] == 5
    by_mu = sorted(stored.values(), key=lambda r: (-r.mu, r.player_id))
    assert [row["player"]["id"] for row in page["results"]] == [r.player_id for r in by_mu[2:4]]
    assert check(schema, path, "get", api.get("/api/v1/ratings/pacru/?provisional=false"))["results"] == []
    assert check(schema, path, "get", api.get("/api/v1/ratings/pacru/?limit=0"))["code"] == "invalid"
    assert check(schema, path, "get", api.get("/api/v1/ratings/chess/"))["code"] == "not_found"


def test_a_players_ratings_and_history_have_the_documented_shape(rated: list[Player]) -> None:
    api = APIClient()
    schema = schema_of(api)
    path = "/api/v1/players/{player_id}/ratings/"
    me = rated[0]
    body = check(schema, path, "get", api.get(f"/api/v1/players/{me.pk}/ratings/"))
    assert list(body) == ["player", "ratings", "history", "next", "previous"] and body["player"] == me.pk
    assert body["next"] is None and body["previous"] is None  # one page: the history is short
    assert [r["game"] for r in body["ratings"]] == ["azacru", "pacru"]
    assert all(
        list(r)
        == [
            "game",
            "mu",
            "sigma",
            "conservative",
            "games",
            "provisional",
            "last_played",
            "display_rating",
            "display_uncertainty",
        ]
        for r in body["ratings"]
    )
    changes = list(RatingChange.objects.filter(player=me).order_by("-at", "-table_id"))  # newest first
    assert len(body["history"]) == len(changes)
    for row, c in zip(body["history"], changes, strict=True):
        assert list(row) == [
            "game", "table", "at", "rank", "seats", "mu_before", "sigma_before", "mu_after", "sigma_after",
            "conservative_after", "change",
        ]  # fmt: skip
        assert row["table"] == c.table_id and row["change"] == round(
            c.conservative_after - c.conservative_before, 3
        )
    only = check(schema, path, "get", api.get(f"/api/v1/players/{me.pk}/ratings/?game=azacru"))
    assert {row["game"] for row in only["history"]} == {"azacru"} and only["ratings"] == body["ratings"]
    assert (
        check(schema, path, "get", api.get(f"/api/v1/players/{me.pk}/ratings/?game=chess"))["code"]
        == "not_found"
    )
    assert check(schema, path, "get", api.get("/api/v1/players/99999/ratings/"))["code"] == "not_found"


def test_match_quality_has_the_documented_shape(rated: list[Player]) -> None:
    api = APIClient()
    schema = schema_of(api)
    path = "/api/v1/ratings/{game}/quality/"
    ids = [p.pk for p in rated[:3]]
    url = f"/api/v1/ratings/pacru/quality/?players={','.join(map(str, ids))}"
    body = check(schema, path, "get", api.get(url))
    assert list(body) == ["game", "players", "quality", "fair_threshold", "fair"] and body["players"] == ids
    assert 0 < body["quality"] <= 1 and body["fair"] is (body["quality"] >= body["fair_threshold"])

    def bad(query: str) -> Any:
        return check(schema, path, "get", api.get(f"/api/v1/ratings/pacru/quality/?{query}"))

    assert bad(f"players={ids[0]},{ids[0]}")["code"] == "invalid"
    assert bad("players=1,x")["code"] == "invalid"
    assert (
        check(schema, path, "get", api.get(f"/api/v1/ratings/chess/quality/?players={ids[0]},{ids[1]}"))[
            "code"
        ]
        == "not_found"
    )
