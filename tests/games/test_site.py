"""Admin, pages, the API schema and docs, throttling, and the production settings."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client
from rest_framework.test import APIClient

from .conftest import Actor, play_random, started_table

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def staff_client(db: None) -> Client:
    user = get_user_model().objects.create_superuser("boss", password="correct-horse-9")
    client = Client()
    client.force_login(user)
    return client


def test_admin_lists_and_searches_every_model(staff_client: Client, alice: Actor, bob: Actor) -> None:
    table = started_table([alice, bob])
    play_random(table, {1: alice.player, 2: bob.player}, plies=4)
    assert staff_client.get("/admin/").status_code == 200
    for path in (
        "/admin/games/player/?q=alice&is_bot__exact=0",
        "/admin/games/table/?status__exact=active&q=alice",
        "/admin/games/seat/?state__exact=playing",
        "/admin/games/move/?kind__exact=move&q=e",
        "/admin/ratings/rating/",
        "/admin/tournaments/tournament/",
        "/admin/tournaments/league/",
    ):
        assert staff_client.get(path).status_code == 200, path
    page = staff_client.get(f"/admin/games/table/{table.pk}/change/").content.decode()
    assert "Moves" in page and "Seats" in page
    assert staff_client.get("/admin/games/move/add/").status_code == 403, "the move log is read-only"


def test_the_admin_needs_staff(alice: Actor) -> None:
    client = Client()
    client.force_login(alice.player.user)
    assert client.get("/admin/").status_code == 302


def test_pages_show_tables_and_the_board(alice: Actor, bob: Actor) -> None:
    table = started_table([alice, bob])
    play_random(table, {1: alice.player, 2: bob.player}, plies=3)
    client = Client()
    home = client.get("/").content.decode()
    assert f"/tables/{table.pk}/" in home and "Alice" in home
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert '<pre class="board"' in page and "Bob" in page
    assert client.get("/tables/99999/").status_code == 404


def test_login_page_has_csrf_and_logout_needs_it(alice: Actor) -> None:
    client = Client(enforce_csrf_checks=True)
    page = client.get("/accounts/login/").content.decode()
    assert "csrfmiddlewaretoken" in page
    client.force_login(alice.player.user)
    assert client.post("/accounts/logout/").status_code == 403


def test_the_schema_lists_the_fixed_paths_and_the_docs_use_local_files(db: None) -> None:
    client = APIClient()
    schema = client.get("/api/v1/schema/?format=json").json()
    for path in (
        "/api/v1/auth/register/",
        "/api/v1/auth/token/",
        "/api/v1/tables/",
        "/api/v1/tables/{table_id}/",
        "/api/v1/tables/{table_id}/join/",
        "/api/v1/tables/{table_id}/moves/",
        "/api/v1/tables/{table_id}/resign/",
        "/api/v1/tables/{table_id}/record/",
    ):
        assert path in schema["paths"], path
    # Redoc's bundle comes through common.redoc_bundle (the sidecar's, its CDN logo pointed home).
    for page, local in (
        ("/api/v1/docs/", "/static/drf_spectacular_sidecar/"),
        ("/api/v1/redoc/", "/api/v1/redoc-assets/bundles/redoc.standalone.js"),
    ):
        html = client.get(page).content.decode()
        assert local in html
        assert "https://" not in html.split("<body")[0] and "cdn" not in html.lower()


@pytest.fixture
def low_limits(monkeypatch: Any) -> Any:
    from rest_framework.throttling import SimpleRateThrottle

    monkeypatch.setattr(
        SimpleRateThrottle, "THROTTLE_RATES", {"anon": "3/min", "user": "5/min", "auth": "2/min"}
    )
    cache.clear()
    yield
    cache.clear()


def test_anonymous_reads_are_throttled(db: None, low_limits: Any) -> None:
    client = APIClient()
    codes = [client.get("/api/v1/tables/").status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    body = client.get("/api/v1/tables/").json()
    assert body["code"] == "throttled" and "detail" in body


def test_the_auth_endpoints_have_their_own_limit(db: None, low_limits: Any) -> None:
    client = APIClient()
    codes = [
        client.post("/api/v1/auth/token/", {"username": "x", "password": "y"}, format="json").status_code
        for _ in range(3)
    ]
    assert codes == [400, 400, 429]


def run_manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {
        k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "DJANGO_PROFILE", "ALLOWED_HOSTS")
    }
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env={**clean, **env}, capture_output=True, text=True
    )


def test_the_production_profile_passes_the_deploy_check() -> None:
    out = run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DJANGO_PROFILE="production",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="example.org",
    )
    assert out.returncode == 0, out.stderr


def test_the_production_profile_needs_a_secret_key() -> None:
    out = run_manage("check", DJANGO_PROFILE="production", ALLOWED_HOSTS="example.org")
    assert out.returncode != 0 and "SECRET_KEY" in out.stderr


def test_the_redoc_bundle_is_served_without_its_cdn_logo(client: Any) -> None:
    r = client.get("/api/v1/redoc-assets/bundles/redoc.standalone.js")
    assert r.status_code == 200 and r["Content-Type"].startswith("text/javascript")
    body = r.content.decode()
    assert "cdn.redoc.ly" not in body and '"/static/favicon.svg"' in body and "Redoc" in body
    again = client.get("/api/v1/redoc-assets/bundles/redoc.standalone.js", HTTP_IF_NONE_MATCH=r["ETag"])
    assert again.status_code == 304
