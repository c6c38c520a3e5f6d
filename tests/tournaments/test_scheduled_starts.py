"""Scheduled events (issue 34): an event starts by itself at ``starts_at`` or is called off for too
few players, reminds its players once per start time, opens check-in on time, and the organiser
postpones or calls it off. The clock is injected (``now=``): nothing sleeps."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.utils import timezone

from accounts import kinds
from accounts.models import Notification
from common.errors import Conflict, Forbidden, InvalidInput
from games.models import Player, Table
from tournaments.calendar import starts, tick
from tournaments.competitions import services
from tournaments.models import AuditEntry, League, Registration, Round, RoundTable, Tournament
from tournaments.organising import actions

from ..games.conftest import Actor, as_organiser

pytestmark = pytest.mark.django_db

T = datetime(2030, 3, 1, 18, 0, tzinfo=UTC)


@pytest.fixture
def org(make_actor: Callable[..., Actor]) -> Actor:
    actor = make_actor("sched-org")
    as_organiser(actor.player)
    return actor


@pytest.fixture
def league(org: Actor) -> League:
    return services.league_create(organiser=org.player, name="Schedule Club")


def scheduled(org: Actor, league: League, *, starts_at: datetime = T, **settings: Any) -> Tournament:
    settings.setdefault("seats", 2)
    settings.setdefault("rounds", 3)
    t = services.tournament_create(
        organiser=org.player, league=league, name="Friday Swiss", game="shacru", **settings
    )
    Tournament.objects.filter(pk=t.pk).update(starts_at=starts_at)
    t.refresh_from_db()
    return t


def entrants(make_actor: Callable[..., Actor], t: Tournament, n: int, prefix: str = "p") -> list[Player]:
    people = [make_actor(f"{prefix}{i}").player for i in range(n)]
    for p in people:
        Registration.objects.create(tournament=t, player=p)
    return people


def sweep(capture: Any, now: datetime) -> dict[str, int]:
    with capture(execute=True):
        return starts.sweep(now=now)


def told(player: Player, state: str) -> list[Notification]:
    return [
        n
        for n in Notification.objects.filter(user=player.user, kind="event").order_by("pk")
        if n.params.get("state") == state
    ]


def status(t: Tournament) -> str:
    return Tournament.objects.get(pk=t.pk).status


# ------------------------------------------------------------------ starting by itself


def test_an_event_starts_by_itself_at_its_time_with_no_organiser(
    org: Actor, league: League, make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    t = scheduled(org, league)
    people = entrants(make_actor, t, 4)
    assert sweep(django_capture_on_commit_callbacks, T - timedelta(seconds=1)).get("started") is None
    assert status(t) == "registration" and not Round.objects.filter(tournament=t).exists()
    done = sweep(django_capture_on_commit_callbacks, T)
    assert done["started"] == 1
    t.refresh_from_db()
    assert (t.status, t.current_round, t.started_at) == ("running", 1, T)
    assert RoundTable.objects.filter(round__tournament=t).count() == 2
    entry = AuditEntry.objects.get(tournament=t, action="auto_start")
    assert entry.by is None and entry.detail == {"players": 4}
    assert all(len(told(p, "started")) == 1 for p in people)
    line = actions.audit_log(t=t)[0]
    assert (line.by, line.what) == ("the calendar", "started the event at its start time")


def test_the_calendar_tick_runs_the_starts(
    org: Actor, league: League, make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    t = scheduled(org, league)
    entrants(make_actor, t, 2)
    with django_capture_on_commit_callbacks(execute=True):
        done = tick.tick(now=T + timedelta(seconds=5))
    assert done["starts.started"] == 1 and status(t) == "running"


def test_too_few_players_call_it_off_and_each_registered_player_is_told_why(
    org: Actor, league: League, make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    t = scheduled(org, league, starts_at=T)
    Tournament.objects.filter(pk=t.pk).update(min_players=4)
    people = entrants(make_actor, t, 3)
    gone = make_actor("gone").player
    Registration.objects.create(tournament=t, player=gone, status=Registration.Status.WITHDRAWN)
    done = sweep(django_capture_on_commit_callbacks, T + timedelta(seconds=3))
    assert done == {"called_off": 1}
    assert status(t) == "cancelled" and not Round.objects.filter(tournament=t).exists()
    entry = AuditEntry.objects.get(tournament=t, action="called_off")
    assert entry.by is None and entry.detail == {"came": 3, "needed": 4}
    for p in people:
        (notice,) = told(p, "called_off")
        assert notice.params["came"] == 3 and notice.params["needed"] == 4
        assert kinds.title("event", notice.params) == "Friday Swiss is called off"
        assert kinds.detail("event", notice.params) == (
            "Only 3 players were there at the start time, and it needed at least 4."
        )
    assert told(gone, "called_off") == [], "a withdrawn player is not told"
    assert sweep(django_capture_on_commit_callbacks, T + timedelta(seconds=13)) == {}


def test_one_player_is_never_enough_whatever_min_players_says(
    org: Actor, league: League, make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    t = scheduled(org, league)
    Tournament.objects.filter(pk=t.pk).update(min_players=0)
    entrants(make_actor, t, 1)
    assert sweep(django_capture_on_commit_callbacks, T) == {"called_off": 1}
    assert AuditEntry.objects.get(tournament=t, action="called_off").detail == {"came": 1, "needed": 2}


def test_with_check_in_only_the_checked_in_players_count_and_play(
    org: Actor, league: League, make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    soon = timezone.now() + timedelta(minutes=10)  # check-in (30 minutes before) is open now
    t = scheduled(org, league, starts_at=soon, check_in=True)
    people = entrants(make_actor, t, 5)
    for p in people[:3]:
        services.check_in(tournament_id=t.pk, player=p)
    sweep(django_capture_on_commit_callbacks, soon)
    t.refresh_from_db()
    assert t.status == "running"
    seated = set(
        Table.objects.filter(round_table__round__tournament=t).values_list("seats__player", flat=True)
    )
    bye = set(Round.objects.get(tournament=t, number=1).byes)
    assert seated | bye == {p.pk for p in people[:3]}
    # Two checked in of three needed: called off, counting only the checked in.
    other = scheduled(org, league, starts_at=soon, check_in=True)
    Tournament.objects.filter(pk=other.pk).update(min_players=3)
    more = entrants(make_actor, other, 4, prefix="q")
    for p in more[:2]:
        services.check_in(tournament_id=other.pk, player=p)
    assert sweep(django_capture_on_commit_callbacks, soon) == {"called_off": 1}
    assert AuditEntry.objects.get(tournament=other, action="called_off").detail == {"came": 2, "needed": 3}
    assert all(len(told(p, "called_off")) == 1 for p in more), "everyone registered is told"


def test_a_knockout_that_cannot_start_is_called_off_with_the_reason(
    org: Actor, league: League, make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    t = scheduled(org, league, seats=3, format="knockout", advance=2)
    people = entrants(make_actor, t, 5)  # 3-seat tables sending 2 on take 2 to 4 players
    with pytest.raises(Conflict, match="5 players cannot be bracketed") as refused:
        services.start(tournament_id=t.pk, by=org.player)
    refusal = refused.value.detail
    t = Tournament.objects.get(pk=t.pk)
    assert t.status == "registration"
    assert sweep(django_capture_on_commit_callbacks, T) == {"called_off": 1}
    assert AuditEntry.objects.get(tournament=t, action="called_off").reason == refusal
    assert told(people[0], "called_off")[0].params["reason"] == refusal


# ------------------------------------------------------------------ exactly once


def test_two_sweeps_at_the_start_time_start_it_once(
    org: Actor, league: League, make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    t = scheduled(org, league)
    entrants(make_actor, t, 6)
    assert sweep(django_capture_on_commit_callbacks, T)["started"] == 1
    assert sweep(django_capture_on_commit_callbacks, T + timedelta(seconds=10)) == {}
    assert list(Round.objects.filter(tournament=t).values_list("number", flat=True)) == [1]
    assert RoundTable.objects.filter(round__tournament=t).count() == 3
    assert AuditEntry.objects.filter(tournament=t, action="auto_start").count() == 1


def test_an_event_started_early_by_hand_is_left_alone_at_its_time(
    org: Actor, league: League, make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    t = scheduled(org, league)
    entrants(make_actor, t, 4)
    r = org.post(f"/api/v1/tournaments/{t.pk}/start/")
    assert r.status_code == 200 and r.json()["status"] == "running"
    assert sweep(django_capture_on_commit_callbacks, T) == {}
    assert Round.objects.filter(tournament=t).count() == 1
    assert list(AuditEntry.objects.filter(tournament=t).values_list("action", "by")) == [
        ("start", org.player.pk)
    ]


# ------------------------------------------------------------------ reminders and check-in


def test_the_hour_reminder_goes_out_once_to_each_registered_player(
    org: Actor, league: League, make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    t = scheduled(org, league)
    people = entrants(make_actor, t, 3)
    assert sweep(django_capture_on_commit_callbacks, T - timedelta(minutes=61)) == {}
    assert sweep(django_capture_on_commit_callbacks, T - timedelta(minutes=59)) == {"reminded": 1}
    assert sweep(django_capture_on_commit_callbacks, T - timedelta(minutes=58)) == {}
    for p in people:
        (notice,) = told(p, "starts_soon")
        assert notice.params["starts_at"] == T.isoformat()
        with timezone.override("UTC"):
            assert kinds.title("event", notice.params) == (
                "Friday Swiss starts within the hour, at Fri 01 Mar 18:00 (UTC)"
            )
    assert AuditEntry.objects.filter(tournament=t, action="starts_soon").count() == 1


def test_check_in_opening_is_told_to_those_not_checked_in(
    org: Actor, league: League, make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    t = scheduled(org, league, check_in=True)
    Tournament.objects.filter(pk=t.pk).update(check_in_minutes=20)
    people = entrants(make_actor, t, 3)
    Registration.objects.filter(player=people[0]).update(status=Registration.Status.CHECKED_IN)
    assert sweep(django_capture_on_commit_callbacks, T - timedelta(minutes=21)) == {"reminded": 1}
    assert sweep(django_capture_on_commit_callbacks, T - timedelta(minutes=20)) == {"check_in_opened": 1}
    assert sweep(django_capture_on_commit_callbacks, T - timedelta(minutes=19)) == {}
    assert [len(told(p, "check_in_open")) for p in people] == [0, 1, 1]
    assert kinds.title("event", told(people[1], "check_in_open")[0].params).startswith(
        "Check-in for Friday Swiss is open"
    )


def test_check_in_is_refused_before_its_window_opens(
    org: Actor, league: League, make_actor: Callable[..., Actor]
) -> None:
    player = make_actor("early")
    t = scheduled(org, league, starts_at=timezone.now() + timedelta(hours=2), check_in=True)
    Registration.objects.create(tournament=t, player=player.player)
    with pytest.raises(Conflict, match="check-in is not open yet: it opens 30 minutes before the start"):
        services.check_in(tournament_id=t.pk, player=player.player)
    r = player.post(f"/api/v1/tournaments/{t.pk}/check-in/")
    assert r.status_code == 409 and "not open yet" in r.json()["detail"]
    assert Registration.objects.get(tournament=t, player=player.player).status == "registered"
    # The organiser may check a player in at any time (they vouch for them).
    services.check_in(tournament_id=t.pk, player=player.player, by=org.player)
    # Inside the window the player checks in themself.
    Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now() + timedelta(minutes=29))
    Registration.objects.filter(tournament=t).update(status="registered")
    assert player.post(f"/api/v1/tournaments/{t.pk}/check-in/").status_code == 200


def test_a_draft_opens_for_registration_when_its_window_opens(
    org: Actor, league: League, django_capture_on_commit_callbacks: Any
) -> None:
    t = scheduled(org, league, open_registration=False, starts_at=T + timedelta(days=2))
    Tournament.objects.filter(pk=t.pk).update(registration_opens=T, registration_closes=T + timedelta(days=1))
    closed = scheduled(org, league, open_registration=False, starts_at=T + timedelta(days=2))
    Tournament.objects.filter(pk=closed.pk).update(
        registration_opens=T - timedelta(days=2), registration_closes=T - timedelta(days=1)
    )
    assert sweep(django_capture_on_commit_callbacks, T - timedelta(seconds=1)) == {}
    assert status(t) == "draft"
    assert sweep(django_capture_on_commit_callbacks, T) == {"opened": 1}
    assert status(t) == "registration" and status(closed) == "draft", "a window already closed stays shut"


# ------------------------------------------------------------------ postpone and call off


def test_a_postponed_event_reminds_again_and_starts_at_its_new_time(
    org: Actor, league: League, make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    t = scheduled(org, league)
    people = entrants(make_actor, t, 2)
    sweep(django_capture_on_commit_callbacks, T - timedelta(minutes=50))
    later = T + timedelta(hours=2)
    with django_capture_on_commit_callbacks(execute=True):
        starts.postpone(tournament_id=t.pk, starts_at=later, by=org.player, now=T - timedelta(minutes=40))
    (moved,) = told(people[0], "postponed")
    assert moved.params["starts_at"] == later.isoformat()
    with timezone.override("UTC"):
        assert (
            kinds.title("event", moved.params) == "Friday Swiss has a new start time: Fri 01 Mar 20:00 (UTC)"
        )
    assert sweep(django_capture_on_commit_callbacks, T) == {}
    assert status(t) == "registration"
    assert sweep(django_capture_on_commit_callbacks, later - timedelta(minutes=30)) == {"reminded": 1}
    assert [n.params["starts_at"] for n in told(people[1], "starts_soon")] == [
        T.isoformat(),
        later.isoformat(),
    ]
    assert sweep(django_capture_on_commit_callbacks, later)["started"] == 1
    entry = AuditEntry.objects.get(tournament=t, action="postpone")
    assert entry.by == org.player and entry.detail == {"was": T.isoformat(), "starts_at": later.isoformat()}


def test_postpone_refuses_a_past_time_and_changes_nothing(org: Actor, league: League) -> None:
    t = scheduled(org, league)
    with pytest.raises(InvalidInput, match="must be in the future"):
        starts.postpone(tournament_id=t.pk, starts_at=T - timedelta(minutes=1), by=org.player, now=T)
    Tournament.objects.filter(pk=t.pk).update(registration_opens=T + timedelta(hours=3))
    with pytest.raises(InvalidInput, match="before registration opens"):
        starts.postpone(tournament_id=t.pk, starts_at=T + timedelta(hours=2), by=org.player, now=T)
    assert Tournament.objects.get(pk=t.pk).starts_at == T
    assert not AuditEntry.objects.filter(tournament=t).exists()


def test_the_organiser_calls_an_event_off_and_the_players_hear_the_reason(
    org: Actor, league: League, make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    t = scheduled(org, league)
    people = entrants(make_actor, t, 2)
    with django_capture_on_commit_callbacks(execute=True):
        starts.call_off(tournament_id=t.pk, by=org.player, reason="  the club is closed  ")
    assert status(t) == "cancelled"
    (notice,) = told(people[1], "called_off")
    assert kinds.detail("event", notice.params) == "Why: the club is closed"
    assert sweep(django_capture_on_commit_callbacks, T) == {}, "a called-off event never starts"
    with pytest.raises(Conflict, match="only an event not started yet can be called off"):
        starts.call_off(tournament_id=t.pk, by=org.player)
    with pytest.raises(Conflict, match="only an event not started yet can be postponed"):
        starts.postpone(tournament_id=t.pk, starts_at=T + timedelta(days=1), by=org.player, now=T)


def test_only_organisers_postpone_or_call_off(org: Actor, league: League, alice: Actor) -> None:
    t = scheduled(org, league)
    with pytest.raises(Forbidden):
        starts.postpone(tournament_id=t.pk, starts_at=T + timedelta(days=1), by=alice.player, now=T)
    with pytest.raises(Forbidden):
        starts.call_off(tournament_id=t.pk, by=alice.player)


# ------------------------------------------------------------------ the API


def test_the_api_postpones_and_calls_off_for_organisers_only(
    org: Actor, league: League, alice: Actor, anon: Any
) -> None:
    t = scheduled(org, league, starts_at=timezone.now() + timedelta(days=1))
    before = Tournament.objects.get(pk=t.pk).starts_at
    base = f"/api/v1/tournaments/{t.pk}"
    new = (timezone.now() + timedelta(days=2)).replace(microsecond=0)
    assert anon.post(f"{base}/postpone/", {"starts_at": new.isoformat()}, format="json").status_code == 401
    r = alice.post(f"{base}/postpone/", {"starts_at": new.isoformat()})
    assert r.status_code == 403 and "organisers" in r.json()["detail"]
    assert alice.post(f"{base}/call-off/", {"reason": "no"}).status_code == 403
    for bad in ({}, {"starts_at": "next friday"}, {"starts_at": "2001-01-01T10:00:00Z"}):
        r = org.post(f"{base}/postpone/", bad)
        assert r.status_code == 400, (bad, r.json())
    assert org.post(f"{base}/call-off/", {"reason": "x" * 1001}).status_code == 400
    t.refresh_from_db()
    assert (t.status, t.starts_at) == ("registration", before)
    assert not AuditEntry.objects.filter(tournament=t).exists()
    r = org.post(f"{base}/postpone/", {"starts_at": new.isoformat()})
    assert r.status_code == 200, r.json()
    assert Tournament.objects.get(pk=t.pk).starts_at == new
    r = org.post(f"{base}/call-off/", {"reason": "snow"})
    assert r.status_code == 200 and r.json()["status"] == "cancelled"
    assert org.post(f"{base}/call-off/", {}).status_code == 409


def test_the_schema_describes_postpone_and_call_off(anon: Any) -> None:
    schema = anon.get("/api/v1/schema/", {"format": "json"}).json()
    postpone = schema["paths"]["/api/v1/tournaments/{tournament_id}/postpone/"]["post"]
    assert postpone["operationId"] == "tournament_postpone"
    assert set(postpone["responses"]) >= {"200", "400", "403", "409"}
    call_off = schema["paths"]["/api/v1/tournaments/{tournament_id}/call-off/"]["post"]
    assert call_off["operationId"] == "tournament_call_off"


# ------------------------------------------------------------------ the organiser console


def test_the_console_postpones_and_calls_off(
    org: Actor, league: League, make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    t = scheduled(org, league, starts_at=timezone.now() + timedelta(days=1))
    entrants(make_actor, t, 1)
    c = Client(enforce_csrf_checks=True)
    c.force_login(org.player.user)
    page = c.get(f"/organiser/events/{t.pk}/").content.decode()
    assert 'id="postpone-form"' in page and 'id="call-off-form"' in page and 'id="scheduled-start"' in page
    assert "csrfmiddlewaretoken" in page.split('id="postpone-form"')[1].split("</form>")[0]
    assert c.post(f"/organiser/events/{t.pk}/postpone/", {"starts_at": "2031-05-01T10:00"}).status_code == 403
    c = Client()
    c.force_login(org.player.user)
    r = c.post(f"/organiser/events/{t.pk}/postpone/", {"starts_at": "2001-05-01T10:00"}, follow=True)
    assert any("must be in the future" in str(m) for m in r.context["messages"])
    r = c.post(f"/organiser/events/{t.pk}/postpone/", {"starts_at": "2031-05-01T10:00"}, follow=True)
    assert any("now starts at" in str(m) for m in r.context["messages"])
    assert Tournament.objects.get(pk=t.pk).starts_at.year == 2031
    with django_capture_on_commit_callbacks(execute=True):
        r = c.post(f"/organiser/events/{t.pk}/call-off/", {"reason": "rain"}, follow=True)
    assert any("is called off" in str(m) for m in r.context["messages"])
    assert status(t) == "cancelled"
    page = c.get(f"/organiser/events/{t.pk}/").content.decode()
    assert 'id="postpone-form"' not in page and 'id="call-off-form"' not in page
    other = make_actor("not-org")
    c.force_login(other.player.user)
    assert c.post(f"/organiser/events/{t.pk}/call-off/", {}).status_code == 403


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_ticks_at_once_start_it_once(
    org: Actor, league: League, make_actor: Callable[..., Actor]
) -> None:
    """Real row locks: two sweeps in two connections at the same moment; one starts the event, the
    other skips its locked row (or finds it running)."""
    t = scheduled(org, league)
    entrants(make_actor, t, 8)
    barrier = threading.Barrier(2)
    results: list[dict[str, int]] = []

    def tick_now() -> None:
        try:
            barrier.wait(timeout=10)
            results.append(starts.sweep(now=T))
        finally:
            connection.close()

    threads = [threading.Thread(target=tick_now) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(r.get("started", 0) for r in results) == [0, 1]
    assert Round.objects.filter(tournament=t).count() == 1
    assert RoundTable.objects.filter(round__tournament=t).count() == 4
    assert AuditEntry.objects.filter(tournament=t, action="auto_start").count() == 1
