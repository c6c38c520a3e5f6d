"""Line-ups (``tournaments.teams.lineups``): who may set one, what it may hold, the deadline at
the round's start, the default line-up from the board order (alternates after the regulars, short
boards empty), a player playing for one team per round, and who sees a line-up before the start."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest

from common.errors import Conflict, Forbidden, InvalidInput
from tests.games.conftest import Actor
from tournaments.models import LineUp, Team, TeamBoard, TeamMember
from tournaments.teams import events as team_events
from tournaments.teams import lineups

from .test_team_events import T0, Club, current_round, match_of, open_current


def test_line_up_rules_and_the_deadline(make_actor: Callable[..., Actor]) -> None:
    club = Club(make_actor, "lu")
    red, red_people = club.team("Red", 2, alternates=1)
    blue, blue_people = club.team("Blue", 2)
    event = club.event(boards=2)
    club.enter(event, [red, blue])
    team_events.team_event_start(event_id=event.pk, by=club.org.player, now=T0)
    rnd = current_round(event)
    captain, regular, alternate = red_people

    def submit(players: list[int | None], by: Any = captain, now: Any = T0) -> LineUp:
        return lineups.lineup_submit(round_id=rnd.pk, team_id=red.pk, by=by, players=players, now=now)

    with pytest.raises(Forbidden):  # a member who does not manage the team
        submit([regular.pk, alternate.pk], by=regular)
    with pytest.raises(InvalidInput):  # one entry per board
        submit([regular.pk])
    with pytest.raises(InvalidInput):  # twice the same player
        submit([regular.pk, regular.pk])
    with pytest.raises(InvalidInput):  # not a member of Red
        submit([regular.pk, blue_people[1].pk])
    with pytest.raises(InvalidInput):
        submit(["x", None])  # type: ignore[list-item]
    lineup = submit([alternate.pk, None])  # the alternate on board 1, board 2 left empty
    assert lineup.players == [alternate.pk, None] and lineup.submitted_by == captain
    red.vice_captain = regular
    red.save(update_fields=["vice_captain"])
    lineup = submit([regular.pk, alternate.pk], by=regular)  # the vice-captain changes it
    assert (
        lineup.players == [regular.pk, alternate.pk]
        and LineUp.objects.filter(round=rnd, team=red).count() == 1
    )
    with pytest.raises(Conflict) as closed:
        submit([captain.pk, regular.pk], now=rnd.starts_at)
    assert "closed at" in closed.value.detail and rnd.starts_at.isoformat() in closed.value.detail
    assert LineUp.objects.get(round=rnd, team=red).players == [regular.pk, alternate.pk]


def test_a_player_plays_for_one_team_per_round(make_actor: Callable[..., Actor]) -> None:
    club = Club(make_actor, "one")
    red, red_people = club.team("Red", 2)
    blue, blue_people = club.team("Blue", 2)
    both = red_people[1]
    TeamMember.objects.create(team=blue, player=both, alternate=True)  # on both teams
    event = club.event(boards=2)
    club.enter(event, [red, blue])
    team_events.team_event_start(event_id=event.pk, by=club.org.player, now=T0)
    rnd = current_round(event)
    lineups.lineup_submit(
        round_id=rnd.pk, team_id=red.pk, by=red.captain, players=[red_people[0].pk, both.pk], now=T0
    )
    with pytest.raises(Conflict) as clash:
        lineups.lineup_submit(
            round_id=rnd.pk, team_id=blue.pk, by=blue.captain, players=[blue_people[0].pk, both.pk], now=T0
        )
    assert "Red" in clash.value.detail
    # Blue's default leaves the player Red listed out: its regulars play
    assert lineups.default_lineup(event=event, team=blue, taken={both.pk}) == [
        blue_people[0].pk,
        blue_people[1].pk,
    ]


def test_the_default_line_up_and_who_sees_line_ups(
    make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    club = Club(make_actor, "df")
    red, red_people = club.team("Red", 2, alternates=1)  # 2 regulars + 1 alternate for 4 boards
    blue, blue_people = club.team("Blue", 4)
    event = club.event(boards=4)
    club.enter(event, [red, blue])
    # board order as the captain sets it: the board numbers, alternates last
    assert [p.pk for p in lineups.lineup_candidates(event=event, team=red)] == [p.pk for p in red_people]
    Team.objects.filter(pk=red.pk).update(board_order=Team.BoardOrder.CAPTAIN)
    TeamMember.objects.filter(team=red, player=red_people[0]).update(board=2)
    TeamMember.objects.filter(team=red, player=red_people[1]).update(board=1)
    red.refresh_from_db()
    expected = [red_people[1].pk, red_people[0].pk, red_people[2].pk, None]
    assert lineups.default_lineup(event=event, team=red) == expected
    team_events.team_event_start(event_id=event.pk, by=club.org.player, now=T0)
    rnd = current_round(event)
    lineups.lineup_submit(
        round_id=rnd.pk,
        team_id=blue.pk,
        by=blue.captain,
        players=[p.pk for p in reversed(blue_people)],
        now=T0,
    )
    early = rnd.starts_at - timedelta(minutes=1)
    assert lineups.visible(rnd=rnd, team=blue, player=blue.captain, now=early)
    assert not lineups.visible(rnd=rnd, team=blue, player=red.captain, now=early)
    assert lineups.visible(rnd=rnd, team=blue, player=club.org.player, now=early)
    rnd = open_current(event, django_capture_on_commit_callbacks)
    assert lineups.visible(rnd=rnd, team=blue, player=None)
    red_lineup = LineUp.objects.get(round=rnd, team=red)
    assert red_lineup.submitted_by is None and red_lineup.players == expected  # the default, stored
    assert LineUp.objects.get(round=rnd, team=blue).submitted_by == blue.captain
    match = match_of(rnd, red)
    b4 = TeamBoard.objects.get(match=match, number=4)
    assert b4.players == [None, blue_people[0].pk] and b4.counted and b4.forfeits == [red.pk]
    assert b4.points == {str(red.pk): 0.0, str(blue.pk): 1.0}
    assert TeamBoard.objects.filter(match=match, table__isnull=False).count() == 3
