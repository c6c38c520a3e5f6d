"""Helpers of the season tests: a club, rated players, and division events played out quickly
through the organiser's result entry (each table decided by a fixed strength order)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.models import Player, Seat, Table
from ratings.models import Rating
from tournaments.competitions import services
from tournaments.models import League, Round, Season, Tournament
from tournaments.organising import actions

from ..games.conftest import Actor, as_organiser

#: Round times in the past: divisions start at once and each round follows the last.
PAST = [f"2026-01-{d:02d}T19:00:00+00:00" for d in range(1, 10)]


def club(make_actor: Callable[..., Actor], name: str = "Season Club") -> tuple[Actor, League]:
    org = make_actor("season-org")
    as_organiser(org.player)
    return org, services.league_create(organiser=org.player, name=name)


def rated(make_actor: Callable[..., Actor], name: str, rating: int, game: str = "shacru") -> Player:
    player = make_actor(name).player
    mu = rating / 60
    Rating.objects.create(player=player, game=game, mu=mu, sigma=2.0, conservative=mu - 6)
    return player


def play_event(t: Tournament, strength: dict[int, int], by: Player) -> None:
    """Play ``t`` to its end: at every table the player with the lower strength wins."""
    for _ in range(40):
        t.refresh_from_db()
        if t.status == Tournament.Status.FINISHED:
            return
        rnd = Round.objects.get(tournament=t, number=t.current_round)
        tables = [rt.table for rt in rnd.tables.order_by("number") if rt.table.status == Table.Status.ACTIVE]
        if not tables:  # a withdrawal resigned the last game: count it, as the game_finished task does
            for rt in rnd.tables.all():
                services.table_finished(table_id=rt.table_id)
            t.refresh_from_db()
            assert t.current_round > rnd.number or t.status == Tournament.Status.FINISHED
            continue
        for table in tables:
            seats = dict(Seat.objects.filter(table=table).values_list("number", "player_id"))
            order = sorted(seats, key=lambda n: strength[seats[n]])
            actions.enter_result(
                tournament_id=t.pk,
                table_id=table.pk,
                ranks={n: i for i, n in enumerate(order, start=1)},
                reason="played over the board",
                by=by,
            )
    raise AssertionError(f"{t.name} did not finish")


def play_season(season: Season, strength: dict[int, int], by: Player) -> None:
    for t in Tournament.objects.filter(season=season).order_by("pk"):
        play_event(t, strength, by)


def layout(season: Season) -> list[tuple[int, str, list[int]]]:
    """(level, group, player ids by registration order in the division) of each division."""
    out = []
    for d in season.divisions.order_by("level", "group"):
        out.append((d.level, d.group, sorted(d.entries.values_list("player_id", flat=True))))
    return out


def settings(**extra: Any) -> dict[str, Any]:
    return {
        "game": "shacru",
        "seats": 2,
        "format": "round_robin",
        "rated": False,
        "round_times": PAST[:7],
        **extra,
    }
