"""Team events under pressure: who may write (a captain of one team never sets another's
line-up, a member never takes others off the team), junk API bodies answered with a clear 400
and nothing changed, a player who left the team after being put in a submitted line-up is not
seated (the board is forfeited), and two calendar ticks or two counts of one board at once on
PostgreSQL threads open the round once and count the board once."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.db import connection
from django.test import Client
from django.utils import timezone

from common.errors import Conflict
from games import services as games
from games.models import Seat
from tests.games.conftest import Actor
from tournaments.models import (
    LineUp,
    Team,
    TeamBoard,
    TeamEntry,
    TeamEvent,
    TeamMatchSide,
    TeamMember,
    TeamRound,
)
from tournaments.teams import events as team_events
from tournaments.teams import finished, lineups, rounds, services

from .test_team_events import T0, Club, board, current_round, match_of, open_current, sides_of, win_board


def _paired(make_actor: Callable[..., Actor], prefix: str, boards: int = 2) -> tuple[Club, Any, Any, Any]:
    club = Club(make_actor, prefix)
    red = club.team("Red", boards, alternates=1)
    blue = club.team("Blue", boards)
    event = club.event(boards=boards)
    club.enter(event, [red[0], blue[0]])
    # Now (not T0): the API's line-ups close at the round's start, on the real clock.
    team_events.team_event_start(event_id=event.pk, by=club.org.player, now=timezone.now())
    return club, event, red, blue


# ------------------------------------------------------------------ who may write
def test_a_captain_sets_only_their_own_teams_line_up_and_a_member_removes_nobody(
    make_actor: Callable[..., Actor],
) -> None:
    club, event, (red, red_people), (blue, blue_people) = _paired(make_actor, "rw")
    rnd = current_round(event)
    red_captain = club.actors[red_people[0].pk]
    url = f"/api/v1/team-rounds/{rnd.pk}/lineups/{blue.pk}/"
    answer = red_captain.client.put(url, {"players": [blue_people[1].pk, blue_people[0].pk]}, format="json")
    assert answer.status_code == 403 and "Blue" in answer.json()["detail"]
    red_captain.client.force_login(red_people[0].user)
    page = red_captain.client.post(
        f"/team-rounds/{rnd.pk}/lineup/{blue.slug}/", {"board1": blue_people[1].pk}
    )
    assert page.status_code == 403
    assert not LineUp.objects.filter(round=rnd).exists()

    member = club.actors[red_people[1].pk]
    gone = member.client.delete(f"/api/v1/teams/{red.slug}/members/{red_people[2].pk}/")
    assert gone.status_code == 403
    roles = member.client.post(
        f"/api/v1/teams/{red.slug}/roles/", {"captain": red_people[1].pk}, format="json"
    )
    assert roles.status_code == 403
    order = member.client.post(
        f"/api/v1/teams/{red.slug}/board-order/", {"order": [red_people[1].pk]}, format="json"
    )
    assert order.status_code == 403
    # Blue's captain manages Blue, not Red
    blue_captain = club.actors[blue_people[0].pk]
    assert (
        blue_captain.client.delete(f"/api/v1/teams/{red.slug}/members/{red_people[1].pk}/").status_code == 403
    )
    withdraw = blue_captain.client.post(
        f"/api/v1/team-events/{event.pk}/withdraw/", {"team": red.pk}, format="json"
    )
    assert withdraw.status_code == 403
    assert TeamMember.objects.filter(team=red).count() == 3
    assert Team.objects.get(pk=red.pk).captain_id == red_people[0].pk
    assert not TeamEntry.objects.filter(event=event, withdrawn=True).exists()


# ------------------------------------------------------------------ junk bodies
JUNK_LINEUPS: list[Any] = [
    {},
    {"players": "12"},
    {"players": 12},
    {"players": {"1": 2}},
    {"players": ["x", None]},
    {"players": [True, None]},
    {"players": [-1, None]},
    {"players": [0, None]},
    {"players": [10**12, None]},
    {"players": [2**31, None]},
    {"players": [[1], None]},
    {"players": [1.5, None]},
    {"players": [None] * 1000},
]


@pytest.mark.parametrize("body", JUNK_LINEUPS, ids=range(len(JUNK_LINEUPS)))
def test_a_junk_line_up_is_a_clear_400_and_changes_nothing(
    make_actor: Callable[..., Actor], body: Any
) -> None:
    club, event, (red, red_people), _blue = _paired(make_actor, "jl")
    rnd = current_round(event)
    captain = club.actors[red_people[0].pk]
    url = f"/api/v1/team-rounds/{rnd.pk}/lineups/{red.pk}/"
    answer = captain.client.put(url, body, format="json")
    assert answer.status_code == 400, answer.content
    assert answer.json()["detail"]
    assert not LineUp.objects.filter(round=rnd).exists()


@pytest.mark.parametrize(
    "body",
    [{"team": 10**12}, {"team": -3}, {"team": "red"}, {"team": [1]}, {"seed": 10**12}, {"seed": -1}],
    ids=range(6),
)
def test_junk_entries_are_refused_and_change_nothing(make_actor: Callable[..., Actor], body: Any) -> None:
    club = Club(make_actor, "je")
    red, _people = club.team("Red", 1)
    event = club.event(boards=1)
    answer = club.org.client.post(
        f"/api/v1/team-events/{event.pk}/enter/", {"team": red.pk, **body}, format="json"
    )
    assert answer.status_code in (400, 404), answer.content
    assert not TeamEntry.objects.filter(event=event).exists()


@pytest.mark.parametrize(
    "body",
    [
        {"order": "1,2"},
        {"order": [-1]},
        {"order": [10**12]},
        {"order": [], "alternates": [10**12]},
        {"order": list(range(1, 1000))},
    ],
    ids=range(5),
)
def test_a_junk_board_order_is_a_400(make_actor: Callable[..., Actor], body: Any) -> None:
    club = Club(make_actor, "jb")
    red, people = club.team("Red", 2)
    before = list(TeamMember.objects.filter(team=red).values_list("player_id", "board", "alternate"))
    answer = club.actors[people[0].pk].client.post(
        f"/api/v1/teams/{red.slug}/board-order/", body, format="json"
    )
    assert answer.status_code == 400, answer.content
    assert list(TeamMember.objects.filter(team=red).values_list("player_id", "board", "alternate")) == before


# ------------------------------------------------------------------ a player who left
def test_a_player_who_left_after_the_line_up_was_set_is_not_seated(
    make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    _club, event, (red, red_people), (blue, blue_people) = _paired(make_actor, "pl")
    rnd = current_round(event)
    captain, regular, alternate = red_people
    lineups.lineup_submit(
        round_id=rnd.pk, team_id=red.pk, by=captain, players=[regular.pk, alternate.pk], now=T0
    )
    assert services.leave(team_id=red.pk, by=regular) is False  # board 1's player leaves Red
    # and joins Blue: Blue's default line-up still takes its own regulars
    TeamMember.objects.create(team=blue, player=regular, alternate=True)
    rnd = open_current(event, django_capture_on_commit_callbacks)
    match = match_of(rnd, red)
    b1, b2 = board(match, 1), board(match, 2)
    assert b1.table_id is None and b1.counted
    assert b1.players == [None, blue_people[0].pk] and b1.forfeits == [red.pk]
    assert b1.points == {str(red.pk): 0.0, str(blue.pk): 1.0}
    assert b2.table_id is not None and b2.players == [alternate.pk, blue_people[1].pk]
    win_board(b2, red.pk, django_capture_on_commit_callbacks)
    s = sides_of(match)
    assert (s[red.pk].game_points, s[blue.pk].game_points) == (1.0, 1.0)
    assert s[red.pk].match_points == s[blue.pk].match_points == 1.0


# ------------------------------------------------------------------ races (PostgreSQL threads)
def _at_once(work: Callable[[], Any], n: int = 2) -> list[Any]:
    barrier = threading.Barrier(n)
    results: list[Any] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            barrier.wait()
            results.append(work())
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    return results


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_ticks_at_once_open_the_round_once(make_actor: Callable[..., Actor]) -> None:
    _club, event, _red, _blue = _paired(make_actor, "rt")
    rnd = current_round(event)
    _at_once(lambda: rounds.sweep(now=rnd.starts_at))
    rnd.refresh_from_db()
    assert rnd.status == TeamRound.Status.PLAYING
    assert TeamBoard.objects.filter(match__round=rnd).count() == 2
    assert LineUp.objects.filter(round=rnd).count() == 2
    assert (
        TeamBoard.objects.filter(match__round=rnd, table__isnull=False).values("table").distinct().count()
        == 2
    )


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_board_counted_twice_at_once_counts_once(make_actor: Callable[..., Actor]) -> None:
    _club, event, (red, _rp), (blue, _bp) = _paired(make_actor, "rb", boards=1)
    rnd = current_round(event)
    rounds.open_round(round_id=rnd.pk, now=rnd.starts_at)
    match = match_of(rnd, red)
    b = board(match, 1)
    loser = Seat.objects.filter(table_id=b.table_id).exclude(player_id=b.players[0]).get().player
    # The table ends and its task is lost: two sweeps (or a late task and a sweep) count it at once.
    with mock.patch("tournaments.finished.teams.board_finished", return_value=False):
        games.game_resign(table_id=b.table_id, player=loser)
    assert not TeamBoard.objects.get(pk=b.pk).counted
    results = _at_once(lambda: finished.board_finished(table_id=b.table_id))
    assert sorted(results) == [False, True]
    s = sides_of(match)
    assert (s[red.pk].game_points, s[red.pk].match_points) == (1.0, 2.0)
    assert (s[blue.pk].game_points, s[blue.pk].match_points) == (0.0, 0.0)
    assert TeamMatchSide.objects.filter(match=match).count() == 2


def _line_up_as_the_round_opens(make_actor: Callable[..., Actor], prefix: str) -> None:
    _club, event, (red, red_people), _blue = _paired(make_actor, prefix)
    rnd = current_round(event)
    chosen = [red_people[2].pk, red_people[1].pk]  # the alternate on board 1
    jobs = iter(["open", "submit"])
    lock = threading.Lock()

    def work() -> str:
        with lock:
            which = next(jobs)
        try:
            if which == "open":
                rounds.open_round(round_id=rnd.pk, now=rnd.starts_at)
            else:
                early = rnd.starts_at - timedelta(seconds=1)
                lineups.lineup_submit(
                    round_id=rnd.pk, team_id=red.pk, by=red_people[0], players=chosen, now=early
                )
        except Conflict:
            return which + ": refused"
        return which + ": done"

    results = _at_once(work)
    assert "open: done" in results
    rnd.refresh_from_db()
    assert rnd.status == TeamRound.Status.PLAYING
    used = LineUp.objects.get(round=rnd, team=red).players
    seated = [b.players[0] for b in TeamBoard.objects.filter(match__round=rnd).order_by("number")]
    assert seated == used
    assert used == (chosen if "submit: done" in results else [red_people[0].pk, red_people[1].pk])


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_line_up_sent_as_the_round_opens_is_used_whole_or_refused(make_actor: Callable[..., Actor]) -> None:
    for n in range(3):
        _line_up_as_the_round_opens(make_actor, f"ro{n}")


# ------------------------------------------------------------------ the organiser's form
def test_the_rounds_field_is_for_a_swiss_only(make_actor: Callable[..., Actor]) -> None:
    """organiser.js hides and disables fields marked with other formats: a round robin is posted
    without its rounds, and is created."""
    club = Club(make_actor, "of")
    browser = Client()
    browser.force_login(club.org.player.user)
    url = f"/organiser/leagues/{club.league.slug}/team-events/new/"
    html = browser.get(url).content.decode()
    assert 'class="field field-rounds" data-formats="swiss"' in html and "js/organiser.js" in html
    assert 'class="create team-event-form event-form"' in html
    body = {
        "name": "Plain robin",
        "game": "pacru",
        "seats": "2",
        "boards": "2",
        "format": "round_robin",
        "base_minutes": "10",
        "increment": "5",
        "tiebreak": "game_points",
        "round_gap_minutes": "10",
    }
    done = browser.post(url, body)
    assert done.status_code == 302
    assert TeamEvent.objects.get(name="Plain robin").format == "round_robin"
