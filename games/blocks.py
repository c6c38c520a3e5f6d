"""Blocking a player: someone you do not want to be seated with again.

A block is one player's choice about another (``Block(player, blocked)``); it works both ways
at the table: quick pairing (``tournaments.pools``) and the 3–4 seat ladder queues
(``tournaments.ladders.queue``) never seat the two together, neither may join an open table
where the other sits (``games.services.tables.seat_join``), and neither may challenge the other
to a table (``community.challenges``), whoever blocked whom. Events are the exception: a block
never skips a tournament's pairing. Nobody is told they were blocked.

Blocking is idempotent (blocking twice keeps one block; unblocking someone not blocked changes
nothing). Refused: blocking yourself, a player who does not exist, and a house bot (it plays only
when someone invites it, so a block would mean nothing). Deleting an account deletes its blocks
both ways (``accounts.services.delete_account``; ``on_delete=CASCADE`` for a removed row).
"""

from __future__ import annotations

from collections.abc import Collection

from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from common.errors import InvalidInput, NotFound

from .models import Block, Player


def _other(*, player: Player, other_id: int) -> Player:
    """The player ``other_id`` whom ``player`` names in a block, or the refusal saying why not."""
    if other_id == player.pk:
        raise InvalidInput(_("you cannot block yourself"))
    other = Player.objects.filter(pk=other_id).first()
    if other is None:
        raise NotFound(_("there is no player %(player)s") % {"player": other_id})
    return other


def block(*, player: Player, other_id: int) -> tuple[Block, bool]:
    """``player`` blocks ``other_id``; the block, and whether it is new (False: it was there)."""
    other = _other(player=player, other_id=other_id)
    if other.is_house_bot:
        raise InvalidInput(
            _(
                "%(name)s is a house bot: it only plays at tables where someone invites it, "
                "so there is nothing to block"
            )
            % {"name": other.display_name}
        )
    try:
        with transaction.atomic():
            return Block.objects.get_or_create(player=player, blocked=other)
    except IntegrityError:  # blocked at the same moment by another request of theirs
        return Block.objects.get(player=player, blocked=other), False


def unblock(*, player: Player, other_id: int) -> bool:
    """``player`` lifts their block of ``other_id``; True when there was one."""
    other = _other(player=player, other_id=other_id)
    deleted, _rows = Block.objects.filter(player=player, blocked=other).delete()
    return bool(deleted)


# ---------------------------------------------------------------- reads
def blocked_by(player: Player) -> QuerySet[Block]:
    """The blocks ``player`` made, newest first, with the blocked players."""
    return Block.objects.filter(player=player).select_related("blocked", "blocked__user")


def has_blocked(player: Player | None, other_id: int) -> bool:
    """Whether ``player`` (None: an anonymous visitor) blocked ``other_id``."""
    return player is not None and Block.objects.filter(player=player, blocked_id=other_id).exists()


def blocked_pairs(player_ids: Collection[int]) -> set[tuple[int, int]]:
    """Every block between two of ``player_ids``, as (who blocked, whom) pairs: a planner treats
    a pair either way round the same (one query)."""
    ids = list(set(player_ids))
    if len(ids) < 2:
        return set()
    rows = Block.objects.filter(Q(player_id__in=ids) & Q(blocked_id__in=ids))
    return set(rows.values_list("player_id", "blocked_id"))
