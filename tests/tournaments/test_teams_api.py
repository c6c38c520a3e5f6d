"""The teams API (``/api/v1/teams/``, ``/api/v1/team-invitations/``): the shapes it answers and
its errors. Who may call each write is in ``tests/tournaments/teams_matrix.py``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from ratings.models import Rating
from tests.games.conftest import Actor, as_organiser
from tournaments.competitions import services as clubs
from tournaments.models import Team, TeamInvitation, TeamMember
from tournaments.teams import services


@pytest.fixture(autouse=True)
def _no_throttles(settings: Any) -> None:
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_CLASSES": []}


def rate(actor: Actor, shown: int) -> None:
    mu = shown / 60
    Rating.objects.create(player=actor.player, game="pacru", mu=mu, sigma=2.0, conservative=mu - 6)


def test_a_player_creates_a_team_and_reads_it(db: None, alice: Actor) -> None:
    answer = alice.post("/api/v1/teams/", {"name": "Knights", "game": "shacru", "description": "Hi"})
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert {k: body[k] for k in ("slug", "name", "league", "game", "board_order", "description")} == {
        "slug": "knights",
        "name": "Knights",
        "league": None,
        "game": "shacru",
        "board_order": "rating",
        "description": "Hi",
    }
    assert body["captain"] == {"id": alice.player.pk, "display_name": "Alice"}
    assert body["vice_captain"] is None and body["results"] == [] and body["invitations"] == []
    assert body["you"] == {"member": True, "manages": True, "invitation": None}
    [member] = body["members"]
    assert member["player"] == alice.player.pk and member["captain"] and member["rating"] == 1500
    assert body["rating_average"] == 1500


def test_the_detail_lists_members_in_board_order_and_hides_invitations_from_others(
    db: None, alice: Actor, bob: Actor, carol: Actor, make_actor: Callable[..., Actor]
) -> None:
    team = services.team_create(by=alice.player, name="Knights")
    for actor in (bob, carol):
        TeamMember.objects.create(team=team, player=actor.player)
    rate(alice, 1600)
    rate(bob, 1900)
    rate(carol, 1700)
    services.set_board_order(team_id=team.pk, by=alice.player, order=[], alternates=[bob.player.pk])
    services.set_roles(team_id=team.pk, by=alice.player, vice_captain_id=carol.player.pk)
    dave = make_actor("dave")
    services.invite(team_id=team.pk, by=alice.player, player_id=dave.player.pk)
    mine = alice.get("/api/v1/teams/knights/").json()
    rows = [(m["display_name"], m["position"], m["rating"], m["alternate"]) for m in mine["members"]]
    assert rows == [("Carol", 1, 1700, False), ("Alice", 2, 1600, False), ("Bob", 3, 1900, True)]
    assert mine["rating_average"] == 1650
    assert mine["vice_captain"]["display_name"] == "Carol"
    assert [(i["player"]["display_name"], i["kind"]) for i in mine["invitations"]] == [("Dave", "invite")]
    seen_by_bob = bob.get("/api/v1/teams/knights/").json()
    assert seen_by_bob["invitations"] is None and seen_by_bob["you"]["manages"] is False
    anonymous = APIClient().get("/api/v1/teams/knights/").json()
    assert anonymous["invitations"] is None and anonymous["you"] is None
    invited = dave.get("/api/v1/teams/knights/").json()
    assert invited["you"]["invitation"]["kind"] == "invite" and invited["you"]["member"] is False


def test_the_list_filters_by_club_and_name(db: None, alice: Actor, make_actor: Callable[..., Actor]) -> None:
    org = make_actor("org")
    league = clubs.league_create(organiser=as_organiser(org.player), name="Home Club")
    services.team_create(by=org.player, name="Home Rooks", league=league)
    services.team_create(by=alice.player, name="Open Knights")
    every = APIClient().get("/api/v1/teams/").json()
    assert [t["name"] for t in every["results"]] == ["Home Rooks", "Open Knights"]
    assert every["results"][0]["league"] == "home-club" and every["results"][0]["members"] == 1
    club = APIClient().get("/api/v1/teams/", {"league": "home-club"}).json()
    assert [t["name"] for t in club["results"]] == ["Home Rooks"]
    found = APIClient().get("/api/v1/teams/", {"search": "knig"}).json()
    assert [t["slug"] for t in found["results"]] == ["open-knights"]
    assert APIClient().get("/api/v1/teams/", {"league": "nowhere"}).status_code == 404


def test_invitations_are_listed_for_each_side_and_answered(
    db: None, alice: Actor, bob: Actor, carol: Actor
) -> None:
    alice.post("/api/v1/teams/", {"name": "Knights"})
    invited = alice.post("/api/v1/teams/knights/invite/", {"player": bob.player.pk})
    assert invited.status_code == 201 and invited.json()["status"] == "pending"
    asked = carol.post("/api/v1/teams/knights/join/")
    assert asked.status_code == 201 and asked.json()["kind"] == "request"
    assert [i["kind"] for i in bob.get("/api/v1/team-invitations/").json()] == ["invite"]
    assert sorted(i["player"]["display_name"] for i in alice.get("/api/v1/team-invitations/").json()) == [
        "Carol"
    ]
    accepted = bob.post(f"/api/v1/team-invitations/{invited.json()['id']}/accept/")
    assert accepted.status_code == 200 and accepted.json()["status"] == "accepted"
    declined = alice.post(f"/api/v1/team-invitations/{asked.json()['id']}/decline/")
    assert declined.json()["status"] == "declined"
    again = bob.post(f"/api/v1/team-invitations/{invited.json()['id']}/accept/")
    assert again.status_code == 409 and again.json()["code"] == "conflict"
    assert bob.post(f"/api/v1/team-invitations/{invited.json()['id']}/maybe/").status_code == 404
    assert bob.post("/api/v1/team-invitations/999999/accept/").status_code == 404
    assert set(TeamMember.objects.values_list("player__display_name", flat=True)) == {"Alice", "Bob"}


def test_roles_board_order_leave_and_remove(db: None, alice: Actor, bob: Actor, carol: Actor) -> None:
    team = services.team_create(by=alice.player, name="Knights")
    for actor in (bob, carol):
        TeamMember.objects.create(team=team, player=actor.player)
    roles = alice.post("/api/v1/teams/knights/roles/", {"vice_captain": bob.player.pk})
    assert roles.status_code == 200 and roles.json()["vice_captain"]["id"] == bob.player.pk
    cleared = alice.post("/api/v1/teams/knights/roles/", {"vice_captain": None})
    assert cleared.json()["vice_captain"] is None
    order = alice.post(
        "/api/v1/teams/knights/board-order/",
        {
            "board_order": "captain",
            "order": [carol.player.pk, alice.player.pk],
            "alternates": [bob.player.pk],
        },
    )
    assert order.status_code == 200, order.content
    body = order.json()
    assert body["board_order"] == "captain"
    assert [(m["display_name"], m["board"], m["alternate"]) for m in body["members"]] == [
        ("Carol", 1, False),
        ("Alice", 2, False),
        ("Bob", 1, True),
    ]
    wrong = alice.post("/api/v1/teams/knights/board-order/", {"order": [999999]})
    assert wrong.status_code == 400 and "are not on Knights" in wrong.json()["detail"]
    assert alice.post("/api/v1/teams/knights/board-order/", {"order": "1,2"}).status_code == 400
    captain_leaves = alice.post("/api/v1/teams/knights/leave/")
    assert (
        captain_leaves.status_code == 409
        and "make another member captain first" in captain_leaves.json()["detail"]
    )
    assert bob.post("/api/v1/teams/knights/leave/").json() == {"deleted": False}
    assert alice.client.delete(f"/api/v1/teams/knights/members/{carol.player.pk}/").status_code == 204
    assert alice.client.delete(f"/api/v1/teams/knights/members/{carol.player.pk}/").status_code == 404
    assert alice.post("/api/v1/teams/knights/leave/").json() == {"deleted": True}
    assert not Team.objects.exists()


def test_update_and_errors_say_what_was_wrong(db: None, alice: Actor, bob: Actor) -> None:
    alice.post("/api/v1/teams/", {"name": "Knights"})
    changed = alice.client.patch("/api/v1/teams/knights/", {"name": "Night Riders"}, format="json")
    assert changed.status_code == 200 and changed.json()["name"] == "Night Riders"
    assert changed.json()["slug"] == "knights"
    refused = bob.client.patch("/api/v1/teams/knights/", {"name": "Mine"}, format="json")
    assert refused.status_code == 403 and "only the captain and vice-captain" in refused.json()["detail"]
    taken = bob.post("/api/v1/teams/", {"name": "night riders"})
    assert taken.status_code == 409 and "Night Riders" in taken.json()["detail"]
    assert bob.post("/api/v1/teams/", {"name": "Rooks", "league": "nowhere"}).status_code == 404
    assert bob.post("/api/v1/teams/", {"name": "Rooks", "game": "chess"}).status_code == 400
    assert APIClient().get("/api/v1/teams/nowhere/").status_code == 404
    assert alice.post("/api/v1/teams/knights/invite/", {"player": 999999}).status_code == 404
    assert TeamInvitation.objects.count() == 0
