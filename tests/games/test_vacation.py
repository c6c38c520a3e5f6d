"""Correspondence vacation (``games.vacation``): it stops and restarts correspondence clocks exactly,
with the time given explicitly (no sleeping), and its allowance, refusals and API."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from common.errors import Forbidden, InvalidInput
from engine.playout import random_step
from games import dispatch, housebots, services, vacation
from games.clocks import TimeControl
from games.models import Player, Table
from games.vacation import DAY
from tournaments import ladders
from tournaments.competitions import services as competitions

from .conftest import Actor, as_organiser

pytestmark = pytest.mark.django_db

GRACE = timedelta(seconds=settings.CLOCK_GRACE_SECONDS)
CORRESPONDENCE = {"kind": "correspondence", "days": 3}
URL = "/api/v1/account/vacation/"


def table_of(actors: list[Actor], tc: dict[str, Any]) -> Table:
    table = services.table_create(
        creator=actors[0].player, game="pacru", players=len(actors), time_control=tc
    )
    for actor in actors[1:]:
        services.seat_join(table_id=table.pk, player=actor.player)
    table.refresh_from_db()
    assert table.status == Table.Status.ACTIVE
    return table


def move(table: Table, actor: Actor, at: datetime) -> Table:
    """``actor`` makes a legal move at ``at``."""
    table.refresh_from_db()
    _, text = random_step(services.current_state(table), random.Random(table.ply))
    services.move_submit(table_id=table.pk, player=actor.player, ply=table.ply, move=text, now=at)
    table.refresh_from_db()
    return table


def remaining(table: Table, seat: int) -> float:
    return float(table.clocks[str(seat)]["remaining"])


def fresh(actor: Actor) -> Player:
    return Player.objects.get(pk=actor.player.pk)


@pytest.fixture
def playing(alice: Actor, bob: Actor) -> tuple[Table, datetime]:
    """A 3 days/move table where each has moved once; Alice (seat 1) is on turn since ``t1``."""
    table = table_of([alice, bob], CORRESPONDENCE)
    t0 = table.started_at + timedelta(hours=1)
    table = move(table, alice, t0)
    table = move(table, bob, t0 + timedelta(hours=5))
    t1 = t0 + timedelta(hours=5)
    assert table.to_move == 1 and table.turn_started_at == t1
    assert table.deadline == t1 + 3 * DAY
    return table, t1


def test_starting_mid_turn_charges_the_time_spent_and_restarts_the_turn_at_the_end(
    alice: Actor, playing: tuple[Table, datetime]
) -> None:
    table, t1 = playing
    now = t1 + timedelta(hours=10, seconds=7)
    vacation.vacation_start(player=alice.player, days=5, now=now)
    until = now + 5 * DAY
    table.refresh_from_db()
    spent = (now - t1).total_seconds()
    assert remaining(table, 1) == 3 * DAY.total_seconds() - spent
    assert table.turn_started_at == until
    assert table.deadline == until + timedelta(seconds=3 * DAY.total_seconds() - spent)
    assert table.deadline == t1 + 3 * DAY + 5 * DAY, "exactly the vacation's length was added"
    assert remaining(table, 2) == 3 * DAY.total_seconds(), "the other seat's clock is untouched"
    player = fresh(alice)
    assert player.vacation_started == now and player.vacation_until == until
    assert player.vacation_days_used == 5 and player.vacation_year == now.astimezone(UTC).year
    assert alice.player.vacation_until == until, "the caller's player is brought up to date"


def test_a_turn_handed_to_a_player_on_vacation_starts_when_it_ends(
    alice: Actor, bob: Actor, playing: tuple[Table, datetime]
) -> None:
    table, t1 = playing
    table = move(table, alice, t1 + timedelta(hours=1))  # Bob on turn now
    start = t1 + timedelta(hours=2)
    vacation.vacation_start(player=alice.player, days=3, now=start)
    table.refresh_from_db()
    assert table.to_move == 2 and table.turn_started_at == t1 + timedelta(hours=1), "Bob's turn runs"
    bob_moves = t1 + timedelta(hours=30)
    table = move(table, bob, bob_moves)
    until = start + 3 * DAY
    assert table.to_move == 1 and table.turn_started_at == until
    assert table.deadline == until + timedelta(seconds=remaining(table, 1)) == until + 3 * DAY


def test_moving_during_the_vacation_charges_nothing(
    alice: Actor, bob: Actor, playing: tuple[Table, datetime]
) -> None:
    table, t1 = playing
    now = t1 + timedelta(hours=6)
    vacation.vacation_start(player=alice.player, days=4, now=now)
    table.refresh_from_db()
    left = remaining(table, 1)
    assert left == 3 * DAY.total_seconds() - 6 * 3600
    table = move(table, alice, now + timedelta(days=1))  # she plays anyway, a day into her vacation
    # Correspondence gives a fresh 3 days a move; with a bank the saved time shows it is uncharged.
    assert remaining(table, 1) == 3 * DAY.total_seconds()
    assert table.to_move == 2 and table.turn_started_at == now + timedelta(days=1), "Bob's clock runs"


def test_with_a_bank_the_time_before_the_vacation_is_charged_and_nothing_during_it(
    alice: Actor, bob: Actor
) -> None:
    table = table_of([alice, bob], {"kind": "correspondence", "days": 1, "bank_days": 5})
    t0 = table.started_at + timedelta(minutes=1)
    table = move(table, alice, t0)
    table = move(table, bob, t0 + timedelta(hours=1))
    t1 = t0 + timedelta(hours=1)
    vacation.vacation_start(player=alice.player, days=2, now=t1 + timedelta(hours=4))
    table = move(table, alice, t1 + timedelta(days=1))  # during the vacation
    # 1 day - 4 hours spent before the vacation, + 1 day for the move: nothing for the day on vacation.
    assert remaining(table, 1) == 2 * DAY.total_seconds() - 4 * 3600


def test_ending_early_restarts_the_turn_now_and_gives_back_the_unused_days(
    alice: Actor, playing: tuple[Table, datetime]
) -> None:
    table, t1 = playing
    start = t1 + timedelta(hours=3)
    vacation.vacation_start(player=alice.player, days=10, now=start)
    table.refresh_from_db()
    left = table.deadline - table.turn_started_at
    end = start + timedelta(days=2, hours=5)
    vacation.vacation_end(player=alice.player, now=end)
    table.refresh_from_db()
    assert table.turn_started_at == end and table.deadline == end + left
    assert left == 3 * DAY - timedelta(hours=3)
    player = fresh(alice)
    # 7 days 19 hours were not used: 7 whole days come back, 3 are spent.
    assert player.vacation_days_used == 3 and player.vacation_until is None
    assert vacation.days_left(player, end) == settings.VACATION_DAYS_PER_YEAR - 3
    assert not vacation.on_vacation(player, end)


def test_a_time_control_without_vacation_is_left_alone(alice: Actor, bob: Actor) -> None:
    tc = {"kind": "correspondence", "days": 2, "vacation": False}
    table = table_of([alice, bob], tc)
    assert table.time_control["vacation"] is False
    t0 = table.started_at + timedelta(minutes=5)
    table = move(table, alice, t0)
    table = move(table, bob, t0 + timedelta(hours=1))
    before = (table.turn_started_at, table.deadline, table.clocks)
    vacation.vacation_start(player=alice.player, days=3, now=t0 + timedelta(hours=2))
    table.refresh_from_db()
    assert (table.turn_started_at, table.deadline, table.clocks) == before
    # and a turn handed to her during the vacation runs at once
    table = move(table, alice, t0 + timedelta(hours=3))
    handed = t0 + timedelta(hours=4)
    table = move(table, bob, handed)
    assert table.turn_started_at == handed and table.deadline == handed + 2 * DAY


def test_live_time_controls_ignore_vacation(alice: Actor, bob: Actor) -> None:
    table = table_of([alice, bob], {"kind": "fischer", "base": 300, "increment": 5})
    t0 = table.started_at + timedelta(seconds=2)
    table = move(table, alice, t0)
    table = move(table, bob, t0 + timedelta(seconds=3))
    before = (table.turn_started_at, table.deadline, table.clocks)
    vacation.vacation_start(player=alice.player, days=1, now=t0 + timedelta(seconds=4))
    table.refresh_from_db()
    assert (table.turn_started_at, table.deadline, table.clocks) == before


def test_the_first_move_window_waits_for_the_vacation_too(alice: Actor, bob: Actor) -> None:
    """A table that starts while its first player is away: its first-move window opens at the end."""
    now = datetime.now(UTC)
    vacation.vacation_start(player=alice.player, days=2, now=now)
    table = table_of([alice, bob], CORRESPONDENCE)
    until = now + 2 * DAY
    assert table.to_move == 1 and table.turn_started_at == until and table.deadline == until + 3 * DAY


def test_the_sweep_does_not_flag_a_table_on_vacation_and_flags_it_after_the_end_and_what_was_left(
    alice: Actor, playing: tuple[Table, datetime]
) -> None:
    table, t1 = playing
    now = t1 + timedelta(days=2)
    vacation.vacation_start(player=alice.player, days=6, now=now)
    old_deadline = t1 + 3 * DAY
    assert services.sweep_overdue(now=old_deadline + GRACE + timedelta(hours=1)) == 0
    until = now + 6 * DAY
    flag = until + DAY  # one of her three days was left
    table.refresh_from_db()
    assert table.deadline == flag
    assert services.sweep_overdue(now=flag + GRACE - timedelta(seconds=1)) == 0
    assert services.sweep_overdue(now=flag + GRACE) == 1
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED and table.winner_seat == 2


def test_a_pending_short_clock_check_does_not_flag_a_table_on_vacation(
    alice: Actor, bob: Actor, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    """Short correspondence deadlines get an ETA check; the check re-reads the deadline under the
    lock, so one scheduled before the vacation finds nothing due."""
    settings.CLOCK_ETA_HORIZON_SECONDS = 3600  # the moves below are made up to 20 minutes ahead
    checks: list[tuple[int, int, datetime]] = []
    monkeypatch.setattr(dispatch, "clock_check_after_commit", lambda *args: checks.append(args))
    table = table_of([alice, bob], {"kind": "correspondence", "days": 1 / 144})  # 10 minutes a move
    t0 = table.started_at + timedelta(seconds=30)
    table = move(table, alice, t0)
    table = move(table, bob, t0 + timedelta(seconds=20))
    table_id, actions, due = checks[-1]
    assert (table_id, actions) == (table.pk, table.actions) and due == table.deadline + GRACE
    start = t0 + timedelta(minutes=4)
    vacation.vacation_start(player=alice.player, days=1, now=start)
    assert services.clock_timeout_apply(table_id=table.pk, expected_actions=actions, now=due) == "not-due"
    assert services.sweep_overdue(now=due + timedelta(minutes=5)) == 0
    table.refresh_from_db()
    assert table.status == Table.Status.ACTIVE and table.deadline == start + DAY + timedelta(
        minutes=6, seconds=20
    )
    # Ending it brings the deadline within reach of an ETA check again.
    checks.clear()
    end = start + timedelta(minutes=10)
    vacation.vacation_end(player=alice.player, now=end)
    table.refresh_from_db()
    assert table.deadline == end + timedelta(minutes=6, seconds=20)
    assert checks == [(table.pk, table.actions, table.deadline + GRACE)]


def test_the_yearly_allowance(alice: Actor, settings: Any) -> None:
    settings.VACATION_DAYS_PER_YEAR = 12
    march = datetime(2026, 3, 1, 12, tzinfo=UTC)
    vacation.vacation_start(player=alice.player, days=10, now=march)
    assert vacation.days_left(fresh(alice), march) == 2
    may = datetime(2026, 5, 1, tzinfo=UTC)
    with pytest.raises(InvalidInput, match="from 1 to 2"):
        vacation.vacation_start(player=alice.player, days=3, now=may)
    vacation.vacation_start(player=alice.player, days=2, now=may)
    june = datetime(2026, 6, 1, tzinfo=UTC)
    with pytest.raises(InvalidInput, match="used all 12 vacation days"):
        vacation.vacation_start(player=alice.player, days=1, now=june)
    # A new calendar year gives the allowance back.
    january = datetime(2027, 1, 2, tzinfo=UTC)
    assert vacation.days_left(fresh(alice), january) == 12
    vacation.vacation_start(player=alice.player, days=12, now=january)
    player = fresh(alice)
    assert player.vacation_year == 2027 and player.vacation_days_used == 12


@pytest.mark.parametrize("days", [0, -1, 31, 2.5, "3", True, None])
def test_bad_days_are_refused_and_change_nothing(alice: Actor, days: Any) -> None:
    with pytest.raises(InvalidInput, match="days must be a whole number from 1 to 30"):
        vacation.vacation_start(player=alice.player, days=days)
    player = fresh(alice)
    assert player.vacation_until is None and player.vacation_days_used == 0


def test_refusals(alice: Actor) -> None:
    now = datetime.now(UTC)
    vacation.vacation_start(player=alice.player, days=2, now=now)
    with pytest.raises(vacation.OnVacation, match=r"on vacation until .* already: end it first"):
        vacation.vacation_start(player=alice.player, days=1, now=now + timedelta(hours=1))
    vacation.vacation_end(player=alice.player, now=now + timedelta(hours=2))
    with pytest.raises(vacation.NotOnVacation, match="not on vacation"):
        vacation.vacation_end(player=alice.player, now=now + timedelta(hours=3))
    # A vacation that ran out is over: nothing to end, and a new one may start.
    vacation.vacation_start(player=alice.player, days=1, now=now + timedelta(days=3))
    with pytest.raises(vacation.NotOnVacation):
        vacation.vacation_end(player=alice.player, now=now + timedelta(days=5))
    assert fresh(alice).vacation_days_used == 2, "2 - 1 given back (1 day 22 h unused) + 1"
    guest = services.guest_create()
    with pytest.raises(Forbidden, match="guest"):
        vacation.vacation_start(player=guest, days=1)
    bot = housebots.bot_accounts()["random-bot"]
    with pytest.raises(Forbidden, match="bot"):
        vacation.vacation_start(player=bot, days=1)


def test_time_control_option() -> None:
    tc = TimeControl.from_dict({"kind": "correspondence", "days": 3, "vacation": False})
    assert not tc.stops_for_vacation and tc.to_dict()["vacation"] is False
    assert tc.describe() == "3 days/move, no vacation"
    banked = TimeControl.from_dict({"kind": "correspondence", "days": 1, "bank_days": 4, "vacation": False})
    assert banked.describe() == "1 days/move, bank 4 days, no vacation"
    default = TimeControl.from_dict({"kind": "correspondence", "days": 3})
    assert default.stops_for_vacation and "vacation" not in default.to_dict()
    assert default.describe() == "3 days/move"
    assert TimeControl.from_dict(default.to_dict()) == default
    with pytest.raises(ValueError, match="vacation must be true or false"):
        TimeControl.from_dict({"kind": "correspondence", "days": 3, "vacation": "no"})
    with pytest.raises(
        ValueError, match=r"fischer time control takes \['base', 'increment'\], not \['vacation'\]"
    ):
        TimeControl.from_dict({"kind": "fischer", "base": 60, "vacation": True})


def test_the_api(alice: Actor, bob: Actor, anon: Any) -> None:
    assert anon.get(URL).status_code == 401
    body = alice.get(URL).json()
    assert body == {
        "on_vacation": False,
        "started": None,
        "until": None,
        "days_left": 30,
        "days_per_year": 30,
        "may_take": True,
    }
    bad = alice.post(URL, {"days": 40})
    assert bad.status_code == 400 and "from 1 to 30" in bad.json()["detail"]
    assert alice.post(URL, {}).status_code == 400
    started = alice.post(URL, {"days": 3})
    assert started.status_code == 200, started.json()
    body = started.json()
    assert body["on_vacation"] and body["days_left"] == 27 and body["until"]
    again = alice.post(URL, {"days": 1})
    assert again.status_code == 409 and again.json()["code"] == "on_vacation"
    assert alice.get(URL).json()["on_vacation"] is True
    assert alice.client.delete(URL).status_code == 204
    assert alice.get(URL).json()["days_left"] == 29, "the day begun counts; the two whole days left come back"
    gone = alice.client.delete(URL)
    assert gone.status_code == 409 and gone.json()["code"] == "not_on_vacation"


# ------------------------------------------------------------------ pages


def signed_in(actor: Actor) -> Client:
    client = Client()
    client.force_login(actor.player.user)
    return client


def test_the_account_page_starts_and_ends_a_vacation(alice: Actor) -> None:
    client = signed_in(alice)
    page = client.get("/accounts/settings/").content.decode()
    assert 'id="vacation"' in page and 'name="days"' in page and 'max="30"' in page
    answer = client.post("/accounts/settings/", {"action": "vacation-start", "days": "40"}, follow=True)
    assert "from 1 to 30" in answer.content.decode() and fresh(alice).vacation_until is None
    answer = client.post("/accounts/settings/", {"action": "vacation-start", "days": "4"}, follow=True)
    page = answer.content.decode()
    assert "Your vacation has begun" in page and 'id="vacation-until"' in page and 'id="vacation-end"' in page
    assert fresh(alice).vacation_days_used == 4
    answer = client.post("/accounts/settings/", {"action": "vacation-end"}, follow=True)
    page = answer.content.decode()
    assert "Your vacation has ended" in page and "3 unused days were given back" in page
    assert 'id="vacation-start"' in page and fresh(alice).vacation_until is None


def test_the_game_page_says_who_is_on_vacation(alice: Actor, bob: Actor, carol: Actor) -> None:
    table = table_of([alice, bob], CORRESPONDENCE)
    vacation.vacation_start(player=bob.player, days=2)
    page = signed_in(carol).get(f"/tables/{table.pk}/").content.decode()
    assert page.count("on vacation until") == 2, "the seat list (script data) and the plain seat list"
    live = table_of([alice, carol], {"kind": "fischer", "base": 300, "increment": 5})
    vacation.vacation_start(player=carol.player, days=2)
    assert "on vacation until" not in signed_in(alice).get(f"/tables/{live.pk}/").content.decode()


@pytest.mark.parametrize("allowed", [True, False])
def test_event_and_ladder_pages_say_whether_vacation_applies(alice: Actor, allowed: bool) -> None:
    organiser = as_organiser(alice.player)
    league = competitions.league_create(organiser=organiser, name="Post Club")
    tc = {"kind": "correspondence", "days": 3, **({} if allowed else {"vacation": False})}
    event = competitions.tournament_create(
        organiser=organiser, league=league, name="Slow cup", game="shacru", seats=2, time_control=tc
    )
    ladder = ladders.ladder_create(organiser=organiser, league=league, game="shacru", time_control=tc)
    words = "Vacation applies" if allowed else "No vacation"
    for url in (f"/tournaments/{event.pk}/", f"/ladders/{ladder.pk}/"):
        page = Client().get(url).content.decode()
        assert 'id="vacation-rule"' in page and words in page, url
    live = ladders.ladder_create(organiser=organiser, league=league, game="pacru", name="Blitz")
    assert 'id="vacation-rule"' not in Client().get(f"/ladders/{live.pk}/").content.decode()
