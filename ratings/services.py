"""Applying rating updates: exactly once per table, in commit order, in bulk.

Every live path (the task sent when a table finishes, the periodic backstop)
goes through :func:`apply_pending`: under the game's ledger lock it takes the
finished, rated tables that have no :class:`RatingUpdate` yet, in the order
they finished, and rates them one after another in memory, then writes the
history, the guards and the new ratings with a handful of bulk statements. A
duplicated task finds nothing left to do; a lost one is covered by the next
update of that game or by the periodic job.

The order that counts is the order the tables became visible to the ledger
(commit order), not the finishing time stamped before the commit: each update
gets the next number of the game's ledger (``RatingUpdate.seq``), and
:func:`recompute` replays the rated tables in that order, so it always gives
what the live updates gave. A recompute builds the new ratings aside and swaps
them in with one transaction: readers see the old ratings until it commits.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django.db.models import Model, QuerySet
from django.utils import timezone
from django.utils.translation import gettext

from common import metrics
from games import selectors as games
from games.models import GameKind, Player, Table

from . import environment
from .models import Rating, RatingChange, RatingLedger, RatingUpdate

BATCH = 2000

log = logging.getLogger(__name__)


@dataclass
class _Current:
    mu: float
    sigma: float
    games: int
    last_played: datetime | None
    changed: bool = False


def _pending(game: str) -> QuerySet[Table]:
    """The finished rated tables of ``game`` not rated yet, in the order they finished."""
    return games.finished_tables(game, rated=True).filter(rating_update__isnull=True)


def rate_table(*, table_id: int) -> int:
    """Rate the pending tables of this table's game (this one included, if it is rated)."""
    game = games.table_game(table_id)
    return apply_pending(game=game) if game else 0


def rate_pending() -> int:
    return sum(apply_pending(game=game) for game in GameKind.values)


def _lock(game: str) -> RatingLedger:
    """The game's ledger row, locked until the end of the transaction (updates apply one at a time)."""
    RatingLedger.objects.get_or_create(game=game)
    return RatingLedger.objects.select_for_update().get(game=game)


def apply_pending(*, game: str, progress: Callable[[int, int], None] | None = None) -> int:
    """Apply every pending update of ``game`` in finishing order; return how many tables were rated.

    One transaction under the game's ledger lock; the updates are numbered on
    from the ledger's counter; the tables are rated in chunks, with the
    players' ratings kept in memory from chunk to chunk and written once at
    the end.
    """
    with transaction.atomic():
        ledger = _lock(game)
        pending = list(_pending(game).values_list("id", "finished_at"))
        current: dict[int, _Current] = {}
        for first in range(0, len(pending), BATCH):
            _apply(game, pending[first : first + BATCH], current, seq=ledger.seq + first + 1)
            if progress:
                progress(min(first + BATCH, len(pending)), len(pending))
        _save_ratings(game, {p: c for p, c in current.items() if c.changed})
        if pending:
            RatingLedger.objects.filter(pk=ledger.pk).update(seq=ledger.seq + len(pending))
    if pending:
        metrics.rating_updates_applied(len(pending))
        log.info("%s: rating updates applied for %d table(s)", game, len(pending))
    return len(pending)


def _apply(
    game: str,
    tables: list[tuple[int, datetime]],
    current: dict[int, _Current],
    *,
    seq: int,
    stored: bool = True,
) -> None:
    """Rate one chunk of tables in order, updating ``current`` and writing history and guards.

    ``seq``: the number of the chunk's first update; ``stored``: start players
    not in ``current`` from their stored rating (else as newcomers).
    """
    results = games.game_results(t[0] for t in tables)
    seats = {
        table_id: [(s.seat, s.player_id, s.rank) for s in result.seats]
        for table_id, result in results.items()
    }
    if stored:
        unseen = {p for group in seats.values() for _, p, _ in group} - current.keys()
        for r in Rating.objects.filter(game=game, player_id__in=unseen):
            current[r.player_id] = _Current(r.mu, r.sigma, r.games, r.last_played)
    changes: list[tuple[Any, ...]] = []
    for table_id, finished_at in tables:
        group = sorted(seats.get(table_id, []))
        if len(group) < 2:
            continue  # nothing to rate (marked as rated all the same, so it is not looked at again)
        before = [
            current.setdefault(p, _Current(environment.MU, environment.SIGMA, 0, None)) for _, p, _ in group
        ]
        ranks = [rank for _, _, rank in group]
        after = environment.rate(game, [(c.mu, c.sigma) for c in before], ranks)
        for (_, player_id, _), cur, rank, (mu, sigma) in zip(group, before, ranks, after, strict=True):
            changes.append(
                (
                    player_id,
                    game,
                    table_id,
                    rank,
                    len(group),
                    cur.mu,
                    cur.sigma,
                    mu,
                    sigma,
                    environment.conservative(cur.mu, cur.sigma),
                    environment.conservative(mu, sigma),
                    finished_at,
                )
            )
            cur.mu, cur.sigma, cur.games, cur.changed = mu, sigma, cur.games + 1, True
            cur.last_played = finished_at if cur.last_played is None else max(cur.last_played, finished_at)
    now = timezone.now()
    _insert(
        RatingUpdate,
        ["table_id", "game", "seq", "applied_at"],
        [(t[0], game, seq + i, now) for i, t in enumerate(tables)],
    )
    _insert(RatingChange, CHANGE_FIELDS, changes)


CHANGE_FIELDS = [
    "player_id",
    "game",
    "table_id",
    "rank",
    "seats",
    "mu_before",
    "sigma_before",
    "mu_after",
    "sigma_after",
    "conservative_before",
    "conservative_after",
    "at",
]


def _insert(model: type[Model], fields: list[str], rows: list[tuple[Any, ...]]) -> None:
    """Insert many plain rows: PostgreSQL's COPY (no model instances), else bulk_create."""
    if not rows:
        return
    if connection.vendor == "postgresql":
        columns = ", ".join(connection.ops.quote_name(model._meta.get_field(f).column) for f in fields)
        table = connection.ops.quote_name(model._meta.db_table)
        with (
            connection.cursor() as cursor,
            cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy,
        ):
            for row in rows:
                copy.write_row(row)
    else:
        model.objects.bulk_create(
            [model(**dict(zip(fields, row, strict=True))) for row in rows], batch_size=2000
        )


def _save_ratings(game: str, ratings: dict[int, _Current]) -> None:
    Rating.objects.bulk_create(
        (
            Rating(
                player_id=p,
                game=game,
                mu=c.mu,
                sigma=c.sigma,
                conservative=environment.conservative(c.mu, c.sigma),
                games=c.games,
                last_played=c.last_played,
            )
            for p, c in ratings.items()
        ),
        update_conflicts=True,
        unique_fields=["player", "game"],
        update_fields=["mu", "sigma", "conservative", "games", "last_played"],
        batch_size=5000,
    )


def recompute(
    *, games: Iterable[str], progress: Callable[[str, int, int], None] | None = None
) -> dict[str, int]:
    """Rebuild the ratings and history of ``games`` from scratch; return how many tables each rated.

    Per game, one transaction under the ledger lock: the rated tables are
    replayed in the order they were applied (``RatingUpdate.seq``), then the
    pending ones in finishing order (the order :func:`apply_pending` would
    give them). The new ratings are built in memory, the history and the
    guards rewritten in bulk, and the ratings swapped in at the end, so other
    connections see the old ratings and history until the commit, then the
    new ones. ``progress(game, done, total)`` is called after every chunk.
    """
    out = {}
    for game in games:
        with transaction.atomic():
            _lock(game)
            replay = _replay_order(game)
            RatingChange.objects.filter(game=game).delete()
            RatingUpdate.objects.filter(game=game).delete()
            current: dict[int, _Current] = {}
            for first in range(0, len(replay), BATCH):
                _apply(game, replay[first : first + BATCH], current, seq=first + 1, stored=False)
                if progress:
                    progress(game, min(first + BATCH, len(replay)), len(replay))
            _replace_ratings(game, current)
            RatingLedger.objects.filter(game=game).update(seq=len(replay))
        out[game] = len(replay)
    return out


def _replay_order(game: str) -> list[tuple[int, datetime]]:
    """The finished rated tables of ``game``: those rated in the order they were, then the pending ones."""
    rated = games.finished_tables(game, rated=True).filter(rating_update__isnull=False)
    return list(rated.order_by("rating_update__seq").values_list("id", "finished_at")) + list(
        _pending(game).values_list("id", "finished_at")
    )


def _replace_ratings(game: str, ratings: dict[int, _Current]) -> None:
    """Make the stored ratings of ``game`` exactly ``ratings`` (upserted; anybody else's removed)."""
    stale = sorted(set(Rating.objects.filter(game=game).values_list("player_id", flat=True)) - ratings.keys())
    for first in range(0, len(stale), BATCH):
        Rating.objects.filter(game=game, player_id__in=stale[first : first + BATCH]).delete()
    _save_ratings(game, ratings)


def match_quality(*, game: str, players: list[Player]) -> float:
    """TrueSkill's match quality for a proposed table of 2–4 of these players."""
    if not 2 <= len(players) <= 4:
        raise ValueError(gettext("a table has 2 to 4 players"))  # the API's error detail
    found = {r.player_id: (r.mu, r.sigma) for r in Rating.objects.filter(game=game, player__in=players)}
    return environment.quality(game, [found.get(p.pk, (environment.MU, environment.SIGMA)) for p in players])


def progress_bar(game: str, done: int, total: int) -> None:
    """A one-line progress bar on standard error (a ``progress`` callback of :func:`recompute`,
    which calls it positionally)."""
    width = 30
    filled = width * done // max(total, 1)
    sys.stderr.write(f"\r{game:7} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
    if done >= total:
        sys.stderr.write("\n")
    sys.stderr.flush()
