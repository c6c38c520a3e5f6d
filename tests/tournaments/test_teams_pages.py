"""The team pages: the list with its new-team form, a team (members in board order, roles,
results, the reader's own actions), and the captain's tools; every form posted with CSRF checks
on, as a browser does."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from accounts.models import Notification
from ratings.models import Rating
from tests.games.conftest import Actor, as_organiser
from tournaments.competitions import services as clubs
from tournaments.models import Team, TeamInvitation, TeamMember
from tournaments.teams import services

from .test_teams_services import played


def browser(actor: Actor | None = None) -> Client:
    client = Client(enforce_csrf_checks=True)
    if actor is not None:
        client.force_login(actor.player.user)
    return client


def post(client: Client, url: str, data: dict[str, Any] | None = None, page: str = "/teams/") -> Any:
    """Post a form as a browser does: read the page it is on for the CSRF token first."""
    client.get(page)
    token = client.cookies["csrftoken"].value
    return client.post(url, {**(data or {}), "csrfmiddlewaretoken": token})


def text(response: Any) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def rate(actor: Actor, shown: int) -> None:
    mu = shown / 60
    Rating.objects.create(player=actor.player, game="pacru", mu=mu, sigma=2.0, conservative=mu - 6)


@pytest.fixture
def knights(alice: Actor, bob: Actor, carol: Actor) -> Team:
    team = services.team_create(by=alice.player, name="Knights", description="Tuesday nights.")
    for actor in (bob, carol):
        TeamMember.objects.create(team=team, player=actor.player)
    rate(alice, 1600)
    rate(bob, 1900)
    rate(carol, 1700)
    services.set_roles(team_id=team.pk, by=alice.player, vice_captain_id=carol.player.pk)
    services.set_board_order(team_id=team.pk, by=alice.player, order=[], alternates=[bob.player.pk])
    return team


def test_the_list_shows_teams_and_makes_a_new_one(db: None, alice: Actor, knights: Team) -> None:
    anonymous = browser().get("/teams/")
    assert "Knights" in text(anonymous) and "Log in to make a team" in text(anonymous)
    assert 'id="team-create"' not in anonymous.content.decode()
    client = browser(alice)
    made = post(client, "/teams/", {"name": "Rooks", "game": "shacru", "board_order": "captain"})
    assert made.status_code == 302 and made["Location"] == "/teams/rooks/"
    rooks = Team.objects.get(slug="rooks")
    assert (rooks.captain_id, rooks.game, rooks.board_order) == (alice.player.pk, "shacru", "captain")
    again = post(client, "/teams/", {"name": "rooks"})
    assert again["Location"] == "/teams/"
    assert "there is a team named Rooks already" in text(client.get("/teams/"))
    assert [t["slug"] for t in Team.objects.values("slug")] == ["knights", "rooks"]
    assert "Rooks" not in text(browser().get("/teams/?q=knig"))


def test_a_club_lists_its_teams_and_its_members_make_them(
    db: None, alice: Actor, make_actor: Callable[..., Actor]
) -> None:
    org = make_actor("org")
    league = clubs.league_create(organiser=as_organiser(org.player), name="Home Club")
    services.team_create(by=org.player, name="Home Rooks", league=league)
    league_page = browser().get("/leagues/home-club/").content.decode()
    assert '<a href="/teams/home-rooks/">Home Rooks</a>' in league_page
    assert "/teams/?league=home-club" in league_page
    club_list = browser(alice).get("/teams/?league=home-club")
    assert "Teams of Home Club" in text(club_list)
    refused = post(browser(alice), "/teams/", {"name": "Mine", "league": "home-club"})
    assert refused["Location"] == "/teams/" and not Team.objects.filter(name="Mine").exists()
    assert browser().get("/teams/?league=nowhere").status_code == 404


def test_the_team_page_shows_the_board_order_roles_and_results(
    db: None, alice: Actor, bob: Actor, make_actor: Callable[..., Actor], knights: Team
) -> None:
    rival = services.team_create(by=make_actor("dave").player, name="Rooks")
    played(knights, rival)
    page = browser().get("/teams/knights/")
    assert page.status_code == 200
    words = text(page)
    # Carol (1700) and Alice (1600) by rating, then Bob the alternate (1900)
    assert re.search(r"1 Carol vice-captain 1700 2 Alice captain 1600 alt\. Bob alternate 1900", words), words
    assert "rating average 1650" in words and "Tuesday nights." in words
    assert "Winter cup" in words and "Rooks" in words and "2½ – 1½" in words
    assert "Log in to ask to join" in words
    assert browser().get("/teams/nowhere/").status_code == 404
    assert "Knights" in text(browser().get(f"/players/{bob.player.pk}/"))


def test_a_player_asks_to_join_and_the_captain_accepts_on_the_tools_page(
    db: None,
    alice: Actor,
    make_actor: Callable[..., Actor],
    knights: Team,
    django_capture_on_commit_callbacks: Any,
) -> None:
    dave = make_actor("dave")
    client = browser(dave)
    with django_capture_on_commit_callbacks(execute=True):
        asked = post(client, "/teams/knights/join/", page="/teams/knights/")
    assert asked["Location"] == "/teams/knights/"
    assert "You asked to join this team" in text(client.get("/teams/knights/"))
    assert Notification.objects.filter(user=alice.player.user, kind="team").exists()
    captain = browser(alice)
    assert "1 request to join waits for your answer" in text(captain.get("/teams/knights/"))
    tools = captain.get("/teams/knights/manage/")
    assert tools.status_code == 200 and "Requests to join" in text(tools)
    request = TeamInvitation.objects.get(player=dave.player)
    done = post(
        captain,
        "/teams/knights/accept/",
        {"invitation": request.pk, "next": "manage"},
        page="/teams/knights/manage/",
    )
    assert done["Location"] == "/teams/knights/manage/"
    assert TeamMember.objects.filter(team=knights, player=dave.player).exists()
    assert "You are on this team." in text(client.get("/teams/knights/"))


def test_an_invited_player_accepts_on_the_team_page(
    db: None, alice: Actor, make_actor: Callable[..., Actor], knights: Team
) -> None:
    dave = make_actor("dave")
    captain = browser(alice)
    post(captain, "/teams/knights/invite/", {"username": "DAVE"}, page="/teams/knights/manage/")
    assert "Dave is invited" in text(captain.get("/teams/knights/manage/"))
    unknown = post(captain, "/teams/knights/invite/", {"username": "nobody"}, page="/teams/knights/manage/")
    assert unknown["Location"] == "/teams/knights/manage/"
    assert "there is no player called" in text(captain.get("/teams/knights/manage/"))
    client = browser(dave)
    page = text(client.get("/teams/knights/"))
    assert "Alice invites you to join Knights." in page
    invitation = TeamInvitation.objects.get(player=dave.player)
    post(client, "/teams/knights/accept/", {"invitation": invitation.pk}, page="/teams/knights/")
    assert TeamMember.objects.filter(team=knights, player=dave.player).exists()


def test_the_tools_are_for_managers_and_save_boards_roles_and_details(
    db: None, alice: Actor, bob: Actor, carol: Actor, knights: Team
) -> None:
    plain = browser(bob)
    assert plain.get("/teams/knights/manage/")["Location"] == "/teams/knights/"
    refused = post(plain, "/teams/knights/boards/", {"board_order": "captain"}, page="/teams/knights/")
    assert (
        refused["Location"] == "/teams/knights/" and Team.objects.get(pk=knights.pk).board_order == "rating"
    )
    assert browser().get("/teams/knights/manage/").status_code == 302  # to the log-in page
    vice = browser(carol)
    tools = text(vice.get("/teams/knights/manage/"))
    assert "Only the captain names the captain and vice-captain." in tools
    boards = {
        "board_order": "captain",
        f"board_{alice.player.pk}": "1",
        f"board_{carol.player.pk}": "2",
        f"alternate_{bob.player.pk}": "1",
    }
    post(vice, "/teams/knights/boards/", boards, page="/teams/knights/manage/")
    knights.refresh_from_db()
    assert knights.board_order == "captain"
    assert "1 Alice captain 1600 2 Carol vice-captain 1700 alt. Bob" in text(browser().get("/teams/knights/"))
    captain = browser(alice)
    post(
        captain,
        "/teams/knights/roles/",
        {"captain": bob.player.pk, "vice_captain": ""},
        page="/teams/knights/manage/",
    )
    knights.refresh_from_db()
    assert (knights.captain_id, knights.vice_captain_id) == (bob.player.pk, None)
    post(browser(bob), "/teams/knights/edit/", {"name": "Night Riders", "description": "", "game": "azacru"})
    knights.refresh_from_db()
    assert (knights.name, knights.slug, knights.game, knights.description) == (
        "Night Riders",
        "knights",
        "azacru",
        "",
    )
    post(browser(bob), "/teams/knights/remove/", {"player": carol.player.pk}, page="/teams/knights/manage/")
    assert not TeamMember.objects.filter(team=knights, player=carol.player).exists()


def test_leaving_the_team_and_the_last_player_deletes_it(db: None, alice: Actor, bob: Actor) -> None:
    team = services.team_create(by=alice.player, name="Knights")
    TeamMember.objects.create(team=team, player=bob.player)
    captain = browser(alice)
    assert "To leave, first make another player captain" in text(captain.get("/teams/knights/"))
    post(browser(bob), "/teams/knights/leave/", page="/teams/knights/")
    assert "Leave (the team is deleted)" in text(captain.get("/teams/knights/"))
    gone = post(captain, "/teams/knights/leave/", page="/teams/knights/")
    assert gone["Location"] == "/teams/" and not Team.objects.exists()
    assert browser(alice).post("/teams/knights/leave/").status_code == 403  # no CSRF token
