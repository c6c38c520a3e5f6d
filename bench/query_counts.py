"""Benchmark: SQL queries per list page and list API, at two sizes (not a test; prints figures).

A page whose query count grows with the number of rows it lists runs one query per row
(N+1). This builds the same club twice on a throwaway SQLite database (``small``: 3
tournaments of 4 players, ``large``: 9 of 12), requests every list page and list API with
Django's test client and prints the queries each took at both sizes.

    .venv/bin/python bench/query_counts.py
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def build(n_events: int, n_players: int) -> dict[str, Any]:
    """A league with ``n_events`` running 2-seat Swiss events of ``n_players`` each, a ladder
    of every player, and finished rated tables so that ratings exist."""
    from django.contrib.auth import get_user_model

    from games import services
    from games.models import Player
    from tournaments import ladders
    from tournaments.competitions import services as events

    boss = get_user_model().objects.create_superuser("boss", password="bench-pass-2026")
    boss_player = Player.objects.get_or_create(user=boss, defaults={"display_name": "Boss"})[0]
    people = [
        services.player_register(username=f"p{i}", password="bench-pass-2026", display_name=f"P{i}")
        for i in range(n_players)
    ]
    league = events.league_create(organiser=boss_player, name="Bench Club", slug="bench")
    ladder = ladders.ladder_create(organiser=boss_player, league=league, game="pacru")
    for p in people:
        ladders.ladder_join(ladder=ladder, player=p)
    first = None
    for e in range(n_events):
        t = events.tournament_create(
            organiser=boss_player, league=league, name=f"Event {e}", game="pacru", seats=2, rounds=3
        )
        for p in people:
            events.register(tournament_id=t.pk, player=p)
        events.start(tournament_id=t.pk, by=boss_player)
        first = first or t
    for i in range(0, n_players - 1, 2):
        table = services.table_create(creator=people[i], game="pacru", players=2)
        services.seat_join(table_id=table.pk, player=people[i + 1])
        services.game_resign(table_id=table.pk, player=people[i])
    from ratings.services import rate_pending

    rate_pending()
    assert first is not None
    return {"tournament": first.pk, "ladder": ladder.pk, "player": people[0].pk}


PAGES = [
    ("page /", "/"),
    ("page /leagues/bench/", "/leagues/bench/"),
    ("page /tournaments/{tournament}/", "/tournaments/{tournament}/"),
    ("page /ladders/{ladder}/", "/ladders/{ladder}/"),
    ("page /tournaments/", "/tournaments/"),
    ("page /ladders/", "/ladders/"),
    ("page /leagues/", "/leagues/"),
    ("page /organiser/ (staff)", "/organiser/"),
    ("page /organiser/events/{tournament}/", "/organiser/events/{tournament}/"),
    ("page /ratings/pacru/", "/ratings/pacru/"),
    ("page /players/{player}/", "/players/{player}/"),
    ("api tables/", "/api/v1/tables/"),
    ("api players/", "/api/v1/players/"),
    ("api leagues/", "/api/v1/leagues/"),
    ("api leagues/bench/", "/api/v1/leagues/bench/"),
    ("api tournaments/", "/api/v1/tournaments/"),
    ("api tournaments/{tournament}/", "/api/v1/tournaments/{tournament}/"),
    ("api tournaments/{tournament}/standings/", "/api/v1/tournaments/{tournament}/standings/"),
    ("api ladders/", "/api/v1/ladders/"),
    ("api ladders/{ladder}/", "/api/v1/ladders/{ladder}/"),
    ("api ratings/pacru/", "/api/v1/ratings/pacru/"),
    ("api players/{player}/ratings/", "/api/v1/players/{player}/ratings/"),
]


def count(ids: dict[str, Any]) -> dict[str, int]:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client()
    client.login(username="boss", password="bench-pass-2026")
    out = {}
    for name, url in PAGES:
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url.format(**ids))
        assert response.status_code == 200, (url, response.status_code)
        out[name] = len(queries)
    return out


def main() -> None:
    results = {}
    for label, n_events, n_players in (("small", 3, 4), ("large", 9, 12)):
        with tempfile.TemporaryDirectory() as tmp:
            os.environ["DATABASE_URL"] = f"sqlite:///{tmp}/bench.sqlite3"
            os.environ["THROTTLE_OFF"] = "1"
            import django

            os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
            from django.conf import settings

            if settings.configured:
                from django.db import connections

                connections.close_all()
                settings.DATABASES["default"]["NAME"] = f"{tmp}/bench.sqlite3"
            django.setup()
            from django.core.management import call_command

            call_command("migrate", verbosity=0)
            settings.ALLOWED_HOSTS = ["testserver"]
            results[label] = count(build(n_events, n_players))
            from django.db import connections

            connections.close_all()
    print(f"{'request':<44} {'small':>6} {'large':>6}  (queries; small: 3 events × 4 players, large: 9 × 12)")
    for name, _ in PAGES:
        small, large = results["small"][name], results["large"][name]
        flag = "  grows" if large > small else ""
        print(f"{name:<44} {small:>6} {large:>6}{flag}")


if __name__ == "__main__":
    main()
