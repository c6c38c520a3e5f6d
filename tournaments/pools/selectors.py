"""What the pools show: each pool with how many wait and how long a table typically takes, and
where a player stands (waiting in which pool, or their table ready)."""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Count, F, Window
from django.db.models.functions import RowNumber
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from common.errors import NotFound
from games.clocks import TimeControl
from games.models import GameKind, Player, Table

from ..models import Pool, PoolEntry, PoolTable

#: The typical wait is the median wait of a pool's last tables: at most this many…
RECENT_TABLES = 20
#: …seated within this long (older ones say little about the wait now).
RECENT_HOURS = 24
#: A seated player's lobby links to their pool table (and goes there) while it is in play and
#: at most this old.
READY_MINUTES = 30


@dataclass
class PoolRow:
    """A pool as the lobby and the API list it."""

    pool: Pool
    waiting: int
    #: The median wait of the recent tables in seconds; None: no recent tables.
    typical_wait: float | None
    #: Whether the player asked about waits in it (None: nobody signed in).
    joined: bool | None

    @property
    def id(self) -> int:
        return self.pool.pk

    @property
    def time_control_text(self) -> str:
        return self.pool.time_control_text

    @property
    def text(self) -> str:
        return describe(self.pool)

    @property
    def wait_text(self) -> str:
        """The typical wait in words: "about 20 s", "about 2 min", or that there were no tables."""
        return wait_words(self.typical_wait)


@dataclass
class PlayNow:
    """The lobby's "Play now" for one visitor: the pools grouped by game, where they wait, and
    the pool table they were just seated at."""

    rows: list[PoolRow]
    entry: PoolEntry | None
    waiting_in: PoolRow | None
    ready: Table | None

    @property
    def by_game(self) -> list[tuple[str, list[PoolRow]]]:
        """The pools of each game (in the games' order), fewest seats and quickest clock first."""
        groups: dict[str, list[PoolRow]] = {game: [] for game in GameKind.values}
        for row in sorted(self.rows, key=_listing_order):
            groups.setdefault(row.pool.game, []).append(row)
        return [(str(GameKind(game).label), rows) for game, rows in groups.items() if rows]


def _listing_order(row: PoolRow) -> tuple[int, float, bool, int, int]:
    """Seats, then the clock's expected length (40 moves each, as the chess sites count it), rated first."""
    tc = TimeControl.from_dict(row.pool.time_control)
    length = tc.base + 40 * (tc.increment + tc.delay + tc.period * tc.periods / 40) + tc.per_move * 40
    return (row.pool.players, length, not row.pool.rated, row.pool.position, row.pool.pk)


def wait_words(seconds: float | None) -> str:
    if seconds is None:
        return _("no recent tables")
    if seconds < 90:
        n = max(1, round(seconds))
        return ngettext("about %(n)d second", "about %(n)d seconds", n) % {"n": n}
    n = round(seconds / 60)
    return ngettext("about %(n)d minute", "about %(n)d minutes", n) % {"n": n}


def describe(pool: Pool) -> str:
    """A pool in words: "Shacru, 3 players, 5 min + 3 s, rated"."""
    args = {"game": pool.get_game_display(), "n": pool.players, "clock": pool.time_control_text}
    if pool.rated:
        return (
            ngettext(
                "%(game)s, %(n)d player, %(clock)s, rated",
                "%(game)s, %(n)d players, %(clock)s, rated",
                pool.players,
            )
            % args
        )
    return (
        ngettext(
            "%(game)s, %(n)d player, %(clock)s, casual",
            "%(game)s, %(n)d players, %(clock)s, casual",
            pool.players,
        )
        % args
    )


def normalised(time_control: Any) -> dict[str, Any]:
    """A time control as pools store and compare it (:class:`ValueError` if it is not one)."""
    return TimeControl.from_dict(time_control).to_dict()


def active_pools() -> Any:
    return Pool.objects.filter(active=True)


def pool(pool_id: int) -> Pool:
    found = active_pools().filter(pk=pool_id).first()
    if found is None:
        raise NotFound(_("there is no active quick pairing pool %(pool)s") % {"pool": pool_id})
    return found


def typical_waits(pool_ids: list[int], *, now: datetime | None = None) -> dict[int, float]:
    """Each pool's median wait over its recent tables (pools without any are left out): one query."""
    since = (now or timezone.now()) - timedelta(hours=RECENT_HOURS)
    rows = (
        PoolTable.objects.filter(pool_id__in=pool_ids, created__gte=since)
        .annotate(n=Window(RowNumber(), partition_by=[F("pool_id")], order_by=F("id").desc()))
        .filter(n__lte=RECENT_TABLES)
        .values_list("pool_id", "wait_seconds")
    )
    waits: dict[int, list[float]] = {}
    for pool_id, wait in rows:
        waits.setdefault(pool_id, []).append(wait)
    return {p: float(statistics.median(w)) for p, w in waits.items()}


def pools_for(player: Player | None, *, now: datetime | None = None) -> list[PoolRow]:
    """Every active pool in order, with its waiting count, typical wait and whether ``player``
    waits in it (three queries)."""
    pools = list(active_pools().annotate(waiting=Count("entries")))
    waits = typical_waits([p.pk for p in pools], now=now)
    mine = None
    if player is not None:
        mine = PoolEntry.objects.filter(player=player).values_list("pool_id", flat=True).first()
    return [
        PoolRow(
            pool=p,
            waiting=p.waiting,  # type: ignore[attr-defined]
            typical_wait=waits.get(p.pk),
            joined=None if player is None else mine == p.pk,
        )
        for p in pools
    ]


def ready_table(player: Player, *, now: datetime | None = None) -> Table | None:
    """The pool table ``player`` was seated at and still plays (recent), if any."""
    since = (now or timezone.now()) - timedelta(minutes=READY_MINUTES)
    return (
        Table.objects.filter(
            seats__player=player,
            status=Table.Status.ACTIVE,
            pool_table__isnull=False,
            pool_table__created__gte=since,
        )
        .order_by("-id")
        .first()
    )


def play_now(player: Player | None) -> PlayNow:
    """The lobby's "Play now" block for ``player`` (None: an anonymous visitor)."""
    rows = pools_for(player)
    entry = None
    ready = None
    if player is not None:
        entry = PoolEntry.objects.filter(player=player).select_related("pool").first()
        if entry is None:
            ready = ready_table(player)
    waiting_in = next((r for r in rows if r.joined), None)
    return PlayNow(rows=rows, entry=entry, waiting_in=waiting_in, ready=ready)
