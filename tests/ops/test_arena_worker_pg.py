"""An arena runs from its start to its end by itself on a real Celery worker and beat (on a Redis of
the test's own), with the worker killed (SIGKILL) in the middle and another started: house bots
play its tables through the bot tasks, the pairing wave (``tournaments.tasks.play_now_wave``, every
second here) seats them again as their tables end and ends the arena at its time, and each finished
table is counted by ``tournaments.tasks.table_finished`` or, for a task lost with the worker, by the
next wave. Afterwards: the arena is finished, its tables are its own, no player sat at two of its
tables at once, none started after its end, every table was counted once and the standings add up."""

from __future__ import annotations

import itertools
import signal
import time
import uuid
from collections import defaultdict
from typing import Any

import pytest
from django.utils import timezone

from games.housebots import house_bot
from games.models import Seat, Table
from games.services import player_register
from tests.celery_worker import running_celery
from tournaments.arena import services as arena
from tournaments.competitions import services
from tournaments.models import ArenaPlayer, ArenaTable, OrganiserRole, Tournament

from ..games.test_clock_worker_pg import wait_for
from .redis_server import RedisServer
from .test_scheduled_start_worker_pg import start_worker

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

#: The arena's length (whole minutes, as the event has it; set on the row: organisers make 5 or more).
MINUTES = 2
#: Its bots: two of each level but the slow ``search`` (greedy and random think in 0.1 s).
LEVELS = ["random", "random", "greedy", "greedy"]
#: The clock of its tables: short, so a table stuck without its bot turn still ends in time.
CLOCK = {"kind": "fischer", "base": 40, "increment": 1}
#: Quick sweeps: a bot turn lost with the killed worker is sent again within seconds.
ENV = {
    "PLAY_NOW_WAVE_SECONDS": "1",
    "BOT_LEASE_SECONDS": "3",
    "BOT_SWEEP_AFTER_SECONDS": "1",
    "BOT_SWEEP_SECONDS": "0.5",
}


def unrated_arena() -> Tournament:
    tag = uuid.uuid4().hex[:6]
    org = player_register(username=f"aorg{tag}", password="correct-horse-9")
    OrganiserRole.objects.create(player=org)
    league = services.league_create(organiser=org, name=f"Arena Worker Club {tag}")
    t = services.tournament_create(
        organiser=org,
        league=league,
        name="Worker Arena",
        game="azacru",
        seats=2,
        format=Tournament.Format.ARENA,
        duration_minutes=5,
        rated=False,
        time_control=CLOCK,
    )
    # Shorter than an organiser may make one (5 minutes at least): the test's own.
    Tournament.objects.filter(pk=t.pk).update(duration_minutes=MINUTES)
    entered: set[int] = set()
    for level in LEVELS:
        bot = house_bot(level, exclude=entered)
        arena.arena_join(tournament_id=t.pk, player=bot)
        entered.add(bot.pk)
    services.start(tournament_id=t.pk, by=org)
    t.refresh_from_db()
    return t


def test_an_arena_runs_to_its_end_by_itself_across_a_worker_killed_in_the_middle(
    settings: Any, own_redis: RedisServer
) -> None:
    with running_celery(settings, own_redis.url, **ENV) as celery:
        start_worker(celery)
        celery.wait_ready()
        celery.start("beat")
        t = unrated_arena()
        assert t.status == Tournament.Status.RUNNING and t.ends_at is not None
        ends = t.ends_at
        wait_for(lambda: ArenaTable.objects.filter(tournament=t, counted=True).count() >= 2, timeout=60)
        middle = t.started_at + (ends - t.started_at) / 2
        wait_for(lambda: timezone.now() >= middle, timeout=MINUTES * 60)
        killed_at = timezone.now()
        celery.kill("worker", signal.SIGKILL)  # mid-turn, mid-wave or mid-count: whatever it was doing
        time.sleep(4)  # beat sends waves, bot sweeps and clock checks to nobody
        restarted_at = timezone.now()
        start_worker(celery)
        celery.wait_ready()
        wait_for(
            lambda: Tournament.objects.get(pk=t.pk).status == Tournament.Status.FINISHED,
            timeout=(ends - timezone.now()).total_seconds() + 120,
        )
        time.sleep(3)  # more waves after the end: nothing more happens
    t.refresh_from_db()
    assert t.finished_at is not None and t.finished_at >= ends, "finished at its time, not before"

    rows = {r.player_id: r for r in ArenaPlayer.objects.filter(tournament=t)}
    boards = list(ArenaTable.objects.filter(tournament=t).select_related("table"))
    seats: dict[int, list[int]] = defaultdict(list)
    for s in Seat.objects.filter(table__arena_table__tournament=t):
        seats[s.table_id].append(s.player_id)
    assert len(boards) >= 6, "the bots played on by themselves"

    # Every table the arena's players sat at since its start is one of its own, full, ended.
    played = set(
        Table.objects.filter(seats__player_id__in=list(rows), created_at__gte=t.started_at).values_list(
            "pk", flat=True
        )
    )
    assert played == {b.table_id for b in boards}
    for b in boards:
        assert sorted(seats[b.table_id]) == sorted(set(seats[b.table_id])) and len(seats[b.table_id]) == 2
        assert set(seats[b.table_id]) <= set(rows)
        assert b.table.status in (Table.Status.FINISHED, Table.Status.ABORTED), b.table_id
        assert b.table.created_at < ends, "no table after the end"

    # Tables were made before the kill and after the restart (the new worker carried on).
    assert any(b.table.created_at < killed_at for b in boards)
    assert any(b.table.created_at > restarted_at for b in boards)

    # Nobody sat at two of its tables at once: each player's tables, by when they were seated,
    # each ended before the next one was made.
    tables_of: dict[int, list[Table]] = defaultdict(list)
    for b in boards:
        for player_id in seats[b.table_id]:
            tables_of[player_id].append(b.table)
    for player_id, tables in tables_of.items():
        tables.sort(key=lambda table: table.created_at)
        for before, after in itertools.pairwise(tables):
            assert before.finished_at is not None and before.finished_at <= after.created_at, (
                f"player {player_id} was seated at table {after.pk} while table {before.pk} was in play"
            )

    # Every table counted once (an aborted one scores nobody), and the standings add up.
    assert all(b.counted for b in boards)
    scored = [b for b in boards if b.table.status == Table.Status.FINISHED]
    assert all(sorted(b.points) == sorted(str(p) for p in seats[b.table_id]) for b in scored)
    assert all(b.points == {} for b in boards if b.table.status == Table.Status.ABORTED)
    for player_id, row in rows.items():
        mine = [b for b in scored if player_id in seats[b.table_id]]
        assert row.games == len(mine) == len(row.sheet), player_id
        assert row.points == sum(b.points[str(player_id)] for b in mine), player_id
        assert row.table_id is None and row.free_since is None
    assert sum(r.games for r in rows.values()) == 2 * len(scored)
