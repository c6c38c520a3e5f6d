"""House bots play unrated tables only: a person's rating cannot be farmed against them
(docs/operators/security.md). Only an organiser's rated event seats bots at rated tables."""

from __future__ import annotations

from games import services
from games.models import Table

from .conftest import Actor


def test_a_table_opened_with_bots_is_unrated_and_asking_for_rated_is_refused(alice: Actor) -> None:
    r = alice.post("/api/v1/tables/", {"game": "pacru", "players": 2, "bot": "random"})
    assert r.status_code == 201 and r.json()["rated"] is False
    refused = alice.post("/api/v1/tables/", {"game": "pacru", "players": 2, "bot": "random", "rated": True})
    assert refused.status_code == 400 and "unrated" in refused.json()["detail"]
    assert Table.objects.count() == 1, "the refused request opened nothing"
    people = alice.post("/api/v1/tables/", {"game": "pacru", "players": 2})
    assert people.json()["rated"] is True, "a table for people is rated by default"


def test_no_bot_joins_a_rated_table_not_even_a_bot_only_one(alice: Actor) -> None:
    # The audit's way round: a rated table without its creator, then bots invited into every seat.
    r = alice.post("/api/v1/tables/", {"game": "pacru", "players": 2, "join": False, "rated": True})
    table_id = r.json()["id"]
    refused = alice.post(f"/api/v1/tables/{table_id}/invite-bot/", {"level": "random"})
    assert refused.status_code == 409 and "unrated" in refused.json()["detail"]
    assert not Table.objects.get(pk=table_id).seats.exists()
    # Seated at their own rated table: the same answer.
    mine = services.table_create(creator=alice.player, game="pacru", players=2, rated=True)
    assert alice.post(f"/api/v1/tables/{mine.pk}/invite-bot/", {"level": "greedy"}).status_code == 409
    assert list(mine.seats.values_list("player__is_bot", flat=True)) == [False]
