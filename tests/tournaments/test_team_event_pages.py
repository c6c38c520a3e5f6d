"""The team event pages through Django's client: the list and an event (anonymous and signed in,
with the captains' entry buttons and the organisers' start), a match (the score and the boards as
stored), the captain's line-up form (saves, or shows the service's refusal and saves nothing;
closed after the round's start; others refused), and the organiser's form creating a team event
(only the club's organisers)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games import services as games
from tests.games.conftest import Actor, as_organiser
from tournaments.competitions import services as clubs
from tournaments.models import (
    League,
    LineUp,
    TeamBoard,
    TeamEntry,
    TeamEvent,
    TeamMatch,
    TeamMatchSide,
    TeamMember,
    TeamRound,
)
from tournaments.teams import events, rounds, services
from tournaments.teams.event_pages import points

pytestmark = pytest.mark.django_db


def client_for(actor: Actor | None, csrf: bool = False) -> Client:
    c = Client(enforce_csrf_checks=csrf)
    if actor is not None:
        c.force_login(actor.player.user)
    return c


def messages_of(response: Any) -> list[str]:
    return [str(m) for m in response.context["messages"]]


@pytest.fixture
def org(make_actor: Callable[..., Actor]) -> Actor:
    return make_actor("teamorg")


@pytest.fixture
def league(org: Actor) -> League:
    as_organiser(org.player)
    return clubs.league_create(organiser=org.player, name="Team Club", slug="team-club")


@pytest.fixture
def squads(make_actor: Callable[..., Actor], league: League) -> dict[str, Any]:
    """Two club teams of three (board 1 first), the last of each an alternate."""
    out: dict[str, Any] = {}
    for name in ("Rooks", "Pawns"):
        people = [make_actor(f"{name.lower()}{n}") for n in range(1, 4)]
        for p in people:
            clubs.league_join(league=league, player=p.player)
        team = services.team_create(by=people[0].player, name=name, league=league)
        for n, p in enumerate(people[1:], start=2):
            TeamMember.objects.create(team=team, player=p.player, alternate=n == 3)
        out[name] = {"team": team, "people": people}
    return out


def make_event(league: League, org: Actor, **kw: Any) -> TeamEvent:
    kw.setdefault("boards", 2)
    return events.team_event_create(league=league, by=org.player, name="Club Cup", game="pacru", **kw)


def running(league: League, org: Actor, squads: dict[str, Any]) -> tuple[TeamEvent, TeamRound, TeamMatch]:
    """The event started with both teams: round 1 paired, line-ups open for an hour."""
    event = make_event(league, org, starts_at=None)
    for name in ("Rooks", "Pawns"):
        events.team_event_enter(event_id=event.pk, team_id=squads[name]["team"].pk, by=org.player)
    events.team_event_start(event_id=event.pk, by=org.player)
    event.refresh_from_db()
    rnd = TeamRound.objects.get(event=event, number=1)
    if rnd.starts_at <= timezone.now() + timedelta(minutes=30):
        rnd.starts_at = timezone.now() + timedelta(hours=1)
        rnd.save(update_fields=["starts_at"])
    return event, rnd, TeamMatch.objects.get(round=rnd)


# ------------------------------------------------------------------ list and event
def test_points_are_written_with_halves() -> None:
    assert [points(x) for x in (0, 0.5, 2.5, 3, 1.25, None)] == ["0", "½", "2½", "3", "1.25", "–"]


def test_list_and_event_pages_render_for_anybody(client: Client, league: League, org: Actor) -> None:
    event = make_event(league, org)
    listed = client.get("/team-events/")
    assert listed.status_code == 200
    assert b"Club Cup" in listed.content and b"Team Club" in listed.content
    page = client.get(f"/team-events/{event.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Club Cup" in html and "2 teams a match, 2 boards" in html
    assert f'data-topics="team_event:{event.pk}"' in html
    assert "enter-button" not in html and "start-button" not in html  # nobody's buttons
    assert client.get("/team-events/999999/").status_code == 404


def test_captain_enters_and_withdraws_from_the_event_page(
    league: League, org: Actor, squads: dict[str, Any]
) -> None:
    event = make_event(league, org)
    captain = squads["Rooks"]["people"][0]
    team = squads["Rooks"]["team"]
    c = client_for(captain)
    html = c.get(f"/team-events/{event.pk}/").content.decode()
    assert "enter-button" in html and "Rooks" in html and "Pawns" not in html  # only their team
    assert "start-button" not in html
    done = c.post(f"/team-events/{event.pk}/enter/", {"team": team.pk}, follow=True)
    assert TeamEntry.objects.filter(event=event, team=team, withdrawn=False).exists()
    assert any("Rooks is entered" in m for m in messages_of(done))
    c.post(f"/team-events/{event.pk}/withdraw/", {"team": team.pk})
    assert TeamEntry.objects.get(event=event, team=team).withdrawn


def test_someone_elses_team_is_refused_with_the_reason(
    league: League, org: Actor, squads: dict[str, Any]
) -> None:
    event = make_event(league, org)
    captain = squads["Rooks"]["people"][0]
    done = client_for(captain).post(
        f"/team-events/{event.pk}/enter/", {"team": squads["Pawns"]["team"].pk}, follow=True
    )
    assert not TeamEntry.objects.filter(event=event).exists()
    assert [m for m in messages_of(done) if "Pawns" in m]


def test_only_organisers_start_and_they_must_confirm(
    league: League, org: Actor, squads: dict[str, Any]
) -> None:
    event = make_event(league, org)
    for name in ("Rooks", "Pawns"):
        events.team_event_enter(event_id=event.pk, team_id=squads[name]["team"].pk, by=org.player)
    captain = client_for(squads["Rooks"]["people"][0])
    captain.post(f"/team-events/{event.pk}/start/", {"confirm": "yes"})
    event.refresh_from_db()
    assert event.status == TeamEvent.Status.REGISTRATION
    organiser = client_for(org)
    assert "start-button" in organiser.get(f"/team-events/{event.pk}/").content.decode()
    organiser.post(f"/team-events/{event.pk}/start/", {})  # not confirmed
    event.refresh_from_db()
    assert event.status == TeamEvent.Status.REGISTRATION
    organiser.post(f"/team-events/{event.pk}/start/", {"confirm": "yes"})
    event.refresh_from_db()
    assert event.status == TeamEvent.Status.RUNNING
    assert client_for(org).post(f"/team-events/{event.pk}/explode/", {}).status_code == 404
    assert Client().post(f"/team-events/{event.pk}/cancel/", {"confirm": "yes"}).status_code == 302
    event.refresh_from_db()
    assert event.status == TeamEvent.Status.RUNNING  # the anonymous post went to the login page


def test_running_event_shows_standings_rounds_and_lineup_status(
    league: League, org: Actor, squads: dict[str, Any]
) -> None:
    event, rnd, match = running(league, org, squads)
    captain = squads["Rooks"]["people"][0]
    anonymous = Client().get(f"/team-events/{event.pk}/").content.decode()
    assert "Round 1: line-ups" in anonymous and "not yet" in anonymous
    assert f"/team-matches/{match.pk}/" in anonymous
    assert "/lineup/" not in anonymous  # the line-up links are the captains'
    html = client_for(captain).get(f"/team-events/{event.pk}/").content.decode()
    assert f"/team-rounds/{rnd.pk}/lineup/rooks/" in html
    fragment = Client().get(f"/team-events/{event.pk}/?fragment=1")
    assert fragment.status_code == 200 and b"<html" not in fragment.content
    assert b"Standings" in fragment.content


# ------------------------------------------------------------------ the match page
def test_match_page_shows_the_stored_score_and_boards(
    league: League, org: Actor, squads: dict[str, Any]
) -> None:
    event, rnd, match = running(league, org, squads)
    sides = {s.team_id: s for s in TeamMatchSide.objects.filter(match=match)}
    rooks, pawns = squads["Rooks"]["team"], squads["Pawns"]["team"]
    # The round being played: board 1 counted (Rooks won it), board 2 forfeited by Pawns.
    TeamRound.objects.filter(pk=rnd.pk).update(status=TeamRound.Status.PLAYING)
    TeamMatch.objects.filter(pk=match.pk).update(status=TeamMatch.Status.PLAYING)
    order = {s.order: s.team_id for s in sides.values()}
    r1, p1 = squads["Rooks"]["people"][0].player.pk, squads["Pawns"]["people"][0].player.pk
    first = [r1 if order[1] == rooks.pk else p1, p1 if order[1] == rooks.pk else r1]
    TeamBoard.objects.update_or_create(
        match=match,
        number=1,
        defaults={"players": first, "points": {str(rooks.pk): 1, str(pawns.pk): 0}, "counted": True},
    )
    second = (
        [squads["Rooks"]["people"][1].player.pk, None]
        if order[1] == rooks.pk
        else [None, squads["Rooks"]["people"][1].player.pk]
    )
    TeamBoard.objects.update_or_create(
        match=match,
        number=2,
        defaults={
            "players": second,
            "forfeits": [pawns.pk],
            "points": {str(rooks.pk): 1, str(pawns.pk): 0},
            "counted": True,
        },
    )
    TeamMatchSide.objects.filter(pk=sides[rooks.pk].pk).update(game_points=1.5)
    TeamMatchSide.objects.filter(pk=sides[pawns.pk].pk).update(game_points=0.5)
    page = Client().get(f"/team-matches/{match.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert f'id="score-{sides[rooks.pk].order}">1½<' in html
    assert f'id="score-{sides[pawns.pk].order}">½<' in html
    assert "Rooks1" in html and "Pawns1" in html  # the players' names, once the round started
    assert "forfeit: no player" in html and "moves first" in html
    assert f'data-topics="team_event:{event.pk}"' in html
    signed_in = client_for(squads["Pawns"]["people"][2]).get(f"/team-matches/{match.pk}/?fragment=1")
    assert signed_in.status_code == 200 and "1½".encode() in signed_in.content
    assert Client().get("/team-matches/999999/").status_code == 404


def test_match_page_keeps_line_ups_private_before_the_start(
    league: League, org: Actor, squads: dict[str, Any]
) -> None:
    _event, _rnd, match = running(league, org, squads)
    html = Client().get(f"/team-matches/{match.pk}/").content.decode()
    assert "waiting for the round&#x27;s start" in html or "waiting for the round's start" in html
    assert "Rooks2" not in html


# ------------------------------------------------------------------ the line-up page
def test_captain_saves_a_line_up(league: League, org: Actor, squads: dict[str, Any]) -> None:
    _event, rnd, _match = running(league, org, squads)
    people = squads["Rooks"]["people"]
    c = client_for(people[0])
    url = f"/team-rounds/{rnd.pk}/lineup/rooks/"
    page = c.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert html.count('<select name="board') == 2 and "alternate" in html and "Save the line-up" in html
    done = c.post(url, {"board1": people[2].player.pk, "board2": people[0].player.pk}, follow=True)
    assert done.status_code == 200
    lineup = LineUp.objects.get(round=rnd, team=squads["Rooks"]["team"])
    assert lineup.players == [people[2].player.pk, people[0].player.pk]
    assert lineup.submitted_by == people[0].player
    assert "Set by Rooks1" in done.content.decode()


def test_a_refused_line_up_shows_why_and_saves_nothing(
    league: League, org: Actor, squads: dict[str, Any]
) -> None:
    _event, rnd, _match = running(league, org, squads)
    people = squads["Rooks"]["people"]
    same = people[0].player.pk
    refused = client_for(people[0]).post(
        f"/team-rounds/{rnd.pk}/lineup/rooks/", {"board1": same, "board2": same}
    )
    assert refused.status_code == 400
    assert "The line-up was not saved" in refused.content.decode()
    assert "two boards" in refused.content.decode()
    assert not LineUp.objects.filter(
        round=rnd, team=squads["Rooks"]["team"], submitted_by__isnull=False
    ).exists()


def test_line_up_is_closed_after_the_start(league: League, org: Actor, squads: dict[str, Any]) -> None:
    _event, rnd, _match = running(league, org, squads)
    TeamRound.objects.filter(pk=rnd.pk).update(starts_at=timezone.now() - timedelta(minutes=1))
    c = client_for(squads["Rooks"]["people"][0])
    html = c.get(f"/team-rounds/{rnd.pk}/lineup/rooks/").content.decode()
    assert "lineup-closed" in html and "Save the line-up" not in html
    p = squads["Rooks"]["people"][0].player.pk
    refused = c.post(f"/team-rounds/{rnd.pk}/lineup/rooks/", {"board1": p, "board2": ""})
    assert refused.status_code == 400
    assert not LineUp.objects.filter(
        round=rnd, team=squads["Rooks"]["team"], submitted_by__isnull=False
    ).exists()


def test_line_up_page_is_for_the_teams_managers(league: League, org: Actor, squads: dict[str, Any]) -> None:
    _event, rnd, _match = running(league, org, squads)
    url = f"/team-rounds/{rnd.pk}/lineup/rooks/"
    assert Client().get(url).status_code == 302  # to the login page
    assert client_for(squads["Rooks"]["people"][1]).get(url).status_code == 403  # a member, not captain
    assert client_for(squads["Pawns"]["people"][0]).get(url).status_code == 403  # the other captain
    p = squads["Rooks"]["people"][1].player.pk
    assert client_for(squads["Pawns"]["people"][0]).post(url, {"board1": p}).status_code == 403
    assert client_for(org).get(url).status_code == 200  # the event's organiser
    assert client_for(org).get(f"/team-rounds/{rnd.pk}/lineup/nobody/").status_code == 404


# ------------------------------------------------------------------ the organiser's form
def test_organiser_creates_a_team_event(league: League, org: Actor) -> None:
    c = client_for(org)
    url = f"/organiser/leagues/{league.slug}/team-events/new/"
    assert c.get(url).status_code == 200
    done = c.post(
        url,
        {
            "name": "Spring Swiss",
            "game": "pacru",
            "seats": "2",
            "boards": "4",
            "format": "swiss",
            "rounds": "5",
            "base_minutes": "10",
            "increment": "5",
            "rated": "on",
            "match_points": "2, 0",
            "tiebreak": "buchholz",
            "starts_at": "",
            "round_gap_minutes": "15",
            "round_times": "",
        },
    )
    event = TeamEvent.objects.get(name="Spring Swiss")
    assert done.status_code == 302 and done["Location"] == f"/team-events/{event.pk}/"
    assert (event.format, event.rounds, event.boards, event.tiebreak) == ("swiss", 5, 4, "buchholz")
    assert event.match_points == [2, 0] and event.round_gap_minutes == 15
    assert event.time_control["base"] == 600


def test_organiser_form_refuses_bad_input_and_creates_nothing(league: League, org: Actor) -> None:
    c = client_for(org)
    url = f"/organiser/leagues/{league.slug}/team-events/new/"
    bad = c.post(
        url,
        {
            "name": "Bad",
            "game": "pacru",
            "seats": "2",
            "boards": "4",
            "format": "swiss",
            "rounds": "",
            "base_minutes": "0",
            "increment": "0",
            "match_points": "3, x",
            "tiebreak": "game_points",
            "round_gap_minutes": "10",
        },
    )
    assert bad.status_code == 400
    html = bad.content.decode()
    assert "number of rounds" in html and "x is not a number" in html
    assert not TeamEvent.objects.filter(name="Bad").exists()


def test_organiser_form_is_for_the_clubs_organisers(league: League, make_actor: Callable[..., Actor]) -> None:
    url = f"/organiser/leagues/{league.slug}/team-events/new/"
    assert Client().get(url).status_code == 302
    other = make_actor("outsider")
    as_organiser(other.player)  # an organiser, but not of this club
    assert client_for(other).get(url).status_code == 403
    assert client_for(other).post(url, {"name": "Mine", "game": "pacru"}).status_code == 403
    assert not TeamEvent.objects.exists()
    assert client_for(other).get("/organiser/leagues/no-such-club/team-events/new/").status_code == 404


def test_league_page_lists_its_team_events(client: Client, league: League, org: Actor) -> None:
    event = make_event(league, org)
    html = client.get(f"/leagues/{league.slug}/").content.decode()
    assert f"/team-events/{event.pk}/" in html
    assert f"/organiser/leagues/{league.slug}/team-events/new/" not in html
    assert (
        f"/organiser/leagues/{league.slug}/team-events/new/"
        in client_for(org).get(f"/leagues/{league.slug}/").content.decode()
    )


def test_match_page_follows_the_boards_being_played(
    league: League, org: Actor, squads: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    """Through the services: the round opens its boards, one game ends by resignation, and the page
    shows the board's result and the score, with the other board still being played."""
    _event, rnd, match = running(league, org, squads)
    rounds.open_round(round_id=rnd.pk, now=rnd.starts_at)
    board = TeamBoard.objects.get(match=match, number=1)
    loser = board.table.seats.get(number=2)
    winner_team = next(
        t
        for t, p in zip(
            TeamMatchSide.objects.filter(match=match).order_by("order").values_list("team_id", flat=True),
            board.players,
            strict=True,
        )
        if p != loser.player_id
    )
    with django_capture_on_commit_callbacks(execute=True):
        games.game_resign(table_id=board.table_id, player=loser.player)
    html = Client().get(f"/team-matches/{match.pk}/").content.decode()
    won = TeamMatchSide.objects.get(match=match, team_id=winner_team)
    assert won.game_points == 1
    assert f'id="score-{won.order}">1<' in html
    assert "1 board of 2 finished" in html and "watch the game" in html
    assert f'href="/tables/{TeamBoard.objects.get(match=match, number=2).table_id}/"' in html


def test_organiser_calls_the_event_off(league: League, org: Actor) -> None:
    event = make_event(league, org)
    c = client_for(org)
    assert "cancel-button" in c.get(f"/team-events/{event.pk}/").content.decode()
    c.post(f"/team-events/{event.pk}/cancel/", {"confirm": "yes"})
    event.refresh_from_db()
    assert event.status == TeamEvent.Status.CANCELLED
    assert "called off" in Client().get(f"/team-events/{event.pk}/").content.decode()
