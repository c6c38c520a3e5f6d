"""The house bots' accounts: one or more per engine level (``greedy-bot``, ``greedy-bot-2``, …)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _

from engine.bots import LEVELS

from .models import Player, Seat
from .names import candidates, name_key
from .receivers import player_with_free_name

#: The first account of each level and its thinking time per move (seconds).
BOT_ACCOUNTS = {"random-bot": ("random", 0.1), "greedy-bot": ("greedy", 0.1), "search-bot": ("search", 1.0)}


def bots_levels() -> tuple[str, ...]:
    return tuple(LEVELS)


def _bot_player(username: str, display_name: str, level: str, budget: float) -> Player:
    """The bot account ``username`` (made on first use, with its player marked as a bot)."""
    user, created = get_user_model().objects.get_or_create(username=username)
    if created:
        user.set_unusable_password()
        user.save()
    player = Player.objects.filter(user=user).first() or player_with_free_name(user, display_name)
    if created or not player.is_bot:
        player.is_bot, player.bot_level, player.bot_budget = True, level, budget
        player.save(update_fields=["is_bot", "bot_level", "bot_budget"])
        # Bot names are reserved for bots (games.names); one taken before that keeps its owner.
        for name in candidates(display_name):
            if not Player.objects.filter(name_key=name_key(name)).exclude(pk=player.pk).exists():
                player.display_name = name
                player.save(update_fields=["display_name"])
                break
    return player


def bot_accounts() -> dict[str, Player]:
    """The house bots (created on first use): one account per level."""
    return {
        username: _bot_player(username, username.replace("-", " ").title(), level, budget)
        for username, (level, budget) in BOT_ACCOUNTS.items()
    }


def house_bot(level: str, *, not_at_table: int | None = None, exclude: set[int] | None = None) -> Player:
    """A house bot of ``level`` with no seat at ``not_at_table`` (more are made as needed:
    ``greedy-bot``, ``greedy-bot-2``, …, so a table can hold several bots of one level)."""
    if level not in bots_levels():
        raise ValueError(
            _("unknown bot level %(level)s: choose one of %(levels)s")
            % {"level": repr(level), "levels": ", ".join(bots_levels())}
        )
    base = f"{level}-bot"
    budget = BOT_ACCOUNTS[base][1]
    taken = set(
        Seat.objects.filter(table_id=not_at_table).values_list("player_id", flat=True) if not_at_table else ()
    ) | (exclude or set())
    for n in range(1, 6):
        username = base if n == 1 else f"{base}-{n}"
        name = f"{level.title()} Bot" + ("" if n == 1 else f" {n}")
        player = _bot_player(username, name, level, budget)
        if player.pk not in taken:
            return player
    raise ValueError(_("no free %(level)s bot for table %(table)s") % {"level": level, "table": not_at_table})
