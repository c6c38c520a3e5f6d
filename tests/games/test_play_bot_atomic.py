"""Playing a bot is one transaction: the table and its bots, or nothing (no orphan open table)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

from common.errors import InvalidInput
from games import services
from games.models import Player, Seat, Table

from .conftest import Actor


def logged_in(actor: Actor) -> Client:
    client = Client()
    client.force_login(actor.player.user)
    return client


def test_the_page_refuses_an_unknown_level_and_leaves_no_table(alice: Actor) -> None:
    r = logged_in(alice).post("/play-bot/", {"game": "pacru", "level": "wizard"}, follow=True)
    assert r.status_code == 200 and "choose a bot level" in r.content.decode()
    assert not Table.objects.exists() and not Seat.objects.exists()


def test_an_anonymous_visitor_with_an_unknown_level_gets_no_guest_and_no_table(
    db: None, settings: Any
) -> None:
    settings.GUEST_PLAY = True
    cache.clear()
    r = Client().post("/play-bot/", {"game": "pacru", "level": "wizard"})
    assert r.status_code == 302 and r["Location"] == "/"
    assert not Table.objects.exists() and not Player.objects.filter(is_guest=True).exists()


def test_the_service_checks_the_level_before_writing(alice: Actor) -> None:
    with pytest.raises(InvalidInput, match="unknown bot level"):
        services.table_create(creator=alice.player, game="pacru", players=2, rated=False, bot="nope")
    with pytest.raises(InvalidInput, match="leave a seat for yourself"):
        services.table_create(
            creator=alice.player, game="pacru", players=2, rated=False, bot="random", bots=2
        )
    assert not Table.objects.exists()


def test_a_failing_invitation_rolls_the_table_back(alice: Actor, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_bot(level: str, **kw: Any) -> Player:
        raise ValueError(f"no free {level} bot")

    monkeypatch.setattr("games.services.tables.house_bot", no_bot)
    r = alice.post("/api/v1/tables/", {"game": "pacru", "players": 2, "rated": False, "bot": "greedy"})
    assert r.status_code == 400 and "no free greedy bot" in r.json()["detail"]
    r = logged_in(alice).post("/play-bot/", {"game": "pacru", "level": "greedy"}, follow=True)
    assert "no free greedy bot" in r.content.decode()
    form = {
        "game": "pacru",
        "players": 3,
        "edition": "302",
        "time_control": "untimed",
        "bot": "greedy",
        "bots": 2,
    }
    logged_in(alice).post("/tables/new/", form)
    assert not Table.objects.exists() and not Seat.objects.exists()


def test_the_api_opens_a_table_with_its_bots_in_one_call(alice: Actor) -> None:
    r = alice.post(
        "/api/v1/tables/", {"game": "pacru", "players": 3, "rated": False, "bot": "random", "bots": 2}
    )
    assert r.status_code == 201 and r.json()["status"] == "active"
    table = Table.objects.get()
    assert [s.player.is_bot for s in table.seats.order_by("number")] == [False, True, True]
    bad = alice.post("/api/v1/tables/", {"game": "pacru", "players": 2, "rated": False, "bot": "wizard"})
    assert bad.status_code == 400 and "unknown bot level" in bad.json()["detail"]
    assert Table.objects.count() == 1


def test_the_page_makes_the_table_with_its_bot(alice: Actor) -> None:
    r = logged_in(alice).post("/play-bot/", {"game": "azacru", "level": "greedy"})
    table = Table.objects.get()
    assert r.status_code == 302 and r["Location"] == f"/tables/{table.pk}/"
    assert table.status == Table.Status.ACTIVE and not table.rated and table.seats.count() == 2
