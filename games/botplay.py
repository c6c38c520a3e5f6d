"""Bots take their turns through the same move service as people (same ply check, same clocks).

A bot's move is computed outside any transaction (it takes its thinking time),
then submitted with the ply it answers: if the table moved on meanwhile (a
duplicated or late task, a timeout), the submission is refused and nothing
happens, so a bot task is safe to run any number of times.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.core.cache import cache
from django.db.models import Q
from django.utils import timezone

import engine
from common import metrics
from common.errors import ServiceError
from engine import bots

from . import dispatch, health, services
from .housebots import house_bot
from .models import Seat, Table

log = logging.getLogger(__name__)


def bot_turn(*, table_id: int, expected_actions: int | None = None) -> str:
    """Play the bot on turn at this table, if any; say what happened."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None or table.status != Table.Status.ACTIVE or table.position is None:
        return "not-active"
    if expected_actions is not None and table.actions != expected_actions:
        return "moved-on"
    if table.to_move not in (table.bot_seats or []):
        return "not-a-bot"
    if not claim_turn(table):
        return "leased"
    seat = Seat.objects.select_related("player").get(table=table, number=table.to_move)
    # A level ("1" … "8") plays its fixed work per move whatever the budget (the same moves on any
    # machine); only the legacy "search" kind thinks for the account's bot_budget seconds.
    bot = bots.get(seat.player.bot_level or "random")
    state = engine.load(table.position)
    move = bot.choose(state, budget=seat.player.bot_budget, seed=table.pk * 100_003 + table.ply)
    try:
        services.move_submit(table_id=table.pk, player=seat.player, ply=table.ply, move=move)
    except ServiceError:
        return "moved-on"
    if table.turn_started_at is not None:
        _played(timezone.now() - table.turn_started_at)
    return "moved"


def claim_turn(table: Table, now: datetime | None = None) -> bool:
    """Take the lease on this bot turn (the table at its current ``actions``) for
    ``BOT_LEASE_SECONDS``: false if another worker holds it. A second delivery of the same turn
    (the bot sweep, a redelivered task) then does not start a second search while the first is
    thinking; the ply check of the move service keeps a move from ever being played twice."""
    moment = now or timezone.now()
    held = Q(bot_lease_actions=table.actions, bot_lease_until__gt=moment)
    return bool(
        Table.objects.filter(pk=table.pk, status=Table.Status.ACTIVE, actions=table.actions)
        .exclude(held)
        .update(
            bot_lease_actions=table.actions,
            bot_lease_until=moment + timedelta(seconds=settings.BOT_LEASE_SECONDS),
        )
    )


def sweep_bot_turns(*, now: datetime | None = None, limit: int = 500) -> int:
    """Celery mode's backstop for bot turns: send the turn again where a bot has been on turn
    longer than ``BOT_SWEEP_AFTER_SECONDS`` and no worker holds its lease (the task was lost with
    its worker, or never sent while the broker was down). Returns how many were sent."""
    moment = now or timezone.now()
    cutoff = moment - timedelta(seconds=settings.BOT_SWEEP_AFTER_SECONDS)
    waiting = (
        Table.objects.filter(status=Table.Status.ACTIVE, turn_started_at__lte=cutoff)
        .exclude(bot_seats=[])
        .order_by("turn_started_at")
        .values_list("pk", "to_move", "bot_seats", "actions", "bot_lease_actions", "bot_lease_until")
    )
    sent = 0
    for table_id, to_move, bot_seats, actions, lease_actions, lease_until in waiting.iterator(chunk_size=500):
        if to_move not in (bot_seats or []):
            continue
        if lease_actions == actions and lease_until is not None and lease_until > moment:
            continue
        # Sent again at most once per BOT_LEASE_SECONDS: while the bot workers are down, the
        # queue holds one copy of each waiting turn, not one per sweep.
        if not cache.add(f"bot-resent:{table_id}:{actions}", 1, timeout=settings.BOT_LEASE_SECONDS):
            continue
        log.warning("bot turn at table %s (action %s) has waited: sending it again", table_id, actions)
        if dispatch.in_process():
            bot_turn(table_id=table_id, expected_actions=actions)
        elif not dispatch.bot_turn_now(table_id, actions):
            break  # the broker is down: the next sweep tries again
        sent += 1
        if sent >= limit:
            break
    health.beat(health.BOT_SWEEP, moment)
    return sent


def _played(lag: timedelta) -> None:
    metrics.bot_turn_played(lag.total_seconds())


def run_bot_turns(*, limit: int = 100) -> int:
    """Take every pending bot turn once (the in-process runner for local runs without Redis)."""
    moved = 0
    tables = (
        Table.objects.filter(status=Table.Status.ACTIVE)
        .exclude(bot_seats=[])
        .values_list("pk", "to_move", "bot_seats")[:limit]
    )
    for table_id, to_move, bot_seats in tables:
        if to_move in (bot_seats or []) and bot_turn(table_id=table_id) == "moved":
            moved += 1
    return moved


#: What the exhibition table plays next, in turn (game, seats, bot levels).
EXHIBITIONS = [
    ("pacru", 2, ("greedy", "search")),
    ("azacru", 3, ("random", "greedy", "greedy")),
    ("pacru", 4, ("greedy", "greedy", "random", "greedy")),
    ("shacru", 2, ("random", "greedy")),
]


def keep_exhibition() -> Table | None:
    """Keep one bot-only game running for visitors to watch (the local demo): when none is
    active, open the next one of :data:`EXHIBITIONS`. Returns the table opened, if any."""
    live = Table.objects.filter(status=Table.Status.ACTIVE, rated=False).exclude(seats__player__is_bot=False)
    if live.exists():
        return None
    done = Table.objects.filter(rated=False, created_by__is_bot=True, seats__isnull=False).distinct().count()
    game, seats, levels = EXHIBITIONS[done % len(EXHIBITIONS)]
    first = house_bot(levels[0])
    table = services.table_create(creator=first, game=game, players=seats, rated=False)
    for level in levels[1:]:
        services.seat_join(table_id=table.pk, player=house_bot(level, not_at_table=table.pk))
    table.refresh_from_db()
    return table
