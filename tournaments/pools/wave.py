"""The pools' pairing wave (``tournaments.play_now``): every few seconds each active pool seats
who waits at tables of its size, as :mod:`tournaments.pools.planner` plans them.

Each pool is done in its own transaction under its row lock, and its entries are read locked
too, so two waves at once (a beat restarted, a task redelivered) seat every player once: the
second waits for the first and finds the seated players' entries gone. Before planning, the wave
lets go whoever may no longer wait: everyone in a pool that is no longer active, whoever waited
longer than ``services.ENTRY_LIMIT_SECONDS``, and whoever sat down at another live table
meanwhile. After the commit the seated players' pages go to their table (``pool_table_formed``:
live push and a notification) and the lobbies show the new waiting counts (``pool_changed``).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import OuterRef, Subquery

from common.errors import ServiceError
from games import services as games
from games.events import PlayerRef, send_after_commit
from games.models import Block, Seat, Table
from ratings import display, environment
from ratings.models import Rating

from ..events import PoolTableFormed, pool_changed, pool_table_formed
from ..models import Pool, PoolEntry, PoolTable
from ..pairing import assign_seats
from .planner import Waiting, plan_wave
from .services import ENTRY_LIMIT_SECONDS, in_live_games

log = logging.getLogger(__name__)


def last_tables(player_ids: Iterable[int]) -> tuple[dict[int, frozenset[int]], dict[int, list[int]]]:
    """Each player's last table as the planner and the seat order want it: the other players at
    it, and the seat they had. One query: the players' last tables (the head of
    ``seat_player_table_idx`` for each), and everyone seated at them with their own last table."""
    ids = set(player_ids)
    if not ids:
        return {}, {}
    last = Seat.objects.filter(player=OuterRef("player_id")).order_by("-table_id").values("table_id")[:1]
    theirs = Seat.objects.filter(player__in=ids, table_id=Subquery(last)).values("table_id")
    rows = (
        Seat.objects.filter(table_id__in=theirs)
        .annotate(last=Subquery(last))
        .values_list("table_id", "player_id", "number", "last")
    )
    at: dict[int, list[tuple[int, int, int]]] = {}
    for table_id, player_id, number, their_last in rows:
        at.setdefault(table_id, []).append((player_id, number, their_last))
    others: dict[int, frozenset[int]] = {}
    seats: dict[int, list[int]] = {}
    for table_id, sitting in at.items():
        for player_id, number, their_last in sitting:
            if player_id in ids and their_last == table_id:
                others[player_id] = frozenset(p for p, _n, _l in sitting if p != player_id)
                seats[player_id] = [number]
    return others, seats


def _may_stay(entry: PoolEntry, pool: Pool, now: datetime, playing: set[int]) -> bool:
    """Whether a waiting player still waits (see the module's doc): the rules of joining
    (``services.may_wait``), read off the rows already loaded, and the time limit."""
    p = entry.player
    if p.is_guest or p.is_bot or entry.player_id in playing:
        return False
    if pool.rated and settings.RATED_NEEDS_VERIFIED_EMAIL and not p.email_verified:
        return False
    return now - entry.joined <= timedelta(seconds=ENTRY_LIMIT_SECONDS)


def _ratings(game: str, player_ids: Iterable[int]) -> dict[int, float]:
    """Each player's displayed rating in ``game`` (a newcomer's for who has none)."""
    found = {
        pid: float(display.rating(mu))
        for pid, mu in Rating.objects.filter(game=game, player__in=list(player_ids)).values_list(
            "player_id", "mu"
        )
    }
    return {pid: found.get(pid, float(display.rating(environment.MU))) for pid in player_ids}


def _seat(
    pool: Pool, group: list[int], entries: dict[int, PoolEntry], history: dict[int, list[int]]
) -> Table:
    """Open the pool's table and seat ``group`` at it (it starts once full)."""
    order = assign_seats(group, {p: history[p] for p in group if p in history})
    table = games.table_create(
        creator=entries[order[0]].player,
        game=pool.game,
        players=pool.players,
        join=False,
        rated=pool.rated,
        time_control=pool.time_control,
    )
    for seat, pid in enumerate(order, start=1):
        # event=True: the pool chose this pairing, not the players, so the limit on rated tables
        # of the same players per day (games.rated_pairs) does not apply, as for events' rounds.
        games.seat_join(table_id=table.pk, player=entries[pid].player, seat=seat, event=True)
    return table


def _sweep_pool(pool_id: int, now: datetime) -> dict[str, int]:
    """One pool's wave, in the caller's transaction (see the module's doc)."""
    done = {"tables": 0, "seated": 0, "dropped": 0}
    pool = Pool.objects.select_for_update().filter(pk=pool_id, active=True).first()
    if pool is None:
        return done
    entries = list(
        PoolEntry.objects.select_for_update(of=("self",)).filter(pool=pool).select_related("player")
    )
    playing = in_live_games(player_ids=[e.player_id for e in entries])
    gone = [e for e in entries if not _may_stay(e, pool, now, playing)]
    if gone:
        PoolEntry.objects.filter(pk__in=[e.pk for e in gone]).delete()
        done["dropped"] = len(gone)
    by_id = {e.player_id: e for e in entries if e not in gone}
    seated: list[int] = []
    if len(by_id) >= pool.players:
        ratings = _ratings(pool.game, by_id)
        avoid, history = last_tables(by_id)
        blocks = list(
            Block.objects.filter(player__in=list(by_id), blocked__in=list(by_id)).values_list(
                "player_id", "blocked_id"
            )
        )
        waited = {pid: max(0.0, (now - e.joined).total_seconds()) for pid, e in by_id.items()}
        waiting = [Waiting(pid, ratings[pid], waited[pid], avoid.get(pid, frozenset())) for pid in by_id]
        for group in plan_wave(waiting, seats=pool.players, blocks=blocks):
            try:
                with transaction.atomic():  # a table refused leaves nothing behind, the others go on
                    table = _seat(pool, group, by_id, history)
            except ServiceError as exc:
                log.warning("pool %s: could not seat %s (%s)", pool.pk, group, exc)
                continue
            waits = [waited[p] for p in group]
            PoolTable.objects.create(
                pool=pool,
                table=table,
                created=now,
                wait_seconds=sum(waits) / len(waits),
                max_wait_seconds=max(waits),
            )
            PoolEntry.objects.filter(pk__in=[by_id[p].pk for p in group]).delete()
            in_seats = Seat.objects.filter(table=table).order_by("number").values_list("player_id", flat=True)
            send_after_commit(
                pool_table_formed,
                formed=PoolTableFormed(
                    pool_id=pool.pk,
                    game=pool.game,
                    time_control=dict(table.time_control),
                    rated=pool.rated,
                    table_id=table.pk,
                    players=tuple(PlayerRef.of(by_id[p].player) for p in in_seats),
                ),
            )
            seated.extend(group)
            done["tables"] += 1
    done["seated"] = len(seated)
    if gone or seated:
        send_after_commit(pool_changed, pool_id=pool.pk, players=(*(e.player_id for e in gone), *seated))
    return done


def _let_go_of_inactive() -> int:
    """Pools no longer active let whoever waits in them go."""
    dropped = 0
    for pool_id in sorted(
        set(PoolEntry.objects.filter(pool__active=False).values_list("pool_id", flat=True))
    ):
        with transaction.atomic():
            entries = list(
                PoolEntry.objects.select_for_update(of=("self",)).filter(pool_id=pool_id, pool__active=False)
            )
            if entries:
                PoolEntry.objects.filter(pk__in=[e.pk for e in entries]).delete()
                send_after_commit(pool_changed, pool_id=pool_id, players=tuple(e.player_id for e in entries))
                dropped += len(entries)
    return dropped


def sweep(*, now: datetime) -> dict[str, int]:
    """Seat who waits in every active pool; let go who may wait no longer. Returns the counts:
    tables opened, players seated, players let go."""
    done = {"tables": 0, "seated": 0, "dropped": _let_go_of_inactive()}
    pools = sorted(set(PoolEntry.objects.filter(pool__active=True).values_list("pool_id", flat=True)))
    for pool_id in pools:
        with transaction.atomic():
            for what, n in _sweep_pool(pool_id, now).items():
                done[what] += n
    return done
