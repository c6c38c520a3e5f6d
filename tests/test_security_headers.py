"""The Content-Security-Policy every page is sent with, pages that need no inline script or style,
and debug pages only for local clients."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

import pytest
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.urls import path

from tests.games.conftest import Actor, as_organiser


class InlineFinder(HTMLParser):
    """Collects what a policy without 'unsafe-inline' would block."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        if tag == "script" and not names.get("src") and names.get("type") != "application/json":
            self.found.append("inline <script>")  # JSON data (json_script) is never run: allowed
        if tag == "style":
            self.found.append("<style> element")
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(f"{name}= on <{tag}>")
            if name == "style":
                self.found.append(f"style= on <{tag}>")
            if name in ("href", "src", "action") and (value or "").strip().lower().startswith("javascript:"):
                self.found.append(f"javascript: URL on <{tag}>")


def inline_parts(html: str) -> list[str]:
    finder = InlineFinder()
    finder.feed(html)
    return finder.found


def policy(response: Any) -> dict[str, list[str]]:
    out = {}
    for part in response["Content-Security-Policy"].split(";"):
        name, *values = part.split()
        out[name] = values
    return out


@pytest.mark.django_db
def test_pages_are_sent_with_a_strict_policy_and_need_nothing_inline(client: Client) -> None:
    alice = Actor("alice")
    from games import services as games
    from tournaments.competitions import services as tournaments

    table = games.table_create(creator=alice.player, game="pacru", players=2)
    league = tournaments.league_create(organiser=as_organiser(alice.player), name="Policy Club")
    event = tournaments.tournament_create(
        organiser=alice.player, league=league, name="Cup", game="shacru", seats=2, format="round_robin"
    )
    urls = [
        "/",
        "/accounts/login/",
        "/accounts/signup/",
        "/ratings/pacru/",
        f"/tables/{table.pk}/",
        f"/leagues/{league.slug}/",
        f"/tournaments/{event.pk}/",
        f"/players/{alice.player.pk}/",
    ]
    client.force_login(alice.player.user)
    for url in [*urls, "/organiser/"]:
        r = client.get(url)
        assert r.status_code == 200, url
        rules = policy(r)
        assert rules["script-src"] == ["'self'"] and rules["style-src"] == ["'self'"], url
        assert rules["object-src"] == ["'none'"] and rules["frame-ancestors"] == ["'none'"]
        assert inline_parts(r.content.decode()) == [], url


@pytest.mark.django_db
def test_the_api_documentation_pages_get_their_own_policy_still_without_inline_scripts(
    client: Client,
) -> None:
    for url in ("/api/v1/docs/", "/api/v1/redoc/"):
        r = client.get(url)
        assert r.status_code == 200
        rules = policy(r)
        assert rules["script-src"] == ["'self'"], "no inline script even there"
        assert "inline <script>" not in inline_parts(r.content.decode())
        assert "'unsafe-inline'" in rules["style-src"]
    assert policy(client.get("/api/v1/tables/"))["default-src"] == ["'self'"]


# ------------------------------------------------------------------ debug pages


def boom(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("secret internals")


urlpatterns = [path("boom/", boom)]


@pytest.fixture
def debug_on(settings: Any) -> None:
    settings.DEBUG = True
    settings.ROOT_URLCONF = __name__


def test_debug_pages_are_shown_to_local_clients_only(debug_on: None) -> None:
    local = Client(REMOTE_ADDR="127.0.0.1", raise_request_exception=False)
    r = local.get("/boom/")
    assert r.status_code == 500 and b"secret internals" in r.content, "the developer's own debug page"
    remote = Client(REMOTE_ADDR="203.0.113.9", raise_request_exception=False)
    r = remote.get("/boom/")
    assert r.status_code == 500
    assert b"secret internals" not in r.content and b"Traceback" not in r.content
    r = remote.get("/nowhere/")
    assert r.status_code == 404 and b"URLconf" not in r.content, "no URL patterns shown either"
    assert b"URLconf" in local.get("/nowhere/").content
    # A forged X-Forwarded-For does not make a remote client local.
    r = Client(REMOTE_ADDR="203.0.113.9", HTTP_X_FORWARDED_FOR="127.0.0.1", raise_request_exception=False)
    assert b"secret internals" not in r.get("/boom/").content
