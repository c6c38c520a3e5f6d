"""Following players (friends): see when they are online or playing, challenge them in one click.

A follow is one player's choice about another (``Follow(player, followed)``), like a bookmark:
the player followed is not asked and not told. Following is idempotent (following twice keeps
one row; unfollowing someone not followed changes nothing). Refused: following yourself, a
player who does not exist (or whose account was deleted), and guest accounts either way round
(a guest plays bots only and leaves no lasting account). Deleting an account deletes its follows
both ways (:func:`forget`).

Reads: :func:`friends` lists whom a player follows with whether each is online
(``community.presence``) and the table of a game they are playing now, in a fixed number of
queries however many friends there are.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from common.errors import Forbidden, InvalidInput, NotFound
from games.models import Player, Seat, Table

from . import presence
from .models import Follow

#: The most friends a list shows (and the most follows one player may have).
FRIENDS_MAX = 500


def _other(*, player: Player, other_id: int, doing: str) -> Player:
    """The player ``other_id`` whom ``player`` names, or the refusal saying why not."""
    if player.is_guest:
        raise Forbidden(_("guest accounts cannot follow players: create an account to make friends"))
    if other_id == player.pk:
        raise InvalidInput(_("you cannot follow yourself"))
    other = Player.objects.filter(pk=other_id, user__is_active=True).first()
    if other is None:
        raise NotFound(_("there is no player %(player)s") % {"player": other_id})
    if other.is_guest and doing == "follow":
        raise InvalidInput(
            _("%(name)s plays as a guest: a guest account cannot be followed") % {"name": other.display_name}
        )
    return other


def follow(*, player: Player, other_id: int) -> tuple[Follow, bool]:
    """``player`` follows ``other_id``; the follow, and whether it is new (False: it was there)."""
    other = _other(player=player, other_id=other_id, doing="follow")
    existing = Follow.objects.filter(player=player, followed=other).first()
    if existing is not None:
        return existing, False
    if Follow.objects.filter(player=player).count() >= FRIENDS_MAX:
        raise InvalidInput(
            _("you follow %(count)s players already, the most there can be: unfollow someone first")
            % {"count": FRIENDS_MAX}
        )
    try:
        with transaction.atomic():
            return Follow.objects.create(player=player, followed=other), True
    except IntegrityError:  # followed at the same moment by another request of theirs
        return Follow.objects.get(player=player, followed=other), False


def unfollow(*, player: Player, other_id: int) -> bool:
    """``player`` stops following ``other_id``; True when they followed them."""
    other = _other(player=player, other_id=other_id, doing="unfollow")
    deleted, _rows = Follow.objects.filter(player=player, followed=other).delete()
    return bool(deleted)


def forget(*, player: Player) -> int:
    """Delete ``player``'s follows both ways (their account is being deleted); how many."""
    deleted, _rows = Follow.objects.filter(Q(player=player) | Q(followed=player)).delete()
    return deleted


# ---------------------------------------------------------------- reads
@dataclass(frozen=True)
class Friend:
    player: Player
    #: Seen in the last five minutes (``community.presence``).
    online: bool
    #: The table of a game they play now (the newest, if several), or None.
    playing: int | None

    @property
    def id(self) -> int:
        return self.player.pk

    @property
    def name(self) -> str:
        return self.player.display_name


def is_following(player: Player | None, other_id: int) -> bool:
    """Whether ``player`` (None: an anonymous visitor) follows ``other_id``."""
    return player is not None and Follow.objects.filter(player=player, followed_id=other_id).exists()


def friends(*, player: Player) -> list[Friend]:
    """Whom ``player`` follows: online ones first, then by name; with the game each plays now.
    Three reads: the follows, their active seats, the cache."""
    follows = list(
        Follow.objects.filter(player=player, followed__user__is_active=True)
        .select_related("followed")
        .order_by("followed__display_name")[:FRIENDS_MAX]
    )
    people = [f.followed for f in follows]
    playing = playing_tables([p.pk for p in people])
    online = presence.online_ids(p.user_id for p in people)
    out = [Friend(player=p, online=p.user_id in online, playing=playing.get(p.pk)) for p in people]
    return sorted(out, key=lambda f: (not f.online, f.playing is None, f.name.lower()))


def playing_tables(player_ids: list[int]) -> dict[int, int]:
    """Player id → the newest active table where they still play (one query)."""
    if not player_ids:
        return {}
    rows = (
        Seat.objects.filter(
            player_id__in=player_ids, state=Seat.State.PLAYING, table__status=Table.Status.ACTIVE
        )
        .order_by("table_id")
        .values_list("player_id", "table_id")
    )
    return dict(rows)  # ordered by table: the newest table wins
