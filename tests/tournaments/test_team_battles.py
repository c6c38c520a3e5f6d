"""Team battles in arenas (``tournaments.teams.battles``): the settings, joining for a team, the
team leaderboard counting each team's top K scorers, the API and the event page."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from common.errors import Conflict, Forbidden, InvalidInput
from games import services as games
from games.models import Player, Seat
from tournaments.arena import selectors, services, wave
from tournaments.competitions import services as events
from tournaments.competitions.services.rounds import start_locked
from tournaments.models import ArenaPlayer, League, Team, TeamMember, Tournament
from tournaments.teams import battles
from tournaments.teams.battles import Entry, tally

from ..games.conftest import Actor, as_organiser

FISCHER = {"kind": "fischer", "base": 300, "increment": 2}


# ------------------------------------------------------------------ the pure tally


def _e(player: int, team: int, points: int, perf: float | None = None) -> Entry:
    return Entry(player=player, team=team, points=points, performance=perf, name=f"p{player}")


def test_only_the_best_k_count_and_a_short_team_counts_what_it_has() -> None:
    entries = [
        _e(1, 10, 9, 1700.0),
        _e(2, 20, 8, 1600.0),
        _e(3, 10, 7, 1500.0),
        _e(4, 10, 6),  # fourth best of team 10: left out with K=2
        _e(5, 10, 5),
    ]
    lines = tally(teams={10: "Rooks", 20: "Knights", 30: "Bishops"}, entries=entries, top=2)
    assert [(x.team, x.place, x.points, x.total, x.players) for x in lines] == [
        (10, 1, 9 + 7, 9 + 7 + 6 + 5, 4),
        (20, 2, 8, 8, 1),  # one player, K = 2: counts the one it has
        (30, 3, 0, 0, 0),  # no players: nothing
    ]
    assert [c.player for c in lines[0].counting] == [1, 3]
    assert [c.points for c in lines[0].counting] == [9, 7]
    assert lines[0].performance == 1600  # mean of the counting players' performances
    assert lines[1].performance == 1600 and lines[2].performance is None


def test_teams_level_on_points_go_by_all_their_points_then_name_and_share_only_a_full_tie() -> None:
    entries = [_e(1, 1, 5), _e(2, 1, 1), _e(3, 2, 5), _e(4, 2, 3), _e(5, 3, 5), _e(6, 4, 5), _e(7, 4, 1)]
    lines = tally(teams={1: "Delta", 2: "Charlie", 3: "Bravo", 4: "Alpha"}, entries=entries, top=1)
    # all score 5 with K = 1; total: Charlie 8, Alpha 6, Delta 6, Bravo 5
    assert [(x.team, x.place) for x in lines] == [(2, 1), (4, 2), (1, 2), (3, 4)]


def test_players_level_at_the_cut_are_taken_in_leaderboard_order_and_others_teams_ignored() -> None:
    entries = [_e(1, 1, 4), _e(2, 1, 3), _e(3, 1, 3), _e(4, 99, 50)]
    (line,) = tally(teams={1: "Rooks"}, entries=entries, top=2)
    assert [c.player for c in line.counting] == [1, 2] and line.points == 7 and line.total == 10


# ------------------------------------------------------------------ database fixtures


@pytest.fixture
def organiser(make_actor: Callable[..., Actor]) -> Actor:
    actor = make_actor("battleorg")
    as_organiser(actor.player)
    return actor


@pytest.fixture
def t0() -> datetime:
    return timezone.now().replace(microsecond=0)


def _team(name: str, *members: Player) -> Team:
    team = Team.objects.create(name=name, slug=name.lower(), captain=members[0], game="shacru")
    for p in members:
        TeamMember.objects.create(team=team, player=p)
    return team


def _league(organiser: Actor) -> League:
    return League.objects.filter(slug="battle-club").first() or events.league_create(
        organiser=organiser.player, name="Battle club"
    )


def _battle(organiser: Actor, teams: list[Any], top: int = 2, **kw: Any) -> Tournament:
    kw.setdefault("time_control", FISCHER)
    return events.tournament_create(
        organiser=organiser.player,
        league=_league(organiser),
        name="Team blitz",
        game="shacru",
        seats=2,
        format="arena",
        duration_minutes=30,
        team_battle_top=top,
        battle_teams=teams,
        **kw,
    )


def _start(t: Tournament, at: datetime) -> Tournament:
    with transaction.atomic():
        start_locked(t=Tournament.objects.select_for_update().get(pk=t.pk), by=None, now=at)
    t.refresh_from_db()
    return t


def _players(make_actor: Callable[..., Actor], n: int, prefix: str) -> list[Player]:
    return [make_actor(f"{prefix}{i}").player for i in range(n)]


# ------------------------------------------------------------------ settings


def test_a_team_battle_is_set_with_k_and_two_teams_or_more_for_arenas_only(
    organiser: Actor, make_actor: Callable[..., Actor]
) -> None:
    a, b = _players(make_actor, 2, "set")
    rooks, knights = _team("Rooks", a), _team("Knights", b)
    t = _battle(organiser, ["rooks", str(knights.pk)], top=3)
    assert t.team_battle_top == 3 and set(t.battle_teams.all()) == {rooks, knights}
    assert battles.is_team_battle(t)
    with pytest.raises(InvalidInput, match="1 to 20"):
        _battle(organiser, ["rooks", "knights"], top=21)
    with pytest.raises(InvalidInput, match="1 to 20"):
        _battle(organiser, ["rooks", "knights"], top=0)
    with pytest.raises(InvalidInput, match="at least 2 teams"):
        _battle(organiser, ["rooks", rooks.pk])
    with pytest.raises(InvalidInput, match="no team nobody"):
        _battle(organiser, ["rooks", "nobody"])
    with pytest.raises(InvalidInput, match="needs team_battle_top"):
        _battle(organiser, ["rooks", "knights"], top=None)  # type: ignore[arg-type]
    with pytest.raises(InvalidInput, match="only an arena"):
        events.tournament_create(
            organiser=organiser.player,
            league=_league(organiser),
            name="Swiss",
            game="shacru",
            seats=2,
            team_battle_top=2,
            battle_teams=["rooks", "knights"],
        )
    plain = _battle(organiser, [], top=None)  # type: ignore[arg-type]
    assert plain.team_battle_top is None and not battles.is_team_battle(plain)
    assert Tournament.objects.filter(name="Swiss").count() == 0


def test_the_api_creates_a_team_battle(organiser: Actor, make_actor: Callable[..., Actor]) -> None:
    a, b = _players(make_actor, 2, "api")
    _team("Rooks", a), _team("Knights", b)
    league = _league(organiser)
    body = {
        "league": league.slug,
        "name": "API battle",
        "game": "shacru",
        "seats": 2,
        "format": "arena",
        "duration_minutes": 20,
        "team_battle_top": 2,
        "battle_teams": ["rooks", "knights"],
    }
    r = organiser.post("/api/v1/tournaments/", body)
    assert r.status_code == 201, r.content
    assert r.json()["team_battle_top"] == 2
    t = Tournament.objects.get(pk=r.json()["id"])
    assert sorted(t.battle_teams.values_list("slug", flat=True)) == ["knights", "rooks"]
    r = organiser.post("/api/v1/tournaments/", {**body, "team_battle_top": 25})
    assert r.status_code == 400
    r = organiser.post("/api/v1/tournaments/", {**body, "battle_teams": ["rooks"]})
    assert r.status_code == 400 and "at least 2 teams" in r.content.decode()


def test_the_organiser_form_creates_a_team_battle(
    organiser: Actor, make_actor: Callable[..., Actor], client: Client
) -> None:
    a, b = _players(make_actor, 2, "form")
    _team("Rooks", a), _team("Knights", b)
    league = _league(organiser)
    client.force_login(organiser.player.user)
    page = client.get(reverse("dashboard")).content.decode()
    assert 'name="team_battle_top"' in page and 'name="battle_teams"' in page
    r = client.post(
        reverse("dashboard"),
        {
            "form": "event",
            "league": league.pk,
            "name": "Form battle",
            "game": "shacru",
            "seats": 2,
            "format": "arena",
            "duration_minutes": 30,
            "base_minutes": 5,
            "increment": 2,
            "team_battle_top": 3,
            "battle_teams": "rooks, knights",
        },
    )
    assert r.status_code == 302, r.content.decode()[:2000]
    t = Tournament.objects.get(name="Form battle")
    assert t.team_battle_top == 3 and t.battle_teams.count() == 2


# ------------------------------------------------------------------ joining


def test_joining_for_a_team_refusals_choice_and_a_fixed_team(
    organiser: Actor, make_actor: Callable[..., Actor], t0: datetime
) -> None:
    a, b, both, outsider = _players(make_actor, 4, "join")
    rooks, knights = _team("Rooks", a, both), _team("Knights", b, both)
    t = _battle(organiser, ["rooks", "knights"])
    with pytest.raises(Forbidden, match="only members of Knights, Rooks can join"):
        services.arena_join(tournament_id=t.pk, player=outsider)
    with pytest.raises(InvalidInput, match="several teams"):
        services.arena_join(tournament_id=t.pk, player=both)
    with pytest.raises(Forbidden, match="not a member of Knights"):
        services.arena_join(tournament_id=t.pk, player=a, team="knights")
    with pytest.raises(InvalidInput, match="not a team of this battle"):
        services.arena_join(tournament_id=t.pk, player=a, team="bishops")
    assert not ArenaPlayer.objects.filter(tournament=t).exists()
    services.arena_join(tournament_id=t.pk, player=a)  # the only team they are on
    services.arena_join(tournament_id=t.pk, player=both, team="knights")
    services.arena_join(tournament_id=t.pk, player=b, team=knights.pk)
    teams = dict(ArenaPlayer.objects.filter(tournament=t).values_list("player_id", "team_id"))
    assert teams == {a.pk: rooks.pk, both.pk: knights.pk, b.pk: knights.pk}
    assert selectors.leaderboard(t) == [], "no leaderboard before the start"
    # left before the start and back: the team stays
    services.arena_withdraw(tournament_id=t.pk, player=both)
    with pytest.raises(Conflict, match="you play for Knights"):
        services.arena_join(tournament_id=t.pk, player=both, team="rooks")
    services.arena_join(tournament_id=t.pk, player=both)
    t = _start(t, t0)
    rows = {r.player_id: r for r in ArenaPlayer.objects.filter(tournament=t)}
    assert {p: r.team_id for p, r in rows.items()} == teams
    assert all(r.free_since == t0 and not r.withdrawn for r in rows.values())
    # while it runs: leaving and coming back keeps the team, switching is refused
    services.arena_withdraw(tournament_id=t.pk, player=both)
    with pytest.raises(Conflict, match="fixed"):
        services.arena_join(tournament_id=t.pk, player=both, team="rooks", now=t0 + timedelta(minutes=1))
    services.arena_join(tournament_id=t.pk, player=both, team="knights", now=t0 + timedelta(minutes=1))
    assert ArenaPlayer.objects.get(tournament=t, player=both).team_id == knights.pk
    late = make_actor("joinlate").player
    TeamMember.objects.create(team=rooks, player=late)
    services.arena_join(tournament_id=t.pk, player=late, now=t0 + timedelta(minutes=2))
    assert ArenaPlayer.objects.get(tournament=t, player=late).team_id == rooks.pk
    assert [r.team_name for r in selectors.leaderboard(t) if r.player.pk == late.pk] == ["Rooks"]


def test_a_player_who_left_before_the_start_is_not_on_the_board(
    organiser: Actor, make_actor: Callable[..., Actor], t0: datetime
) -> None:
    a, b, c = _players(make_actor, 3, "gone")
    _team("Rooks", a, c), _team("Knights", b)
    t = _battle(organiser, ["rooks", "knights"])
    for p in (a, b, c):
        services.arena_join(tournament_id=t.pk, player=p)
    services.arena_withdraw(tournament_id=t.pk, player=c)
    t = _start(t, t0)
    assert sorted(r.player.pk for r in selectors.leaderboard(t)) == sorted([a.pk, b.pk])


def test_players_an_organiser_entered_play_for_their_only_battle_team(
    organiser: Actor, make_actor: Callable[..., Actor], t0: datetime
) -> None:
    a, b, outsider = _players(make_actor, 3, "entered")
    rooks, _knights = _team("Rooks", a), _team("Knights", b)
    t = _battle(organiser, ["rooks", "knights"])
    for p in (a, outsider):
        events.register(tournament_id=t.pk, player=p, by=organiser.player)
    t = _start(t, t0)
    teams = dict(ArenaPlayer.objects.filter(tournament=t).values_list("player_id", "team_id"))
    assert teams == {a.pk: rooks.pk, outsider.pk: None}  # the outsider's points count for no team
    board = battles.team_leaderboard(tournament=t)
    assert [(line.team.name, line.place, line.players) for line in board] == [
        ("Knights", 1, 0),
        ("Rooks", 1, 1),
    ]


def test_a_plain_arena_is_unchanged(organiser: Actor, make_actor: Callable[..., Actor]) -> None:
    a = make_actor("plain0").player
    t = _battle(organiser, [], top=None)  # type: ignore[arg-type]
    services.arena_join(tournament_id=t.pk, player=a, team="whatever")
    assert not ArenaPlayer.objects.filter(tournament=t).exists()  # rows come with the start
    assert battles.team_leaderboard(tournament=t) == []


# ------------------------------------------------------------------ a battle played


def _play_all_tables(t: Tournament, now: datetime, capture: Any) -> None:
    """Pair the free players and end every table: seat 1 wins."""
    wave.pair_arena(tournament_id=t.pk, now=now)
    tables = set(
        ArenaPlayer.objects.filter(tournament=t, table__isnull=False).values_list("table_id", flat=True)
    )
    for table_id in sorted(tables):
        winner = Seat.objects.get(table_id=table_id, number=1).player
        with capture(execute=True):
            for seat in Seat.objects.filter(table_id=table_id).exclude(player=winner):
                games.game_resign(table_id=table_id, player=seat.player)


def _running_battle(
    organiser: Actor, make_actor: Callable[..., Actor], t0: datetime, capture: Any
) -> tuple[Tournament, Team, Team, list[Player]]:
    players = _players(make_actor, 6, "war")
    rooks = _team("Rooks", *players[:4])  # four players, K = 2: two count
    knights = _team("Knights", *players[4:5])  # one player: counts the one it has
    _team("Bishops", players[5])
    t = _battle(organiser, ["rooks", "knights", "bishops"], top=2)
    for p in players:
        services.arena_join(tournament_id=t.pk, player=p)
    t = _start(t, t0)
    for k in range(3):
        _play_all_tables(t, t0 + timedelta(seconds=30 * (k + 1)), capture)
    return t, rooks, knights, players


def test_the_team_leaderboard_counts_each_teams_top_k(
    organiser: Actor,
    make_actor: Callable[..., Actor],
    t0: datetime,
    django_capture_on_commit_callbacks: Any,
) -> None:
    t, rooks, knights, _ = _running_battle(organiser, make_actor, t0, django_capture_on_commit_callbacks)
    rows = list(ArenaPlayer.objects.filter(tournament=t))
    assert sum(r.games for r in rows) >= 6, "tables were played and counted"
    # a Rooks player leaves: their points still count
    leaver = max((r for r in rows if r.team_id == rooks.pk), key=lambda r: r.points)
    services.arena_withdraw(tournament_id=t.pk, player=leaver.player)
    by_team: dict[int, list[int]] = {}
    for r in ArenaPlayer.objects.filter(tournament=t):
        by_team.setdefault(r.team_id, []).append(r.points)
    expected = {team: sum(sorted(points, reverse=True)[:2]) for team, points in by_team.items()}
    board = battles.team_leaderboard(tournament=t)
    assert {line.team.pk: line.points for line in board} == expected
    assert {line.team.pk: line.total for line in board} == {team: sum(p) for team, p in by_team.items()}
    assert {line.team.name: line.players for line in board} == {"Rooks": 4, "Knights": 1, "Bishops": 1}
    line = next(x for x in board if x.team.pk == rooks.pk)
    assert len(line.counting) == 2 and leaver.player.pk in [c.player for c in line.counting]
    assert [x.points for x in board] == sorted((x.points for x in board), reverse=True)
    assert len(next(x for x in board if x.team.pk == knights.pk).counting) == 1


def test_the_arena_api_and_page_show_the_team_battle(
    organiser: Actor,
    make_actor: Callable[..., Actor],
    t0: datetime,
    django_capture_on_commit_callbacks: Any,
    client: Client,
) -> None:
    t, rooks, _knights, players = _running_battle(
        organiser, make_actor, t0, django_capture_on_commit_callbacks
    )
    data = organiser.get(f"/api/v1/tournaments/{t.pk}/arena/").json()
    assert data["team_battle_top"] == 2
    assert [row["name"] for row in data["teams"]] == [
        x.team.name for x in battles.team_leaderboard(tournament=t)
    ]
    first = data["teams"][0]
    assert set(first) == {
        "place",
        "team",
        "slug",
        "name",
        "points",
        "total",
        "players",
        "performance",
        "counting",
    }
    assert set(first["counting"][0]) == {"player", "display_name", "points", "performance"}
    assert first["points"] == sum(c["points"] for c in first["counting"])
    assert {row["player"]: row["team_name"] for row in data["standings"]}[players[0].pk] == "Rooks"
    # an outsider's join through the API: refused, with the teams named
    outsider = make_actor("outsider")
    r = outsider.post(f"/api/v1/tournaments/{t.pk}/arena/join/", {"team": "rooks"})
    assert r.status_code == 403 and "only members of Bishops, Knights, Rooks" in r.json()["detail"]
    r = outsider.post(f"/api/v1/tournaments/{t.pk}/arena/join/")
    assert r.status_code == 403 and "only members of Bishops, Knights, Rooks" in r.json()["detail"]
    assert not ArenaPlayer.objects.filter(tournament=t, player=outsider.player).exists()
    # a member joins through the API for their team
    newcomer = make_actor("newcomer")
    TeamMember.objects.create(team=rooks, player=newcomer.player)
    r = newcomer.post(f"/api/v1/tournaments/{t.pk}/arena/join/", {"team": "rooks"})
    assert r.status_code == 200 and r.json()["me"]["row"]["team_name"] == "Rooks"
    # the page: the team leaderboard, each player's team, the outsider told why they cannot join
    client.force_login(outsider.player.user)
    html = client.get(reverse("tournament", args=[t.pk])).content.decode()
    assert 'id="team-leaderboard"' in html and "Team battle" in html
    assert 'class="team-tag"' in html and 'id="team-refusal"' in html and 'id="arena-join"' not in html
    # the end: the podium names the winning team
    assert t.ends_at is not None
    with django_capture_on_commit_callbacks(execute=True):
        wave.sweep(now=t.ends_at + timedelta(seconds=3))
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    winner = battles.team_leaderboard(tournament=t)[0].team.name
    html = client.get(reverse("tournament", args=[t.pk])).content.decode()
    assert 'id="winning-team"' in html and f"<strong>{winner}</strong>" in html
    # a plain arena's API has no team board
    plain = _battle(organiser, [], top=None)  # type: ignore[arg-type]
    data = organiser.get(f"/api/v1/tournaments/{plain.pk}/arena/").json()
    assert data["teams"] is None and data["team_battle_top"] is None


def test_the_join_form_asks_which_team_when_on_several(
    organiser: Actor, make_actor: Callable[..., Actor], client: Client
) -> None:
    a, b, both = _players(make_actor, 3, "pick")
    _team("Rooks", a, both), _team("Knights", b, both)
    t = _battle(organiser, ["rooks", "knights"])
    client.force_login(both.user)
    html = client.get(reverse("tournament", args=[t.pk])).content.decode()
    assert '<select name="team" id="join-team">' in html and 'id="team-leaderboard"' in html
    r = client.post(reverse("arena-action", args=[t.pk, "join"]), {"team": "knights"})
    assert r.status_code == 302
    assert ArenaPlayer.objects.get(tournament=t, player=both).team.slug == "knights"
    html = client.get(reverse("tournament", args=[t.pk])).content.decode()
    assert 'id="my-team"' in html and "Knights" in html
