"""Arenas on the database, with an injected clock: joining, pausing, withdrawing, berserk, the
pairing wave and the counting of finished tables, from the start to the end."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone

from common.errors import Conflict, Forbidden, InvalidInput
from engine.playout import random_step
from games import services as games
from games.clocks import SeatClock
from games.housebots import house_bot
from games.models import Player, Seat, Table
from tournaments.arena import finished, pairing, selectors, services, wave
from tournaments.competitions import news
from tournaments.competitions import services as events
from tournaments.competitions.selectors import final_places
from tournaments.competitions.services.rounds import start_locked
from tournaments.models import ArenaPlayer, ArenaTable, AuditEntry, League, Registration, Tournament

from ..games.conftest import Actor, as_organiser

FISCHER = {"kind": "fischer", "base": 300, "increment": 2}


@pytest.fixture
def organiser(make_actor: Callable[..., Actor]) -> Actor:
    actor = make_actor("arenaorg")
    as_organiser(actor.player)
    return actor


def _arena(organiser: Actor, *, seats: int = 2, minutes: int = 30, **kw: Any) -> Tournament:
    league = League.objects.filter(slug="arena-club").first() or events.league_create(
        organiser=organiser.player, name="Arena club"
    )
    kw.setdefault("time_control", FISCHER)
    return events.tournament_create(
        organiser=organiser.player,
        league=league,
        name="Blitz arena",
        game="shacru",
        seats=seats,
        format="arena",
        duration_minutes=minutes,
        **kw,
    )


def _start(t: Tournament, at: datetime) -> Tournament:
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=t.pk)
        start_locked(t=locked, by=None, now=at)
    t.refresh_from_db()
    return t


def _players(make_actor: Callable[..., Actor], n: int, prefix: str = "ap") -> list[Player]:
    return [make_actor(f"{prefix}{i}").player for i in range(n)]


def _row(t: Tournament, player: Player) -> ArenaPlayer:
    return ArenaPlayer.objects.get(tournament=t, player=player)


def _resign_all_but(table_id: int, winner: Player) -> None:
    """End the table: everyone but ``winner`` resigns, in seat order."""
    for seat in Seat.objects.filter(table_id=table_id).exclude(player=winner).order_by("number"):
        games.game_resign(table_id=table_id, player=seat.player)


@pytest.fixture
def t0() -> datetime:
    return timezone.now().replace(microsecond=0)


# ------------------------------------------------------------------ settings


def test_an_arena_needs_a_duration_and_berserk_needs_a_running_clock(organiser: Actor) -> None:
    with pytest.raises(InvalidInput, match="duration_minutes"):
        _arena(organiser, minutes=None)  # type: ignore[arg-type]
    league = events.league_create(organiser=organiser.player, name="Other club")
    with pytest.raises(InvalidInput, match="5 to 1440"):
        events.tournament_create(
            organiser=organiser.player,
            league=league,
            name="x",
            game="shacru",
            seats=2,
            format="arena",
            duration_minutes=2,
        )
    with pytest.raises(InvalidInput, match="only an arena"):
        events.tournament_create(
            organiser=organiser.player, league=league, name="x", game="shacru", seats=2, duration_minutes=30
        )
    untimed = events.tournament_create(
        organiser=organiser.player,
        league=league,
        name="u",
        game="shacru",
        seats=2,
        format="arena",
        duration_minutes=30,
        berserk=True,
    )
    assert untimed.berserk is False and untimed.rounds == 0 and untimed.duration_minutes == 30
    assert _arena(organiser, seats=3).berserk is True


# ------------------------------------------------------------------ services


def test_joining_before_and_during_the_arena_and_twice(
    organiser: Actor, make_actor: Callable[..., Actor], t0: datetime
) -> None:
    t = _arena(organiser)
    a, b, c = _players(make_actor, 3)
    services.arena_join(tournament_id=t.pk, player=a)
    services.arena_join(tournament_id=t.pk, player=b)
    with pytest.raises(Conflict, match="already"):
        services.arena_join(tournament_id=t.pk, player=a)
    assert not ArenaPlayer.objects.filter(tournament=t).exists()  # rows come with the start
    t = _start(t, t0)
    assert t.ends_at == t0 + timedelta(minutes=30)
    assert {r.player_id: r.free_since for r in ArenaPlayer.objects.filter(tournament=t)} == {
        a.pk: t0,
        b.pk: t0,
    }
    services.arena_join(tournament_id=t.pk, player=c, now=t0 + timedelta(minutes=5))
    assert _row(t, c).free_since == t0 + timedelta(minutes=5)
    assert Registration.objects.get(tournament=t, player=c).status == Registration.Status.REGISTERED
    with pytest.raises(Conflict, match="over"):
        services.arena_join(
            tournament_id=t.pk, player=make_actor("late").player, now=t0 + timedelta(minutes=30)
        )


def test_entry_rules_apply_and_house_bots_join_unrated_arenas_only(
    organiser: Actor, make_actor: Callable[..., Actor], t0: datetime
) -> None:
    full = _arena(organiser, max_players=2)
    a, b, c = _players(make_actor, 3)
    services.arena_join(tournament_id=full.pk, player=a)
    services.arena_join(tournament_id=full.pk, player=b)
    with pytest.raises(Conflict, match="full"):
        services.arena_join(tournament_id=full.pk, player=c)
    strong = _arena(organiser, rating_max=1400)
    with pytest.raises(Forbidden, match="above"):
        services.arena_join(tournament_id=strong.pk, player=c)
    bot = house_bot("random")
    with pytest.raises(Forbidden, match="unrated"):
        services.arena_join(tournament_id=strong.pk, player=bot)
    casual = _arena(organiser, rated=False)
    services.arena_join(tournament_id=casual.pk, player=bot)
    assert Registration.objects.get(tournament=casual, player=bot).status == Registration.Status.CHECKED_IN
    guest = games.guest_create()
    with pytest.raises(Forbidden):
        services.arena_join(tournament_id=casual.pk, player=guest)
    assert not Registration.objects.filter(player=guest).exists()


def test_pause_resume_and_withdraw(organiser: Actor, make_actor: Callable[..., Actor], t0: datetime) -> None:
    t = _arena(organiser)
    a, b, c = _players(make_actor, 3)
    for p in (a, b, c):
        services.arena_join(tournament_id=t.pk, player=p)
    t = _start(t, t0)
    services.arena_pause(tournament_id=t.pk, player=a)
    with pytest.raises(Conflict, match="paused already"):
        services.arena_pause(tournament_id=t.pk, player=a)
    assert wave.pair_arena(tournament_id=t.pk, now=t0 + timedelta(seconds=3)) == {"tables": 1, "seated": 2}
    assert _row(t, a).table_id is None, "a paused player is not paired"
    services.arena_resume(tournament_id=t.pk, player=a, now=t0 + timedelta(seconds=10))
    assert _row(t, a).free_since == t0 + timedelta(seconds=10)
    with pytest.raises(Conflict, match="not paused"):
        services.arena_resume(tournament_id=t.pk, player=a)
    services.arena_withdraw(tournament_id=t.pk, player=a)
    row = _row(t, a)
    assert row.withdrawn and row.free_since is None
    assert Registration.objects.get(tournament=t, player=a).status == Registration.Status.WITHDRAWN
    assert wave.pair_arena(tournament_id=t.pk, now=t0 + timedelta(seconds=20)) == {}
    with pytest.raises(Conflict, match="not in this arena"):
        services.arena_withdraw(tournament_id=t.pk, player=a)
    # back again, with what they had
    services.arena_join(tournament_id=t.pk, player=a, now=t0 + timedelta(seconds=30))
    assert not _row(t, a).withdrawn and _row(t, a).free_since == t0 + timedelta(seconds=30)


def _paired_table(organiser: Actor, make_actor: Callable[..., Actor], t0: datetime, **kw: Any) -> Any:
    t = _arena(organiser, **kw)
    a, b = _players(make_actor, 2, prefix="bz")
    for p in (a, b):
        services.arena_join(tournament_id=t.pk, player=p)
    t = _start(t, t0)
    wave.pair_arena(tournament_id=t.pk, now=t0 + timedelta(seconds=3))
    table = Table.objects.get(arena_table__tournament=t)
    first = Seat.objects.get(table=table, number=1).player
    second = Seat.objects.get(table=table, number=2).player
    return t, table, first, second


def test_berserk_halves_the_clock_once_and_only_before_ones_first_move(
    organiser: Actor, make_actor: Callable[..., Actor], t0: datetime
) -> None:
    _, table, first, second = _paired_table(organiser, make_actor, t0)
    at = services.berserk(table_id=table.pk, player=second)
    table.refresh_from_db()
    assert at.berserk == [second.pk]
    assert SeatClock.from_dict(table.clocks["2"]).remaining == 150.0
    assert SeatClock.from_dict(table.clocks["1"]).remaining == 300.0
    with pytest.raises(Conflict, match="already"):
        services.berserk(table_id=table.pk, player=second)
    _, move = random_step(games.current_state(table), random.Random(1))
    games.move_submit(table_id=table.pk, player=first, ply=0, move=move)
    with pytest.raises(Conflict, match="moved here already"):
        services.berserk(table_id=table.pk, player=first)
    table.refresh_from_db()
    assert SeatClock.from_dict(table.clocks["1"]).remaining > 290  # untouched by the refusal
    with pytest.raises(Forbidden):
        services.berserk(table_id=table.pk, player=make_actor("nosy").player)


def test_berserk_on_turn_brings_the_deadline_nearer(
    organiser: Actor, make_actor: Callable[..., Actor], t0: datetime
) -> None:
    _, table, first, second = _paired_table(organiser, make_actor, t0)
    _, move = random_step(games.current_state(table), random.Random(1))
    games.move_submit(table_id=table.pk, player=first, ply=0, move=move)
    table.refresh_from_db()
    assert table.to_move == 2
    before = table.deadline
    services.berserk(table_id=table.pk, player=second)
    table.refresh_from_db()
    assert table.deadline == table.turn_started_at + timedelta(seconds=150)
    assert before - table.deadline == timedelta(seconds=150)


def test_berserk_is_refused_when_the_arena_has_it_off(
    organiser: Actor, make_actor: Callable[..., Actor], t0: datetime
) -> None:
    _, table, first, _second = _paired_table(organiser, make_actor, t0, berserk=False)
    with pytest.raises(Conflict, match="off"):
        services.berserk(table_id=table.pk, player=first)
    assert ArenaTable.objects.get(table=table).berserk == []
    table.refresh_from_db()
    assert SeatClock.from_dict(table.clocks["1"]).remaining == 300.0


# ------------------------------------------------------------- wave + finished


def _seated(t: Tournament) -> dict[int, int]:
    return {r.player_id: r.table_id for r in ArenaPlayer.objects.filter(tournament=t) if r.table_id}


def test_an_arena_from_start_to_end(
    organiser: Actor, make_actor: Callable[..., Actor], t0: datetime, django_capture_on_commit_callbacks: Any
) -> None:
    t = _arena(organiser, minutes=10)
    players = _players(make_actor, 5)
    for p in players:
        services.arena_join(tournament_id=t.pk, player=p)
    t = _start(t, t0)
    now = t0 + timedelta(seconds=3)
    # five free players, two seats: two tables, one waits
    assert wave.pair_arena(tournament_id=t.pk, now=now) == {"tables": 2, "seated": 4}
    seated = _seated(t)
    assert len(seated) == 4 and len(set(seated.values())) == 2
    waiting = next(p for p in players if p.pk not in seated)
    assert wave.pair_arena(tournament_id=t.pk, now=now) == {}, "a second wave seats nobody twice"
    # the first table ends: its players are free at once and paired with the one who waited
    first_table = min(set(seated.values()))
    winner = Seat.objects.get(table_id=first_table, number=1).player
    with django_capture_on_commit_callbacks(execute=True):
        _resign_all_but(first_table, winner)
    at = ArenaTable.objects.get(table_id=first_table)
    loser = next(p for p, tid in seated.items() if tid == first_table and p != winner.pk)
    assert at.counted and at.points == {str(winner.pk): 2, str(loser): 0}
    assert _row(t, winner).points == 2 and _row(t, winner).sheet == ["2"]
    assert _row(t, winner).table_id is None and _row(t, winner).free_since is not None
    later = now + timedelta(seconds=60)
    assert wave.pair_arena(tournament_id=t.pk, now=later)["tables"] == 1
    again = _seated(t)
    assert waiting.pk in again and len(again) == 4
    # counting twice counts once
    assert finished.table_finished(table_id=first_table, result=None, now=later) is False
    assert _row(t, winner).points == 2
    # the time is up: no new tables; tables in play finish and count, then the arena finishes
    end = t.ends_at
    assert end is not None
    in_play = sorted(set(again.values()))
    first_of = {tid: Seat.objects.get(table_id=tid, number=1).player for tid in in_play}
    with django_capture_on_commit_callbacks(execute=True):
        _resign_all_but(in_play[0], first_of[in_play[0]])
    assert wave.pair_arena(tournament_id=t.pk, now=end) == {}
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING, "a table still plays"
    assert not ArenaPlayer.objects.filter(tournament=t, free_since__isnull=False).exists()
    # the last table's task is lost (its commit's callbacks never run): the wave counts it, then
    # finishes the arena
    with django_capture_on_commit_callbacks(execute=False):
        _resign_all_but(in_play[1], first_of[in_play[1]])
    assert not ArenaTable.objects.get(table_id=in_play[1]).counted
    with django_capture_on_commit_callbacks(execute=True):
        done = wave.sweep(now=end + timedelta(seconds=3))
    assert done == {"counted": 1, "finished": 1}
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED and t.finished_at == end + timedelta(seconds=3)
    assert ArenaTable.objects.filter(tournament=t).count() == 3
    assert not ArenaTable.objects.filter(tournament=t, counted=False).exists()
    assert AuditEntry.objects.filter(tournament=t, action="arena_end").count() == 1
    # standings add up: every player's points are the sum of their tables' points
    rows = selectors.leaderboard(t)
    total = sum(sum(at.points.values()) for at in ArenaTable.objects.filter(tournament=t))
    assert sum(r.points for r in rows) == total == 2 * 3
    assert [r.rank for r in rows] == list(range(1, 6))
    assert [r.points for r in rows] == sorted((r.points for r in rows), reverse=True)
    assert len(selectors.podium(t)) == 3
    # the event's final places (players' pages, the end's news) are the leaderboard's ranks
    assert final_places([t])[t.pk] == {r.player.pk: r.rank for r in rows}
    assert news.event_news(t.pk, state="finished").places == {r.player.pk: r.rank for r in rows}
    assert all(r.table_id is None for r in rows)
    assert wave.sweep(now=end + timedelta(seconds=6)) == {}


def test_three_seat_tables_a_streak_and_no_show(
    organiser: Actor, make_actor: Callable[..., Actor], t0: datetime, django_capture_on_commit_callbacks: Any
) -> None:
    t = _arena(organiser, seats=3)
    a, b, c = _players(make_actor, 3, prefix="tri")
    for p in (a, b, c):
        services.arena_join(tournament_id=t.pk, player=p)
    t = _start(t, t0)
    for n in range(3):
        now = t0 + timedelta(minutes=n + 1)
        assert wave.pair_arena(tournament_id=t.pk, now=now) == {"tables": 1, "seated": 3}
        table_id = _row(t, a).table_id
        assert table_id is not None
        with django_capture_on_commit_callbacks(execute=True):
            _resign_all_but(table_id, a)
    row = _row(t, a)
    assert row.sheet == ["3", "3", "6s"] and row.points == 12 and row.streak == 3 and row.wins == 3
    # the two who resigned: second (1 point) and last (0), first resigner last
    assert _row(t, b).points + _row(t, c).points == 3
    assert selectors.leaderboard(t)[0].on_fire


def test_a_player_sits_at_one_table_only(
    organiser: Actor, make_actor: Callable[..., Actor], t0: datetime
) -> None:
    t = _arena(organiser)
    players = _players(make_actor, 6, prefix="one")
    for p in players:
        services.arena_join(tournament_id=t.pk, player=p)
    t = _start(t, t0)
    for k in range(3):
        wave.pair_arena(tournament_id=t.pk, now=t0 + timedelta(seconds=3 * (k + 1)))
    active = Seat.objects.filter(table__arena_table__tournament=t, table__status=Table.Status.ACTIVE)
    per_player = list(active.values_list("player_id", flat=True))
    assert sorted(per_player) == sorted(p.pk for p in players)


def test_no_same_opponents_back_to_back_while_others_still_play(
    organiser: Actor, make_actor: Callable[..., Actor], t0: datetime, django_capture_on_commit_callbacks: Any
) -> None:
    t = _arena(organiser)
    players = _players(make_actor, 4, prefix="rm")
    for p in players:
        services.arena_join(tournament_id=t.pk, player=p)
    t = _start(t, t0)
    assert wave.pair_arena(tournament_id=t.pk, now=t0 + timedelta(seconds=3))["tables"] == 2
    first, second = sorted(set(_seated(t).values()))
    pair_one = set(Seat.objects.filter(table_id=first).values_list("player_id", flat=True))
    with django_capture_on_commit_callbacks(execute=True):
        _resign_all_but(first, Seat.objects.get(table_id=first, number=1).player)
    freed = ArenaPlayer.objects.filter(tournament=t, player_id__in=pair_one)
    since = max(r.free_since for r in freed)
    # the other table still plays: the two just freed wait instead of meeting again at once
    assert wave.pair_arena(tournament_id=t.pk, now=since + timedelta(seconds=3)) == {}
    with django_capture_on_commit_callbacks(execute=True):
        _resign_all_but(second, Seat.objects.get(table_id=second, number=1).player)
    assert wave.pair_arena(tournament_id=t.pk, now=since + timedelta(seconds=6))["tables"] == 2
    for table_id in set(_seated(t).values()):
        at_table = set(Seat.objects.filter(table_id=table_id).values_list("player_id", flat=True))
        assert len(at_table & pair_one) == 1, "everyone meets someone new"


def test_a_rematch_after_waiting_long_enough(
    organiser: Actor, make_actor: Callable[..., Actor], t0: datetime, django_capture_on_commit_callbacks: Any
) -> None:
    t = _arena(organiser)
    players = _players(make_actor, 4, prefix="rw")
    for p in players:
        services.arena_join(tournament_id=t.pk, player=p)
    t = _start(t, t0)
    wave.pair_arena(tournament_id=t.pk, now=t0 + timedelta(seconds=3))
    first = min(set(_seated(t).values()))
    with django_capture_on_commit_callbacks(execute=True):
        _resign_all_but(first, Seat.objects.get(table_id=first, number=1).player)
    since = max(r.free_since for r in ArenaPlayer.objects.filter(tournament=t, table__isnull=True))
    later = since + timedelta(seconds=pairing.REMATCH_PATIENCE[t.seats] + 1)
    assert wave.pair_arena(tournament_id=t.pk, now=later) == {"tables": 1, "seated": 2}


def test_a_no_show_is_paused_and_its_opponent_wins(
    organiser: Actor, make_actor: Callable[..., Actor], t0: datetime, django_capture_on_commit_callbacks: Any
) -> None:
    t, table, first, second = _paired_table(organiser, make_actor, t0)
    assert table.deadline is not None
    with django_capture_on_commit_callbacks(execute=True):
        done = games.clock_timeout_apply(table_id=table.pk, now=table.deadline + timedelta(minutes=1))
    assert done == "timeout"
    absent, present = _row(t, first), _row(t, second)
    assert absent.paused and absent.free_since is None and absent.points == 0 and absent.games == 1
    assert not present.paused and present.free_since is not None and present.points == 2
    assert ArenaTable.objects.get(table=table).points == {str(first.pk): 0, str(second.pk): 2}
