"""Team seasons: a divisions season of teams (``Season.team_boards``). Teams registered by their
captains are placed by rating into two divisions, each a team event started at once; every match
is played to its end on the boards' tables; the close gives places, promotion and relegation, and
the next season places the teams where they arrive (a newcomer by its rating). And the refusals:
a non-captain registering, an individual player entering a team season, closing early."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.utils import timezone

from common.errors import Conflict, Forbidden, InvalidInput
from games import services as games
from games.models import Player, Table
from tournaments.competitions import services as clubs
from tournaments.models import (
    League,
    Season,
    Team,
    TeamBoard,
    TeamEntry,
    TeamEvent,
    TeamMatchSide,
    TeamMember,
    TeamRound,
    TeamSeasonEntry,
)
from tournaments.seasons import services, sweep
from tournaments.teams import events as team_events
from tournaments.teams import finished, rounds
from tournaments.teams import seasons as team_seasons
from tournaments.teams import services as teams

from ..games.conftest import Actor, as_organiser
from .seasons_helpers import PAST, club, rated, settings
from .test_season_pages import season_form

pytestmark = pytest.mark.django_db


def make_team(make_actor: Callable[..., Actor], league: League, name: str, rating: int) -> Team:
    """A club team of two rated players (the captain and one more), both ``rating`` in shacru."""
    captain = rated(make_actor, f"{name}-cap", rating)
    clubs.league_join(league=league, player=captain)
    team = teams.team_create(by=captain, name=name, league=league, game="shacru")
    TeamMember.objects.create(team=team, player=rated(make_actor, f"{name}-two", rating))
    return team


def team_season(league: League, org: Player, **extra: Any) -> Season:
    values = {"division_size": 4, "promote": 1, "relegate": 1, "team_boards": 2, "newcomers": "rating"}
    return services.season_create(
        league=league, by=org, name="Team league", kind="divisions", **{**settings(), **values, **extra}
    )


def play_team_event(event: TeamEvent, strength: dict[int, int]) -> None:
    """Play ``event`` to its end: on every board the player of the team with the lower strength
    wins (the other resigns)."""
    for _ in range(60):
        event.refresh_from_db()
        if event.status == TeamEvent.Status.FINISHED:
            return
        rnd = TeamRound.objects.filter(event=event).order_by("-number").first()
        assert rnd is not None
        if rnd.status == TeamRound.Status.LINEUPS:
            rounds.open_round(round_id=rnd.pk, now=timezone.now())
            continue
        for board in TeamBoard.objects.filter(match__round=rnd, counted=False).select_related("table"):
            sides = list(TeamMatchSide.objects.filter(match=board.match_id).order_by("order"))
            team_of = {p: s.team_id for s, p in zip(sides, board.players, strict=True)}
            if board.table is not None and board.table.status == Table.Status.ACTIVE:
                loser = max(team_of, key=lambda p: strength[team_of[p]])
                games.game_resign(table_id=board.table_id, player=Player.objects.get(pk=loser))
            finished.board_finished(table_id=board.table_id)
    raise AssertionError(f"{event.name} did not finish")


def layout(season: Season) -> list[tuple[int, str, list[str]]]:
    """(level, group, team names in seed order) of each division."""
    out = []
    for d in season.divisions.order_by("level", "group"):
        assert d.team_event is not None
        names = (
            TeamEntry.objects.filter(event=d.team_event).order_by("seed").values_list("team__name", flat=True)
        )
        out.append((d.level, d.group, list(names)))
    return out


def test_two_divisions_over_two_seasons(make_actor: Callable[..., Actor]) -> None:
    org, league = club(make_actor)
    # T0 is rated highest (2000), T7 lowest (1650): the first season places by rating.
    t = [make_team(make_actor, league, f"T{i}", 2000 - 50 * i) for i in range(8)]
    season = team_season(league, org.player)
    for team in reversed(t):  # registration order does not matter: ratings do
        team_seasons.team_season_register(season_id=season.pk, team_id=team.pk, by=team.captain)
    services.season_start(season_id=season.pk, by=org.player)
    season.refresh_from_db()
    assert season.status == "running"
    assert layout(season) == [(1, "", ["T0", "T1", "T2", "T3"]), (2, "", ["T4", "T5", "T6", "T7"])]
    events = list(TeamEvent.objects.filter(season=season).order_by("pk"))
    assert [(e.status, e.boards, e.seats, e.game, e.rated) for e in events] == [
        ("running", 2, 2, "shacru", False)
    ] * 2
    assert all(e.round_times == settings()["round_times"] and e.league_id == league.pk for e in events)
    assert all(e.entries.count() == 4 and e.division.season_id == season.pk for e in events)
    entry = TeamSeasonEntry.objects.get(season=season, team=t[5])
    assert (entry.division.level, entry.arrived) == (2, "new")

    # The season's page data while running: each division's standings, movement provisional.
    live = team_seasons.team_season_table(season=season)
    assert [r.movement for r in live[1].rows] == ["up", "stay", "stay", "stay"]  # bottom level: none go down
    assert [r.movement for r in live[0].rows] == ["stay", "stay", "stay", "down"]

    # Closing before the divisions have played: refused, nothing changes.
    with pytest.raises(Conflict, match="still running: a season closes when all its divisions"):
        services.season_close(season_id=season.pk, by=org.player)
    assert sweep.sweep(now=timezone.now()) == {}  # the calendar does not close it either

    # In every division the lowest rated team wins every match: places reverse the ratings.
    strength = {team.pk: -i for i, team in enumerate(t)}
    for event in events:
        play_team_event(event, strength)
    done = sweep.sweep(now=timezone.now())  # all divisions finished: the calendar closes the season
    assert done == {"closed": 1}
    season.refresh_from_db()
    nxt = Season.objects.get(previous=season)
    assert season.status == "finished" and nxt.team_boards == 2 and nxt.status == "registration"

    table = team_seasons.team_season_table(season=season)
    assert [
        (r.name, r.place, r.match_points, r.game_points, r.played, r.movement) for r in table[0].rows
    ] == [
        ("T3", 1, 6.0, 6.0, 3, "stay"),
        ("T2", 2, 4.0, 4.0, 3, "stay"),
        ("T1", 3, 2.0, 2.0, 3, "stay"),
        ("T0", 4, 0.0, 0.0, 3, "down"),
    ]
    assert [(r.name, r.place, r.movement) for r in table[1].rows] == [
        ("T7", 1, "up"),
        ("T6", 2, "stay"),
        ("T5", 3, "stay"),
        ("T4", 4, "stay"),
    ]
    assert all(t.final for t in table)
    arrived = dict(TeamSeasonEntry.objects.filter(season=nxt).values_list("team__name", "arrived"))
    assert arrived == {
        "T3": "stay",
        "T2": "stay",
        "T1": "stay",
        "T0": "down",
        "T7": "up",
        **{f"T{i}": "stay" for i in (6, 5, 4)},
    }

    # The next season: a newcomer rated above the top division's average joins it (newcomers by
    # rating), after its returning teams; the bottom level takes the fifth team.
    newcomer = make_team(make_actor, league, "Fresh", 1900)
    team_seasons.team_season_register(season_id=nxt.pk, team_id=newcomer.pk, by=newcomer.captain)
    nxt_round_times = PAST[:9]
    services.season_update(season_id=nxt.pk, by=org.player, round_times=nxt_round_times)
    services.season_start(season_id=nxt.pk, by=org.player)
    nxt.refresh_from_db()
    assert layout(nxt) == [
        (1, "", ["T3", "T2", "T1", "T7"]),
        (2, "", ["Fresh", "T0", "T6", "T5", "T4"]),
    ]


def test_registration_refusals(make_actor: Callable[..., Actor]) -> None:
    org, league = club(make_actor)
    knights = make_team(make_actor, league, "Knights", 1700)
    season = team_season(league, org.player)
    member = TeamMember.objects.filter(team=knights).exclude(player=knights.captain).get().player

    # A plain member is no captain: refused, nothing registered.
    with pytest.raises(Forbidden, match="only the captain and vice-captain of Knights"):
        team_seasons.team_season_register(season_id=season.pk, team_id=knights.pk, by=member)
    assert not TeamSeasonEntry.objects.exists()

    # An individual player cannot enter a season of teams, nor mark rounds in it.
    with pytest.raises(Conflict, match="is a season of teams: a team's captain registers the team"):
        services.season_register(season_id=season.pk, player=member)
    assert not season.entries.exists()

    # Another club's team plays that club's seasons.
    other_org = make_actor("other-org")
    other = clubs.league_create(organiser=as_organiser(other_org.player), name="Elsewhere")
    away = make_team(make_actor, other, "Away", 1700)
    with pytest.raises(Conflict, match="Away is a team of Elsewhere"):
        team_seasons.team_season_register(season_id=season.pk, team_id=away.pk, by=away.captain)

    # The captain registers; twice is refused; the organiser may withdraw it and register it again.
    entry = team_seasons.team_season_register(season_id=season.pk, team_id=knights.pk, by=knights.captain)
    assert (entry.arrived, entry.withdrawn) == ("new", False)
    with pytest.raises(Conflict, match="Knights is registered for Team league already"):
        team_seasons.team_season_register(season_id=season.pk, team_id=knights.pk, by=knights.captain)
    team_seasons.team_season_withdraw(season_id=season.pk, team_id=knights.pk, by=org.player)
    assert TeamSeasonEntry.objects.get(pk=entry.pk).withdrawn
    team_seasons.team_season_register(season_id=season.pk, team_id=knights.pk, by=knights.captain)

    # One team is not a season: the start is refused.
    with pytest.raises(Conflict, match="at least two registered teams"):
        services.season_start(season_id=season.pk, by=org.player)

    # A team is not registered for a season of players.
    players = services.season_create(
        league=league, by=org.player, name="Solo", kind="divisions", **settings()
    )
    with pytest.raises(Conflict, match="Solo is a season of players"):
        team_seasons.team_season_register(season_id=players.pk, team_id=knights.pk, by=knights.captain)

    # Once the season runs, registration and withdrawal are closed.
    rooks = make_team(make_actor, league, "Rooks", 1600)
    team_seasons.team_season_register(season_id=season.pk, team_id=rooks.pk, by=rooks.captain)
    services.season_start(season_id=season.pk, by=org.player)
    with pytest.raises(Conflict, match="teams withdraw from a season only while registration is open"):
        team_seasons.team_season_withdraw(season_id=season.pk, team_id=rooks.pk, by=rooks.captain)


def test_team_boards_settings(make_actor: Callable[..., Actor]) -> None:
    org, league = club(make_actor)
    with pytest.raises(InvalidInput, match="only a season with divisions can be a season of teams"):
        services.season_create(league=league, by=org.player, name="S", kind="series", team_boards=2)
    with pytest.raises(InvalidInput, match="team_boards is the number of boards of each team match: 1 to 12"):
        team_season(league, org.player, team_boards=13)
    # A season with players registered cannot become a season of teams, and back.
    solo = services.season_create(league=league, by=org.player, name="Solo", kind="divisions", **settings())
    services.season_register(season_id=solo.pk, player=rated(make_actor, "solo", 1500))
    with pytest.raises(Conflict, match="players are registered for Solo already"):
        services.season_update(season_id=solo.pk, by=org.player, team_boards=3)
    team = make_team(make_actor, league, "Bishops", 1500)
    season = team_season(league, org.player)
    team_seasons.team_season_register(season_id=season.pk, team_id=team.pk, by=team.captain)
    with pytest.raises(Conflict, match="teams are registered for Team league already"):
        services.season_update(season_id=season.pk, by=org.player, team_boards=None)
    assert services.season_update(season_id=season.pk, by=org.player, team_boards=4).team_boards == 4


def test_api_register_and_detail(make_actor: Callable[..., Actor]) -> None:
    org, league = club(make_actor)
    body = {"name": "Teams", "kind": "divisions", "division_size": 4, "promote": 1, "relegate": 1}
    created = org.post(f"/api/v1/leagues/{league.slug}/seasons/", {**body, **settings(), "team_boards": 3})
    assert created.status_code == 201, created.content
    season_id = created.json()["id"]
    assert created.json()["team_boards"] == 3
    a = make_team(make_actor, league, "Alpha", 1800)
    b = make_team(make_actor, league, "Beta", 1700)
    team_seasons.team_season_register(season_id=season_id, team_id=a.pk, by=a.captain)
    cap = make_actor("beta-vice")  # Beta's vice-captain registers it through the API
    TeamMember.objects.create(team=b, player=cap.player)
    Team.objects.filter(pk=b.pk).update(vice_captain=cap.player)
    answer = cap.post(f"/api/v1/seasons/{season_id}/teams/register/", {"team": b.pk})
    assert answer.status_code == 200, answer.content
    assert answer.json() == {
        "team": b.pk,
        "name": "Beta",
        "slug": b.slug,
        "withdrawn": False,
        "level": None,
        "group": None,
        "arrived": "new",
        "place": None,
        "movement": "",
    }
    refused = make_actor("stranger").post(f"/api/v1/seasons/{season_id}/teams/register/", {"team": a.pk})
    assert refused.status_code == 403
    assert org.post(f"/api/v1/seasons/{season_id}/start/").status_code == 200
    detail = org.get(f"/api/v1/seasons/{season_id}/").json()
    assert [e["name"] for e in detail["team_entries"]] == ["Alpha", "Beta"]
    assert detail["table"] == [] and len(detail["divisions"]) == 1
    division = detail["divisions"][0]
    assert division["team_event"] == TeamEvent.objects.get(season_id=season_id).pk
    assert division["tournament"] is None
    rows = detail["team_table"][0]["rows"]
    assert [(r["name"], r["place"], r["match_points"], r["game_points"]) for r in rows] == [
        ("Alpha", 1, 0.0, 0.0),
        ("Beta", 2, 0.0, 0.0),
    ]
    assert detail["team_table"][0]["division"]["team_event_status"] == "running"


def test_season_page_of_teams(make_actor: Callable[..., Actor], client: Any) -> None:
    org, league = club(make_actor)
    a = make_team(make_actor, league, "Alpha", 1800)
    b = make_team(make_actor, league, "Beta", 1700)
    season = team_season(league, org.player)
    url = f"/leagues/{league.slug}/seasons/{season.pk}/"

    # A captain sees a form to register the teams they captain, and registers one.
    client.force_login(a.captain.user)
    page = client.get(url).content.decode()
    assert 'name="team"' in page and f'<option value="{a.pk}">Alpha</option>' in page
    assert "Register my team" in page and "Beta</option>" not in page
    answer = client.post(f"{url}team-register/", {"team": str(a.pk)}, follow=True)
    assert "Alpha is registered for Team league" in answer.content.decode()
    assert TeamSeasonEntry.objects.filter(season=season, team=a, withdrawn=False).exists()
    assert "Withdraw Alpha" in answer.content.decode()
    answer = client.post(f"{url}team-withdraw/", {"team": str(a.pk)}, follow=True)
    assert "Alpha withdrew from Team league" in answer.content.decode()
    team_seasons.team_season_register(season_id=season.pk, team_id=a.pk, by=a.captain)
    # A plain member has no team to register: the page says how teams enter.
    member = TeamMember.objects.filter(team=b).exclude(player=b.captain).get().player
    client.force_login(member.user)
    page = client.get(url).content.decode()
    assert "Register my team" not in page and "a team's captain registers the team" in page
    answer = client.post(f"{url}team-register/", {"team": str(b.pk)}, follow=True)
    assert "only the captain and vice-captain of Beta" in answer.content.decode()

    team_seasons.team_season_register(season_id=season.pk, team_id=b.pk, by=b.captain)
    services.season_start(season_id=season.pk, by=org.player)
    event = TeamEvent.objects.get(season=season)
    page = client.get(url).content.decode()
    assert f'href="/teams/{a.slug}/"' in page and f'href="/team-events/{event.pk}/"' in page
    assert "2 teams registered" in page and "team matches on 2 boards" in page


def test_a_team_leaving_its_division_goes_down_and_out(make_actor: Callable[..., Actor]) -> None:
    org, league = club(make_actor)
    t = [make_team(make_actor, league, f"W{i}", 2000 - 50 * i) for i in range(6)]
    season = team_season(league, org.player, division_size=3, newcomers="bottom")
    for team in t:
        team_seasons.team_season_register(season_id=season.pk, team_id=team.pk, by=team.captain)
    services.season_start(season_id=season.pk, by=org.player)
    assert layout(season) == [(1, "", ["W0", "W1", "W2"]), (2, "", ["W3", "W4", "W5"])]
    with pytest.raises(Conflict, match="is a season of teams"):
        services.set_unavailable(season_id=season.pk, player=t[0].captain, rounds=[2])

    # W0 (the strongest) leaves the top division's event after round 1: it goes down, out of the
    # next season, and takes the top division's one relegation place.
    top, bottom = (d.team_event for d in season.divisions.order_by("level"))
    assert top is not None and bottom is not None
    strength = {team.pk: i for i, team in enumerate(t)}  # the higher rated wins
    rnd = TeamRound.objects.get(event=top, number=1)
    rounds.open_round(round_id=rnd.pk, now=timezone.now())
    team_events.team_event_withdraw(event_id=top.pk, team_id=t[0].pk, by=t[0].captain)
    play_team_event(top, strength)
    play_team_event(bottom, strength)
    nxt = services.season_close(season_id=season.pk, by=org.player)
    final = team_seasons.team_season_table(season=season)
    assert [(r.name, r.movement, r.withdrawn) for r in final[0].rows] == [
        ("W1", "stay", False),
        ("W2", "stay", False),
        ("W0", "down", True),
    ]
    assert [(r.name, r.movement) for r in final[1].rows] == [("W3", "up"), ("W4", "stay"), ("W5", "stay")]
    assert TeamSeasonEntry.objects.get(season=season, team=t[0]).withdrawn
    assert sorted(TeamSeasonEntry.objects.filter(season=nxt).values_list("team__name", "arrived")) == [
        ("W1", "stay"),
        ("W2", "stay"),
        ("W3", "up"),
        ("W4", "stay"),
        ("W5", "stay"),
    ]


def test_the_organiser_form_makes_a_team_season(make_actor: Callable[..., Actor], client: Any) -> None:
    org, league = club(make_actor)
    client.force_login(org.player.user)
    url = f"/organiser/leagues/{league.slug}/seasons/"
    assert 'name="team_boards"' in client.get(url).content.decode()
    client.post(url, season_form(name="Club teams", team_boards=4))
    season = Season.objects.get(league=league, name="Club teams")
    assert season.team_boards == 4
    page = client.get(f"{url}{season.pk}/edit/").content.decode()
    assert 'name="team_boards" value="4"' in page
