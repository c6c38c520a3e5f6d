"""The house bots' accounts.

* One or more per bot level ``1`` … ``8`` (:mod:`engine.bots.levels`): ``level-3-bot`` ("Bot level
  3"), ``level-3-bot-2``, …; they play their level's fixed work per move (the same strength on any
  machine; time is only the level's safety cap).
* The legacy accounts of the kinds ``random``, ``greedy`` and ``search`` (``greedy-bot``,
  ``greedy-bot-2``, …) stay for the tables and events that name them; the legacy search bot
  thinks for its ``bot_budget`` in seconds.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _

from engine.bots import LEVELS as KINDS
from engine.bots import levels

from .models import Player, Seat
from .names import candidates, name_key
from .receivers import player_with_free_name

#: The first account of each legacy kind and its thinking time per move (seconds).
BOT_ACCOUNTS = {"random-bot": ("random", 0.1), "greedy-bot": ("greedy", 0.1), "search-bot": ("search", 1.0)}


def bots_levels() -> tuple[str, ...]:
    """Every name a house bot level may be given by: ``"1"`` … ``"8"``, then the legacy kinds."""
    return (*levels.CODES, *KINDS)


def level_code(level: str) -> str:
    """The level as stored on a bot account: ``"1"`` … ``"8"``, or a legacy kind as given.
    A code name (``"club"``) becomes its number. Raises ``ValueError`` for an unknown level."""
    if level in KINDS:
        return level
    if not isinstance(level, str) or not level.strip():
        raise ValueError(level)
    return levels.level(level).code


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
    """The legacy house bots (created on first use): one account per kind."""
    return {
        username: _bot_player(username, username.replace("-", " ").title(), level, budget)
        for username, (level, budget) in BOT_ACCOUNTS.items()
    }


def _account(code: str, n: int) -> tuple[str, str, float]:
    """Username, display name and budget of the ``n``-th account of level ``code``."""
    if code in KINDS:
        base = f"{code}-bot"
        return (
            base if n == 1 else f"{base}-{n}",
            f"{code.title()} Bot" + ("" if n == 1 else f" {n}"),
            BOT_ACCOUNTS[base][1],
        )
    spec = levels.level(code)
    base = f"level-{spec.number}-bot"
    # The display name stays English like every account name (names are not translated).
    username = base if n == 1 else f"{base}-{n}"
    return username, f"Bot level {spec.number}" + ("" if n == 1 else f" {n}"), spec.cap


def level_accounts() -> dict[str, Player]:
    """The first house bot of each level ``1`` … ``8`` (created on first use), by username."""
    out: dict[str, Player] = {}
    for code in levels.CODES:
        username, display, budget = _account(code, 1)
        out[username] = _bot_player(username, display, code, budget)
    return out


def house_bot(level: str, *, not_at_table: int | None = None, exclude: set[int] | None = None) -> Player:
    """A house bot of ``level`` (``"1"`` … ``"8"``, a level's code name, or a legacy kind) with no
    seat at ``not_at_table`` (more are made as needed: ``level-3-bot``, ``level-3-bot-2``, …, so a
    table can hold several bots of one level)."""
    try:
        code = level_code(level)
    except ValueError:
        raise ValueError(
            _("unknown bot level %(level)s: choose one of %(levels)s")
            % {"level": repr(level), "levels": ", ".join(bots_levels())}
        ) from None
    taken = set(
        Seat.objects.filter(table_id=not_at_table).values_list("player_id", flat=True) if not_at_table else ()
    ) | (exclude or set())
    for n in range(1, 6):
        username, name, budget = _account(code, n)
        player = _bot_player(username, name, code, budget)
        if player.pk not in taken:
            return player
    raise ValueError(_("no free %(level)s bot for table %(table)s") % {"level": level, "table": not_at_table})
