"""Registration and tokens."""

from __future__ import annotations

from rest_framework.test import APIClient

from games.models import Player


def test_register_returns_the_player_and_a_token(db: None, anon: APIClient) -> None:
    r = anon.post(
        "/api/v1/auth/register/",
        {"username": "zoe", "password": "long-enough-pass", "display_name": "Zoë"},
        format="json",
    )
    assert r.status_code == 201, r.json()
    body = r.json()
    assert body["username"] == "zoe" and body["display_name"] == "Zoë" and len(body["token"]) == 40
    assert Player.objects.get(user__username="zoe").display_name == "Zoë"
    me = APIClient()
    me.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    assert me.post("/api/v1/tables/", {"game": "pacru", "players": 2}, format="json").status_code == 201


def test_a_taken_username_is_a_conflict(db: None, anon: APIClient) -> None:
    data = {"username": "zoe", "password": "long-enough-pass"}
    assert anon.post("/api/v1/auth/register/", data, format="json").status_code == 201
    r = anon.post("/api/v1/auth/register/", {**data, "username": "ZOE"}, format="json")
    assert r.status_code == 409
    assert "taken" in r.json()["detail"]


def test_a_weak_password_is_refused_with_the_reason(db: None, anon: APIClient) -> None:
    r = anon.post("/api/v1/auth/register/", {"username": "zoe", "password": "12345678"}, format="json")
    assert r.status_code == 400
    assert r.json()["code"] == "invalid" and "password" in r.json()["detail"]
    assert not Player.objects.exists()


def test_a_bad_username_is_refused(db: None, anon: APIClient) -> None:
    r = anon.post(
        "/api/v1/auth/register/", {"username": "a b", "password": "long-enough-pass"}, format="json"
    )
    assert r.status_code == 400
    assert r.json()["detail"].startswith("username:")


def test_token_for_the_right_password_only(db: None, anon: APIClient) -> None:
    anon.post("/api/v1/auth/register/", {"username": "zoe", "password": "long-enough-pass"}, format="json")
    ok = anon.post("/api/v1/auth/token/", {"username": "zoe", "password": "long-enough-pass"}, format="json")
    assert ok.status_code == 200 and len(ok.json()["token"]) == 40
    bad = anon.post("/api/v1/auth/token/", {"username": "zoe", "password": "nope-nope-nope"}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "authentication_failed"


def test_a_wrong_token_is_refused(db: None) -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)
    r = client.get("/api/v1/tables/")
    assert r.status_code == 401
    assert r.json()["detail"] == "invalid token"
