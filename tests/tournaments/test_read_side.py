"""The read side of leagues, tournaments and ladders: no N+1 queries, and responses as the schema says.

Every list page and list API is requested for a small club and again for a bigger one (more
players, events, finished rounds, ladder members and challenges): the number of queries must be
the same. Responses are checked against the components the OpenAPI schema documents for them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from games import services as games
from games.models import Player, Table
from ratings.services import rate_pending
from tournaments import ladders
from tournaments.competitions import services as events
from tournaments.ladders.selectors import ladder_order
from tournaments.models import Round, Tournament

from ..games.conftest import Actor, as_organiser, every_seat_moves

OnCommit = Callable[..., Any]


# ------------------------------------------------------------------ the clubs
@dataclass
class Club:
    slug: str
    organiser: Actor
    players: list[Player]
    swiss: int  # a running 2-seat Swiss with finished rounds
    open_event: int  # the newest event: registration open, one player withdrawn
    ladder: int  # 2 seats: members, ratings, pending challenges
    queue_ladder: int  # 3 seats: a queue


def finish_round(t: Tournament, number: int, on_commit: OnCommit) -> None:
    """Seat 1 resigns at every table of the round (the next round is paired on commit)."""
    with on_commit(execute=True):
        for table in Table.objects.filter(
            round_table__round__tournament=t, round_table__round__number=number
        ):
            seat = table.seats.order_by("number").first()
            assert seat is not None
            every_seat_moves(table)  # else the game is aborted and rated for nobody
            games.game_resign(table_id=table.pk, player=seat.player)


def build_club(
    make_actor: Callable[..., Actor],
    on_commit: OnCommit,
    name: str,
    players: int,
    rounds_played: int,
    open_events: int = 1,
) -> Club:
    org = make_actor(f"{name}-boss")
    people = [
        games.player_register(username=f"{name}{i}", password="correct-horse-9", display_name=f"{name} {i}")
        for i in range(players)
    ]
    league = events.league_create(organiser=as_organiser(org.player), name=f"{name} club", slug=name)
    swiss = events.tournament_create(
        organiser=org.player, league=league, name="Swiss", game="pacru", seats=2, rounds=rounds_played + 1
    )
    for p in people:
        events.register(tournament_id=swiss.pk, player=p)
    for n in range(open_events):
        open_event = events.tournament_create(
            organiser=org.player, league=league, name=f"Next {n}", game="azacru", seats=3, rounds=2
        )
        for p in people:
            events.register(tournament_id=open_event.pk, player=p)
        events.withdraw(tournament_id=open_event.pk, player=people[0], by=org.player)
    with on_commit(execute=True):
        events.start(tournament_id=swiss.pk, by=org.player)
    for number in range(1, rounds_played + 1):
        finish_round(swiss, number, on_commit)
    rate_pending()
    ladder = ladders.ladder_create(organiser=org.player, league=league, game="pacru")
    queue_ladder = ladders.ladder_create(organiser=org.player, league=league, game="azacru", seats=3)
    for p in people:
        ladders.ladder_join(ladder=ladder, player=p)
        ladders.ladder_join(ladder=queue_ladder, player=p)
    for p in people[: players // 2]:
        ladders.queue_join(ladder=queue_ladder, player=p)
    order = [row["player"] for row in ladder_order(ladder)]
    by_id = {p.pk: p for p in people}
    for below, above in zip(order[1:], order, strict=False):
        ladders.challenge_create(ladder=ladder, challenger=by_id[below], challenged=by_id[above])
    return Club(name, org, people, swiss.pk, open_event.pk, ladder.pk, queue_ladder.pk)


@pytest.fixture
def clubs(
    make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: OnCommit
) -> Iterator[Callable[..., Club]]:
    def make(name: str, players: int, rounds_played: int, open_events: int = 1) -> Club:
        return build_club(
            make_actor, django_capture_on_commit_callbacks, name, players, rounds_played, open_events
        )

    yield make


def pages(c: Club) -> list[str]:
    return [
        f"/leagues/{c.slug}/",
        f"/tournaments/{c.swiss}/",
        f"/tournaments/{c.swiss}/?fragment=1",
        f"/tournaments/{c.open_event}/",
        f"/ladders/{c.ladder}/",
        f"/ladders/{c.ladder}/?fragment=1",
        f"/ladders/{c.queue_ladder}/",
        "/organiser/",
    ]


def apis(c: Club) -> list[str]:
    return [
        "/api/v1/leagues/",
        f"/api/v1/leagues/{c.slug}/",
        "/api/v1/tournaments/",
        f"/api/v1/tournaments/?league={c.slug}",
        f"/api/v1/tournaments/{c.swiss}/",
        f"/api/v1/tournaments/{c.open_event}/",
        f"/api/v1/tournaments/{c.swiss}/standings/",
        f"/api/v1/tournaments/{c.swiss}/standings/?round=1",
        f"/api/v1/tournaments/{c.swiss}/rounds/1/",
        "/api/v1/ladders/",
        f"/api/v1/ladders/{c.ladder}/",
        f"/api/v1/ladders/{c.queue_ladder}/",
    ]


def query_counts(c: Club) -> dict[str, int]:
    """Queries of every page (as the club's organiser) and API (anonymous) about ``c``, by its
    place in :func:`pages` / :func:`apis` (the ids differ from club to club)."""
    page, api = Client(), APIClient()
    page.force_login(c.organiser.player.user)
    out = {}
    for kind, client, urls in (("page", page, pages(c)), ("api", api, apis(c))):
        for i, url in enumerate(urls):
            client.get(url)  # warm up (sessions, caches), then count
            with CaptureQueriesContext(connection) as queries:
                r = client.get(url)
            assert r.status_code == 200, (url, r.status_code)
            out[f"{kind} {i}: {url}"] = len(queries)
    return out


def test_the_query_count_of_every_list_page_and_api_does_not_grow_with_the_club(
    clubs: Callable[..., Club],
) -> None:
    small = query_counts(clubs("small", 4, 1))
    big = query_counts(clubs("big", 10, 3, open_events=3))
    assert Round.objects.filter(tournament__league__slug="big", status="finished").count() == 3
    pairs = [(s, b, small[s], big[b]) for s, b in zip(small, big, strict=True)]
    grown = [f"{s} {n} → {b} {m}" for s, b, n, m in pairs if m != n]
    assert not grown, "queries grow with the rows (N+1):\n" + "\n".join(grown)
    assert max(small.values()) <= 20, (
        small
    )  # and a few queries each (the event page: 20 with the site bar), not dozens


# ---------------------------------------------------------------- the shapes
def schema_of(client: Any) -> dict[str, Any]:
    r = client.get("/api/v1/schema/?format=json")
    assert r.status_code == 200
    return json.loads(r.content)  # type: ignore[no-any-return]


def conforms(
    schema: dict[str, Any], node: dict[str, Any], value: Any, where: str = "$", strict: bool = True
) -> list[str]:
    """Where ``value`` departs from the OpenAPI schema ``node`` (types, nullability, required keys,
    enums, and with ``strict`` undocumented keys); ``[]`` when it conforms."""
    if "$ref" in node:
        node = schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]
    if value is None:
        return [] if node.get("nullable") else [f"{where}: null"]
    if "oneOf" in node:
        if any(not conforms(schema, option, value, where, strict) for option in node["oneOf"]):
            return []
        return [f"{where}: matches none of oneOf"]
    kind = node.get("type")
    checks = {
        "object": lambda v: isinstance(v, dict),
        "array": lambda v: isinstance(v, list),
        "string": lambda v: isinstance(v, str),
        "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
        "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
        "boolean": lambda v: isinstance(v, bool),
    }
    if kind in checks and not checks[kind](value):
        return [f"{where}: {value!r} is not {kind}"]
    if "enum" in node and value not in node["enum"]:
        return [f"{where}: {value!r} not in {node['enum']}"]
    errors: list[str] = []
    if kind == "array":
        for i, item in enumerate(value):
            errors += conforms(schema, node.get("items", {}), item, f"{where}[{i}]", strict)
    if kind == "object":
        props = node.get("properties", {})
        errors += [f"{where}: missing {k}" for k in node.get("required", []) if k not in value]
        extra = node.get("additionalProperties")
        for key, item in value.items():
            if key in props:
                errors += conforms(schema, props[key], item, f"{where}.{key}", strict)
            elif isinstance(extra, dict):
                errors += conforms(schema, extra, item, f"{where}.{key}", strict)
            elif props and strict:
                errors.append(f"{where}: undocumented key {key}")
    return errors


def documented(schema: dict[str, Any], path: str, method: str, status: int) -> dict[str, Any]:
    response = schema["paths"][path][method]["responses"][str(status)]
    return response["content"]["application/json"]["schema"]  # type: ignore[no-any-return]


def check(schema: dict[str, Any], path: str, method: str, r: Any) -> Any:
    """The response's body, once it conforms to what the schema documents for its status (error
    bodies may have more keys than ``detail`` and ``code``: ``fields`` on invalid input)."""
    body = r.json()
    errors = conforms(
        schema, documented(schema, path, method, r.status_code), body, strict=r.status_code < 400
    )
    assert not errors, (path, r.status_code, errors)
    return body


TOURNAMENT_KEYS = [
    "id", "league", "name", "game", "edition", "seats", "format", "rounds", "advance", "time_control",
    "rated", "points_scale", "check_in", "requested_bye", "status", "current_round", "registered",
    "starts_at", "min_players", "check_in_minutes", "round_start", "round_interval_minutes", "round_times",
    "round_deadline_minutes", "deadline_rule", "next_round_at", "duration_minutes", "berserk",
    "team_battle_top", "ends_at",
]  # fmt: skip


def test_tournament_and_league_responses_have_the_documented_shapes(
    clubs: Callable[..., Club],
) -> None:
    c = clubs("shape", 5, 2)
    api = APIClient()
    schema = schema_of(api)
    t = check(
        schema, "/api/v1/tournaments/{tournament_id}/", "get", api.get(f"/api/v1/tournaments/{c.swiss}/")
    )
    assert list(t) == [*TOURNAMENT_KEYS, "round_list", "registrations", "standings"]
    assert t["rounds"] == 3  # the configured number, as in the list
    assert t["registered"] == 5 and t["current_round"] == 3 and t["time_control"] == {"kind": "untimed"}
    assert [r["number"] for r in t["round_list"]] == [1, 2, 3]
    assert [r["status"] for r in t["round_list"]] == ["finished", "finished", "running"]
    for rnd in t["round_list"]:
        assert list(rnd) == ["number", "status", "byes", "tables", "deadline", "deadline_applied"]
        assert len(rnd["byes"]) == 1  # five players, two seats
        for table in rnd["tables"]:
            assert list(table) == ["number", "table", "status", "players"]
            assert [p["seat"] for p in table["players"]] == [1, 2]
            assert all(list(p) == ["seat", "player", "display_name", "rank"] for p in table["players"])
            ranks = sorted(p["rank"] for p in table["players"]) if rnd["status"] == "finished" else None
            assert ranks in ([1, 2], None)
    rows = t["standings"]
    assert [row["place"] for row in rows] == sorted(row["place"] for row in rows)
    for row in rows:
        assert list(row) == ["place", "player", "display_name", "points", "played", "wins", "tiebreaks"]
        assert list(row["tiebreaks"]) == ["buchholz", "median_buchholz", "sonneborn_berger", "wins"]
        assert all(isinstance(v, int | float) for v in row["tiebreaks"].values())
    assert sum(row["points"] for row in rows) == 2 * 2 + 3  # two tables a finished round, a bye a round
    # the standings endpoint, and after a round
    now = check(
        schema,
        "/api/v1/tournaments/{tournament_id}/standings/",
        "get",
        api.get(f"/api/v1/tournaments/{c.swiss}/standings/"),
    )
    assert now == rows
    after_one = api.get(f"/api/v1/tournaments/{c.swiss}/standings/?round=1").json()
    assert sum(row["points"] for row in after_one) == 3 and all(row["played"] <= 1 for row in after_one)
    rnd = check(
        schema,
        "/api/v1/tournaments/{tournament_id}/rounds/{number}/",
        "get",
        api.get(f"/api/v1/tournaments/{c.swiss}/rounds/2/"),
    )
    assert rnd == t["round_list"][1]
    # the list: the number of rounds in place of the rounds; registrations exclude the withdrawn
    page = check(schema, "/api/v1/tournaments/", "get", api.get("/api/v1/tournaments/"))
    assert list(page) == ["next", "previous", "results"] and page["next"] is None  # keyset pages
    listed = page["results"]
    assert [x["id"] for x in listed] == [c.open_event, c.swiss]  # newest first
    assert all(list(x) == TOURNAMENT_KEYS for x in listed)
    assert listed[0]["registered"] == 4 and listed[1]["rounds"] == 3
    # leagues
    leagues = check(schema, "/api/v1/leagues/", "get", api.get("/api/v1/leagues/"))
    assert leagues == [
        {
            "slug": "shape",
            "name": "shape club",
            "description": "",
            "organisers": [{"id": c.organiser.player.pk, "display_name": "Shape-Boss"}],
            "members": 6,
        }
    ]
    league = check(schema, "/api/v1/leagues/{slug}/", "get", api.get("/api/v1/leagues/shape/"))
    assert league["tournaments"] == listed
    # errors have the one error shape
    missing = check(
        schema, "/api/v1/tournaments/{tournament_id}/", "get", api.get("/api/v1/tournaments/999/")
    )
    assert missing["code"] == "not_found"


def test_the_tournament_page_shows_the_standings_after_each_finished_round(
    clubs: Callable[..., Club],
) -> None:
    c = clubs("page", 4, 2)
    page = Client().get(f"/tournaments/{c.swiss}/").content.decode()
    assert page.count("<summary>Standings after round") == 2
    assert "Buchholz" in page and "page 1" in page


def test_ladder_responses_and_actions_have_the_documented_shapes(
    clubs: Callable[..., Club], make_actor: Callable[..., Actor]
) -> None:
    c = clubs("ladder", 4, 1)
    api = APIClient()
    schema = schema_of(api)
    body = check(schema, "/api/v1/ladders/{ladder_id}/", "get", api.get(f"/api/v1/ladders/{c.ladder}/"))
    assert list(body) == [
        "id",
        "league",
        "game",
        "seats",
        "name",
        "kind",
        "time_control",
        "order",
        "challenges",
        "queue",
    ]
    assert [row["position"] for row in body["order"]] == [1, 2, 3, 4]
    assert all(isinstance(row["rating"], float) for row in body["order"])  # everyone has played
    assert len(body["challenges"]) == 3 and body["queue"] == []
    queued = api.get(f"/api/v1/ladders/{c.queue_ladder}/").json()
    assert queued["queue"] == [p.pk for p in c.players[:2]] and queued["name"] == "ladder club azacru ladder"
    listed = check(schema, "/api/v1/ladders/", "get", api.get("/api/v1/ladders/"))
    assert [x["id"] for x in listed] == [c.ladder, c.queue_ladder]
    assert all(list(x) == ["id", "league", "game", "seats", "name", "kind"] for x in listed)
    assert {x["kind"] for x in listed} == {"rating"}
    # actions: 200 with the ladder, 201 with a challenge, the error shape otherwise
    newcomer = make_actor("newcomer")
    path = "/api/v1/ladders/{ladder_id}/{action}/"
    joined = check(schema, path, "post", newcomer.post(f"/api/v1/ladders/{c.ladder}/join/"))
    assert joined["order"][-1]["rating"] is None and joined["order"][-1]["last_played"] is None
    top = body["order"][0]["player"]
    made = newcomer.post(f"/api/v1/ladders/{c.ladder}/challenge/", {"player": top})
    assert made.status_code == 201
    challenge = check(schema, path, "post", made)
    assert challenge["challenged"] == top and challenge["status"] == "pending" and challenge["table"] is None
    assert challenge["outcome"] == ""
    assert (
        check(schema, path, "post", newcomer.post(f"/api/v1/ladders/{c.ladder}/join/"))["code"] == "conflict"
    )
    assert check(schema, path, "post", APIClient().post(f"/api/v1/ladders/{c.ladder}/join/")).get("detail")
    # answering: the accepted challenge's table, or the challenge
    answer = "/api/v1/challenges/{challenge_id}/{action}/"
    top_actor = APIClient()
    top_actor.force_authenticate(Player.objects.get(pk=top).user)
    accepted = check(schema, answer, "post", top_actor.post(f"/api/v1/challenges/{challenge['id']}/accept/"))
    assert list(accepted) == ["challenge", "status", "table"] and accepted["status"] == "accepted"
    other = body["challenges"][0]
    mine = APIClient()
    mine.force_authenticate(Player.objects.get(pk=other["challenger"]).user)
    cancelled = check(schema, answer, "post", mine.post(f"/api/v1/challenges/{other['id']}/cancel/"))
    assert cancelled["status"] == "cancelled" and cancelled["id"] == other["id"]


def test_tournament_actions_answer_with_the_documented_tournament(
    clubs: Callable[..., Club], make_actor: Callable[..., Actor]
) -> None:
    c = clubs("act", 4, 1)
    api = APIClient()
    schema = schema_of(api)
    late = make_actor("late")
    path = "/api/v1/tournaments/{tournament_id}/register/"
    body = check(schema, path, "post", late.post(f"/api/v1/tournaments/{c.open_event}/register/"))
    assert body["registered"] == 4 and body["registrations"][-1]["display_name"] == "Late"
    assert body["round_list"] == [] and all(row["played"] == 0 for row in body["standings"])
    again = check(schema, path, "post", late.post(f"/api/v1/tournaments/{c.open_event}/register/"))
    assert again["code"] == "conflict"
    created = c.organiser.post(
        "/api/v1/tournaments/",
        {"league": c.slug, "name": "More", "game": "shacru", "seats": 2, "rounds": 2, "points_scale": [1, 0]},
    )
    assert created.status_code == 201
    made = check(schema, "/api/v1/tournaments/", "post", created)
    assert made["points_scale"] == [1.0, 0.0] and made["round_list"] == [] and made["registered"] == 0
    assert made["rounds"] == 2  # the configured number, not the list
