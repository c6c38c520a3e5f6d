"""The inputs a security audit's schema fuzzing found answering 500 (or the wrong thing): each now
answers a clear 400/404 in the API's error shape, or does what the documentation says."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client, RequestFactory, override_settings
from rest_framework.test import APIClient

from common.errors import server_error
from games import services
from games.models import Table
from tests.games.conftest import Actor, as_organiser, started_table


def error(response: Any, status: int, code: str | None = None) -> dict[str, Any]:
    """The response is ``status`` with the API's error shape, JSON; its body."""
    assert response.status_code == status, (response.status_code, response.content[:300])
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body = json.loads(response.content)
    assert isinstance(body.get("detail"), str) and body["detail"], body
    assert isinstance(body.get("code"), str) and body["code"], body
    if code is not None:
        assert body["code"] == code, body
    return body


# 1. integers beyond the 64-bit range: in query parameters (400) and in path ids (404)
@pytest.mark.parametrize(
    "url",
    [
        "/api/v1/players/?limit=99999999999999999999",
        "/api/v1/tables/?player=9223372036854775808",
        "/api/v1/ratings/pacru/quality/?players=1,99999999999999999999",
        "/api/v1/players/?offset=99999999999999999999",
        "/api/v1/ratings/pacru/?offset=9223372036854775807",
    ],
)
def test_integer_overflow_in_a_query_parameter_is_a_400(db: None, url: str) -> None:
    error(APIClient().get(url), 400, "invalid")


@pytest.mark.parametrize(
    "url",
    [
        "/api/v1/tournaments/99999999999999999999/rounds/1/",
        "/api/v1/tournaments/1/rounds/9223372036854775808/",
        "/api/v1/tables/9223372036854775808/",
        "/api/v1/players/99999999999999999999/ratings/",
    ],
)
def test_integer_overflow_in_a_path_id_is_a_404(db: None, url: str) -> None:
    error(APIClient().get(url), 404, "not_found")


def test_the_largest_id_is_still_looked_up(db: None) -> None:
    error(APIClient().get("/api/v1/tables/9223372036854775807/"), 404, "not_found")


def test_a_huge_limit_is_capped_not_an_error(alice: Actor) -> None:
    r = alice.get("/api/v1/players/?limit=9223372036854775807")
    assert r.status_code == 200 and len(r.json()["results"]) == 1


def test_a_huge_number_in_a_body_is_a_400(alice: Actor) -> None:
    r = alice.post("/api/v1/tables/1/moves/", {"ply": 99999999999999999999, "move": "a3-b4(b4)"})
    error(r, 400, "invalid")


# 2. a NUL character in a query parameter (PostgreSQL refuses it in text)
@pytest.mark.parametrize(
    "url", ["/api/v1/tournaments/?status=%00", "/api/v1/players/?search=a%00b", "/api/v1/tables/?game=%00"]
)
def test_a_nul_byte_in_a_filter_is_a_400(db: None, url: str) -> None:
    assert "NUL" in error(APIClient().get(url), 400, "invalid")["detail"]


# 3. deeply nested JSON bodies
@pytest.mark.parametrize("depth", [40, 100_000])
def test_deeply_nested_json_is_a_400(alice: Actor, depth: int) -> None:
    body = "[" * depth + "]" * depth
    for url in ("/api/v1/tables/", "/api/v1/tournaments/", "/api/v1/auth/token/"):
        r = alice.client.post(url, body, content_type="application/json")
        assert "nested too deeply" in error(r, 400)["detail"]


def test_moderately_nested_json_is_still_read(alice: Actor) -> None:
    r = alice.post("/api/v1/tables/", {"game": "pacru", "players": 2, "time_control": {"kind": "untimed"}})
    assert r.status_code == 201, r.json()


# 4. every 404 under /api/ is JSON in the error shape; pages keep their page; 500s are plain
@pytest.mark.parametrize(
    "url", ["/api/v1/tables/abc/", "/api/v1/nothing-here/", "/api/v1/tournaments/1/rounds/x/", "/api/"]
)
def test_unknown_api_paths_answer_the_json_error_shape(db: None, url: str) -> None:
    error(Client().get(url), 404, "not_found")


def test_unknown_pages_still_answer_a_page(db: None) -> None:
    r = Client().get("/tables/abc/")
    assert r.status_code == 404 and not r["Content-Type"].startswith("application/json")


def test_a_body_with_too_many_fields_is_a_json_400_and_changes_nothing(alice: Actor) -> None:
    """Django refuses to read a form body past DATA_UPLOAD_MAX_NUMBER_FIELDS (the API fuzz sent one
    to mark notifications read): the API answers its error shape, not Django's HTML 400 page."""
    fields = {f"f{n}": "x" for n in range(1100)}
    body = error(alice.client.post("/api/v1/notifications/read/", fields, format="multipart"), 400, "invalid")
    assert "too many fields" in body["detail"]
    page = Client(raise_request_exception=False).post("/accounts/login/", fields)
    assert page.status_code == 400 and not page["Content-Type"].startswith("application/json")


def _boom(*args: Any, **kwargs: Any) -> Any:
    raise RuntimeError("boom")


@override_settings(DEBUG=False)
def test_api_server_errors_answer_the_json_error_shape(db: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("games.apis.HealthApi.get", _boom)
    body = error(Client(raise_request_exception=False).get("/api/v1/health/"), 500, "server_error")
    assert "boom" not in body["detail"]


def test_page_server_errors_are_a_short_plain_page(db: None) -> None:
    r = server_error(RequestFactory().get("/tables/1/"))
    assert r.status_code == 500 and b"Traceback" not in r.content and len(r.content) < 2000
    error(server_error(RequestFactory().get("/api/v1/tables/1/")), 500, "server_error")


# 5. ?format= is the tournaments' filter, not DRF's renderer override
def test_format_filters_tournaments(make_actor: Callable[..., Actor]) -> None:
    organiser = make_actor("org")
    as_organiser(organiser.player)
    assert organiser.post("/api/v1/leagues/", {"name": "The Club", "slug": "club"}).status_code == 201
    base = {"league": "club", "game": "pacru", "seats": 2}
    assert organiser.post("/api/v1/tournaments/", {**base, "name": "S", "rounds": 3}).status_code == 201
    rr = organiser.post("/api/v1/tournaments/", {**base, "name": "R", "format": "round_robin"})
    assert rr.status_code == 201, rr.json()
    r = APIClient().get("/api/v1/tournaments/?format=swiss")
    assert r.status_code == 200 and [t["name"] for t in r.json()["results"]] == ["S"]
    rr_page = APIClient().get("/api/v1/tournaments/?format=round_robin").json()
    assert [t["name"] for t in rr_page["results"]] == ["R"]


# 6. the detail's ``rounds`` is the configured number; the rounds themselves are ``round_list``
def test_tournament_detail_keeps_rounds_the_number(make_actor: Callable[..., Actor]) -> None:
    organiser = make_actor("org")
    as_organiser(organiser.player)
    organiser.post("/api/v1/leagues/", {"name": "The Club", "slug": "club"})
    body = {"league": "club", "name": "S", "game": "pacru", "seats": 2, "rounds": 4}
    made = organiser.post("/api/v1/tournaments/", body).json()
    assert made["rounds"] == 4 and made["round_list"] == []
    detail = APIClient().get(f"/api/v1/tournaments/{made['id']}/").json()
    listed = APIClient().get("/api/v1/tournaments/").json()["results"][0]
    assert detail["rounds"] == listed["rounds"] == 4 and detail["round_list"] == []


# 7. a Swiss without ``rounds`` gets the default (5); 0 is still refused
def test_a_swiss_without_rounds_gets_the_default(make_actor: Callable[..., Actor]) -> None:
    organiser = make_actor("org")
    as_organiser(organiser.player)
    organiser.post("/api/v1/leagues/", {"name": "The Club", "slug": "club"})
    body = {"league": "club", "name": "S", "game": "pacru", "seats": 2}
    made = organiser.post("/api/v1/tournaments/", body)
    assert made.status_code == 201, made.json()
    assert made.json()["format"] == "swiss" and made.json()["rounds"] == 5
    zero = organiser.post("/api/v1/tournaments/", {**body, "rounds": 0})
    assert "rounds" in error(zero, 400)["detail"]
    ko = organiser.post("/api/v1/tournaments/", {**body, "format": "knockout"})
    assert ko.status_code == 201 and ko.json()["rounds"] == 0  # computed at the start


# 8. ?search= on the players
def test_player_search_is_a_case_insensitive_substring(make_actor: Callable[..., Actor]) -> None:
    for name in ("alice", "malia", "bob", "al_x"):
        make_actor(name)

    def names(q: str) -> list[str]:
        return [p["username"] for p in APIClient().get(f"/api/v1/players/?search={q}").json()["results"]]

    assert names("AL") == ["alice", "malia", "al_x"]  # in the order they registered
    assert names("l_") == ["al_x"]  # _ is a character, not a wildcard
    assert names("%25") == []  # nor is %
    assert len(names("")) == 4


# 9. seats[].markers during play are the markers on the board
def test_seat_markers_are_the_board_s_during_play(alice: Actor, bob: Actor) -> None:
    table = started_table([alice, bob], game="pacru")
    services.move_submit(table_id=table.pk, player=alice.player, ply=0, move="a3-b4(b4)")
    body = alice.get(f"/api/v1/tables/{table.pk}/").json()
    assert body["status"] == Table.Status.ACTIVE
    assert {s["number"]: s["markers"] for s in body["seats"]} == {
        int(k): v for k, v in body["scores"].items()
    }
    assert body["seats"][0]["markers"] >= 1


@override_settings(DEBUG=True)
def test_unknown_api_paths_are_json_with_debug_on_too(db: None) -> None:
    error(Client().get("/api/v1/tables/abc/"), 404, "not_found")


# the engine's refusal, as a code and params beside the words (the same in every language)
@pytest.mark.parametrize(
    "move, refusal",
    [
        (
            "e1-e5",
            {"code": "power_too_low", "params": {"move": "e1-e5", "field": "e1", "power": 1, "distance": 4}},
        ),
        (
            "a3-b4",
            {
                "code": "choose_border_marker",
                "params": {
                    "move": "a3-b4",
                    "land": "b5",
                    "options": ["a4", "a5", "a6", "b4", "b5", "b6", "c4", "c5", "c6"],
                },
            },
        ),
        ("z9-a1", {"code": "not_a_move", "params": {"move": "z9-a1"}}),
        ("pass", {"code": "no_passing", "params": {}}),
    ],
)
def test_a_refused_move_names_the_engine_s_refusal(alice: Actor, bob: Actor, move: str, refusal: Any) -> None:
    table = started_table([alice, bob], game="pacru")
    url = f"/api/v1/tables/{table.pk}/moves/"
    english = error(alice.post(url, {"ply": 0, "move": move}, HTTP_ACCEPT_LANGUAGE="en"), 400, "illegal_move")
    french = error(alice.post(url, {"ply": 0, "move": move}, HTTP_ACCEPT_LANGUAGE="fr"), 400, "illegal_move")
    assert english["refusal"] == french["refusal"] == refusal
    assert set(english) == {"detail", "code", "refusal"}
    assert english["detail"] != french["detail"]
