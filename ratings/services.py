"""Applying rating updates: exactly once per table, in finishing order, in bulk.

Every path (the task sent when a table finishes, the periodic backstop, a full
recompute) goes through :func:`apply_pending`: under the game's ledger lock it
takes the finished, rated tables that have no :class:`RatingUpdate` yet, in
the order they finished, and rates them one after another in memory, then
writes the history, the guards and the new ratings with a handful of bulk
statements. A duplicated task finds nothing left to do; a lost one is covered
by the next update of that game or by the periodic job, and the order stays
the finishing order, so the result equals the in-order result.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import QuerySet

from games.models import GameKind, Player, Seat, Table

from . import environment
from .models import Rating, RatingChange, RatingLedger, RatingUpdate

BATCH = 2000


@dataclass
class _Current:
    mu: float
    sigma: float
    games: int
    last_played: datetime | None
    changed: bool = False


def _pending(game: str) -> QuerySet[Table]:
    return Table.objects.filter(
        game=game, status=Table.Status.FINISHED, rated=True, rating_update__isnull=True
    ).order_by("finished_at", "id")


def rate_table(*, table_id: int) -> int:
    """Rate the pending tables of this table's game (this one included, if it is rated)."""
    game = Table.objects.filter(pk=table_id).values_list("game", flat=True).first()
    return apply_pending(game) if game else 0


def rate_pending() -> int:
    return sum(apply_pending(game) for game in GameKind.values)


def apply_pending(game: str, progress: Callable[[int, int], None] | None = None) -> int:
    """Apply every pending update of ``game`` in finishing order; return how many tables were rated."""
    done = 0
    total = _pending(game).count() if progress else 0
    while True:
        with transaction.atomic():
            RatingLedger.objects.get_or_create(game=game)
            RatingLedger.objects.select_for_update().get(game=game)
            tables = list(_pending(game).values_list("id", "finished_at", "result")[:BATCH])
            if not tables:
                return done
            _apply(game, tables)
        done += len(tables)
        if progress:
            progress(done, total)


def _apply(game: str, tables: list[tuple[int, datetime, dict[str, Any]]]) -> None:
    seats: dict[int, list[tuple[int, int]]] = {}
    for table_id, number, player_id in Seat.objects.filter(table_id__in=[t[0] for t in tables]).values_list(
        "table_id", "number", "player_id"
    ):
        seats.setdefault(table_id, []).append((number, player_id))
    player_ids = {p for group in seats.values() for _, p in group}
    current: dict[int, _Current] = {
        r.player_id: _Current(r.mu, r.sigma, r.games, r.last_played)
        for r in Rating.objects.filter(game=game, player_id__in=player_ids)
    }
    changes: list[RatingChange] = []
    for table_id, finished_at, result in tables:
        group = sorted(seats.get(table_id, []))
        ranking = (result or {}).get("ranking", {})
        if len(group) < 2 or any(str(n) not in ranking for n, _ in group):
            continue  # nothing to rate (kept as rated, so it is not looked at again)
        before = [
            current.setdefault(p, _Current(environment.MU, environment.SIGMA, 0, None)) for _, p in group
        ]
        ranks = [int(ranking[str(n)]) for n, _ in group]
        after = environment.rate(game, [(c.mu, c.sigma) for c in before], ranks)
        for (_, player_id), cur, rank, (mu, sigma) in zip(group, before, ranks, after, strict=True):
            changes.append(
                RatingChange(
                    player_id=player_id,
                    game=game,
                    table_id=table_id,
                    rank=rank,
                    seats=len(group),
                    mu_before=cur.mu,
                    sigma_before=cur.sigma,
                    mu_after=mu,
                    sigma_after=sigma,
                    conservative_before=environment.conservative(cur.mu, cur.sigma),
                    conservative_after=environment.conservative(mu, sigma),
                    at=finished_at,
                )
            )
            cur.mu, cur.sigma, cur.games, cur.changed = mu, sigma, cur.games + 1, True
            cur.last_played = finished_at
    RatingUpdate.objects.bulk_create(RatingUpdate(table_id=t[0], game=game) for t in tables)
    RatingChange.objects.bulk_create(changes, batch_size=5000)
    _save_ratings(game, {p: c for p, c in current.items() if c.changed})


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
    games: Iterable[str], progress: Callable[[str, int, int], None] | None = None
) -> dict[str, int]:
    """Forget the ratings of ``games`` and replay every rated table in finishing order."""
    out = {}
    for game in games:
        with transaction.atomic():
            RatingLedger.objects.get_or_create(game=game)
            RatingLedger.objects.select_for_update().get(game=game)
            RatingChange.objects.filter(game=game).delete()
            RatingUpdate.objects.filter(game=game).delete()
            Rating.objects.filter(game=game).delete()
        report = (lambda done, total, g=game: progress(g, done, total)) if progress else None
        out[game] = apply_pending(game, report)
    return out


def match_quality(*, game: str, players: list[Player]) -> float:
    """TrueSkill's match quality for a proposed table of 2–4 of these players."""
    if not 2 <= len(players) <= 4:
        raise ValueError("a table has 2 to 4 players")
    found = {r.player_id: (r.mu, r.sigma) for r in Rating.objects.filter(game=game, player__in=players)}
    return environment.quality(game, [found.get(p.pk, (environment.MU, environment.SIGMA)) for p in players])


def progress_bar(game: str, done: int, total: int) -> None:
    """A one-line progress bar on standard error."""
    width = 30
    filled = width * done // max(total, 1)
    sys.stderr.write(f"\r{game:7} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
    if done >= total:
        sys.stderr.write("\n")
    sys.stderr.flush()
