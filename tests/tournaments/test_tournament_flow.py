"""Leagues and tournaments through the API: permissions, a whole Swiss played to the end."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

import engine
from engine.playout import random_step
from games.models import Table
from ratings.models import Rating
from tournaments.models import Registration, Tournament

from ..games.conftest import Actor, as_organiser


@pytest.fixture
def organiser(make_actor: Callable[..., Actor]) -> Actor:
    actor = make_actor("organiser")
    as_organiser(actor.player)
    return actor


def make_league(organiser: Actor, slug: str = "club") -> str:
    r = organiser.post("/api/v1/leagues/", {"name": "The Club", "slug": slug})
    assert r.status_code == 201, r.json()
    return slug


def test_only_organisers_run_their_league_events(
    organiser: Actor, alice: Actor, make_actor: Callable[..., Actor]
) -> None:
    slug = make_league(organiser)
    body = {"league": slug, "name": "Autumn Swiss", "game": "pacru", "seats": 2, "rounds": 3}
    denied = alice.post("/api/v1/tournaments/", body)
    assert denied.status_code == 403 and "organisers" in denied.json()["detail"]
    other = make_actor("rival")
    as_organiser(other.player)  # an organiser, but of another league
    make_league(other, "rivals")
    t = organiser.post("/api/v1/tournaments/", body).json()
    assert other.post(f"/api/v1/tournaments/{t['id']}/start/").status_code == 403
    assert alice.post(f"/api/v1/tournaments/{t['id']}/register/").status_code == 200
    assert alice.post(f"/api/v1/tournaments/{t['id']}/register/").status_code == 409
    bad = organiser.post("/api/v1/tournaments/", {**body, "rounds": 0})
    assert bad.status_code == 400 and "rounds" in bad.json()["detail"]
    # a player may withdraw themself, not someone else
    bob = make_actor("bobby")
    bob.post(f"/api/v1/tournaments/{t['id']}/register/")
    assert (
        alice.post(f"/api/v1/tournaments/{t['id']}/withdraw/", {"player": bob.player.pk}).status_code == 403
    )
    assert alice.post(f"/api/v1/tournaments/{t['id']}/withdraw/").json()["registered"] == 1


def play_out(actors: dict[int, Actor], table_id: int, rng: random.Random) -> None:
    """Play a table to the end through the API with random legal moves."""
    while True:
        detail = next(iter(actors.values())).get(f"/api/v1/tables/{table_id}/").json()
        if detail["status"] != "active":
            return
        state = engine.load(detail["position"])
        _, text = random_step(state, rng)
        seat = next(s for s in detail["seats"] if s["number"] == detail["to_move"])
        r = actors[seat["player"]["id"]].post(
            f"/api/v1/tables/{table_id}/moves/", {"ply": detail["ply"], "move": text}
        )
        assert r.status_code == 201, r.json()


def test_a_six_player_swiss_of_four_rounds_with_three_seat_tables(
    organiser: Actor, make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    slug = make_league(organiser)
    players = [make_actor(f"sw{i}") for i in range(6)]
    by_id = {a.player.pk: a for a in players}
    t = organiser.post(
        "/api/v1/tournaments/",
        {"league": slug, "name": "Winter Swiss", "game": "azacru", "seats": 3, "rounds": 4},
    ).json()
    for a in players:
        assert a.post(f"/api/v1/tournaments/{t['id']}/register/").status_code == 200
    rng = random.Random(8)
    with django_capture_on_commit_callbacks(execute=True):
        body = organiser.post(f"/api/v1/tournaments/{t['id']}/start/").json()
    assert body["status"] == "running" and body["current_round"] == 1
    for number in range(1, 5):
        rnd = body["round_list"][number - 1]
        assert rnd["number"] == number and len(rnd["tables"]) == 2
        seated = [p["player"] for tb in rnd["tables"] for p in tb["players"]]
        assert sorted(seated) == sorted(by_id), "everyone seated exactly once"
        for tb in rnd["tables"]:
            with django_capture_on_commit_callbacks(execute=True):
                play_out(by_id, tb["table"], rng)
        body = organiser.get(f"/api/v1/tournaments/{t['id']}/").json()
        # the last table's end paired the next round automatically (through the Celery task)
        assert body["current_round"] == min(number + 1, 4)
    assert body["status"] == "finished"
    assert Tournament.objects.get(pk=t["id"]).finished_at is not None
    standings = body["standings"]
    assert [row["place"] for row in standings] == sorted(row["place"] for row in standings)
    assert all(row["played"] == 4 for row in standings)
    # standings agree with the tables: 3-seat places score 2, 1, 0 (shared places share the average)
    tables = Table.objects.filter(round_table__round__tournament_id=t["id"])
    assert tables.count() == 8 and all(tb.status == "finished" for tb in tables)
    assert sum(row["points"] for row in standings) == pytest.approx(8 * 3.0)
    # every table was rated: each player has 4 rated Azacru tables
    assert sorted(Rating.objects.filter(game="azacru").values_list("games", flat=True)) == [4] * 6
    page = organiser.client.get(f"/tournaments/{t['id']}/")
    assert page.status_code == 200 and "Standings" in page.content.decode()


def test_withdrawing_mid_round_resigns_the_running_table(
    organiser: Actor, make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    slug = make_league(organiser)
    a, b = make_actor("wa"), make_actor("wb")
    t = organiser.post(
        "/api/v1/tournaments/", {"league": slug, "name": "Duel", "game": "pacru", "seats": 2, "rounds": 2}
    ).json()
    a.post(f"/api/v1/tournaments/{t['id']}/register/")
    b.post(f"/api/v1/tournaments/{t['id']}/register/")
    with django_capture_on_commit_callbacks(execute=True):
        organiser.post(f"/api/v1/tournaments/{t['id']}/start/")
        body = organiser.post(f"/api/v1/tournaments/{t['id']}/withdraw/", {"player": a.player.pk}).json()
    table = Table.objects.get(pk=body["round_list"][0]["tables"][0]["table"])
    assert table.status == "finished" and table.seats.get(player=a.player).elimination_reason == "resigned"
    assert Registration.objects.get(player=a.player).status == "withdrawn"
    after = organiser.get(f"/api/v1/tournaments/{t['id']}/").json()
    assert after["status"] == "finished", "one player left: no further round"


def test_standings_after_each_round_and_the_dashboard_attention(
    organiser: Actor, make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    slug = make_league(organiser)
    players = [make_actor(f"st{i}") for i in range(4)]
    by_id = {a.player.pk: a for a in players}
    t = organiser.post(
        "/api/v1/tournaments/", {"league": slug, "name": "Short", "game": "shacru", "seats": 2, "rounds": 2}
    ).json()
    for a in players:
        a.post(f"/api/v1/tournaments/{t['id']}/register/")
    with django_capture_on_commit_callbacks(execute=True):
        body = organiser.post(f"/api/v1/tournaments/{t['id']}/start/").json()
    for tb in body["round_list"][0]["tables"]:
        with django_capture_on_commit_callbacks(execute=True):
            play_out(by_id, tb["table"], random.Random(2))
    after_one = organiser.get(f"/api/v1/tournaments/{t['id']}/standings/?round=1").json()
    assert sum(row["points"] for row in after_one) == 2.0 and all(row["played"] == 1 for row in after_one)
    assert organiser.get(f"/api/v1/tournaments/{t['id']}/standings/?round=x").status_code == 400
    organiser.client.force_login(organiser.player.user)
    page = organiser.client.get("/organiser/").content.decode()
    assert "round 2: 2 tables still playing" in page
    assert "Standings after round 1" in organiser.client.get(f"/tournaments/{t['id']}/").content.decode()


def test_an_organiser_enters_bots_and_they_are_seated_like_anyone(
    organiser: Actor, alice: Actor, bob: Actor
) -> None:
    from django.test import Client

    slug = make_league(organiser)
    body = {"league": slug, "name": "Bots welcome", "game": "pacru", "seats": 2, "rounds": 2}
    t = organiser.post("/api/v1/tournaments/", body).json()
    page = Client()
    page.force_login(organiser.player.user)
    for _ in range(2):
        assert page.post(f"/organiser/{t['id']}/add-bot/", {"level": "greedy"}).status_code == 302
    nosy = Client()
    nosy.force_login(alice.player.user)
    nosy.post(f"/organiser/{t['id']}/add-bot/", {"level": "greedy"})
    assert alice.post(f"/api/v1/tournaments/{t['id']}/register/").status_code == 200
    assert bob.post(f"/api/v1/tournaments/{t['id']}/register/").status_code == 200
    regs = Registration.objects.filter(tournament_id=t["id"]).select_related("player__user")
    assert sorted((r.player.user.username, r.status) for r in regs) == [
        ("alice", "registered"), ("bob", "registered"),
        ("greedy-bot", "checked_in"), ("greedy-bot-2", "checked_in"),
    ]  # fmt: skip
    assert organiser.post(f"/api/v1/tournaments/{t['id']}/start/").status_code == 200
    tables = Table.objects.filter(round_table__round__tournament_id=t["id"])
    assert tables.count() == 2
    bot_seats = sorted(len(tb.bot_seats) for tb in tables)
    assert sum(bot_seats) == 2 and all(tb.status == "active" for tb in tables)
