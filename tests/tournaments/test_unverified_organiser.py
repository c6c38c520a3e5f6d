"""An organiser whose own e-mail address is not verified still runs rated events: the tables an
event opens for its players are checked against the players who sit there, not against the
organiser who opens them (``RATED_NEEDS_VERIFIED_EMAIL``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.models import Player, Seat, Table
from tournaments.models import RoundTable

from ..games.conftest import Actor, as_organiser


def test_a_rated_swiss_of_an_unverified_organiser_opens_its_rated_tables(
    make_actor: Callable[..., Actor], settings: Any
) -> None:
    settings.RATED_NEEDS_VERIFIED_EMAIL = True
    org = make_actor("organiser")
    as_organiser(org.player)
    assert org.post("/api/v1/leagues/", {"name": "The Club", "slug": "club"}).status_code == 201
    body = {"league": "club", "name": "Rated Swiss", "game": "pacru", "seats": 2, "rounds": 1, "rated": True}
    t = org.post("/api/v1/tournaments/", body).json()
    players = [make_actor(name) for name in ("ann", "ben", "cat", "dan")]
    Player.objects.filter(pk__in=[p.player.pk for p in players]).update(email_verified=True)
    for p in players:
        assert p.post(f"/api/v1/tournaments/{t['id']}/register/").status_code == 200
    assert not Player.objects.get(pk=org.player.pk).email_verified
    started = org.post(f"/api/v1/tournaments/{t['id']}/start/")
    assert started.status_code == 200, started.json()
    tables = Table.objects.filter(round_table__in=RoundTable.objects.filter(round__tournament_id=t["id"]))
    assert tables.count() == 2 and all(table.rated for table in tables)
    assert Seat.objects.filter(table__in=tables).count() == 4
    # A player opening a rated table to play at it still needs a verified address.
    refused = org.post("/api/v1/tables/", {"game": "pacru", "players": 2, "rated": True})
    assert refused.status_code == 403 and refused.json()["code"] == "email_not_verified"
