"""The team events API (``tournaments.teams.event_apis``): creating an event, entering teams,
starting it, a round's matches, a line-up (hidden from others until the round starts, set by the
captain), a match with its boards, and the standings; refusals in the API's single error shape."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.games.conftest import Actor
from tournaments.models import TeamMatch, TeamRound
from tournaments.teams import rounds

from .test_team_events import Club


def test_a_team_event_through_the_api(
    make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    club = Club(make_actor, "api")
    red, red_people = club.team("Red", 2)
    blue, _blue_people = club.team("Blue", 2)
    org = club.org.client
    body = {"league": club.league.slug, "name": "Api cup", "game": "shacru", "boards": 2, "rated": False}
    answer = make_actor("apistranger").client.post("/api/v1/team-events/", body, format="json")
    assert answer.status_code == 403 and answer.json()["code"] == "forbidden"
    bad = org.post("/api/v1/team-events/", {**body, "boards": 20}, format="json")
    assert bad.status_code == 400 and "boards" in bad.json()["detail"]
    created = org.post("/api/v1/team-events/", body, format="json")
    assert created.status_code == 201, created.content
    event_id = created.json()["id"]
    assert created.json()["status"] == "registration" and created.json()["boards"] == 2
    listed = org.get("/api/v1/team-events/", {"league": club.league.slug}).json()
    assert [e["id"] for e in listed] == [event_id]

    captain = club.actors[red_people[0].pk]
    entered = captain.client.post(f"/api/v1/team-events/{event_id}/enter/", {"team": red.pk}, format="json")
    assert entered.status_code == 200, entered.content
    assert [e["name"] for e in entered.json()["entries"]] == ["Red"]
    assert (
        org.post(f"/api/v1/team-events/{event_id}/enter/", {"team": blue.pk}, format="json").status_code
        == 200
    )
    again = org.post(f"/api/v1/team-events/{event_id}/enter/", {"team": blue.pk}, format="json")
    assert again.status_code == 409
    assert captain.client.post(f"/api/v1/team-events/{event_id}/start/").status_code == 403
    with django_capture_on_commit_callbacks(execute=True):
        started = org.post(f"/api/v1/team-events/{event_id}/start/")
    assert started.status_code == 200 and started.json()["status"] == "running"

    rnd = org.get(f"/api/v1/team-events/{event_id}/rounds/1/").json()
    assert rnd["status"] == "lineups" and len(rnd["matches"]) == 1
    assert {s["name"] for s in rnd["matches"][0]["sides"]} == {"Red", "Blue"}
    assert org.get(f"/api/v1/team-events/{event_id}/rounds/2/").status_code == 404
    url = f"/api/v1/team-rounds/{rnd['id']}/lineups/{red.pk}/"
    put = captain.client.put(url, {"players": [red_people[1].pk, None]}, format="json")
    assert (
        put.status_code == 200
        and put.json()["players"] == [red_people[1].pk, None]
        and put.json()["submitted"]
    )
    wrong = captain.client.put(url, {"players": [red_people[1].pk]}, format="json")
    assert wrong.status_code == 400 and wrong.json()["code"] == "invalid"
    assert captain.client.get(url).json()["players"] == [red_people[1].pk, None]
    hidden = make_actor("apipeek").client.get(url)
    assert hidden.status_code == 403 and "shown once round 1 starts" in hidden.json()["detail"]

    round_row = TeamRound.objects.get(pk=rnd["id"])
    with django_capture_on_commit_callbacks(execute=True):
        rounds.open_round(round_id=round_row.pk, now=round_row.starts_at)
    late = captain.client.put(url, {"players": [red_people[0].pk, red_people[1].pk]}, format="json")
    assert late.status_code == 409 and "closed at" in late.json()["detail"]
    assert make_actor("apipeek2").client.get(url).status_code == 200  # public once the round started

    match = TeamMatch.objects.get(round=round_row)
    detail = org.get(f"/api/v1/team-matches/{match.pk}/").json()
    assert detail["status"] == "playing" and [b["number"] for b in detail["boards"]] == [1, 2]
    board2 = detail["boards"][1]
    red_on_2 = next(p for p in board2["players"] if p["team_id"] == red.pk)
    assert red_on_2["player_id"] is None and red_on_2["forfeit"] and board2["counted"]
    standings = org.get(f"/api/v1/team-events/{event_id}/standings/").json()
    assert {row["name"] for row in standings} == {"Red", "Blue"} and all(r["played"] == 0 for r in standings)
    assert org.get("/api/v1/team-matches/999999/").status_code == 404
    cancelled = org.post(f"/api/v1/team-events/{event_id}/cancel/")
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
