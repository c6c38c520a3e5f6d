"""Rounds on a schedule (every N minutes, at set times) and correspondence deadlines, carried out by
the calendar's sweep with an injected clock (``tournaments.calendar.rounds``)."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.utils import timezone

from accounts import kinds
from accounts.models import Account, Notification
from common.errors import InvalidInput
from engine.playout import random_step
from games import services as games
from games.models import Player, Seat, Table
from games.selectors import current_state
from ratings.models import Rating
from tournaments.calendar import rounds as sweeper
from tournaments.competitions import services
from tournaments.models import AuditEntry, League, Round, Tournament

from ..games.conftest import Actor, as_organiser
from .test_formats_flow import current_tables, finish_by_resignations

pytestmark = pytest.mark.django_db

HOUR = timedelta(hours=1)
DAY = timedelta(days=1)


@pytest.fixture
def club(make_actor: Callable[..., Actor]) -> tuple[Actor, League]:
    org = make_actor("sched-org")
    as_organiser(org.player)
    return org, services.league_create(organiser=org.player, name="Schedule Club")


def event(
    club: tuple[Actor, League], make_actor: Callable[..., Actor], capture: Any, n: int, **settings: Any
) -> tuple[Tournament, list[Actor]]:
    """A running event of ``n`` players (round 1 paired now, by the organiser's start)."""
    org, league = club
    settings = {"seats": 2, "rounds": 3, "rated": False, **settings}
    t = services.tournament_create(
        organiser=org.player, league=league, name="Scheduled", game="shacru", **settings
    )
    people = [make_actor(f"s{i}") for i in range(n)]
    for p in people:
        services.register(tournament_id=t.pk, player=p.player)
    with capture(execute=True):
        services.start(tournament_id=t.pk, by=org.player)
    t.refresh_from_db()
    return t, people


def finish_round(t: Tournament, capture: Any) -> None:
    for table in current_tables(t):
        with capture(execute=True):
            finish_by_resignations(table.pk, [1, 2])
    t.refresh_from_db()


def sweep(now: datetime, capture: Any) -> dict[str, int]:
    with capture(execute=True):
        return sweeper.sweep(now=now)


# ----------------------------------------------------------------- round times


def test_interval_rounds_are_paired_at_their_time_and_not_before(
    club: Any, make_actor: Any, django_capture_on_commit_callbacks: Any
) -> None:
    capture = django_capture_on_commit_callbacks
    before = timezone.now()
    t, _ = event(club, make_actor, capture, 4, round_start="interval", round_interval_minutes=60)
    due = t.next_round_at
    assert due is not None and before + HOUR <= due <= timezone.now() + HOUR
    finish_round(t, capture)
    assert t.current_round == 1 and t.status == "running", "round 1 is over, and round 2 waits for its time"
    assert sweep(due - timedelta(seconds=1), capture)["paired"] == 0
    t.refresh_from_db()
    assert t.current_round == 1
    assert sweep(due, capture)["paired"] == 1
    t.refresh_from_db()
    assert t.current_round == 2 and t.next_round_at == due + HOUR, "the next interval counts from this start"
    assert sweep(due + timedelta(seconds=30), capture)["paired"] == 0, "paired once"
    assert Round.objects.filter(tournament=t).count() == 2


def test_set_times_pair_each_round_at_its_time(
    club: Any, make_actor: Any, django_capture_on_commit_callbacks: Any
) -> None:
    capture = django_capture_on_commit_callbacks
    base = timezone.now().replace(microsecond=0) + HOUR
    times = [base, base + 2 * HOUR, base + 4 * HOUR]
    t, _ = event(
        club,
        make_actor,
        capture,
        4,
        starts_at=base,
        round_start="times",
        round_times=[x.isoformat() for x in times],
    )
    assert t.next_round_at == times[1]
    finish_round(t, capture)
    assert sweep(times[1] - HOUR, capture)["paired"] == 0
    assert sweep(times[1], capture)["paired"] == 1
    t.refresh_from_db()
    assert t.current_round == 2 and t.next_round_at == times[2]
    finish_round(t, capture)
    assert sweep(times[2] + 3 * HOUR, capture)["paired"] == 1, "a late sweep pairs the round due"
    t.refresh_from_db()
    assert t.current_round == 3 and t.next_round_at is None
    finish_round(t, capture)
    assert t.status == "finished"


def test_a_round_ending_after_the_next_ones_time_pairs_it_at_once(
    club: Any, make_actor: Any, django_capture_on_commit_callbacks: Any
) -> None:
    capture = django_capture_on_commit_callbacks
    t, _ = event(club, make_actor, capture, 4, round_start="interval", round_interval_minutes=30)
    Tournament.objects.filter(pk=t.pk).update(next_round_at=timezone.now() - timedelta(minutes=1))
    t.refresh_from_db()
    finish_round(t, capture)
    assert t.current_round == 2, "round 2 was due already: paired as round 1 ended, no sweep needed"


def test_a_paused_event_waits_for_its_organiser(
    club: Any, make_actor: Any, django_capture_on_commit_callbacks: Any
) -> None:
    capture = django_capture_on_commit_callbacks
    org = club[0].player
    t, _ = event(club, make_actor, capture, 4, round_start="interval", round_interval_minutes=60)
    due = t.next_round_at
    assert due is not None
    finish_round(t, capture)
    services.pause(tournament_id=t.pk, by=org)
    assert sweep(due + HOUR, capture)["paired"] == 0
    t.refresh_from_db()
    assert t.current_round == 1
    with capture(execute=True):
        assert services.resume(tournament_id=t.pk, by=org) is None, "resumed before its time: it still waits"
    t.refresh_from_db()
    assert t.current_round == 1
    assert sweep(due, capture)["paired"] == 1
    t.refresh_from_db()
    assert t.current_round == 2


# -------------------------------------------------------------------- deadlines


def play_plies(table_id: int, plies: int, seed: int = 3) -> None:
    rng = random.Random(seed)
    for _ in range(plies):
        table = Table.objects.get(pk=table_id)
        state = current_state(table)
        _, text = random_step(state, rng)
        seat = Seat.objects.get(table=table, number=state.to_move)
        games.move_submit(
            table_id=table_id, player=Player.objects.get(pk=seat.player_id), ply=table.ply, move=text
        )


@pytest.mark.parametrize("rule", ["score", "draw", "forfeit"])
def test_the_deadline_settles_unfinished_tables_by_the_rule_once(
    rule: str, club: Any, make_actor: Any, django_capture_on_commit_callbacks: Any
) -> None:
    capture = django_capture_on_commit_callbacks
    t, _ = event(
        club,
        make_actor,
        capture,
        3,
        seats=3,
        rounds=1,
        rated=True,
        round_deadline_minutes=3 * 24 * 60,
        deadline_rule=rule,
    )
    rnd = Round.objects.get(tournament=t, number=1)
    assert rnd.deadline is not None
    assert rnd.started_at + 3 * DAY - timedelta(seconds=5) <= rnd.deadline <= rnd.started_at + 3 * DAY
    (table,) = current_tables(t)
    with capture(execute=True):
        play_plies(table.pk, 4)
    state = current_state(Table.objects.get(pk=table.pk))
    assert state.active_seats == [1, 2, 3]
    assert sweep(rnd.deadline - timedelta(seconds=1), capture)["settled"] == 0
    assert sweep(rnd.deadline, capture)["settled"] == 1
    ranks = dict(Seat.objects.filter(table=table).values_list("number", "rank"))
    if rule == "score":
        assert ranks == state.ranking()
    elif rule == "draw":
        assert ranks == {1: 1, 2: 1, 3: 1}
    else:
        mover = state.to_move
        assert ranks == {s: 3 if s == mover else 1 for s in (1, 2, 3)}, (
            "on move: last; the others share first"
        )
    table.refresh_from_db()
    assert table.status == "finished" and table.end_reason == "adjudicated"
    rnd.refresh_from_db()
    t.refresh_from_db()
    assert rnd.deadline_applied and rnd.status == "finished" and t.status == "finished"
    assert Rating.objects.filter(game="shacru").count() == 3, "rated as any finished table"
    assert sweep(rnd.deadline + HOUR, capture)["settled"] == 0, "applied once"
    (entry,) = AuditEntry.objects.filter(tournament=t, action="deadline")
    assert entry.table_id == table.pk and entry.detail["rule"] == rule and entry.by is None
    assert sorted(entry.detail["after"].values()) == sorted(ranks.values())


def test_a_settled_round_pairs_the_next_one_and_finished_tables_keep_their_result(
    club: Any, make_actor: Any, django_capture_on_commit_callbacks: Any
) -> None:
    capture = django_capture_on_commit_callbacks
    t, _ = event(club, make_actor, capture, 4, round_deadline_minutes=60, deadline_rule="draw")
    first, second = current_tables(t)
    with capture(execute=True):
        finish_by_resignations(first.pk, [2, 1])
    rnd = Round.objects.get(tournament=t, number=1)
    assert sweep(rnd.deadline, capture)["settled"] == 1
    assert dict(Seat.objects.filter(table=first).values_list("number", "rank")) == {1: 1, 2: 2}
    assert dict(Seat.objects.filter(table=second).values_list("number", "rank")) == {1: 1, 2: 1}
    t.refresh_from_db()
    assert t.current_round == 2, "the round ended at the deadline: the next one is paired (asap)"
    assert Round.objects.get(tournament=t, number=2).deadline is not None


def test_24_hours_before_the_deadline_players_are_told_once(
    club: Any, make_actor: Any, django_capture_on_commit_callbacks: Any
) -> None:
    capture = django_capture_on_commit_callbacks
    t, people = event(club, make_actor, capture, 4, round_deadline_minutes=3 * 24 * 60)
    rnd = Round.objects.get(tournament=t, number=1)
    first, _ = current_tables(t)
    with capture(execute=True):
        finish_by_resignations(first.pk, [1, 2])
    assert sweep(rnd.deadline - DAY - HOUR, capture)["reminded"] == 0
    assert sweep(rnd.deadline - DAY + HOUR, capture)["reminded"] == 1
    assert sweep(rnd.deadline - HOUR, capture)["reminded"] == 0, "once"
    told = Notification.objects.filter(key=f"round-deadline:{rnd.pk}")
    still = set(
        Seat.objects.filter(table__round_table__round=rnd)
        .exclude(table=first)
        .values_list("player_id", flat=True)
    )
    assert {n.user_id for n in told} == {p.player.user_id for p in people if p.player.pk in still}
    assert len(told) == 2
    n = told[0]
    assert "24 h left before the deadline of round 1" in kinds.title(n.kind, n.params)
    assert "scored from the position" in kinds.detail(n.kind, n.params)


def test_a_short_round_has_no_24_hour_reminder(
    club: Any, make_actor: Any, django_capture_on_commit_callbacks: Any
) -> None:
    capture = django_capture_on_commit_callbacks
    t, _ = event(club, make_actor, capture, 2, round_deadline_minutes=120)
    rnd = Round.objects.get(tournament=t, number=1)
    assert sweep(rnd.deadline - HOUR, capture)["reminded"] == 0
    assert not Notification.objects.filter(key__startswith="round-deadline:").exists()


def test_the_round_paired_notice_carries_the_deadline(
    club: Any, make_actor: Any, django_capture_on_commit_callbacks: Any
) -> None:
    capture = django_capture_on_commit_callbacks
    t, people = event(club, make_actor, capture, 2, round_deadline_minutes=7 * 24 * 60)
    rnd = Round.objects.get(tournament=t, number=1)
    n = Notification.objects.get(user_id=people[0].player.user_id, kind="round", key=f"round:{rnd.pk}")
    assert rnd.deadline is not None
    assert datetime.fromisoformat(n.params["deadline_at"]) == rnd.deadline
    assert kinds.detail(n.kind, n.params).startswith("Finish your game by ")


# ------------------------------------------------------------------- validation


def in_future(**delta: float) -> str:
    return (timezone.now() + timedelta(**delta)).isoformat()


@pytest.mark.parametrize(
    ("given", "words"),
    [
        ({"starts_at": "2020-01-01T10:00:00Z"}, "must be in the future"),
        ({"starts_at": "2030-01-01T10:00:00"}, "time zone"),
        ({"starts_at": "next friday"}, "a date and time"),
        (
            {"starts_at": "2030-01-01T10:00:00Z", "registration_closes": "2030-01-01T11:00:00Z"},
            "cannot close after the event starts",
        ),
        ({"min_players": 1}, "minimum number of players must be 2"),
        ({"min_players": 9, "max_players": 8}, "minimum number of players must be 2 to 8"),
        ({"check_in_minutes": 0}, "check-in opens 5 to 1440 minutes"),
        ({"round_start": "interval"}, "need the interval"),
        ({"round_start": "interval", "round_interval_minutes": 0}, "1 minute to 60 days apart"),
        ({"round_start": "sometimes"}, "rounds start asap, interval, times"),
        ({"round_start": "times"}, "need the times"),
        (
            {"round_start": "times", "round_times": ["2030-01-01T10:00:00Z", "2030-01-02T10:00:00Z"]},
            "needs 3 times, one per round, and 2 were given",
        ),
        (
            {
                "round_start": "times",
                "round_times": ["2030-01-01T10:00:00Z", "2030-01-01T10:00:00Z", "2030-01-03T10:00:00Z"],
            },
            "must increase: round 2",
        ),
        (
            {
                "starts_at": "2030-01-02T10:00:00Z",
                "round_start": "times",
                "round_times": ["2030-01-01T10:00:00Z", "2030-01-03T10:00:00Z", "2030-01-04T10:00:00Z"],
            },
            "before the event starts",
        ),
        ({"round_deadline_minutes": 4}, "5 minutes to 60 days"),
        ({"deadline_rule": "coin"}, "deadline rule is one of score, draw, forfeit"),
    ],
)
def test_a_bad_schedule_is_refused_and_creates_nothing(
    club: tuple[Actor, League], given: dict[str, Any], words: str
) -> None:
    org, league = club
    with pytest.raises(InvalidInput) as refused:
        services.tournament_create(
            organiser=org.player, league=league, name="Bad", game="shacru", seats=2, rounds=3, **given
        )
    assert words in str(refused.value.detail)
    assert not Tournament.objects.exists()


def test_the_api_creates_an_event_with_its_schedule_and_reads_it_back(club: tuple[Actor, League]) -> None:
    org, league = club
    start = (timezone.now() + DAY).replace(microsecond=0)
    times = [start + i * DAY for i in range(3)]
    body = {
        "league": league.slug,
        "name": "Correspondence Swiss",
        "game": "pacru",
        "seats": 2,
        "rounds": 3,
        "starts_at": start.isoformat(),
        "min_players": 4,
        "check_in_minutes": 60,
        "round_start": "times",
        "round_times": [x.isoformat() for x in times],
        "round_deadline_minutes": 2 * 24 * 60,
        "deadline_rule": "forfeit",
    }
    r = org.post("/api/v1/tournaments/", body)
    assert r.status_code == 201, r.json()
    got = org.get(f"/api/v1/tournaments/{r.json()['id']}/").json()
    for key in ("min_players", "check_in_minutes", "round_start", "round_deadline_minutes", "deadline_rule"):
        assert got[key] == body[key], key
    assert datetime.fromisoformat(got["starts_at"].replace("Z", "+00:00")) == start
    assert [datetime.fromisoformat(x.replace("Z", "+00:00")) for x in got["round_times"]] == times
    assert got["next_round_at"] is None and got["round_interval_minutes"] is None
    bad = org.post("/api/v1/tournaments/", {**body, "round_times": body["round_times"][:2]})
    assert bad.status_code == 400 and "one per round" in bad.json()["detail"]
    assert Tournament.objects.count() == 1


# ------------------------------------------------------------------------ pages


def test_the_dashboard_form_sets_the_schedule_in_the_organisers_time_zone(club: tuple[Actor, League]) -> None:
    org, league = club
    Account.objects.update_or_create(user=org.player.user, defaults={"time_zone": "Europe/Madrid"})
    c = Client()
    c.force_login(org.player.user)
    page = c.get("/organiser/").content.decode()
    assert 'id="event-schedule"' in page and "Europe/Madrid" in page
    form = {
        "form": "event", "league": league.pk, "name": "Weekly", "game": "shacru", "seats": 2,
        "format": "swiss", "rounds": 2, "base_minutes": 0, "increment": 0, "rated": "on",
        "starts_at": "2030-06-07T19:00", "min_players": 4, "check_in_minutes": 45,
        "round_start": "times", "round_times": "2030-06-07 19:00\n\n2030-06-14 19:00\n",
        "deadline": 3, "deadline_unit": "days", "deadline_rule": "draw",
    }  # fmt: skip
    c.post("/organiser/", form, follow=True)
    t = Tournament.objects.get(name="Weekly")
    assert t.starts_at == datetime(2030, 6, 7, 17, 0, tzinfo=UTC), (
        "19:00 in Madrid (summer time) is 17:00 UTC"
    )
    assert t.round_times == ["2030-06-07T17:00:00+00:00", "2030-06-14T17:00:00+00:00"]
    assert (t.min_players, t.check_in_minutes, t.round_deadline_minutes, t.deadline_rule) == (
        4,
        45,
        3 * 1440,
        "draw",
    )
    bad = dict(form, name="Bad", round_times="2030-06-07 19:00\nnext week")
    r = c.post("/organiser/", bad)
    assert "line 2 is not a date and time" in r.content.decode()
    bad = dict(form, name="Bad", round_times="2030-06-07 19:00")
    r = c.post("/organiser/", bad, follow=True)
    assert "needs 2 times, one per round" in r.content.decode()
    assert not Tournament.objects.filter(name="Bad").exists()


def test_the_event_page_shows_the_schedule(
    club: Any, make_actor: Any, django_capture_on_commit_callbacks: Any
) -> None:
    capture = django_capture_on_commit_callbacks
    org, league = club
    start = timezone.now() + 2 * DAY
    waiting = services.tournament_create(
        organiser=org.player, league=league, name="Later", game="shacru", seats=2, rounds=3,
        starts_at=start, check_in=True, check_in_minutes=60, min_players=4,
    )  # fmt: skip
    page = Client().get(f"/tournaments/{waiting.pk}/").content.decode()
    assert 'id="schedule"' in page and 'id="starts-at"' in page and "at least 4 at the start" in page
    assert "data-countdown-at=" in page
    assert 'id="check-in-opens"' in page
    t, _ = event(
        club, make_actor, capture, 4, round_start="interval", round_interval_minutes=24 * 60,
        round_deadline_minutes=2 * 24 * 60, deadline_rule="forfeit",
    )  # fmt: skip
    page = Client().get(f"/tournaments/{t.pk}/").content.decode()
    assert (
        "A new round every day: each is paired 1 day after" in page
        and 'id="next-round"' in page
        and "Round 2 is due at" in page
    )
    assert "Each round must be finished within 2 days of its pairing." in page
    assert "an unfinished game is lost by whoever is on move" in page and "Round deadlines" in page
    Tournament.objects.filter(pk=waiting.pk).update(status="cancelled")
    page = Client().get(f"/tournaments/{waiting.pk}/").content.decode()
    assert "This event was called off." in page and 'id="starts-at"' not in page


# ------------------------------------------------------------------ concurrency


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_ticks_at_the_deadline_settle_it_once(club: Any, make_actor: Any) -> None:
    """Real row locks: two sweeps in two connections at the same moment; one settles the round's
    tables, the other waits for its lock and finds the deadline applied."""
    org, league = club
    t = services.tournament_create(
        organiser=org.player, league=league, name="Race", game="shacru", seats=2, rounds=1, rated=False,
        round_deadline_minutes=60,
    )  # fmt: skip
    for i in range(4):
        services.register(tournament_id=t.pk, player=make_actor(f"race{i}").player)
    services.start(tournament_id=t.pk, by=org.player)
    rnd = Round.objects.get(tournament=t, number=1)
    assert rnd.deadline is not None
    barrier = threading.Barrier(2)
    results: list[dict[str, int]] = []

    def tick() -> None:
        try:
            barrier.wait(timeout=10)
            results.append(sweeper.sweep(now=rnd.deadline))
        finally:
            connection.close()

    threads = [threading.Thread(target=tick) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(r["settled"] for r in results) == [0, 2]
    assert AuditEntry.objects.filter(tournament=t, action="deadline").count() == 2
    t.refresh_from_db()
    assert t.status == "finished"
