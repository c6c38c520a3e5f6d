"""Team membership (``tournaments.teams.services`` and ``selectors``): creating teams, who may
manage them, invitations and requests with their notifications, leaving and the captain's
rules, roles, the board order (by rating or the captain's, alternates last), and what happens
to a team when its captain deletes their account."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.utils import timezone

from accounts import services as accounts
from accounts.models import Notification
from common.errors import Conflict, Forbidden, InvalidInput, NotFound
from games import services as games
from games.models import Block, Player
from ratings.models import Rating
from tests.games.conftest import Actor, as_organiser
from tournaments.competitions import services as clubs
from tournaments.models import (
    League,
    Team,
    TeamEvent,
    TeamInvitation,
    TeamMatch,
    TeamMatchSide,
    TeamMember,
    TeamRound,
)
from tournaments.teams import selectors, services

PASSWORD = "correct-horse-9"


def rate(player: Player, shown: int, game: str = "pacru") -> None:
    """Give ``player`` the displayed rating ``shown`` in ``game``."""
    mu = shown / 60
    Rating.objects.update_or_create(
        player=player, game=game, defaults={"mu": mu, "sigma": 2.0, "conservative": mu - 6}
    )


def team_of(captain: Actor, *members: Actor, **kw: Any) -> Team:
    """A team captained by ``captain`` with ``members`` in it (joined in this order)."""
    team = services.team_create(by=captain.player, name=kw.pop("name", "Knights"), **kw)
    for m in members:
        TeamMember.objects.create(team=team, player=m.player)
    return team


def played(team: Team, other: Team) -> TeamMatch:
    """A match of a team event between ``team`` and ``other`` (finished: 2.5 to 1.5)."""
    event = TeamEvent.objects.create(
        league=team.league or League.objects.create(name="Club", slug="club"),
        name="Winter cup",
        game="pacru",
        created_by=team.captain,
        status=TeamEvent.Status.FINISHED,
    )
    rnd = TeamRound.objects.create(event=event, number=1, starts_at=timezone.now())
    match = TeamMatch.objects.create(round=rnd, number=1, status=TeamMatch.Status.FINISHED)
    TeamMatchSide.objects.create(match=match, team=team, order=1, game_points=2.5, place=1, match_points=2)
    TeamMatchSide.objects.create(match=match, team=other, order=2, game_points=1.5, place=2, match_points=0)
    return match


@pytest.fixture
def club(make_actor: Callable[..., Actor]) -> tuple[League, Actor]:
    org = make_actor("organiser")
    league = clubs.league_create(organiser=as_organiser(org.player), name="Home Club")
    return league, org


# ------------------------------------------------------------------ creating and editing
def test_the_creator_captains_the_new_team_and_is_its_first_member(db: None, alice: Actor) -> None:
    team = services.team_create(by=alice.player, name="  The   Knights ", game="shacru")
    assert (team.name, team.slug, team.game, team.board_order) == (
        "The Knights",
        "the-knights",
        "shacru",
        "rating",
    )
    assert team.captain_id == alice.player.pk and team.vice_captain_id is None
    assert list(TeamMember.objects.filter(team=team).values_list("player_id", flat=True)) == [alice.player.pk]


def test_addresses_are_unique_and_names_unique_within_a_club(
    db: None, alice: Actor, bob: Actor, club: tuple[League, Actor]
) -> None:
    league, org = club
    first = services.team_create(by=alice.player, name="Knights")
    second = services.team_create(by=org.player, name="Knights", league=league)
    assert (first.slug, second.slug) == ("knights", "knights-2")
    with pytest.raises(Conflict, match="there is a team named Knights already"):
        services.team_create(by=bob.player, name="knights")
    with pytest.raises(Conflict, match="Home Club has a team named Knights already"):
        services.team_create(by=org.player, name="KNIGHTS", league=league)
    with pytest.raises(InvalidInput, match="letters or digits"):
        services.team_create(by=bob.player, name=" -- ")
    with pytest.raises(InvalidInput, match="no game"):
        services.team_create(by=bob.player, name="Rooks", game="chess")
    with pytest.raises(InvalidInput, match="board order"):
        services.team_create(by=bob.player, name="Rooks", board_order="random")
    assert Team.objects.count() == 2


def test_a_club_team_is_made_by_a_member_or_an_organiser_of_the_club(
    db: None, alice: Actor, bob: Actor, make_actor: Callable[..., Actor], club: tuple[League, Actor]
) -> None:
    league, org = club
    with pytest.raises(Forbidden, match="only members and organisers of Home Club"):
        services.team_create(by=alice.player, name="Knights", league=league)
    clubs.league_join(league=league, player=alice.player)
    assert services.team_create(by=alice.player, name="Knights", league=league).league_id == league.pk
    assert services.team_create(by=org.player, name="Rooks", league=league).captain_id == org.player.pk
    staff = make_actor("staffer", staff=True)
    assert services.team_create(by=staff.player, name="Bishops", league=league).league_id == league.pk


def test_guests_and_bots_are_not_on_teams(db: None, alice: Actor, bob: Actor) -> None:
    guest = games.guest_create()
    with pytest.raises(Forbidden):
        services.team_create(by=guest, name="Guests")
    team = team_of(alice)
    Player.objects.filter(pk=bob.player.pk).update(is_bot=True)
    with pytest.raises(Forbidden, match="is a bot"):
        services.invite(team_id=team.pk, by=alice.player, player_id=bob.player.pk)
    with pytest.raises(Forbidden):
        services.invite(team_id=team.pk, by=alice.player, player_id=guest.pk)
    with pytest.raises(Forbidden):
        services.request_join(team_id=team.pk, by=guest)
    assert not TeamInvitation.objects.exists()


def test_only_managers_edit_a_team_and_its_address_stays(
    db: None,
    alice: Actor,
    bob: Actor,
    carol: Actor,
    club: tuple[League, Actor],
    make_actor: Callable[..., Actor],
) -> None:
    league, org = club
    clubs.league_join(league=league, player=alice.player)
    team = team_of(alice, bob, carol, league=league)
    services.set_roles(team_id=team.pk, by=alice.player, vice_captain_id=bob.player.pk)
    with pytest.raises(Forbidden, match="only the captain and vice-captain of Knights"):
        services.team_update(team_id=team.pk, by=carol.player, name="Carol's")
    services.team_update(team_id=team.pk, by=bob.player, name="Night Riders", description="We ride.")
    services.team_update(team_id=team.pk, by=org.player, board_order="captain", game="azacru")
    other = make_actor("otherorg")
    clubs.league_create(organiser=as_organiser(other.player), name="Away Club")
    with pytest.raises(Forbidden):
        services.team_update(team_id=team.pk, by=other.player, name="Taken over")
    team.refresh_from_db()
    assert (team.name, team.slug, team.description, team.board_order, team.game) == (
        "Night Riders",
        "knights",
        "We ride.",
        "captain",
        "azacru",
    )
    assert services.can_manage(team=team, player=org.player) and not services.can_manage(
        team=team, player=other.player
    )


# ------------------------------------------------------------------ invitations and requests
def test_an_invitation_is_told_answered_and_makes_a_member(
    db: None, alice: Actor, bob: Actor, carol: Actor, django_capture_on_commit_callbacks: Any
) -> None:
    team = team_of(alice)
    with django_capture_on_commit_callbacks(execute=True):
        invitation = services.invite(team_id=team.pk, by=alice.player, player_id=bob.player.pk)
    told = Notification.objects.get(user=bob.player.user, kind="team")
    assert (
        told.params["status"] == "pending" and told.params["by"] == "Alice" and told.url == "/teams/knights/"
    )
    with pytest.raises(Conflict, match="is invited to Knights already"):
        services.invite(team_id=team.pk, by=alice.player, player_id=bob.player.pk)
    with pytest.raises(Conflict, match="you are invited to Knights already: accept the invitation"):
        services.request_join(team_id=team.pk, by=bob.player)
    with pytest.raises(Forbidden, match="only the invited player"):
        services.answer(invitation_id=invitation.pk, by=alice.player, accept=True)
    with pytest.raises(Forbidden):
        services.invite(team_id=team.pk, by=carol.player, player_id=carol.player.pk)
    with django_capture_on_commit_callbacks(execute=True):
        services.answer(invitation_id=invitation.pk, by=bob.player, accept=True)
    assert TeamMember.objects.filter(team=team, player=bob.player).exists()
    back = Notification.objects.get(user=alice.player.user, kind="team")
    assert back.params["status"] == "accepted" and back.params["name"] == "Bob"
    with pytest.raises(Conflict, match="accepted already"):
        services.answer(invitation_id=invitation.pk, by=bob.player, accept=False)
    with pytest.raises(Conflict, match="Bob is on Knights already"):
        services.invite(team_id=team.pk, by=alice.player, player_id=bob.player.pk)
    with pytest.raises(NotFound):
        services.invite(team_id=team.pk, by=alice.player, player_id=999999)


def test_a_declined_or_withdrawn_invitation_changes_no_membership(db: None, alice: Actor, bob: Actor) -> None:
    team = team_of(alice)
    first = services.invite(team_id=team.pk, by=alice.player, player_id=bob.player.pk)
    with pytest.raises(Forbidden):
        services.cancel_invitation(invitation_id=first.pk, by=bob.player)  # the player declines instead
    services.answer(invitation_id=first.pk, by=bob.player, accept=False)
    second = services.invite(team_id=team.pk, by=alice.player, player_id=bob.player.pk)  # again, later
    services.cancel_invitation(invitation_id=second.pk, by=alice.player)
    assert sorted(TeamInvitation.objects.values_list("status", flat=True)) == ["cancelled", "declined"]
    assert TeamMember.objects.filter(team=team).count() == 1


def test_a_blocking_player_takes_no_invitation_from_whom_they_blocked(
    db: None, alice: Actor, bob: Actor
) -> None:
    team = team_of(alice)
    Block.objects.create(player=bob.player, blocked=alice.player)
    with pytest.raises(Forbidden, match="takes no invitations from you"):
        services.invite(team_id=team.pk, by=alice.player, player_id=bob.player.pk)


def test_a_request_to_join_goes_to_the_captain_and_vice_who_answer_it(
    db: None,
    alice: Actor,
    bob: Actor,
    carol: Actor,
    make_actor: Callable[..., Actor],
    django_capture_on_commit_callbacks: Any,
) -> None:
    team = team_of(alice, bob)
    services.set_roles(team_id=team.pk, by=alice.player, vice_captain_id=bob.player.pk)
    with django_capture_on_commit_callbacks(execute=True):
        request = services.request_join(team_id=team.pk, by=carol.player)
    told = set(Notification.objects.filter(kind="team").values_list("user_id", flat=True))
    assert told == {alice.player.user_id, bob.player.user_id}
    with pytest.raises(Conflict, match="you have asked to join Knights already"):
        services.request_join(team_id=team.pk, by=carol.player)
    with pytest.raises(Conflict, match="Carol has asked to join Knights already: accept their request"):
        services.invite(team_id=team.pk, by=alice.player, player_id=carol.player.pk)
    with pytest.raises(Conflict, match="you are on Knights already"):
        services.request_join(team_id=team.pk, by=bob.player)
    with pytest.raises(Forbidden):
        services.answer(invitation_id=request.pk, by=carol.player, accept=True)  # not their own
    with django_capture_on_commit_callbacks(execute=True):
        services.answer(invitation_id=request.pk, by=bob.player, accept=True)  # the vice-captain
    assert TeamMember.objects.filter(team=team, player=carol.player).exists()
    answered = Notification.objects.get(user=carol.player.user, kind="team")
    assert answered.params["status"] == "accepted" and answered.params["kind"] == "request"
    dave = make_actor("dave")
    withdrawn = services.request_join(team_id=team.pk, by=dave.player)
    with pytest.raises(Forbidden, match="decline it instead"):
        services.cancel_invitation(invitation_id=withdrawn.pk, by=alice.player)
    services.cancel_invitation(invitation_id=withdrawn.pk, by=dave.player)
    assert TeamInvitation.objects.get(pk=withdrawn.pk).status == "cancelled"


# ------------------------------------------------------------------ leaving, removing, roles
def test_a_member_leaves_and_a_vice_captain_leaving_leaves_no_vice(
    db: None, alice: Actor, bob: Actor, carol: Actor
) -> None:
    team = team_of(alice, bob, carol)
    services.set_roles(team_id=team.pk, by=alice.player, vice_captain_id=bob.player.pk)
    assert services.leave(team_id=team.pk, by=bob.player) is False
    team.refresh_from_db()
    assert team.vice_captain_id is None
    with pytest.raises(Conflict, match="you are not on Knights"):
        services.leave(team_id=team.pk, by=bob.player)


def test_a_captain_hands_over_before_leaving_and_a_lone_captain_deletes_the_team(
    db: None, alice: Actor, bob: Actor
) -> None:
    team = team_of(alice, bob)
    with pytest.raises(Conflict, match="make another member captain first"):
        services.leave(team_id=team.pk, by=alice.player)
    services.set_roles(team_id=team.pk, by=alice.player, captain_id=bob.player.pk)
    assert services.leave(team_id=team.pk, by=alice.player) is False
    assert services.leave(team_id=team.pk, by=bob.player) is True  # alone: the team goes
    assert not Team.objects.filter(pk=team.pk).exists()


def test_a_lone_captain_cannot_leave_a_team_that_has_played(db: None, alice: Actor, bob: Actor) -> None:
    team, other = team_of(alice), team_of(bob, name="Rooks")
    played(team, other)
    with pytest.raises(Conflict, match="which has played: its results stay"):
        services.leave(team_id=team.pk, by=alice.player)
    assert TeamMember.objects.filter(team=team).count() == 1


def test_managers_remove_members_but_never_the_captain(
    db: None, alice: Actor, bob: Actor, carol: Actor
) -> None:
    team = team_of(alice, bob, carol)
    with pytest.raises(Forbidden):
        services.remove_member(team_id=team.pk, by=carol.player, player_id=bob.player.pk)
    services.set_roles(team_id=team.pk, by=alice.player, vice_captain_id=bob.player.pk)
    with pytest.raises(Conflict, match="the captain cannot be taken off Knights"):
        services.remove_member(team_id=team.pk, by=bob.player, player_id=alice.player.pk)
    services.remove_member(team_id=team.pk, by=bob.player, player_id=carol.player.pk)
    with pytest.raises(NotFound):
        services.remove_member(team_id=team.pk, by=bob.player, player_id=carol.player.pk)
    assert set(TeamMember.objects.filter(team=team).values_list("player_id", flat=True)) == {
        alice.player.pk,
        bob.player.pk,
    }


def test_roles_are_named_among_members_by_the_captain(
    db: None, alice: Actor, bob: Actor, carol: Actor, make_actor: Callable[..., Actor]
) -> None:
    team = team_of(alice, bob, carol)
    outsider = make_actor("dave")
    with pytest.raises(InvalidInput, match="only members can be captain"):
        services.set_roles(team_id=team.pk, by=alice.player, vice_captain_id=outsider.player.pk)
    with pytest.raises(InvalidInput, match="cannot also be the vice-captain"):
        services.set_roles(team_id=team.pk, by=alice.player, vice_captain_id=alice.player.pk)
    services.set_roles(team_id=team.pk, by=alice.player, vice_captain_id=bob.player.pk)
    with pytest.raises(Forbidden, match="only the captain of Knights"):
        services.set_roles(team_id=team.pk, by=bob.player, captain_id=bob.player.pk)  # no coup
    # the vice-captain made captain is no longer vice-captain
    services.set_roles(team_id=team.pk, by=alice.player, captain_id=bob.player.pk)
    team.refresh_from_db()
    assert (team.captain_id, team.vice_captain_id) == (bob.player.pk, None)
    services.set_roles(team_id=team.pk, by=bob.player, vice_captain_id=carol.player.pk)
    services.set_roles(team_id=team.pk, by=bob.player, vice_captain_id=0)
    team.refresh_from_db()
    assert team.vice_captain_id is None


# ------------------------------------------------------------------ board order
def test_the_board_order_by_rating_puts_the_highest_first_and_alternates_last(
    db: None, alice: Actor, bob: Actor, carol: Actor, make_actor: Callable[..., Actor]
) -> None:
    dave, erin = make_actor("dave"), make_actor("erin")
    team = team_of(alice, bob, carol, dave, erin)
    rate(alice.player, 1600)
    rate(bob.player, 1800)
    rate(carol.player, 1700)
    rate(erin.player, 2100)
    rate(dave.player, 1000, game="pacru")
    rate(dave.player, 2500, game="shacru")  # another game's rating does not count
    services.set_board_order(team_id=team.pk, by=alice.player, order=[], alternates=[erin.player.pk])
    order = selectors.board_order(team=team)
    assert [m.player_id for m in order] == [p.player.pk for p in (bob, carol, alice, dave, erin)]
    assert [m.rating for m in order] == [1800, 1700, 1600, 1000, 2100]
    assert next(m.player_id for m in selectors.board_order(team=team, game="shacru")) == dave.player.pk
    # the average is of the regulars only
    assert selectors.rating_average(team=team) == pytest.approx((1800 + 1700 + 1600 + 1000) / 4)


def test_the_captains_order_places_the_named_boards_first_then_the_rest_by_rating(
    db: None, alice: Actor, bob: Actor, carol: Actor, make_actor: Callable[..., Actor]
) -> None:
    dave, erin, frank = make_actor("dave"), make_actor("erin"), make_actor("frank")
    team = team_of(alice, bob, carol, dave, erin, frank)
    for actor, shown in (
        (alice, 1500),
        (bob, 1900),
        (carol, 1700),
        (dave, 1600),
        (erin, 2000),
        (frank, 1400),
    ):
        rate(actor.player, shown)
    services.set_board_order(
        team_id=team.pk,
        by=alice.player,
        board_order="captain",
        order=[alice.player.pk, dave.player.pk],
        alternates=[frank.player.pk, erin.player.pk],
    )
    team.refresh_from_db()
    assert team.board_order == "captain"
    names = [m.player.display_name for m in selectors.board_order(team=team)]
    # boards 1 and 2 as set, then bob and carol by rating; the alternates last, in their order
    assert names == ["Alice", "Dave", "Bob", "Carol", "Frank", "Erin"]
    rows = dict(TeamMember.objects.filter(team=team).values_list("player_id", "board"))
    assert rows[alice.player.pk] == 1 and rows[dave.player.pk] == 2 and rows[bob.player.pk] is None
    # a new order forgets the old one: Dave unplaced again, Erin a regular
    services.set_board_order(team_id=team.pk, by=alice.player, order=[bob.player.pk], alternates=[])
    names = [m.player.display_name for m in selectors.board_order(team=team)]
    assert names == ["Bob", "Erin", "Carol", "Dave", "Alice", "Frank"]


def test_the_board_order_takes_members_only_each_once(
    db: None, alice: Actor, bob: Actor, carol: Actor
) -> None:
    team = team_of(alice, bob)
    before = list(TeamMember.objects.values_list("player_id", "board", "alternate"))
    with pytest.raises(InvalidInput, match="is listed twice"):
        services.set_board_order(
            team_id=team.pk, by=alice.player, order=[bob.player.pk], alternates=[bob.player.pk]
        )
    with pytest.raises(InvalidInput, match="are not on Knights"):
        services.set_board_order(team_id=team.pk, by=alice.player, order=[carol.player.pk], alternates=[])
    with pytest.raises(Forbidden):
        services.set_board_order(team_id=team.pk, by=bob.player, order=[bob.player.pk], alternates=[])
    assert list(TeamMember.objects.values_list("player_id", "board", "alternate")) == before


# ------------------------------------------------------------------ results and lists
def test_team_results_show_each_match_with_the_other_side(db: None, alice: Actor, bob: Actor) -> None:
    team, other = team_of(alice), team_of(bob, name="Rooks")
    match = played(team, other)
    [row] = selectors.team_results(team=team)
    assert (row.match_id, row.event, row.round, row.game_points, row.match_points) == (
        match.pk,
        "Winter cup",
        1,
        2.5,
        2,
    )
    assert [(o.name, o.game_points, o.match_points) for o in row.opponents] == [("Rooks", 1.5, 0)]
    assert [t.name for t in selectors.team_list(search="roo")] == ["Rooks"]
    assert [t.member_count for t in selectors.player_teams(player=alice.player)] == [1]


# ------------------------------------------------------------------ deleted accounts
def test_a_deleted_captain_hands_the_team_to_the_vice_captain(
    db: None, alice: Actor, bob: Actor, carol: Actor
) -> None:
    team = team_of(alice, bob, carol)
    services.set_roles(team_id=team.pk, by=alice.player, vice_captain_id=carol.player.pk)
    accounts.delete_account(user=alice.player.user, password=PASSWORD)
    team.refresh_from_db()
    assert (team.captain_id, team.vice_captain_id) == (carol.player.pk, None)
    assert set(TeamMember.objects.filter(team=team).values_list("player_id", flat=True)) == {
        bob.player.pk,
        carol.player.pk,
    }


def test_a_deleted_captain_without_vice_hands_over_to_the_longest_standing_member(
    db: None, alice: Actor, bob: Actor, carol: Actor
) -> None:
    team = team_of(alice, carol, bob)  # carol joined before bob
    services.invite(team_id=team.pk, by=alice.player, player_id=Actor("dave").player.pk)
    accounts.delete_account(user=alice.player.user, password=PASSWORD)
    team.refresh_from_db()
    assert team.captain_id == carol.player.pk
    services.leave(team_id=team.pk, by=bob.player)  # the team works on: members leave, and so on


def test_a_deleted_lone_captain_takes_an_unplayed_team_along_and_leaves_a_played_one(
    db: None, alice: Actor, bob: Actor
) -> None:
    lone, kept, other = team_of(alice), team_of(alice, name="Rooks"), team_of(bob, name="Bishops")
    played(kept, other)
    request = services.request_join(team_id=other.pk, by=alice.player)
    accounts.delete_account(user=alice.player.user, password=PASSWORD)
    assert not Team.objects.filter(pk=lone.pk).exists()
    kept.refresh_from_db()
    assert kept.captain_id == alice.player.pk and not TeamMember.objects.filter(team=kept).exists()
    assert selectors.team_results(team=kept)[0].opponents[0].name == "Bishops"
    assert TeamInvitation.objects.get(pk=request.pk).status == "cancelled"


def test_a_deleted_vice_captain_leaves_no_vice(db: None, alice: Actor, bob: Actor) -> None:
    team = team_of(alice, bob)
    services.set_roles(team_id=team.pk, by=alice.player, vice_captain_id=bob.player.pk)
    accounts.delete_account(user=bob.player.user, password=PASSWORD)
    team.refresh_from_db()
    assert team.vice_captain_id is None and team.captain_id == alice.player.pk
    with pytest.raises(Conflict, match="account is closed"):
        services.invite(team_id=team.pk, by=alice.player, player_id=bob.player.pk)
