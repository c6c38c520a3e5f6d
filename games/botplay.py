"""Bots take their turns through the same move service as people (same ply check, same clocks).

A bot's move is computed outside any transaction (it takes its thinking time),
then submitted with the ply it answers: if the table moved on meanwhile (a
duplicated or late task, a timeout), the submission is refused and nothing
happens, so a bot task is safe to run any number of times.
"""

from __future__ import annotations

import engine
from common.errors import ServiceError
from engine import bots

from . import services
from .housebots import house_bot
from .models import Seat, Table


def bot_turn(*, table_id: int, expected_actions: int | None = None) -> str:
    """Play the bot on turn at this table, if any; say what happened."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None or table.status != Table.Status.ACTIVE or table.position is None:
        return "not-active"
    if expected_actions is not None and table.actions != expected_actions:
        return "moved-on"
    if table.to_move not in (table.bot_seats or []):
        return "not-a-bot"
    seat = Seat.objects.select_related("player").get(table=table, number=table.to_move)
    bot = bots.get(seat.player.bot_level or "random")
    state = engine.load(table.position)
    move = bot.choose(state, budget=seat.player.bot_budget, seed=table.pk * 100_003 + table.ply)
    try:
        services.move_submit(table_id=table.pk, player=seat.player, ply=table.ply, move=move)
    except ServiceError:
        return "moved-on"
    return "moved"


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
