"""An arena's start: its registered players become its players, all free at once (the next wave
pairs them). Called by ``competitions.services.rounds.start_locked`` in place of a first round."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from games.models import Player

from ..models import ArenaPlayer, Registration, Tournament


def start_arena(*, t: Tournament, players: Iterable[Player], now: datetime) -> int:
    """Give each registered player of ``t`` (locked, just started at ``now``) their arena row, free
    since the start; a row that exists already (a player who joined earlier) is made free too.
    Returns how many players the arena starts with."""
    registered = dict(Registration.objects.filter(tournament=t).values_list("player_id", "registered_at"))
    count = 0
    for player in players:
        joined = min(registered.get(player.pk) or now, now)  # the leaderboard's last tie-break
        row, created = ArenaPlayer.objects.get_or_create(
            tournament=t, player=player, defaults={"joined": joined, "free_since": now}
        )
        if not created and not (row.paused or row.withdrawn) and row.table_id is None:
            row.free_since = now
            row.save(update_fields=["free_since"])
        count += 1
    return count
