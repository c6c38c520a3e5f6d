"""Ratings stay individual in team events (issue 38): a rated team event's boards are ordinary
rated tables, each rated once for its two players (TrueSkill per game and player) exactly as the
same game played outside any team; counting the finished boards again (the ``game_finished``
task run twice, its sweep, ``board_finished`` directly) rates nobody again and changes no team
score."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games import services as games
from games.models import Player, Table
from ratings import services as ratings
from ratings.models import Rating, RatingChange, RatingUpdate
from tests.games.conftest import Actor, every_seat_moves, started_table
from tournaments import finished as tournament_finished
from tournaments.models import TeamBoard, TeamEntry, TeamEvent, TeamMatchSide
from tournaments.teams import events as team_events
from tournaments.teams import finished as team_finished

from .test_team_events import T0, Club, board, match_of, open_current, win_board

GAME = "shacru"


def _verify(people: list[Player]) -> None:
    Player.objects.filter(pk__in=[p.pk for p in people]).update(email_verified=True)
    for p in people:
        p.refresh_from_db()


def _ratings(people: list[Player]) -> dict[int, tuple[float, float, int]]:
    rows = Rating.objects.filter(game=GAME, player__in=people)
    return {r.player_id: (r.mu, r.sigma, r.games) for r in rows}


def _scores(event: TeamEvent) -> list[tuple[Any, ...]]:
    sides = TeamMatchSide.objects.filter(match__round__event=event).order_by("pk")
    boards = TeamBoard.objects.filter(match__round__event=event).order_by("pk")
    entries = TeamEntry.objects.filter(event=event).order_by("pk")
    return [
        *[(s.pk, s.game_points, s.match_points, s.place) for s in sides],
        *[(b.pk, b.points, b.forfeits, b.counted) for b in boards],
        *[(e.pk, e.place) for e in entries],
    ]


@pytest.fixture
def verified_only(settings: Any) -> None:
    """Rated play needs a verified e-mail address, as on the live site."""
    settings.RATED_NEEDS_VERIFIED_EMAIL = True


def test_each_board_rates_its_two_players_once_like_a_game_outside_any_team(
    make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any, verified_only: None
) -> None:
    club = Club(make_actor, "tr")
    red, red_people = club.team("Red", 2)
    blue, blue_people = club.team("Blue", 2)
    everyone = red_people + blue_people
    _verify(everyone)
    event = club.event(boards=2, rated=True)
    club.enter(event, [red, blue])
    with django_capture_on_commit_callbacks(execute=True):
        team_events.team_event_start(event_id=event.pk, by=club.org.player, now=T0)
    rnd = open_current(event, django_capture_on_commit_callbacks)
    match = match_of(rnd, red)
    b1, b2 = board(match, 1), board(match, 2)
    tables = [b1.table_id, b2.table_id]
    assert all(Table.objects.get(pk=t).rated for t in tables)
    assert not RatingChange.objects.filter(player__in=everyone).exists()

    for b in (b1, b2):  # every seat moves: a table resigned before that is rated for nobody
        every_seat_moves(Table.objects.get(pk=b.table_id))
    win_board(b1, red.pk, django_capture_on_commit_callbacks)  # Red's board 1 beats Blue's
    win_board(b2, blue.pk, django_capture_on_commit_callbacks)  # Blue's board 2 beats Red's
    event.refresh_from_db()
    assert event.status == TeamEvent.Status.FINISHED

    # Every player played one board: one rating change each, at that board's table; one update per table.
    changes = list(RatingChange.objects.filter(player__in=everyone).values_list("player_id", "table_id"))
    assert sorted(changes) == sorted(
        [
            (red_people[0].pk, b1.table_id),
            (blue_people[0].pk, b1.table_id),
            (red_people[1].pk, b2.table_id),
            (blue_people[1].pk, b2.table_id),
        ]
    )
    assert RatingUpdate.objects.filter(table_id__in=tables).count() == 2
    after = _ratings(everyone)
    assert {p.pk: after[p.pk][2] for p in everyone} == {p.pk: 1 for p in everyone}

    # The same game (two newcomers, one resigns) outside any team gives the same TrueSkill numbers.
    winner, loser = make_actor("trout1"), make_actor("trout2")
    _verify([winner.player, loser.player])
    with django_capture_on_commit_callbacks(execute=True):
        table = every_seat_moves(started_table([winner, loser], game=GAME, rated=True))
    with django_capture_on_commit_callbacks(execute=True):
        games.game_resign(table_id=table.pk, player=loser.player)
    assert Table.objects.get(pk=table.pk).status == Table.Status.FINISHED
    alone = _ratings([winner.player, loser.player])
    won, lost = alone[winner.player.pk][:2], alone[loser.player.pk][:2]
    for winner_id, loser_id in ((red_people[0].pk, blue_people[0].pk), (blue_people[1].pk, red_people[1].pk)):
        assert after[winner_id][:2] == pytest.approx(won)
        assert after[loser_id][:2] == pytest.approx(lost)

    # Counting the boards again (the task twice, the team hook, the rating task) changes nothing.
    scores = _scores(event)
    for table_id in tables:
        for _ in range(2):
            with django_capture_on_commit_callbacks(execute=True):
                tournament_finished.table_finished(table_id=table_id)
            with django_capture_on_commit_callbacks(execute=True):
                assert team_finished.board_finished(table_id=table_id) is False
        assert ratings.rate_table(table_id=table_id) == 0
    assert _ratings(everyone) == after
    assert RatingChange.objects.filter(player__in=everyone).count() == 4
    assert RatingUpdate.objects.filter(table_id__in=tables).count() == 2
    assert _scores(event) == scores
    event.refresh_from_db()
    assert event.status == TeamEvent.Status.FINISHED


def test_a_player_without_a_verified_address_is_not_seated_at_a_rated_board(
    make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any, verified_only: None
) -> None:
    club = Club(make_actor, "tu")
    red, red_people = club.team("Red", 2)
    blue, blue_people = club.team("Blue", 2)
    _verify(red_people + blue_people[:1])  # Blue's board 2 never verified their address
    event = club.event(boards=2, rated=True)
    club.enter(event, [red, blue])
    team_events.team_event_start(event_id=event.pk, by=club.org.player, now=T0)
    rnd = open_current(event, django_capture_on_commit_callbacks)
    b2 = board(match_of(rnd, red), 2)
    assert b2.table_id is None and b2.counted and b2.forfeits == [blue.pk]
    assert b2.points == {str(red.pk): 1.0, str(blue.pk): 0.0}
    assert not RatingChange.objects.filter(player__in=red_people + blue_people).exists()
