"""Creating, listing, joining and leaving tables."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from rest_framework.test import APIClient

from games.models import Table

from .conftest import Actor


@pytest.mark.parametrize("game", ["shacru", "azacru", "pacru"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_create_a_table_of_each_kind(alice: Actor, game: str, players: int) -> None:
    r = alice.post("/api/v1/tables/", {"game": game, "players": players, "edition": "2011", "ply_limit": 300})
    assert r.status_code == 201, r.json()
    body = r.json()
    assert body["game"] == game and body["players"] == players and body["ply_limit"] == 300
    assert body["edition"] == ("2011" if game == "pacru" else "")
    assert body["status"] == "open" and body["seats_taken"] == 1
    assert body["seats"][0]["player"]["username"] == "alice" and body["seats"][0]["colour"] == "red"
    assert body["position"] is None and body["base_moves"] == []


@pytest.mark.parametrize(
    "data, words",
    [
        ({"game": "chess", "players": 2}, "game"),
        ({"game": "pacru", "players": 5}, "players"),
        ({"game": "pacru", "players": 2, "edition": "1999"}, "edition"),
        ({"game": "pacru", "players": 2, "ply_limit": 0}, "ply_limit"),
        ({"players": 2}, "game"),
    ],
)
def test_bad_table_options_are_refused(alice: Actor, data: dict[str, object], words: str) -> None:
    r = alice.post("/api/v1/tables/", data)
    assert r.status_code == 400
    assert r.json()["code"] == "invalid" and words in r.json()["detail"]
    assert not Table.objects.exists()


def test_anonymous_users_can_read_but_not_create(anon: APIClient, alice: Actor) -> None:
    alice.post("/api/v1/tables/", {"game": "pacru", "players": 2})
    assert len(anon.get("/api/v1/tables/").json()["results"]) == 1
    r = anon.post("/api/v1/tables/", {"game": "pacru", "players": 2}, format="json")
    assert r.status_code == 401
    assert Table.objects.count() == 1


def test_the_table_starts_when_the_last_seat_is_taken(alice: Actor, bob: Actor, carol: Actor) -> None:
    table_id = alice.post("/api/v1/tables/", {"game": "azacru", "players": 3}).json()["id"]
    r = bob.post(f"/api/v1/tables/{table_id}/join/")
    assert r.status_code == 200 and r.json()["status"] == "open"
    r = carol.post(f"/api/v1/tables/{table_id}/join/")
    body = r.json()
    assert body["status"] == "active" and body["ply"] == 0 and body["to_move"] == 1
    assert body["started_at"] is not None
    assert [s["player"]["username"] for s in body["seats"]] == ["alice", "bob", "carol"]
    assert body["position"]["game"] == "azacru" and len(body["position"]["chevrons"]) == 9
    assert "g9-g8" in body["base_moves"]


def test_join_a_chosen_seat(alice: Actor, bob: Actor) -> None:
    table_id = alice.post("/api/v1/tables/", {"game": "pacru", "players": 3, "seat": 2}).json()["id"]
    taken = bob.post(f"/api/v1/tables/{table_id}/join/", {"seat": 2})
    assert taken.status_code == 409 and "taken" in taken.json()["detail"]
    assert bob.post(f"/api/v1/tables/{table_id}/join/", {"seat": 3}).status_code == 200
    seats = {
        s["number"]: s["player"]["username"] for s in alice.get(f"/api/v1/tables/{table_id}/").json()["seats"]
    }
    assert seats == {2: "alice", 3: "bob"}


def test_join_errors(alice: Actor, bob: Actor, carol: Actor) -> None:
    table_id = alice.post("/api/v1/tables/", {"game": "pacru", "players": 2}).json()["id"]
    twice = alice.post(f"/api/v1/tables/{table_id}/join/")
    assert twice.status_code == 409 and "already" in twice.json()["detail"]
    bad_seat = bob.post(f"/api/v1/tables/{table_id}/join/", {"seat": 3})
    assert bad_seat.status_code == 400 and "seat" in bad_seat.json()["detail"]
    assert bob.post(f"/api/v1/tables/{table_id}/join/").status_code == 200
    full = carol.post(f"/api/v1/tables/{table_id}/join/")
    assert full.status_code == 409 and full.json()["code"] == "table_not_active"
    missing = carol.post("/api/v1/tables/99999/join/")
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"


def test_leave_before_the_start_and_an_empty_table_is_aborted(alice: Actor, bob: Actor) -> None:
    table_id = alice.post("/api/v1/tables/", {"game": "pacru", "players": 3}).json()["id"]
    bob.post(f"/api/v1/tables/{table_id}/join/")
    assert bob.post(f"/api/v1/tables/{table_id}/leave/").json()["seats_taken"] == 1
    not_seated = bob.post(f"/api/v1/tables/{table_id}/leave/")
    assert not_seated.status_code == 403 and not_seated.json()["code"] == "not_seated"
    assert alice.post(f"/api/v1/tables/{table_id}/leave/").json()["status"] == "aborted"


def test_no_leaving_after_the_start(alice: Actor, bob: Actor) -> None:
    table_id = alice.post("/api/v1/tables/", {"game": "pacru", "players": 2}).json()["id"]
    bob.post(f"/api/v1/tables/{table_id}/join/")
    r = bob.post(f"/api/v1/tables/{table_id}/leave/")
    assert r.status_code == 409 and "resign" in r.json()["detail"]


def test_list_filters(make_actor: Callable[..., Actor]) -> None:
    a, b, c = make_actor("a1x"), make_actor("b1x"), make_actor("c1x")
    open_pacru = a.post("/api/v1/tables/", {"game": "pacru", "players": 2}).json()["id"]
    full = b.post("/api/v1/tables/", {"game": "shacru", "players": 2}).json()["id"]
    c.post(f"/api/v1/tables/{full}/join/")
    azacru = c.post("/api/v1/tables/", {"game": "azacru", "players": 3}).json()["id"]

    def ids(query: str) -> set[int]:
        return {t["id"] for t in a.get(f"/api/v1/tables/?{query}").json()["results"]}

    assert ids("game=pacru") == {open_pacru}
    assert ids("status=active") == {full}
    assert ids("open_seats=true") == {open_pacru, azacru}
    assert ids(f"player={c.player.pk}") == {full, azacru}
    assert ids("players=3") == {azacru}
    bad = a.get("/api/v1/tables/?status=nonsense")
    assert bad.status_code == 400 and bad.json()["code"] == "invalid"


def test_list_is_paginated(alice: Actor) -> None:
    for _ in range(3):
        alice.post("/api/v1/tables/", {"game": "pacru", "players": 2})
    page = alice.get("/api/v1/tables/?limit=2").json()
    assert list(page) == ["next", "previous", "results"]  # keyset pages: no count
    assert len(page["results"]) == 2 and page["next"] and page["previous"] is None
    rest = alice.get(page["next"]).json()
    assert len(rest["results"]) == 1 and rest["next"] is None and rest["previous"]


def test_players_list_and_detail(alice: Actor, bob: Actor) -> None:
    table_id = alice.post("/api/v1/tables/", {"game": "pacru", "players": 2}).json()["id"]
    names = [p["username"] for p in bob.get("/api/v1/players/").json()["results"]]
    assert names == ["alice", "bob"]
    detail = bob.get(f"/api/v1/players/{alice.player.pk}/").json()
    assert detail["display_name"] == "Alice" and [t["id"] for t in detail["tables"]] == [table_id]
    assert bob.get("/api/v1/players/9999/").status_code == 404


def test_health_answers_with_the_server_time(anon: APIClient, db: None) -> None:
    r = anon.get("/api/v1/health/")
    assert r.status_code == 200
    assert r.json()["status"] == "ok" and r.json()["time"].endswith("Z")
