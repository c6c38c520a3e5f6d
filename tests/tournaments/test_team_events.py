"""Team events through the services (``tournaments.teams.events``, ``rounds``, ``finished``):
settings and who may create, enter, start and cancel; a round paired, opened at its start and
played at real tables; board points with forfeits, no-shows and aborted tables; a board counted
exactly once; rounds advancing and the event finishing with places; the calendar's sweep; a team
Swiss without rematches. Time is injected (``T0``); nothing sleeps."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.db import transaction

from accounts.kinds import title
from accounts.models import Notification
from common.errors import Conflict, Forbidden, InvalidInput
from games import services as games
from games.models import Player, Seat, Table
from live import receivers as live_receivers
from tests.games.conftest import Actor, as_organiser
from tournaments.calendar import tick
from tournaments.competitions import services as clubs
from tournaments.models import (
    League,
    LineUp,
    Team,
    TeamBoard,
    TeamEntry,
    TeamEvent,
    TeamMatch,
    TeamMatchSide,
    TeamMember,
    TeamRound,
)
from tournaments.teams import event_reads, finished, lineups, rounds
from tournaments.teams import events as team_events

T0 = datetime(2026, 3, 2, 18, 0, tzinfo=UTC)
FISCHER = {"kind": "fischer", "base": 300, "increment": 2}


# ------------------------------------------------------------------ helpers (the other team tests use them)
class Club:
    """A league with its organiser, and a way to make teams of fresh players."""

    def __init__(self, make_actor: Callable[..., Actor], prefix: str = "te"):
        self.make_actor = make_actor
        self.prefix = prefix
        self.org = make_actor(f"{prefix}org")
        self.league: League = clubs.league_create(
            organiser=as_organiser(self.org.player), name=f"{prefix} club"
        )
        self.count = 0
        self.actors: dict[int, Actor] = {}  # player id -> the actor (with an API client)

    def team(self, name: str, regulars: int, alternates: int = 0) -> tuple[Team, list[Player]]:
        """A team of ``regulars`` then ``alternates`` new players, the first its captain; board
        order as the captain sets it: members in the order made."""
        people = []
        for _ in range(regulars + alternates):
            self.count += 1
            actor = self.make_actor(f"{self.prefix}{self.count}")
            self.actors[actor.player.pk] = actor
            people.append(actor.player)
        team = Team.objects.create(
            league=self.league,
            name=name,
            slug=f"{self.prefix}-{name.lower()}",
            captain=people[0],
            board_order=Team.BoardOrder.CAPTAIN,
            created_by=people[0],
        )
        for i, p in enumerate(people):
            alternate = i >= regulars
            TeamMember.objects.create(
                team=team, player=p, board=None if alternate else i + 1, alternate=alternate
            )
        return team, people

    def event(self, **kw: Any) -> TeamEvent:
        kw.setdefault("rated", False)
        return team_events.team_event_create(
            league=self.league, by=self.org.player, name=kw.pop("name", "Team cup"), game="shacru", **kw
        )

    def enter(self, event: TeamEvent, teams: Sequence[Team]) -> None:
        for seed, team in enumerate(teams, start=1):
            team_events.team_event_enter(event_id=event.pk, team_id=team.pk, by=self.org.player, seed=seed)


def current_round(event: TeamEvent) -> TeamRound:
    event.refresh_from_db()
    return TeamRound.objects.get(event=event, number=event.current_round)


def open_current(event: TeamEvent, capture: Any) -> TeamRound:
    """Open the current round at its start time (the calendar would)."""
    rnd = current_round(event)
    with capture(execute=True):
        rounds.open_round(round_id=rnd.pk, now=rnd.starts_at)
    rnd.refresh_from_db()
    return rnd


def match_of(rnd: TeamRound, team: Team) -> TeamMatch:
    return TeamMatch.objects.get(round=rnd, sides__team=team)


def board(match: TeamMatch, number: int) -> TeamBoard:
    return TeamBoard.objects.get(match=match, number=number)


def win_board(b: TeamBoard, winner_team: int, capture: Any) -> None:
    """End a board's table: every seat but the one of ``winner_team``'s player resigns."""
    b.refresh_from_db()
    sides = list(TeamMatchSide.objects.filter(match_id=b.match_id).order_by("order"))
    winner = dict(zip([s.team_id for s in sides], b.players, strict=True))[winner_team]
    for seat in Seat.objects.filter(table_id=b.table_id).select_related("player").order_by("number"):
        if seat.player_id != winner and Table.objects.get(pk=b.table_id).status == Table.Status.ACTIVE:
            with capture(execute=True):
                games.game_resign(table_id=b.table_id, player=seat.player)


def sides_of(match: TeamMatch) -> dict[int, TeamMatchSide]:
    return {s.team_id: s for s in TeamMatchSide.objects.filter(match=match)}


# ------------------------------------------------------------------ settings and rights
def test_settings_are_checked_and_only_organisers_create(make_actor: Callable[..., Actor]) -> None:
    club = Club(make_actor, "ts")
    bad: list[dict[str, Any]] = [
        {"seats": 5},
        {"boards": 0},
        {"boards": 13},
        {"format": "knockout"},
        {"format": "swiss", "rounds": 0},
        {"time_control": {"kind": "sundial"}},
        {"points_scale": [1, 0, 0]},
        {"match_points": [2]},
        {"tiebreak": "coin"},
        {"round_times": ["tomorrow"]},
        {"round_times": ["2026-03-02T18:00:00+00:00", "2026-03-01T18:00:00+00:00"]},
    ]
    for settings in bad:
        with pytest.raises(InvalidInput):
            club.event(**settings)
    assert TeamEvent.objects.count() == 0
    stranger = make_actor("tsstranger")
    with pytest.raises(Forbidden):
        team_events.team_event_create(league=club.league, by=stranger.player, name="Mine", game="shacru")
    event = club.event(
        format="swiss", rounds=3, round_times=["2026-03-02T19:00:00+01:00"], match_points=[3, 0], boards=6
    )
    assert event.round_times == ["2026-03-02T18:00:00+00:00"] and event.rounds == 3 and event.boards == 6
    assert event.status == "registration" and event.edition == ""  # shacru has no editions


def test_entering_withdrawing_and_who_may(make_actor: Callable[..., Actor]) -> None:
    club = Club(make_actor, "en")
    event = club.event()
    red, (red_captain, red_member) = club.team("Red", 2)
    blue, _people = club.team("Blue", 2)
    empty = Team.objects.create(league=club.league, name="Empty", slug="en-empty", captain=red_member)
    with pytest.raises(Forbidden):  # a member who is not captain or vice
        team_events.team_event_enter(event_id=event.pk, team_id=red.pk, by=red_member)
    entry = team_events.team_event_enter(event_id=event.pk, team_id=red.pk, by=red_captain)
    assert entry.seed is None and not entry.withdrawn
    with pytest.raises(Conflict):
        team_events.team_event_enter(event_id=event.pk, team_id=red.pk, by=red_captain)
    with pytest.raises(Forbidden):  # only organisers seed
        team_events.team_event_enter(event_id=event.pk, team_id=blue.pk, by=blue.captain, seed=1)
    with pytest.raises(Conflict):  # no members
        team_events.team_event_enter(event_id=event.pk, team_id=empty.pk, by=club.org.player)
    other = Club(make_actor, "ot")
    theirs, _p = other.team("Theirs", 1)
    with pytest.raises(Forbidden):  # another club's team
        team_events.team_event_enter(event_id=event.pk, team_id=theirs.pk, by=club.org.player)
    team_events.team_event_withdraw(event_id=event.pk, team_id=red.pk, by=red_captain)
    assert TeamEntry.objects.get(event=event, team=red).withdrawn
    with pytest.raises(Conflict):  # one team is not enough
        team_events.team_event_start(event_id=event.pk, by=club.org.player, now=T0)
    team_events.team_event_enter(event_id=event.pk, team_id=red.pk, by=red_captain)
    team_events.team_event_enter(event_id=event.pk, team_id=blue.pk, by=blue.captain)
    with pytest.raises(Forbidden):
        team_events.team_event_start(event_id=event.pk, by=red_captain, now=T0)
    team_events.team_event_start(event_id=event.pk, by=club.org.player, now=T0)
    with pytest.raises(Conflict):  # registration is over
        team_events.team_event_enter(event_id=event.pk, team_id=empty.pk, by=club.org.player)
    team_events.team_event_cancel(event_id=event.pk, by=club.org.player)
    event.refresh_from_db()
    assert event.status == "cancelled"
    with pytest.raises(Conflict):
        team_events.team_event_cancel(event_id=event.pk, by=club.org.player)


# ------------------------------------------------------------------ a match at real tables
def test_a_match_is_played_at_tables_counted_once_and_the_event_finishes(
    make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    club = Club(make_actor, "mt")
    red, red_people = club.team("Red", 3)
    blue, blue_people = club.team("Blue", 3)
    event = club.event(boards=3, round_gap_minutes=15)
    club.enter(event, [red, blue])
    with django_capture_on_commit_callbacks(execute=True):
        team_events.team_event_start(event_id=event.pk, by=club.org.player, now=T0)
    event.refresh_from_db()
    assert event.status == "running" and event.rounds == 1 and event.schedule == [[[red.pk, blue.pk]]]
    rnd = current_round(event)
    assert rnd.status == "lineups" and rnd.starts_at == T0 + timedelta(minutes=15)
    with pytest.raises(Conflict):  # too early
        rounds.open_round(round_id=rnd.pk, now=rnd.starts_at - timedelta(seconds=1))
    rnd = open_current(event, django_capture_on_commit_callbacks)
    assert rnd.status == "playing"
    rounds.open_round(round_id=rnd.pk, now=rnd.starts_at + timedelta(minutes=1))  # idempotent
    assert TeamBoard.objects.filter(match__round=rnd).count() == 3
    match = match_of(rnd, red)
    # side 1 (Red) sits in seat 1 on odd boards, side 2 (Blue) on even boards
    for n in (1, 2, 3):
        b = board(match, n)
        seated = list(
            Seat.objects.filter(table_id=b.table_id).order_by("number").values_list("player_id", flat=True)
        )
        first, second = (red_people, blue_people) if n % 2 else (blue_people, red_people)
        assert seated == [first[n - 1].pk, second[n - 1].pk]
        assert b.players == [red_people[n - 1].pk, blue_people[n - 1].pk]
    assert LineUp.objects.filter(round=rnd, submitted_by__isnull=True).count() == 2  # defaults stored
    win_board(board(match, 1), red.pk, django_capture_on_commit_callbacks)
    win_board(board(match, 2), blue.pk, django_capture_on_commit_callbacks)
    b1 = board(match, 1)
    assert b1.counted and b1.points == {str(red.pk): 1.0, str(blue.pk): 0.0}
    assert finished.board_finished(table_id=b1.table_id) is False  # counted once
    assert sides_of(match)[red.pk].game_points == 1.0 and sides_of(match)[blue.pk].game_points == 1.0
    match.refresh_from_db()
    assert match.status == "playing"
    win_board(board(match, 3), red.pk, django_capture_on_commit_callbacks)
    match.refresh_from_db()
    s = sides_of(match)
    assert match.status == "finished"
    assert (s[red.pk].game_points, s[red.pk].place, s[red.pk].match_points) == (2.0, 1, 2.0)
    assert (s[blue.pk].game_points, s[blue.pk].place, s[blue.pk].match_points) == (1.0, 2, 0.0)
    event.refresh_from_db()
    assert event.status == "finished"
    assert dict(TeamEntry.objects.filter(event=event).values_list("team_id", "place")) == {
        red.pk: 1,
        blue.pk: 2,
    }
    rows = event_reads.standings(event=event)
    assert [(r.team, r.match_points, r.game_points, r.won, r.lost) for r in rows] == [
        (red.pk, 2.0, 2.0, 1, 0),
        (blue.pk, 0.0, 1.0, 0, 1),
    ]
    detail = event_reads.match_detail(match=match)
    assert [b["players"][0]["points"] for b in detail["boards"]] == [1.0, 0.0, 1.0]
    assert detail["boards"][1]["players"][1]["seat"] == 1  # Blue moves first on board 2


def test_forfeits_empty_boards_and_an_aborted_table(
    make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    club = Club(make_actor, "ff")
    red, _red_people = club.team("Red", 2)  # 2 players for 3 boards: board 3 is empty
    blue, blue_people = club.team("Blue", 2)
    event = club.event(boards=3)
    club.enter(event, [red, blue])
    team_events.team_event_start(event_id=event.pk, by=club.org.player, now=T0)
    rnd = current_round(event)
    # Blue leaves board 1 empty: Red's player there wins it without a game
    lineups.lineup_submit(
        round_id=rnd.pk, team_id=blue.pk, by=blue.captain, players=[None, blue_people[0].pk, None], now=T0
    )
    rnd = open_current(event, django_capture_on_commit_callbacks)
    match = match_of(rnd, red)
    b1, b2, b3 = (board(match, n) for n in (1, 2, 3))
    assert b1.table_id is None and b1.counted and b1.forfeits == [blue.pk]
    assert b1.points == {str(red.pk): 1.0, str(blue.pk): 0.0}
    assert b3.table_id is None and b3.counted and b3.points == {str(red.pk): 0.0, str(blue.pk): 0.0}
    assert sorted(b3.forfeits) == sorted([red.pk, blue.pk])
    assert b2.table_id is not None and not b2.counted
    assert sides_of(match)[red.pk].game_points == 1.0
    # the table is aborted (no game): both forfeit it
    Table.objects.filter(pk=b2.table_id).update(status=Table.Status.ABORTED, finished_at=T0)
    assert finished.board_finished(table_id=b2.table_id, now=T0) is True
    b2.refresh_from_db()
    assert b2.points == {str(red.pk): 0.0, str(blue.pk): 0.0} and sorted(b2.forfeits) == sorted(
        [red.pk, blue.pk]
    )
    s = sides_of(match)
    assert (s[red.pk].game_points, s[red.pk].match_points) == (1.0, 2.0)
    assert (s[blue.pk].game_points, s[blue.pk].match_points) == (0.0, 0.0)


def test_a_no_show_forfeits_the_board(
    make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    club = Club(make_actor, "ns")
    red, _red_people = club.team("Red", 1)
    blue, _blue_people = club.team("Blue", 1)
    event = club.event(boards=1, time_control=FISCHER)
    club.enter(event, [red, blue])
    team_events.team_event_start(event_id=event.pk, by=club.org.player, now=T0)
    rnd = open_current(event, django_capture_on_commit_callbacks)
    b = board(match_of(rnd, red), 1)
    table = Table.objects.get(pk=b.table_id)
    assert table.deadline is not None
    with django_capture_on_commit_callbacks(execute=True):  # Red (seat 1) never moves
        assert (
            games.clock_timeout_apply(table_id=table.pk, now=table.deadline + timedelta(minutes=1))
            == "timeout"
        )
    b.refresh_from_db()
    assert b.counted and b.forfeits == [red.pk] and b.points == {str(red.pk): 0.0, str(blue.pk): 1.0}
    event.refresh_from_db()
    assert event.status == "finished"
    assert TeamEntry.objects.get(event=event, team=blue).place == 1


# ------------------------------------------------------------------ rounds and the calendar
def test_a_round_robin_advances_round_by_round(
    make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    club = Club(make_actor, "rr")
    teams = [club.team(name, 1)[0] for name in ("North", "East", "South")]  # odd: a bye each round
    times = [(T0 + timedelta(days=d)).isoformat() for d in range(3)]
    event = club.event(boards=1, round_times=times)
    club.enter(event, teams)
    team_events.team_event_start(event_id=event.pk, by=club.org.player, now=T0 - timedelta(days=1))
    event.refresh_from_db()
    assert event.rounds == 3
    byes: list[int] = []
    for number in (1, 2, 3):
        rnd = current_round(event)
        assert rnd.number == number and rnd.starts_at.isoformat() == times[number - 1]
        assert len(rnd.byes) == 1 and TeamMatch.objects.filter(round=rnd).count() == 1
        byes += rnd.byes
        rnd = open_current(event, django_capture_on_commit_callbacks)
        match = TeamMatch.objects.get(round=rnd)
        first = TeamMatchSide.objects.get(match=match, order=1).team_id
        win_board(board(match, 1), first, django_capture_on_commit_callbacks)
        rnd.refresh_from_db()
        assert rnd.status == "finished"
    assert sorted(byes) == sorted(t.pk for t in teams)
    event.refresh_from_db()
    assert event.status == "finished"
    rows = event_reads.standings(event=event)
    # each team: one bye (2 match points, 0.5 game points) and one win, one loss... or as played
    assert sum(r.match_points for r in rows) == 3 * 2 + 3 * 2
    assert sorted(TeamEntry.objects.filter(event=event).values_list("place", flat=True)) == [1, 2, 3]


def test_the_calendar_starts_events_calls_off_empty_ones_and_opens_rounds(
    make_actor: Callable[..., Actor],
) -> None:
    club = Club(make_actor, "cal")
    red, _r = club.team("Red", 1)
    blue, _b = club.team("Blue", 1)
    event = club.event(boards=1, starts_at=T0, round_gap_minutes=5)
    lonely = club.event(name="Lonely", boards=1, starts_at=T0)
    club.enter(event, [red, blue])
    club.enter(lonely, [red])
    assert rounds.sweep(now=T0 - timedelta(minutes=1)) == 0
    result = tick.tick(now=T0)
    assert (result["teams.started"], result["teams.called_off"], result["teams.opened"]) == (1, 1, 0)
    event.refresh_from_db()
    lonely.refresh_from_db()
    assert event.status == "running" and lonely.status == "cancelled"
    rnd = current_round(event)
    assert rnd.starts_at == T0 + timedelta(minutes=5) and rnd.status == "lineups"
    with transaction.atomic():
        assert rounds.sweep(now=T0 + timedelta(minutes=5)) == 1
    rnd.refresh_from_db()
    assert (
        rnd.status == "playing"
        and TeamBoard.objects.filter(match__round=rnd, table__isnull=False).count() == 1
    )
    assert rounds.sweep(now=T0 + timedelta(minutes=6)) == 0


def test_a_team_swiss_pairs_no_rematch_while_avoidable(
    make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    club = Club(make_actor, "sw")
    teams = [club.team(f"T{i}", 1)[0] for i in range(4)]
    event = club.event(format="swiss", rounds=3, boards=1)
    club.enter(event, teams)
    team_events.team_event_start(event_id=event.pk, by=club.org.player, now=T0)
    met: list[frozenset[int]] = []
    for _ in range(3):
        rnd = open_current(event, django_capture_on_commit_callbacks)
        for match in TeamMatch.objects.filter(round=rnd).order_by("number"):
            ids = list(
                TeamMatchSide.objects.filter(match=match).order_by("order").values_list("team_id", flat=True)
            )
            met.append(frozenset(ids))
            win_board(board(match, 1), ids[0], django_capture_on_commit_callbacks)
    assert len(met) == 6 and len(set(met)) == 6, "four teams, three rounds: every pair once, no rematch"
    event.refresh_from_db()
    assert event.status == "finished"
    # sides alternate: no team is side 1 in all three rounds
    for team in teams:
        orders = list(
            TeamMatchSide.objects.filter(team=team)
            .order_by("match__round__number")
            .values_list("order", flat=True)
        )
        assert len(orders) == 3 and set(orders) == {1, 2}


# ------------------------------------------------------------------ news: notifications and live pages
def test_captains_and_players_are_told_and_the_pages_are_pushed(
    make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    pushed: list[str] = []
    monkeypatch.setattr(live_receivers, "publish", lambda *topics: pushed.extend(topics))
    club = Club(make_actor, "nw")
    red, red_people = club.team("Red", 1)
    blue, blue_people = club.team("Blue", 1)
    red.vice_captain = club.make_actor("nwvice").player
    red.save(update_fields=["vice_captain"])
    event = club.event(boards=1)
    club.enter(event, [red, blue])
    with django_capture_on_commit_callbacks(execute=True):
        team_events.team_event_start(event_id=event.pk, by=club.org.player, now=T0)
    assert f"team_event:{event.pk}" in pushed and f"player:{red.vice_captain.pk}" in pushed
    told = Notification.objects.filter(kind="round", user=red.vice_captain.user).get()
    assert title(told.kind, told.params) == "Team cup: round 1 is paired, Red meets Blue: set its line-up"
    assert told.params["starts_at"] == (T0 + timedelta(minutes=10)).isoformat()
    assert Notification.objects.filter(kind="round", user=blue.captain.user, params__lineup=True).count() == 1
    pushed.clear()
    rnd = open_current(event, django_capture_on_commit_callbacks)
    table_id = board(match_of(rnd, red), 1).table_id
    assert {f"team_event:{event.pk}", f"player:{red_people[0].pk}", f"player:{blue_people[0].pk}"} <= set(
        pushed
    )
    seated = Notification.objects.get(key=f"team-board:{table_id}", user=blue_people[0].user)
    assert title(seated.kind, seated.params) == "Team cup: round 1, board 1: your table is open, you play Nw1"
    assert str(table_id) in seated.url


def test_a_team_withdrawing_mid_event_forfeits_its_boards(
    make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    club = Club(make_actor, "wd")
    red, _red_people = club.team("Red", 2)
    blue, blue_people = club.team("Blue", 2)
    event = club.event(boards=2)
    club.enter(event, [red, blue])
    team_events.team_event_start(event_id=event.pk, by=club.org.player, now=T0)
    rnd = current_round(event)
    lineups.lineup_submit(
        round_id=rnd.pk, team_id=blue.pk, by=blue.captain, players=[p.pk for p in blue_people], now=T0
    )
    team_events.team_event_withdraw(event_id=event.pk, team_id=blue.pk, by=blue.captain)
    with pytest.raises(Conflict):  # a withdrawn team sets no line-up
        lineups.lineup_submit(
            round_id=rnd.pk, team_id=blue.pk, by=blue.captain, players=[p.pk for p in blue_people], now=T0
        )
    rnd = open_current(event, django_capture_on_commit_callbacks)
    match = match_of(rnd, red)
    assert not TeamBoard.objects.filter(match=match, table__isnull=False).exists()
    assert sides_of(match)[red.pk].game_points == 2.0 and sides_of(match)[red.pk].match_points == 2.0
    event.refresh_from_db()
    assert event.status == "finished"
    assert [r.team for r in event_reads.standings(event=event)] == [red.pk]
    assert dict(TeamEntry.objects.filter(event=event).values_list("team_id", "place")) == {
        red.pk: 1,
        blue.pk: None,
    }


def test_three_teams_at_three_seat_boards(
    make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    club = Club(make_actor, "th")
    made = {name: club.team(name, 2) for name in ("A", "B", "C")}
    event = club.event(seats=3, boards=2)
    club.enter(event, [made[n][0] for n in "ABC"])
    team_events.team_event_start(event_id=event.pk, by=club.org.player, now=T0)
    event.refresh_from_db()
    assert event.rounds == 1
    rnd = open_current(event, django_capture_on_commit_callbacks)
    match = TeamMatch.objects.get(round=rnd)
    order = [s.team_id for s in TeamMatchSide.objects.filter(match=match).order_by("order")]
    letter = {made[n][0].pk: n for n in "ABC"}
    people = {made[n][0].pk: made[n][1] for n in "ABC"}
    for n, shift in ((1, 0), (2, 1)):  # board 2 seats the sides rotated by one
        b = board(match, n)
        seated = list(
            Seat.objects.filter(table_id=b.table_id).order_by("number").values_list("player_id", flat=True)
        )
        rotated = order[shift:] + order[:shift]
        assert seated == [people[t][n - 1].pk for t in rotated]
    # board 1: the side in seat 3 wins, seat 1 resigns first (last); board 2 likewise
    b1, b2 = board(match, 1), board(match, 2)
    first_seats = {
        bd.number: list(Seat.objects.filter(table_id=bd.table_id).order_by("number")) for bd in (b1, b2)
    }
    team_at = {bd.number: {people[t][bd.number - 1].pk: t for t in order} for bd in (b1, b2)}
    expected: dict[int, float] = dict.fromkeys(order, 0.0)
    for bd in (b1, b2):
        seats = first_seats[bd.number]
        winner = team_at[bd.number][seats[2].player_id]
        win_board(bd, winner, django_capture_on_commit_callbacks)
        expected[winner] += 2.0  # 3 seats: 2, 1, 0
        expected[team_at[bd.number][seats[1].player_id]] += 1.0
        bd.refresh_from_db()
        assert sorted(bd.points.values()) == [0.0, 1.0, 2.0]
    s = sides_of(match)
    assert {t: s[t].game_points for t in order} == expected
    match.refresh_from_db()
    assert match.status == "finished"
    best = max(order, key=lambda t: expected[t])
    assert s[best].place == 1 and s[best].match_points == 2.0, letter
    assert sorted(x.match_points for x in s.values()) == [0.0, 1.0, 2.0]
