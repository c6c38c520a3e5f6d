"""The queue of a 3–4 seat ladder: joining, leaving and matchmaking (the rules are in
:mod:`tournaments.ladders`).
"""

from __future__ import annotations

import itertools
from collections.abc import Collection
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from common.errors import Conflict, Forbidden
from games import services as games
from games.blocks import blocked_pairs
from games.events import PlayerRef, send_after_commit
from games.models import Player, Table
from ratings import environment
from ratings.models import Rating

from ..events import QueueTableFormed, queue_changed, queue_table_formed
from ..models import Ladder, LadderMember, QueueEntry, QueueTable
from ..pairing import assign_seats
from .services import expire_challenges

CANDIDATES = 12  # matchmaking looks this far down the queue
#: A queue table is fair when its :func:`fairness` reaches this.
FAIR_SHARE = 0.5


def queue_join(*, ladder: Ladder, player: Player) -> QueueEntry:
    if ladder.seats == 2:
        raise Conflict(_("this is a 2-player ladder: challenge someone instead"))
    if not LadderMember.objects.filter(ladder=ladder, player=player).exists():
        raise Forbidden(_("join the ladder before queueing"))
    entry, created = QueueEntry.objects.get_or_create(ladder=ladder, player=player)
    if not created:
        raise Conflict(_("you are in the queue already"))
    send_after_commit(queue_changed, ladder_id=ladder.pk, player_id=player.pk)
    return entry


def queue_leave(*, ladder: Ladder, player: Player) -> None:
    deleted, _rows = QueueEntry.objects.filter(ladder=ladder, player=player).delete()
    if deleted:
        send_after_commit(queue_changed, ladder_id=ladder.pk, player_id=player.pk)


def fairness(*, game: str, ratings: list[tuple[float, float]]) -> float:
    """How fair a table is, from 0 to 1: its TrueSkill match quality relative to the quality the
    same players would have if they were all rated equally (the mean μ, each keeping their σ).

    Relative, so it does not shrink with the table size, and it expects less of players whose
    ratings are uncertain: at σ 2, four players spread evenly over 6 points of μ score 0.63, over
    14 points 0.08.
    """
    mean = sum(mu for mu, _ in ratings) / len(ratings)
    ideal = environment.quality(game, [(mean, sigma) for _, sigma in ratings])
    return environment.quality(game, ratings) / ideal if ideal > 0 else 0.0


#: A queued player for :func:`plan_queue_tables`: (player id, (mu, sigma), seconds waited).
Waiting = tuple[int, tuple[float, float], float]


def _best_tables(
    game: str, anchor: Waiting, behind: list[Waiting], seats: int, blocks: set[frozenset[int]]
) -> tuple[tuple[Waiting, ...] | None, tuple[Waiting, ...] | None]:
    """The best table (by raw match quality) seating ``anchor`` with players from ``behind``, and
    the best *fair* one, if any; never one with two players of a block pair (``blocks``).

    Both are searched because they differ: raw quality falls with the players' uncertainty, so the
    table of highest quality may be one of established players that is unfair to the anchor while a
    table with newcomers (lower raw quality) is fair. Testing fairness only on the former would make
    the anchor wait up to the limit with a fair table at hand.
    """
    best: tuple[Waiting, ...] | None = None
    fair: tuple[Waiting, ...] | None = None
    best_q = fair_q = -1.0
    for others in itertools.combinations(behind, seats - 1):
        group = (anchor, *others)
        if blocks and any(frozenset((a[0], b[0])) in blocks for a, b in itertools.combinations(group, 2)):
            continue
        ratings = [e[1] for e in group]
        q = environment.quality(game, ratings)
        if q > best_q:
            best, best_q = group, q
        if q > fair_q and fairness(game=game, ratings=ratings) >= FAIR_SHARE:
            fair, fair_q = group, q
    return best, fair


def plan_queue_tables(
    *,
    game: str,
    seats: int,
    waiting: list[tuple[int, tuple[float, float], float]],
    wait_limit: float,
    blocks: Collection[tuple[int, int]] = (),
) -> list[list[int]]:
    """Which tables to form from a queue (pure; :func:`matchmake` applies it).

    ``waiting``: ``(player id, (mu, sigma), seconds waited)``, longest-waiting first; ``blocks``:
    (player, blocked) pairs (``games.blocks``), never seated together either way round. Returns
    the tables as lists of player ids, in the order they are formed (see the module's rules).
    """
    pairs = {frozenset(pair) for pair in blocks if len(set(pair)) == 2}
    queue = list(waiting)
    tables: list[list[int]] = []
    while len(queue) >= seats:
        window = queue[: CANDIDATES + 1]
        chosen: tuple[tuple[int, tuple[float, float], float], ...] | None = None
        for i, anchor in enumerate(window):
            if len(window) - i < seats:
                break
            best, fair = _best_tables(game, anchor, window[i + 1 :], seats, pairs)
            if fair is not None:
                chosen = fair
                break
            if i == 0 and best is not None and anchor[2] >= wait_limit:
                chosen = best
                break
        if chosen is None:
            break
        tables.append([e[0] for e in chosen])
        queue = [e for e in queue if e not in chosen]
    return tables


@transaction.atomic
def matchmake(*, ladder: Ladder, now: Any = None) -> list[Table]:
    """Form as many tables as the queue allows (see the module's rules)."""
    now = now or timezone.now()
    queue = list(QueueEntry.objects.select_for_update().filter(ladder=ladder).select_related("player"))
    ratings = {
        r.player_id: (r.mu, r.sigma)
        for r in Rating.objects.filter(game=ladder.game, player__in=[e.player for e in queue])
    }
    waiting = [
        (
            e.player_id,
            ratings.get(e.player_id, (environment.MU, environment.SIGMA)),
            (now - e.joined).total_seconds(),
        )
        for e in queue
    ]
    by_id = {e.player_id: e for e in queue}
    made = []
    for group in plan_queue_tables(
        game=ladder.game,
        seats=ladder.seats,
        waiting=waiting,
        wait_limit=ladder.queue_wait_seconds,
        blocks=blocked_pairs(by_id),
    ):
        first = by_id[group[0]]
        table = games.table_create(
            creator=first.player,
            game=ladder.game,
            players=ladder.seats,
            join=False,
            time_control=ladder.time_control,
            rated=True,
        )
        for seat, pid in enumerate(assign_seats(group, {}), start=1):
            games.seat_join(table_id=table.pk, player=by_id[pid].player, seat=seat, event=True)
        QueueEntry.objects.filter(pk__in=[by_id[p].pk for p in group]).delete()
        QueueTable.objects.create(ladder=ladder, table=table)
        # After the commit: the players' queue pages go to the table, and each is told.
        send_after_commit(
            queue_table_formed,
            formed=QueueTableFormed(
                ladder_id=ladder.pk,
                ladder=ladder.name,
                game=ladder.game,
                table_id=table.pk,
                players=tuple(PlayerRef.of(by_id[p].player) for p in group),
            ),
        )
        made.append(table)
    return made


def housekeeping() -> dict[str, int]:
    """Periodic work: expire challenges, form queue tables."""
    tables = sum(
        len(matchmake(ladder=ladder))
        for ladder in Ladder.objects.filter(seats__gt=2, queue__isnull=False).distinct()
    )
    return {"expired": expire_challenges(), "tables": tables}
