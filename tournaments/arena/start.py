"""An arena's start: its registered players become its players, all free at once (the next wave
pairs them). Called by ``competitions.services.rounds.start_locked`` in place of a first round."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from games.models import Player

from ..models import ArenaPlayer, Registration, Tournament
from ..teams import battles


def start_arena(*, t: Tournament, players: Iterable[Player], now: datetime) -> int:
    """Give each registered player of ``t`` (locked, just started at ``now``) their arena row, free
    since the start; a row that exists already (a player who joined earlier) is made free too.
    Returns how many players the arena starts with."""
    players = list(players)
    registered = dict(Registration.objects.filter(tournament=t).values_list("player_id", "registered_at"))
    count = 0
    for player in players:
        joined = min(registered.get(player.pk) or now, now)  # the leaderboard's last tie-break
        row, created = ArenaPlayer.objects.get_or_create(
            tournament=t, player=player, defaults={"joined": joined, "free_since": now}
        )
        if not created and row.withdrawn and not row.games:  # left a team battle before the start, back in
            row.withdrawn = False
            row.save(update_fields=["withdrawn"])
        if not created and not (row.paused or row.withdrawn) and row.table_id is None:
            row.free_since = now
            row.save(update_fields=["free_since"])
        count += 1
    # A team battle's rows are made at the join (they keep the team): those who left before the start go.
    ArenaPlayer.objects.filter(tournament=t, games=0, table__isnull=True).exclude(
        player_id__in=[p.pk for p in players]
    ).delete()
    battles.start_teams(t=t)
    return count
