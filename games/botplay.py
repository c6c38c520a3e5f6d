"""Bots take their turns through the same move service as people (same ply check, same clocks).

A bot's move is computed outside any transaction (it takes its thinking time),
then submitted with the ply it answers: if the table moved on meanwhile (a
duplicated or late task, a timeout), the submission is refused and nothing
happens, so a bot task is safe to run any number of times.
"""

from __future__ import annotations

import engine

from . import services
from .errors import ServiceError
from .models import Player, Seat, Table


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
    from engine import bots

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


BOT_ACCOUNTS = {"random-bot": ("random", 0.1), "greedy-bot": ("greedy", 0.1), "search-bot": ("search", 1.0)}


def bot_accounts() -> dict[str, Player]:
    """The house bots (created on first use): one account per level."""
    from django.contrib.auth import get_user_model

    User = get_user_model()
    out = {}
    for username, (level, budget) in BOT_ACCOUNTS.items():
        user, created = User.objects.get_or_create(username=username)
        if created:
            user.set_unusable_password()
            user.save()
        player, _ = Player.objects.get_or_create(
            user=user,
            defaults={"display_name": username.replace("-", " ").title(), "is_bot": True, "bot_level": level,
                      "bot_budget": budget},
        )  # fmt: skip
        out[username] = player
    return out


def house_bot(level: str, *, not_at_table: int | None = None, exclude: set[int] | None = None) -> Player:
    """A house bot of ``level`` with no seat at ``not_at_table`` (more are made as needed:
    ``greedy-bot``, ``greedy-bot-2``, …, so a table can hold several bots of one level)."""
    from django.contrib.auth import get_user_model

    if level not in bots_levels():
        raise ValueError(f"unknown bot level {level!r}: choose one of {', '.join(bots_levels())}")
    User = get_user_model()
    base = f"{level}-bot"
    budget = BOT_ACCOUNTS[base][1]
    taken = set(
        Seat.objects.filter(table_id=not_at_table).values_list("player_id", flat=True) if not_at_table else ()
    ) | (exclude or set())
    for n in range(1, 6):
        username = base if n == 1 else f"{base}-{n}"
        user, created = User.objects.get_or_create(username=username)
        if created:
            user.set_unusable_password()
            user.save()
        name = f"{level.title()} Bot" + ("" if n == 1 else f" {n}")
        player, _ = Player.objects.get_or_create(
            user=user,
            defaults={"display_name": name, "is_bot": True, "bot_level": level, "bot_budget": budget},
        )
        if player.pk not in taken:
            return player
    raise ValueError(f"no free {level} bot for table {not_at_table}")


def bots_levels() -> tuple[str, ...]:
    from engine.bots import LEVELS

    return tuple(LEVELS)


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


def bot_match_start(
    *, by: Player, game: str, levels: list[str], games: int, rated: bool = False
) -> list[int]:
    """Start a series of ``games`` tables between bots of ``levels`` (one per seat), seats rotated
    so every bot plays every seat equally; the bot runners play them. Staff and league organisers
    only. Returns the table ids."""
    from django.db import transaction

    from .errors import Forbidden, InvalidInput

    if not (by.user.is_staff or by.organised_leagues.exists()):
        raise Forbidden("only staff and league organisers can start bot matches")
    if not 2 <= len(levels) <= 4:
        raise InvalidInput(f"a bot match needs 2 to 4 seats, not {len(levels)}")
    if not 1 <= games <= 100:
        raise InvalidInput(f"play 1 to 100 games, not {games}")
    with transaction.atomic():
        bots: list[Player] = []
        for level in levels:
            try:
                bots.append(house_bot(level, exclude={b.pk for b in bots}))
            except ValueError as exc:
                raise InvalidInput(str(exc)) from None
        tables = []
        for g in range(games):
            order = bots[g % len(bots) :] + bots[: g % len(bots)]
            table = services.table_create(creator=by, game=game, players=len(order), rated=rated, join=False)
            for seat, bot in enumerate(order, start=1):
                services.seat_join(table_id=table.pk, player=bot, seat=seat)
            tables.append(table.pk)
    return tables
