"""A season of teams tells its players what it tells a season's players: each member of each team
hears of the team's division when the season starts, and of its place and movement at the end
(the ``season_changed`` news, then one notification each)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import Notification
from tournaments.models import TeamEvent, TeamMember
from tournaments.seasons import services
from tournaments.seasons.news import season_news
from tournaments.teams import seasons as team_seasons

from ..games.conftest import Actor
from .seasons_helpers import club
from .test_team_seasons import make_team, play_team_event, team_season

pytestmark = pytest.mark.django_db


def test_every_member_hears_of_the_team_division_and_its_movement(
    make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    org, league = club(make_actor)
    t = [make_team(make_actor, league, f"N{i}", 2000 - 50 * i) for i in range(6)]
    season = team_season(league, org.player, division_size=3, promote=1, relegate=1)
    for team in t:
        team_seasons.team_season_register(season_id=season.pk, team_id=team.pk, by=team.captain)
    with django_capture_on_commit_callbacks(execute=True):
        services.season_start(season_id=season.pk, by=org.player)

    members = {m.player_id: m.team.name for m in TeamMember.objects.filter(team__in=t).select_related("team")}
    started = season_news(season.pk, state="started")
    assert sorted(m.player.id for m in started.players) == sorted(members)
    level = {members[m.player.id]: m.level for m in started.players}
    assert level == {"N0": 1, "N1": 1, "N2": 1, "N3": 2, "N4": 2, "N5": 2}
    told = Notification.objects.filter(kind="season", key=f"season:{season.pk}:started")
    assert told.count() == len(members)

    strength = {team.pk: -i for i, team in enumerate(t)}  # the lower rated team wins each match
    for event in TeamEvent.objects.filter(season=season):
        play_team_event(event, strength)
    with django_capture_on_commit_callbacks(execute=True):
        services.season_close(season_id=season.pk, by=org.player, now=timezone.now())
    ended = {
        (members[m.player.id], m.place, m.movement, m.to_level)
        for m in season_news(season.pk, state="finished").players
    }
    # Each division plays a round robin of three (a bye each, worth a won match): the lowest rated
    # team wins its two matches, the highest loses both.
    assert ended == {
        ("N2", 1, "stay", 1),
        ("N1", 2, "stay", 1),
        ("N0", 3, "down", 2),
        ("N5", 1, "up", 1),
        ("N4", 2, "stay", 2),
        ("N3", 3, "stay", 2),
    }
    assert Notification.objects.filter(kind="season", key=f"season:{season.pk}:finished").count() == len(
        members
    )
