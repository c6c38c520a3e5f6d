"""Joining and leaving quick pairing pools (the waves that seat who waits: ``tournaments.pools.wave``).

A player waits in one pool at a time: joining another leaves the first, in one transaction.
Joining is refused (and changes nothing) for guests (they play bots: ``games.guests``) and bot
accounts, for an account without a verified e-mail address in a rated pool when the site asks
for one (``RATED_NEEDS_VERIFIED_EMAIL``), and while the player plays a game on a live clock
(:data:`LIVE_CLOCKS`: one live game at a time; an untimed or correspondence game, or a table still
waiting for players, does not count). Joining the pool one waits in already keeps one's
place. Whoever waits longer than :data:`ENTRY_LIMIT_SECONDS` is let go by the next wave.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from common.errors import Conflict, Forbidden, InvalidInput, NotFound
from games.events import send_after_commit
from games.guests import require_verified_email
from games.models import Player, Seat, Table

from ..events import pool_changed
from ..models import Pool, PoolEntry
from . import selectors
from .selectors import PoolRow

#: How long a player waits in a pool at most: the wave after it lets them go (they left the
#: page, most likely; they can join again).
ENTRY_LIMIT_SECONDS = 20 * 60


def pool_list(*, player: Player | None = None) -> list[PoolRow]:
    """The active pools, with their waiting counts and typical waits (see ``selectors.pools_for``)."""
    return selectors.pools_for(player)


def find_pool(*, game: str, players: int, time_control: Any) -> Pool:
    """The active pool of this game, table size and clock (clocks compared as normalised)."""
    try:
        wanted = selectors.normalised(time_control)
    except ValueError as exc:
        raise InvalidInput(str(exc)) from None
    for p in selectors.active_pools().filter(game=game, players=players):
        if selectors.normalised(p.time_control) == wanted:
            return p
    raise NotFound(
        _(
            "there is no quick pairing pool for %(game)s at %(players)s seats with that clock: "
            "choose one that GET /api/v1/quick-pairing/ lists"
        )
        % {"game": game, "players": players}
    )


#: The clocks that run while one thinks, in minutes: a game on one of them holds its players.
LIVE_CLOCKS = ("fischer", "delay", "byoyomi")


def _live_seats(player_ids: Iterable[int]) -> QuerySet[Seat]:
    """The seats of these players in games on a live clock (:data:`LIVE_CLOCKS`) still played."""
    return Seat.objects.filter(
        player__in=list(player_ids),
        state=Seat.State.PLAYING,
        table__status=Table.Status.ACTIVE,
        table__time_control__kind__in=LIVE_CLOCKS,
    )


def live_table(*, player: Player) -> int | None:
    """The game on a live clock that ``player`` is still playing, if any."""
    return _live_seats([player.pk]).values_list("table_id", flat=True).first()


def in_live_games(*, player_ids: Iterable[int]) -> set[int]:
    """Which of these players play a game on a live clock now (one query)."""
    return set(_live_seats(player_ids).values_list("player_id", flat=True))


def may_wait(*, player: Player, pool: Pool) -> None:
    """Refuse (403/409) a player who may not wait in ``pool`` (see the module's rules)."""
    if player.is_guest:
        raise Forbidden(_("guests play against bots only: create an account to play people in quick pairing"))
    if player.is_bot:
        raise Forbidden(_("bot accounts do not play in quick pairing pools"))
    if pool.rated:
        require_verified_email(player, "play rated games")
    table = live_table(player=player)
    if table is not None:
        raise Conflict(
            _("you are playing at table %(table)s: finish it (or leave it) before joining a pool")
            % {"table": table},
            table=table,
        )


@transaction.atomic
def pool_join(*, player: Player, pool_id: int) -> PoolEntry:
    """Wait in the pool ``pool_id`` (leaving the one waited in, if another)."""
    # One join or leave at a time per player; a wave seating them holds their entry's row, so
    # this waits for it and then sees their new table (and refuses).
    Player.objects.select_for_update().filter(pk=player.pk).first()
    entry = PoolEntry.objects.select_for_update().filter(player=player).first()
    pool = selectors.pool(pool_id)
    may_wait(player=player, pool=pool)
    if entry is not None and entry.pool_id == pool.pk:
        return entry  # already waiting here: keep the place
    left = entry.pool_id if entry is not None else None
    if entry is None:
        entry = PoolEntry.objects.create(pool=pool, player=player, joined=timezone.now())
    else:
        entry.pool, entry.joined = pool, timezone.now()
        entry.save(update_fields=["pool", "joined"])
    send_after_commit(pool_changed, pool_id=pool.pk, players=(player.pk,))
    if left is not None:
        send_after_commit(pool_changed, pool_id=left, players=(player.pk,))
    return entry


@transaction.atomic
def pool_leave(*, player: Player) -> Pool | None:
    """Stop waiting; the pool left (None: the player waited nowhere, and nothing changes)."""
    Player.objects.select_for_update().filter(pk=player.pk).first()
    entry = (
        PoolEntry.objects.select_for_update(of=("self",)).filter(player=player).select_related("pool").first()
    )
    if entry is None:
        return None
    entry.delete()
    send_after_commit(pool_changed, pool_id=entry.pool_id, players=(player.pk,))
    return entry.pool
