"""A limit on rated games between the same two accounts: ``RATED_GAMES_SAME_PLAYERS_PER_DAY``.

Two accounts of one person can farm a rating by playing each other over and over (issue 29). As
the big sites do, the same two accounts play at most that many rated games (default 5) in any 24
hours: taking a seat at a casual rated table that would seat two players past the limit is refused
with 409 ``rated_pair_limit`` and changes nothing; the players may play on unrated. A game counts
from its start while it is rated (being played or finished; an aborted one, rated for nobody, does
not). Organised events (tournament rounds, ladder challenges) are exempt: their organisers pair them.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timedelta
from itertools import combinations

from django.conf import settings
from django.utils import timezone
from django.utils.translation import ngettext

from common.errors import Conflict

from .models import Player, Seat, Table

#: The period the limit counts over.
WINDOW = timedelta(hours=24)


class RatedPairLimit(Conflict):
    code = "rated_pair_limit"


def rated_games_together(player_ids: set[int], since: datetime) -> Counter[tuple[int, int]]:
    """(lower id, higher id) → the rated games the two played together since ``since`` (one query)."""
    rows = Seat.objects.filter(
        player_id__in=player_ids,
        table__rated=True,
        table__status__in=[Table.Status.ACTIVE, Table.Status.FINISHED],
        table__started_at__gte=since,
    ).values_list("table_id", "player_id")
    tables: dict[int, set[int]] = {}
    for table_id, player_id in rows:
        tables.setdefault(table_id, set()).add(player_id)
    counts: Counter[tuple[int, int]] = Counter()
    for players in tables.values():
        counts.update(combinations(sorted(players), 2))
    return counts


def require_room(table: Table, joiner: Player) -> None:
    """Refuse (409 ``rated_pair_limit``) ``joiner``'s seat at a rated table if two of the players
    it would seat together have had ``RATED_GAMES_SAME_PLAYERS_PER_DAY`` rated games in 24 hours."""
    limit = settings.RATED_GAMES_SAME_PLAYERS_PER_DAY
    if limit <= 0 or not table.rated:
        return
    players = {s.player_id: s.player for s in Seat.objects.filter(table=table).select_related("player")}
    players[joiner.pk] = joiner
    if len(players) < 2:
        return
    counts = rated_games_together(set(players), timezone.now() - WINDOW)
    over = sorted(
        ((pair, n) for pair, n in counts.items() if n >= limit),
        key=lambda item: (joiner.pk not in item[0], item[0]),  # the joiner's own pairs first
    )
    if not over:
        return
    (a, b), n = over[0]
    values = {"n": n, "limit": limit}
    if joiner.pk in (a, b):
        other = players[b if a == joiner.pk else a]
        raise RatedPairLimit(
            ngettext(
                "you have played %(n)d rated game with %(name)s in the last 24 hours (at most %(limit)d "
                "a day between the same players): play this one unrated",
                "you have played %(n)d rated games with %(name)s in the last 24 hours (at most %(limit)d "
                "a day between the same players): play this one unrated",
                n,
            )
            % {**values, "name": other.display_name},
            limit=limit,
            player=other.pk,
        )
    raise RatedPairLimit(
        ngettext(
            "%(first)s and %(second)s have played %(n)d rated game together in the last 24 hours (at "
            "most %(limit)d a day between the same players): this table cannot start rated",
            "%(first)s and %(second)s have played %(n)d rated games together in the last 24 hours (at "
            "most %(limit)d a day between the same players): this table cannot start rated",
            n,
        )
        % {**values, "first": players[a].display_name, "second": players[b].display_name},
        limit=limit,
    )
