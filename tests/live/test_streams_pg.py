"""The live streams as served by a real uvicorn process: the table as ndjson and as server-sent
events, the player's own stream, a crash and restart of the server, and Redis pub/sub reaching a
stream without any polling.

Writes go through the server's API (with an Actor's token) or, where the point is a write made
elsewhere, through the services in this process; streams are read line by line over HTTP.
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest

from engine.playout import random_step
from games import services
from games.models import Table
from tests.games.conftest import Actor, ladder_for, started_table
from tournaments import ladders

from .conftest import REDIS, Uvicorn

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

RNG = random.Random(7)


def legal_move(table_id: int) -> tuple[int, int, str]:
    """The seat to move, the ply it answers and a legal move for it (read in this process)."""
    table = Table.objects.get(pk=table_id)
    state = services.current_state(table)
    _, text = random_step(state, RNG)
    return state.to_move, table.ply, text


def api_move(server: Uvicorn, table_id: int, by_seat: dict[int, Actor]) -> dict[str, Any]:
    """One legal move POSTed to the server by the player whose turn it is."""
    seat, ply, text = legal_move(table_id)
    status, body = server.post(
        f"/api/v1/tables/{table_id}/moves/", {"ply": ply, "move": text}, token=by_seat[seat].token
    )
    assert status == 201, body
    return body


def service_move(table_id: int, by_seat: dict[int, Actor]) -> None:
    """One legal move made here, through the service (not through the server)."""
    seat, ply, text = legal_move(table_id)
    services.move_submit(table_id=table_id, player=by_seat[seat].player, ply=ply, move=text)


def seats(table: Table, *actors: Actor) -> dict[int, Actor]:
    by_player = {a.player.pk: a for a in actors}
    return {s.number: by_player[s.player_id] for s in table.seats.all()}


def state_of(event: dict[str, str]) -> dict[str, Any]:
    assert event.get("event") == "state", event
    data: dict[str, Any] = json.loads(event["data"])
    return data


# ---------------------------------------------------------------- the table as ndjson


def test_table_stream_sends_the_state_then_moves_results_and_pings(
    uvicorn_server: Uvicorn, alice: Actor, bob: Actor
) -> None:
    table = started_table([alice, bob])
    by_seat = seats(table, alice, bob)
    with uvicorn_server.stream(f"/api/v1/tables/{table.pk}/stream/") as s:
        assert s.status == 200 and s.content_type.startswith("application/x-ndjson")
        first = s.ndjson()
        assert first["type"] == "state"
        assert first["table"]["id"] == table.pk and first["table"]["ply"] == 0
        assert first["table"]["status"] == "active"
        assert first["id"].startswith(f"t{table.pk}-")

        moved = api_move(uvicorn_server, table.pk, by_seat)
        line = s.ndjson()
        assert line["type"] == "move", line
        assert line["table"]["ply"] == 1 == moved["table"]["ply"]
        assert len(line["table"]["moves"]) == 1
        assert line["id"] != first["id"]

        status, _ = uvicorn_server.post(f"/api/v1/tables/{table.pk}/resign/", token=alice.token)
        assert status == 200
        line = s.ndjson()
        assert line["type"] == "result", line
        assert line["table"]["status"] == "finished"
        assert line["table"]["winner_seat"] == next(n for n, a in by_seat.items() if a is bob)

        # Nothing more happens: the stream says it is alive (LIVE_KEEPALIVE_SECONDS=1 here).
        assert s.ndjson(pings=True) == {"type": "ping"}
        assert s.ndjson(pings=True) == {"type": "ping"}


def test_unknown_tables_are_a_404_on_both_table_streams(uvicorn_server: Uvicorn) -> None:
    for path in ("/api/v1/tables/987654321/stream/", "/live/tables/987654321/"):
        with uvicorn_server.stream(path) as s:
            assert s.status == 404, path
            assert s.content_type.startswith("application/json")
            body = s.body()
            assert body["code"] == "not_found" and "987654321" in body["detail"]


# ---------------------------------------------------------------- server-sent events


def test_sse_ids_are_versions_and_last_event_id_resumes(
    uvicorn_server: Uvicorn, alice: Actor, bob: Actor
) -> None:
    table = started_table([alice, bob])
    by_seat = seats(table, alice, bob)
    path = f"/live/tables/{table.pk}/"

    with uvicorn_server.stream(path) as s:
        assert s.status == 200 and s.content_type.startswith("text/event-stream")
        assert s.block() == {"retry": "1000"}
        first = s.event()
        v1 = first["id"]
        assert v1.startswith(f"t{table.pk}-active-") and state_of(first)["ply"] == 0
        api_move(uvicorn_server, table.pk, by_seat)
        second = s.event()
        v2 = second["id"]
        assert v2 != v1 and state_of(second)["ply"] == 1

    # Back with the current version: no state (only keep-alives) until the next change.
    with uvicorn_server.stream(path, Last_Event_ID=v2) as s:
        assert s.block() == {"retry": "1000"}
        assert s.block() == {"comment": "keep-alive"}
        assert s.block() == {"comment": "keep-alive"}
        api_move(uvicorn_server, table.pk, by_seat)
        third = s.event()
        v3 = third["id"]
        assert v3 not in (v1, v2) and state_of(third)["ply"] == 2

    # Back with an older version: the current state at once, before any keep-alive.
    with uvicorn_server.stream(path, Last_Event_ID=v1) as s:
        assert s.block() == {"retry": "1000"}
        now = s.block()
        assert now["id"] == v3 and state_of(now)["ply"] == 2
        assert len(state_of(now)["moves"]) == 2


def test_a_client_back_after_a_server_crash_gets_the_moves_made_meanwhile(
    uvicorn_server: Uvicorn, alice: Actor, bob: Actor
) -> None:
    table = started_table([alice, bob])
    by_seat = seats(table, alice, bob)
    path = f"/live/tables/{table.pk}/"
    with uvicorn_server.stream(path) as s:
        state_of(s.event())
        api_move(uvicorn_server, table.pk, by_seat)
        seen = s.event()
        last = seen["id"]
        assert state_of(seen)["ply"] == 1

        uvicorn_server.kill()  # SIGKILL: the stream is cut, no last word
        with pytest.raises((EOFError, ConnectionError)):
            while True:
                s.block()

    # While the server is down, two moves are made elsewhere (another server would take them).
    service_move(table.pk, by_seat)
    service_move(table.pk, by_seat)
    uvicorn_server.start()  # the same port

    with uvicorn_server.stream(path, Last_Event_ID=last) as s:
        assert s.block() == {"retry": "1000"}
        back = s.block()
        data = state_of(back)
        assert back["id"] != last
        assert data["ply"] == 3 and len(data["moves"]) == 3


# ---------------------------------------------------------------- the player's own stream


def test_the_player_stream_needs_a_player(uvicorn_server: Uvicorn) -> None:
    for headers in ({}, {"Authorization": "Token not-a-real-token"}):
        with uvicorn_server.stream("/api/v1/stream/", **headers) as s:
            assert s.status == 401, headers
            assert s.content_type.startswith("application/json")
            assert s.body()["code"] == "not_authenticated"


def test_the_player_stream_tells_of_game_starts_and_turns(
    uvicorn_server: Uvicorn, alice: Actor, bob: Actor
) -> None:
    with (
        uvicorn_server.stream("/api/v1/stream/", Authorization=f"Token {alice.token}") as a,
        uvicorn_server.stream("/api/v1/stream/", Authorization=f"Token {bob.token}") as b,
    ):
        for s in (a, b):
            assert s.status == 200 and s.content_type.startswith("application/x-ndjson")
            first = s.ndjson()
            assert first["type"] == "state"
            assert first["tables"] == [] and first["challenges"] == []

        status, created = uvicorn_server.post(
            "/api/v1/tables/", {"game": "pacru", "players": 2}, token=alice.token
        )
        assert status == 201, created
        table_id = created["id"]
        status, joined = uvicorn_server.post(f"/api/v1/tables/{table_id}/join/", token=bob.token)
        assert status == 200, joined

        for s in (a, b):
            start = s.until("gameStart")
            assert start["table"]["id"] == table_id and start["table"]["status"] == "active"

        table = Table.objects.get(pk=table_id)
        by_seat = seats(table, alice, bob)
        first_mover = by_seat[table.to_move]
        streams = {alice.player.pk: a, bob.player.pk: b}
        other = bob if first_mover is alice else alice

        api_move(uvicorn_server, table_id, by_seat)
        turn = streams[other.player.pk].until("yourTurn")
        assert turn["table"]["id"] == table_id
        assert turn["table"]["ply"] == 1 and turn["table"]["your_turn"] is True

        api_move(uvicorn_server, table_id, by_seat)
        # The first mover's earlier yourTurn (ply 0) may come first; the one for ply 2 follows.
        turn = streams[first_mover.player.pk].until("yourTurn")
        if turn["table"]["ply"] == 0:
            turn = streams[first_mover.player.pk].until("yourTurn")
        assert turn["table"]["id"] == table_id and turn["table"]["ply"] == 2


def test_the_player_stream_tells_of_a_ladder_challenge(
    uvicorn_server: Uvicorn, settings: Any, alice: Actor, bob: Actor
) -> None:
    settings.REDIS_URL = REDIS  # this process publishes the challenge, as a web process would
    ladder = ladder_for(alice, bob)
    top, below = (alice, bob) if ladder.members.get(player=alice.player).position == 1 else (bob, alice)
    with uvicorn_server.stream("/api/v1/stream/", Authorization=f"Token {top.token}") as s:
        assert s.ndjson()["type"] == "state"
        challenge = ladders.challenge_create(ladder=ladder, challenger=below.player, challenged=top.player)
        line = s.until("challenge")
        assert line["challenge"]["id"] == challenge.pk
        assert line["challenge"]["ladder"] == ladder.pk
        assert line["challenge"]["by"] == below.player.display_name


# ---------------------------------------------------------------- Redis pub/sub, not polling


def test_a_move_made_elsewhere_reaches_the_stream_through_redis(
    uvicorn_server: Uvicorn, settings: Any, alice: Actor, bob: Actor
) -> None:
    """The server rechecks a watched table only every 30 s (LIVE_RECHECK_SECONDS): a move made in
    this process (not through the server) shows within seconds only because this process
    PUBLISHes it on Redis and the server's hub hears it."""
    settings.REDIS_URL = REDIS
    table = started_table([alice, bob])
    by_seat = seats(table, alice, bob)
    with uvicorn_server.stream(f"/api/v1/tables/{table.pk}/stream/") as s:
        assert s.ndjson()["type"] == "state"
        started = time.monotonic()
        service_move(table.pk, by_seat)
        line = s.ndjson()
        took = time.monotonic() - started
        assert line["type"] == "move" and line["table"]["ply"] == 1
        # Far below the 30 s recheck: only pub/sub can explain it (typically a few ms).
        assert took < 5, f"the move took {took:.2f} s to reach the stream: not through Redis?"


# ---------------------------------------------------------------- page topics


def test_page_topics_say_which_fragment_changed(
    uvicorn_server: Uvicorn, settings: Any, alice: Actor, bob: Actor
) -> None:
    """The lobby and ladder pages subscribe to their topics; a new table changes the lobby, a
    challenge changes the ladder (and only the topics that changed are named)."""
    settings.REDIS_URL = REDIS
    ladder = ladder_for(alice, bob)
    with uvicorn_server.stream(f"/live/topics/?t=lobby&t=ladder:{ladder.pk}") as s:
        status, _ = uvicorn_server.post("/api/v1/tables/", {"game": "pacru", "players": 2}, token=alice.token)
        assert status == 201
        assert json.loads(s.event()["data"]) == ["lobby"]
        top, below = (alice, bob) if ladder.members.get(player=alice.player).position == 1 else (bob, alice)
        ladders.challenge_create(ladder=ladder, challenger=below.player, challenged=top.player)
        # The table's announcements may still bring a second lobby event; then comes the ladder's.
        for _ in range(3):
            named = set(json.loads(s.event()["data"]))
            assert named <= {"lobby", f"ladder:{ladder.pk}"}
            if f"ladder:{ladder.pk}" in named:
                break
        else:
            raise AssertionError("the challenge never changed the ladder's topic")
    status, body = uvicorn_server.get("/live/topics/?t=nothing:1")
    assert status == 400 and body["code"] == "invalid"
