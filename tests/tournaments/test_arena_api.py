"""The arenas' API: creating one, its leaderboard with your line, joining, pausing, berserk."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.utils import timezone

from games.clocks import SeatClock
from games.models import Table
from tournaments.arena import finished as arena_finished
from tournaments.arena import wave
from tournaments.models import ArenaPlayer, Tournament

from ..games.conftest import Actor, as_organiser


@pytest.fixture
def organiser(make_actor: Callable[..., Actor]) -> Actor:
    actor = make_actor("apiorg")
    as_organiser(actor.player)
    assert actor.post("/api/v1/leagues/", {"name": "Arena club", "slug": "arenas"}).status_code == 201
    return actor


def _create(organiser: Actor, **body: Any) -> Any:
    base = {
        "league": "arenas",
        "name": "Friday arena",
        "game": "azacru",
        "seats": 2,
        "format": "arena",
        "duration_minutes": 45,
        "time_control": {"kind": "fischer", "base": 180, "increment": 2},
    }
    return organiser.post("/api/v1/tournaments/", {**base, **body})


def test_creating_an_arena_through_the_api(organiser: Actor) -> None:
    r = _create(organiser)
    assert r.status_code == 201, r.json()
    body = r.json()
    assert (body["format"], body["duration_minutes"], body["berserk"], body["rounds"]) == (
        "arena",
        45,
        True,
        0,
    )
    assert body["ends_at"] is None
    missing = _create(organiser, duration_minutes=None)
    assert missing.status_code == 400 and "duration_minutes" in missing.json()["detail"]
    assert _create(organiser, rounds=3).status_code == 400
    untimed = _create(organiser, time_control={"kind": "untimed"}, berserk=True).json()
    assert untimed["berserk"] is False
    swiss = organiser.post(
        "/api/v1/tournaments/",
        {"league": "arenas", "name": "S", "game": "azacru", "seats": 2, "duration_minutes": 30},
    )
    assert swiss.status_code == 400 and "only an arena" in swiss.json()["detail"]


def test_join_pause_resume_and_berserk_through_the_api(
    organiser: Actor, make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    t = _create(organiser).json()
    url = f"/api/v1/tournaments/{t['id']}/arena/"
    a, b = make_actor("ja"), make_actor("jb")
    joined = a.post(url + "join/")
    assert joined.status_code == 200 and joined.json()["me"]["entered"] is True
    assert a.post(url + "join/").status_code == 409
    assert b.post(url + "join/").status_code == 200
    assert a.post(url + "pause/").status_code == 409, "nothing to pause before the start"
    assert organiser.post(f"/api/v1/tournaments/{t['id']}/start/").status_code == 200
    board = organiser.get(url).json()
    assert board["status"] == "running" and board["ends_at"] is not None
    assert [r["points"] for r in board["standings"]] == [0, 0] and board["podium"] == []
    assert board["me"]["entered"] is False and board["me"]["row"] is None
    wave.pair_arena(tournament_id=t["id"], now=timezone.now())
    mine = a.get(url).json()["me"]
    table_id = mine["table"]
    assert table_id is not None and mine["row"]["table"] == table_id and mine["waiting_since"] is None
    r = a.post(f"/api/v1/tables/{table_id}/berserk/")
    assert r.status_code == 200 and r.json()["berserk"] == [a.player.pk]
    seat = Table.objects.get(pk=table_id).seats.get(player=a.player).number
    assert SeatClock.from_dict(Table.objects.get(pk=table_id).clocks[str(seat)]).remaining == 90.0
    assert a.post(f"/api/v1/tables/{table_id}/berserk/").status_code == 409
    assert make_actor("nosy").post(f"/api/v1/tables/{table_id}/berserk/").status_code == 403
    assert a.post(url + "pause/").json()["me"]["row"]["paused"] is True
    assert a.post(url + "resume/").json()["me"]["row"]["paused"] is False
    assert b.post(url + "withdraw/").json()["me"]["entered"] is False
    assert ArenaPlayer.objects.get(player=b.player).withdrawn
    assert organiser.get("/api/v1/tournaments/999999/arena/").status_code == 404
    swiss = organiser.post(
        "/api/v1/tournaments/", {"league": "arenas", "name": "S", "game": "azacru", "seats": 2}
    ).json()
    assert organiser.get(f"/api/v1/tournaments/{swiss['id']}/arena/").status_code == 404
    assert a.post(f"/api/v1/tournaments/{swiss['id']}/arena/join/").status_code == 409
    assert not Tournament.objects.get(pk=swiss["id"]).registrations.exists()


def test_the_event_api_reads_an_arenas_standings_off_its_leaderboard(
    organiser: Actor, make_actor: Callable[..., Actor]
) -> None:
    """The event's detail and standings endpoints (round-based for the other formats) give an
    arena's points, tables and wins, and its performance as the one tiebreak."""
    t = _create(organiser).json()
    url = f"/api/v1/tournaments/{t['id']}/arena/"
    a, b = make_actor("sa"), make_actor("sb")
    assert a.post(url + "join/").status_code == 200 and b.post(url + "join/").status_code == 200
    assert organiser.post(f"/api/v1/tournaments/{t['id']}/start/").status_code == 200
    wave.pair_arena(tournament_id=t["id"], now=timezone.now())
    table_id = a.get(url).json()["me"]["table"]
    assert b.post(f"/api/v1/tables/{table_id}/resign/").status_code == 200
    arena_finished.table_finished(table_id=table_id, result=None)
    board = a.get(url).json()["standings"]
    for path in (f"/api/v1/tournaments/{t['id']}/", f"/api/v1/tournaments/{t['id']}/standings/"):
        body = a.get(path).json()
        rows = body["standings"] if isinstance(body, dict) else body
        assert [(r["player"], r["points"], r["played"], r["wins"]) for r in rows] == [
            (a.player.pk, 2, 1, 1),
            (b.player.pk, 0, 1, 0),
        ]
        assert (
            rows[0]["tiebreaks"]["performance"]
            == board[0]["performance"]
            > rows[1]["tiebreaks"]["performance"]
        )


def test_the_round_actions_refuse_an_arena_and_change_nothing(
    organiser: Actor, make_actor: Callable[..., Actor]
) -> None:
    t = _create(organiser).json()
    a = make_actor("ra")
    assert a.post(f"/api/v1/tournaments/{t['id']}/arena/join/").status_code == 200
    assert organiser.post(f"/api/v1/tournaments/{t['id']}/start/").status_code == 200
    before = Tournament.objects.get(pk=t["id"])
    base = f"/api/v1/tournaments/{t['id']}/"
    for path, body in (
        ("rounds/next/", {}),
        ("rounds/repair/", {}),
        ("bye/", {"player": a.player.pk}),
        ("late-entry/", {"player": make_actor("rb").player.pk}),
    ):
        r = organiser.post(base + path, body)
        assert r.status_code == 409 and "is an arena" in r.json()["detail"], (path, r.json())
    after = Tournament.objects.get(pk=t["id"])
    assert (after.current_round, after.status) == (before.current_round, before.status)
    assert not after.round_set.exists()
    assert after.registrations.count() == 1 and not after.late_invitations.exists()
