"""What a stream may cost, on a real uvicorn process (issue 29: 9, 10, 15, 19; issue 30).

* A client holds at most ``LIVE_STREAMS_PER_ADDRESS`` streams per address and
  ``LIVE_STREAMS_PER_ACCOUNT`` per signed-in account (here 3 and 2); beyond that ``429`` in the
  API's error shape. A stream that ends (the client gone) gives its place back, and leaves its
  channel: the process's ``/metrics`` count both (``pacru_live_streams``, ``pacru_live_channels``).
* A topic that names nothing (a table, tournament or ladder that does not exist) is a ``404`` and
  costs no channel; a topic id that is not plain ASCII digits within 64 bits (``player:²``) is a
  ``400``, with no traceback in the server's log.
* ``player:<id>`` tells when that player's inbox or challenges change: only that player, signed in,
  may watch it.
* ``X-Forwarded-For`` from a client with no proxy in front is not its address (``scripts/run``).
* Under WSGI a stream answers ``501`` at once instead of being read to an end it never has; the
  streams are in the OpenAPI schema.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from django.conf import settings as django_settings
from django.test import Client

from live import reads
from tests.games.conftest import Actor, ladder_for, started_table
from tournaments import ladders

from .conftest import READ_TIMEOUT, REDIS, ROOT, Stream, Uvicorn

PER_ADDRESS, PER_ACCOUNT = 3, 2


def pg(test: Any) -> Any:
    """A test against the server: PostgreSQL (the server's database), committed data."""
    return pytest.mark.postgres(pytest.mark.django_db(transaction=True)(test))


@pytest.fixture(scope="module")
def server(django_db_setup: None) -> Iterator[Uvicorn]:
    """A uvicorn process with small caps (the API's own throttles off, as in the other live tests)."""
    s = Uvicorn(
        LIVE_KEEPALIVE_SECONDS="1",
        LIVE_STREAMS_PER_ADDRESS=str(PER_ADDRESS),
        LIVE_STREAMS_PER_ACCOUNT=str(PER_ACCOUNT),
    )
    s.start()
    try:
        yield s
    finally:
        s.stop()
        s.log.unlink(missing_ok=True)


@pytest.fixture
def live(server: Uvicorn) -> Iterator[Uvicorn]:
    """The server, with no stream open and no channel left, before and after each test. Closing
    waits longer than a test's own checks: it only keeps the tests apart, and on a loaded host the
    server can take more than a read timeout to see a client gone (a stream that never closes still
    fails here)."""
    settle(server, streams=0, channels=0)
    yield server
    settle(server, streams=0, channels=0, within=3 * READ_TIMEOUT)


def gauges(server: Uvicorn) -> tuple[int, int]:
    """The server's open streams and channels, from its ``/metrics`` (0 before any stream)."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=READ_TIMEOUT)
    try:
        conn.request("GET", "/metrics")
        resp = conn.getresponse()
        status, text = resp.status, resp.read().decode()
    finally:
        conn.close()
    assert status == 200, text
    values = {"pacru_live_streams": 0.0, "pacru_live_channels": 0.0}
    for line in text.splitlines():
        name, _, value = line.partition(" ")
        if name in values:
            values[name] = float(value)
    return int(values["pacru_live_streams"]), int(values["pacru_live_channels"])


def settle(server: Uvicorn, streams: int, channels: int, within: float = READ_TIMEOUT) -> None:
    """Wait until the server counts these streams and channels (failing after ``within`` s)."""
    end = time.monotonic() + within
    while (now := gauges(server)) != (streams, channels):
        if time.monotonic() > end:
            raise AssertionError(f"(streams, channels) stayed {now}, expected {(streams, channels)}")
        time.sleep(0.05)


def opened(s: Stream) -> Stream:
    """A stream answered 200, with its first line read (so the server is streaming it)."""
    assert s.status == 200, (s.status, s.resp.read(2000))
    s.line()
    return s


def refused(s: Stream, status: int, code: str) -> dict[str, Any]:
    """The stream was refused with ``status`` and ``code`` in the API's error shape."""
    with s:
        assert s.status == status, (s.status, s.resp.read(2000))
        assert s.content_type.startswith("application/json")
        body: dict[str, Any] = s.body()
        assert body["code"] == code and body["detail"], body
        return body


def session_cookie(actor: Actor) -> str:
    """A signed-in session of ``actor`` (in the database the server reads), as a Cookie header."""
    client = Client()
    client.force_login(actor.player.user)
    name = django_settings.SESSION_COOKIE_NAME
    return f"{name}={client.cookies[name].value}"


def close_all(streams: list[Stream]) -> None:
    for s in streams:
        s.close()


# ---------------------------------------------------------------- caps (finding 9, and 19)


@pg
def test_an_address_holds_its_cap_of_streams_and_a_closed_one_gives_its_place_back(
    live: Uvicorn, alice: Actor, bob: Actor
) -> None:
    table = started_table([alice, bob])
    paths = [f"/api/v1/tables/{table.pk}/stream/", f"/live/tables/{table.pk}/", "/live/topics/?t=lobby"]
    held = [opened(live.stream(path)) for path in paths]
    try:
        settle(live, streams=PER_ADDRESS, channels=2)
        for path in paths:
            refused(live.stream(path), 429, "throttled")
            # No proxy in front (as scripts/run): a forwarded-for header is no new identity.
            refused(live.stream(path, X_Forwarded_For="203.0.113.7"), 429, "throttled")
        held.pop(0).close()  # the client goes away: its place comes back
        settle(live, streams=PER_ADDRESS - 1, channels=2)
        held.append(opened(live.stream(paths[0])))
        refused(live.stream(paths[2]), 429, "throttled")
    finally:
        close_all(held)


@pg
def test_an_account_holds_its_cap_of_streams_by_token_or_session(
    live: Uvicorn, alice: Actor, bob: Actor
) -> None:
    table = started_table([alice, bob])
    token = {"Authorization": f"Token {alice.token}"}
    held = [
        opened(live.stream("/api/v1/stream/", **token)),
        opened(live.stream(f"/api/v1/tables/{table.pk}/stream/", **token)),
    ]
    try:
        refused(live.stream(f"/api/v1/tables/{table.pk}/stream/", **token), 429, "throttled")
        refused(live.stream("/api/v1/stream/", **token), 429, "throttled")
        # The session counts as the same account.
        cookie = session_cookie(alice)
        refused(live.stream(f"/live/tables/{table.pk}/", Cookie=cookie), 429, "throttled")
        refused(live.stream(f"/live/topics/?t=player:{alice.player.pk}", Cookie=cookie), 429, "throttled")
        # The address has room left: another account (or nobody) still gets a stream.
        held.append(opened(live.stream("/api/v1/stream/", Authorization=f"Token {bob.token}")))
    finally:
        close_all(held)


# ---------------------------------------------------------------- a stream's end (issue 30)


@pg
def test_a_client_gone_gives_back_its_place_and_its_channels(live: Uvicorn, alice: Actor, bob: Actor) -> None:
    table = started_table([alice, bob])
    ladder = ladder_for(alice, bob)
    a = opened(live.stream(f"/api/v1/tables/{table.pk}/stream/"))
    b = opened(live.stream(f"/live/tables/{table.pk}/"))
    settle(live, streams=2, channels=1)  # one channel per table, shared
    c = opened(live.stream(f"/live/topics/?t=lobby&t=ladder:{ladder.pk}"))
    settle(live, streams=3, channels=3)
    a.close()
    settle(live, streams=2, channels=3)  # b still watches the table
    b.close()
    settle(live, streams=1, channels=2)
    c.close()
    settle(live, streams=0, channels=0)


# ---------------------------------------------------------------- topics that name nothing (9, 10)


@pg
def test_a_topic_that_names_nothing_is_a_404_and_costs_no_channel(
    live: Uvicorn, alice: Actor, bob: Actor
) -> None:
    ladder = ladder_for(alice, bob)
    for path in (
        "/live/topics/?t=tournament:987654321",
        "/live/topics/?t=ladder:987654321",
        f"/live/topics/?t=lobby&t=ladder:{ladder.pk}&t=tournament:987654321",
        "/live/tables/987654321/",
        "/api/v1/tables/987654321/stream/",
    ):
        body = refused(live.stream(path), 404, "not_found")
        assert "987654321" in body["detail"], body
        assert gauges(live) == (0, 0), path


@pg
def test_topic_ids_are_ascii_digits_within_64_bits_and_junk_logs_no_traceback(
    live: Uvicorn, alice: Actor
) -> None:
    cookie = session_cookie(alice)
    junk = (
        "player:\u00b2",
        "tournament:\u0663",
        "ladder:05",
        "ladder:+5",
        f"player:{2**63}",
        "player:" + "9" * 40,
    )
    for topic in junk:
        for headers in ({}, {"Cookie": cookie}):
            refused(live.stream(f"/live/topics/?t={quote(topic)}", **headers), 400, "invalid")
    assert gauges(live) == (0, 0)
    assert "Traceback" not in live.output()


def test_which_named_topics_do_not_exist_is_one_query(
    db: None, alice: Actor, bob: Actor, django_assert_num_queries: Any
) -> None:
    ladder = ladder_for(alice, bob)
    wanted = [("ladder", ladder.pk), ("tournament", 987654321), ("ladder", 987654321), ("ladder", ladder.pk)]
    with django_assert_num_queries(1):
        assert reads._missing(wanted) == [("tournament", 987654321), ("ladder", 987654321)]
    with django_assert_num_queries(1):
        assert reads._missing([("ladder", ladder.pk)]) == []


# ---------------------------------------------------------------- private topics (finding 15)


@pg
def test_only_the_player_signed_in_may_watch_their_own_topic(live: Uvicorn, alice: Actor, bob: Actor) -> None:
    path = f"/live/topics/?t=lobby&t=player:{alice.player.pk}"
    refused(live.stream(path), 403, "forbidden")
    refused(live.stream(path, Cookie=session_cookie(bob)), 403, "forbidden")
    refused(live.stream(path, Authorization=f"Token {bob.token}"), 403, "forbidden")
    refused(live.stream(f"/live/topics/?t=player:{10**12}", Cookie=session_cookie(bob)), 403, "forbidden")
    assert gauges(live) == (0, 0)
    with live.stream(path, Cookie=session_cookie(alice)) as s:
        assert opened(s).content_type.startswith("text/event-stream")
        settle(live, streams=1, channels=2)


@pg
def test_the_players_page_topic_and_their_own_stream_do_not_share_a_channel(
    live: Uvicorn, settings: Any, alice: Actor, bob: Actor
) -> None:
    """Both are named after ``player:<id>`` but read different things (a version; the player's
    tables and challenges): each works, whichever was opened first, and both hear a change."""
    settings.REDIS_URL = REDIS  # this process publishes the challenge, as a web process would
    ladder = ladder_for(alice, bob)
    top, below = (alice, bob) if ladder.members.get(player=alice.player).position == 1 else (bob, alice)
    with live.stream(f"/live/topics/?t=player:{top.player.pk}", Cookie=session_cookie(top)) as page:
        opened(page)
        settle(live, streams=1, channels=1)
        with live.stream("/api/v1/stream/", Authorization=f"Token {top.token}") as mine:
            assert mine.status == 200
            first = mine.ndjson()
            assert first["type"] == "state" and first["challenges"] == [], first
            challenge = ladders.challenge_create(
                ladder=ladder, challenger=below.player, challenged=top.player
            )
            assert json.loads(page.event()["data"]) == [f"player:{top.player.pk}"]
            assert mine.until("challenge")["challenge"]["id"] == challenge.pk


# ---------------------------------------------------------------- WSGI, schema, uvicorn's flags


def test_under_wsgi_a_stream_answers_501_at_once(db: None) -> None:
    """gunicorn would read an endless stream to its end before sending a byte (a thread held for
    ever): the streams are served by the live (ASGI) server only."""
    client = Client()
    for path in ("/api/v1/stream/", "/api/v1/tables/1/stream/", "/live/tables/1/", "/live/topics/?t=lobby"):
        response = client.get(path)
        assert response.status_code == 501, path
        assert response.json()["code"] == "not_streaming"


def test_a_stream_opened_with_another_method_than_get_is_405(db: None) -> None:
    """A stream is only read: POST, PUT or DELETE on its address opens nothing."""
    client = Client()
    for path in ("/api/v1/stream/", "/api/v1/tables/1/stream/", "/live/tables/1/", "/live/topics/?t=lobby"):
        for method in (client.post, client.put, client.delete):
            response = method(path)
            assert response.status_code == 405, (path, method)
            assert response.json()["code"] == "method_not_allowed"
            assert response["Allow"] == "GET, HEAD"
    # With CSRF checks on, as a browser's request meets them: the API streams still answer in the
    # API's shape (the page streams answer the CSRF page, as every page does).
    checked = Client(enforce_csrf_checks=True)
    for path in ("/api/v1/stream/", "/api/v1/tables/1/stream/"):
        response = checked.post(path)
        assert response.status_code == 405 and response.json()["code"] == "method_not_allowed", path


def test_the_streams_are_in_the_openapi_schema(db: None) -> None:
    schema = Client().get("/api/v1/schema/", {"format": "json"}).json()
    table = schema["paths"]["/api/v1/tables/{table_id}/stream/"]["get"]
    mine = schema["paths"]["/api/v1/stream/"]["get"]
    for operation, errors in ((table, {"404", "429", "501"}), (mine, {"401", "429", "501"})):
        assert "application/x-ndjson" in operation["responses"]["200"]["content"]
        assert errors <= set(operation["responses"]), operation["responses"].keys()
        for code in errors:
            assert "application/json" in operation["responses"][code]["content"]
    assert [p["name"] for p in table["parameters"]] == ["table_id"]


@pytest.mark.parametrize("script", ["scripts/run", "docker/entrypoint.sh"])
def test_uvicorn_never_takes_the_client_address_from_a_header(script: str) -> None:
    """The service reads X-Forwarded-For itself, from ``TRUSTED_PROXIES`` proxies only (as under
    gunicorn); uvicorn's own reading (its default: from 127.0.0.1; the compose file's: from
    anyone) would let a client pick its address."""
    text = Path(ROOT, script).read_text()
    command = text[text.index("uvicorn config.asgi:application") :].split("\n    ;;")[0]
    assert "--no-proxy-headers" in command, command
    assert "--forwarded-allow-ips" not in command and "--proxy-headers" not in command.replace(
        "--no-proxy-headers", ""
    )


@pg
def test_a_stopping_server_ends_its_streams(alice: Actor, bob: Actor) -> None:
    """Open streams never end by themselves: on SIGTERM the server (as scripts/run and the compose
    file's live service run it) waits a moment, then ends them and exits, without a traceback."""
    table = started_table([alice, bob])
    server = Uvicorn(LIVE_KEEPALIVE_SECONDS="1")
    server.start()
    try:
        streams = [
            opened(server.stream(f"/api/v1/tables/{table.pk}/stream/")),
            opened(server.stream(f"/live/tables/{table.pk}/")),
        ]
        assert server.proc is not None
        os.killpg(server.proc.pid, signal.SIGTERM)
        code = server.proc.wait(timeout=READ_TIMEOUT)
        server.proc = None
        assert code in (0, -signal.SIGTERM), code  # uvicorn exits by the signal it was stopped with
        for s in streams:
            with s, pytest.raises((EOFError, http.client.IncompleteRead, ConnectionError)):
                for _ in range(100):
                    s.line()
        assert "Traceback" not in server.output(), server.output()
    finally:
        server.stop()
        server.log.unlink(missing_ok=True)
