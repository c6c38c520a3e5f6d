"""The arenas' pairing wave (``tournaments.play_now``, every few seconds): for each running arena,
count any finished table whose own task has not come, then

* while its time runs: seat its free players (not at a table, not paused, not withdrawn) at new
  tables, planned by :func:`tournaments.arena.pairing.plan_arena_tables` (which also holds back,
  for a while, a table that would seat the players of one last table together again while other
  players are still at their tables: they may bring other opponents);
* once its time is up: seat nobody; when no table of it is left to count, the arena is finished
  (announced as every event's end, ``event_changed``, with the leaderboard's places).

Each arena is paired under its row lock, which every write to its players takes first
(``services``, ``finished``): two waves at once (a beat restarted, a task redelivered) seat every
player once, and a player is never at two of its tables, nor at two arenas' tables at once.
"""

from __future__ import annotations

import logging
from collections import Counter
from datetime import datetime

from django.db import transaction

from common.errors import ServiceError
from games import services as games
from games.events import announce_after_commit, send_after_commit

from ..competitions import news
from ..competitions.services.setup import audit
from ..events import ArenaChanged, arena_changed, event_changed
from ..models import ArenaPlayer, ArenaTable, Tournament
from . import finished
from .pairing import Free, plan_arena_tables
from .selectors import displayed_ratings

log = logging.getLogger(__name__)


def sweep(*, now: datetime) -> dict[str, int]:
    """One wave over every running arena; counts of what it did (tables, players seated, tables
    counted, arenas finished). An arena that fails is logged and the others still run."""
    done: Counter[str] = Counter()
    running = Tournament.objects.filter(format=Tournament.Format.ARENA, status=Tournament.Status.RUNNING)
    for tournament_id in running.order_by("pk").values_list("pk", flat=True):
        try:
            done["counted"] += count_lost(tournament_id=tournament_id, now=now)
            done.update(pair_arena(tournament_id=tournament_id, now=now))
        except Exception:
            log.exception("arena %s: the pairing wave failed", tournament_id)
    return dict(done)


def count_lost(*, tournament_id: int, now: datetime) -> int:
    """Count the arena's tables that ended and are not counted yet (their task was lost, or is on
    its way: whichever comes first counts, once)."""
    ended = ArenaTable.objects.filter(
        tournament_id=tournament_id, counted=False, table__status__in=finished.ENDED
    ).values_list("table_id", flat=True)
    return sum(finished.table_finished(table_id=tid, result=None, now=now) for tid in sorted(ended))


def pair_arena(*, tournament_id: int, now: datetime) -> dict[str, int]:
    """Seat the arena's free players now, or end it when its time is up and every table counted."""
    with transaction.atomic():
        t = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if t is None or t.format != Tournament.Format.ARENA or t.status != Tournament.Status.RUNNING:
            return {}
        ends = t.ends_at
        if ends is not None and now >= ends:
            return _end(t, now)
        if t.paused:  # the organiser paused the event: tables play on, none is added
            return {}
        return _pair(t, now)


def _pair(t: Tournament, now: datetime) -> dict[str, int]:
    rows = {
        r.player_id: r
        for r in ArenaPlayer.objects.select_for_update(of=("self",))
        .filter(tournament=t, table__isnull=True, free_since__isnull=False, paused=False, withdrawn=False)
        .select_related("player")
    }
    elsewhere = set(  # at another arena's table now
        ArenaPlayer.objects.filter(player_id__in=list(rows), table__isnull=False)
        .exclude(tournament=t)
        .values_list("player_id", flat=True)
    )
    ratings = displayed_ratings(t.game, rows)
    free = [
        Free(
            player=p,
            points=r.points,
            rating=ratings[p],
            waited=max(0.0, (now - r.free_since).total_seconds()) if r.free_since else 0.0,
            last_opponents=frozenset(r.last_opponents),
        )
        for p, r in rows.items()
        if p not in elsewhere
    ]
    playing = ArenaPlayer.objects.filter(tournament=t, table__isnull=False, withdrawn=False).exists()
    seated: list[int] = []
    tables = 0
    for group in plan_arena_tables(free, seats=t.seats, others_playing=playing):
        turn = sum(rows[p].games for p in group) % len(group)  # who sits first changes from table to table
        order = group[turn:] + group[:turn]
        table_id = _seat(t, [rows[p] for p in order], now)
        if table_id is None:
            continue
        tables += 1
        seated += order
    if seated:
        send_after_commit(arena_changed, arena=ArenaChanged(tournament_id=t.pk, players=tuple(seated)))
    return {"tables": tables, "seated": len(seated)} if tables else {}


def _seat(t: Tournament, players: list[ArenaPlayer], now: datetime) -> int | None:
    """Open a table for ``players`` (in seat order) and seat them; None when one cannot be seated
    (they are paused: their account no longer may play here; the others wait for the next wave)."""
    current: ArenaPlayer | None = None
    try:
        with transaction.atomic():
            table = games.table_create(
                creator=t.created_by,
                game=t.game,
                players=len(players),
                edition=t.edition,
                rated=t.rated,
                join=False,
                time_control=t.time_control,
                no_show="timeout",
            )
            ArenaTable.objects.create(tournament=t, table=table, created=now)
            for seat, row in enumerate(players, start=1):
                current = row
                games.seat_join(table_id=table.pk, player=row.player, seat=seat, event=True)
    except ServiceError as exc:
        if current is None:  # the table itself: the event's settings no longer make one
            log.error("arena %s: could not open a table: %s", t.pk, exc.detail)
            return None
        log.warning("arena %s: could not seat player %s: %s", t.pk, current.player_id, exc.detail)
        ArenaPlayer.objects.filter(pk=current.pk).update(paused=True, free_since=None)
        return None
    for row in players:
        row.table_id = table.pk
        row.free_since = None
    ArenaPlayer.objects.bulk_update(players, ["table", "free_since"])
    return table.pk


def _end(t: Tournament, now: datetime) -> dict[str, int]:
    """The arena's time is up: nobody waits any more; once every table is counted, it is finished."""
    ArenaPlayer.objects.filter(tournament=t, free_since__isnull=False).update(free_since=None)
    if ArenaTable.objects.filter(tournament=t, counted=False).exists():
        return {}
    t.status = Tournament.Status.FINISHED
    t.finished_at = now
    t.save(update_fields=["status", "finished_at"])
    tables = ArenaTable.objects.filter(tournament=t).count()
    players = ArenaPlayer.objects.filter(tournament=t).count()
    audit(t=t, by=None, action="arena_end", detail={"players": players, "tables": tables})
    tournament_id = t.pk
    # As every event's end: its players are told their place (the leaderboard's, ``final_places``).
    announce_after_commit(event_changed, lambda: {"event": news.event_news(tournament_id, state="finished")})
    return {"finished": 1}
