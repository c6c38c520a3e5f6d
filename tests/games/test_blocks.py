"""Blocking a player (``games.blocks``): the service's refusals, the API, the player page's button,
the settings' list, and account deletion."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client

from accounts import services as accounts
from common.errors import InvalidInput, NotFound
from games import blocks
from games.housebots import house_bot
from games.models import Block

from .conftest import Actor

PASSWORD = "correct-horse-9"


def _rows() -> list[tuple[int, int]]:
    return sorted(Block.objects.values_list("player_id", "blocked_id"))


# ---------------------------------------------------------------- service
def test_blocking_is_idempotent_and_one_way_in_the_rows(alice: Actor, bob: Actor) -> None:
    made, created = blocks.block(player=alice.player, other_id=bob.player.pk)
    assert created and made.blocked_id == bob.player.pk
    again, created = blocks.block(player=alice.player, other_id=bob.player.pk)
    assert not created and again.pk == made.pk
    assert _rows() == [(alice.player.pk, bob.player.pk)]
    assert blocks.has_blocked(alice.player, bob.player.pk)
    assert not blocks.has_blocked(bob.player, alice.player.pk)
    assert blocks.unblock(player=alice.player, other_id=bob.player.pk) is True
    assert blocks.unblock(player=alice.player, other_id=bob.player.pk) is False
    assert _rows() == []


def test_yourself_an_unknown_player_and_a_house_bot_are_refused(alice: Actor) -> None:
    with pytest.raises(InvalidInput, match="yourself"):
        blocks.block(player=alice.player, other_id=alice.player.pk)
    with pytest.raises(NotFound):
        blocks.block(player=alice.player, other_id=987654)
    bot = house_bot("random")
    with pytest.raises(InvalidInput, match="house bot"):
        blocks.block(player=alice.player, other_id=bot.pk)
    with pytest.raises(InvalidInput, match="yourself"):
        blocks.unblock(player=alice.player, other_id=alice.player.pk)
    assert _rows() == []


def test_blocked_pairs_are_the_blocks_among_the_players_given(make_actor: Callable[..., Actor]) -> None:
    a, b, c, d = (make_actor(f"bp{i}").player for i in range(4))
    blocks.block(player=a, other_id=b.pk)
    blocks.block(player=c, other_id=a.pk)
    blocks.block(player=d, other_id=c.pk)
    assert blocks.blocked_pairs([a.pk, b.pk, c.pk]) == {(a.pk, b.pk), (c.pk, a.pk)}
    assert blocks.blocked_pairs([a.pk]) == set()


def test_deleting_an_account_removes_its_blocks_both_ways(make_actor: Callable[..., Actor]) -> None:
    a, b, c = (make_actor(f"del{i}").player for i in range(3))
    blocks.block(player=a, other_id=b.pk)
    blocks.block(player=c, other_id=a.pk)
    blocks.block(player=b, other_id=c.pk)
    accounts.delete_account(user=a.user, password=PASSWORD)
    assert _rows() == [(b.pk, c.pk)]


def test_a_player_row_deleted_takes_its_blocks_along(alice: Actor, bob: Actor) -> None:
    blocks.block(player=alice.player, other_id=bob.player.pk)
    bob.player.user.delete()
    assert _rows() == []


# ---------------------------------------------------------------- API
def test_the_api_blocks_lists_and_unblocks(alice: Actor, bob: Actor) -> None:
    url = f"/api/v1/players/{bob.player.pk}/block/"
    first = alice.post(url)
    assert first.status_code == 201, first.content
    assert first.json()["player"]["id"] == bob.player.pk
    assert alice.post(url).status_code == 200
    listed = alice.client.get("/api/v1/blocks/")
    assert listed.status_code == 200
    assert [row["player"]["display_name"] for row in listed.json()] == [bob.player.display_name]
    assert bob.client.get("/api/v1/blocks/").json() == []
    assert alice.client.delete(url).status_code == 204
    assert alice.client.delete(url).status_code == 204
    assert alice.client.get("/api/v1/blocks/").json() == []


def test_the_api_refusals_say_why_and_change_nothing(alice: Actor) -> None:
    mine = alice.post(f"/api/v1/players/{alice.player.pk}/block/")
    assert mine.status_code == 400 and "yourself" in mine.json()["detail"]
    bot = house_bot("greedy")
    refused = alice.post(f"/api/v1/players/{bot.pk}/block/")
    assert refused.status_code == 400 and "house bot" in refused.json()["detail"]
    assert alice.post("/api/v1/players/987654/block/").status_code == 404
    from rest_framework.test import APIClient

    assert APIClient().get("/api/v1/blocks/").status_code == 401
    assert _rows() == []


# ---------------------------------------------------------------- pages
def _signed_in(actor: Actor) -> Client:
    client = Client()
    client.force_login(actor.player.user)
    return client


def test_the_player_page_blocks_and_unblocks_with_a_form(alice: Actor, bob: Actor) -> None:
    page = _signed_in(alice)
    body = page.get(f"/players/{bob.player.pk}/").content.decode()
    assert f'action="/players/{bob.player.pk}/block/"' in body
    done = page.post(f"/players/{bob.player.pk}/block/")
    assert done.status_code == 302 and done["Location"] == f"/players/{bob.player.pk}/"
    assert _rows() == [(alice.player.pk, bob.player.pk)]
    body = page.get(f"/players/{bob.player.pk}/").content.decode()
    assert f'action="/players/{bob.player.pk}/unblock/"' in body
    page.post(f"/players/{bob.player.pk}/unblock/")
    assert _rows() == []


def test_no_block_button_on_your_own_page_a_bots_page_or_for_visitors(alice: Actor, bob: Actor) -> None:
    page = _signed_in(alice)
    assert 'id="block-player"' not in page.get(f"/players/{alice.player.pk}/").content.decode()
    bot = house_bot("random")
    assert 'id="block-player"' not in page.get(f"/players/{bot.pk}/").content.decode()
    assert 'id="block-player"' not in Client().get(f"/players/{bob.player.pk}/").content.decode()
    assert Client().post(f"/players/{bob.player.pk}/block/").status_code == 302  # to sign in
    assert page.get(f"/players/{bob.player.pk}/block/").status_code == 405
    assert page.post(f"/players/{bob.player.pk}/shun/").status_code == 404
    assert _rows() == []


def test_a_refused_page_block_says_why(alice: Actor) -> None:
    page = _signed_in(alice)
    done = page.post(f"/players/{alice.player.pk}/block/", follow=True)
    assert "yourself" in done.content.decode()
    assert _rows() == []


def test_the_settings_page_lists_blocked_players_with_unblock(alice: Actor, bob: Actor) -> None:
    page = _signed_in(alice)
    assert "You have not blocked anyone." in page.get("/accounts/settings/").content.decode()
    blocks.block(player=alice.player, other_id=bob.player.pk)
    body = page.get("/accounts/settings/").content.decode()
    assert bob.player.display_name in body and f'action="/players/{bob.player.pk}/unblock/"' in body
    done = page.post(f"/players/{bob.player.pk}/unblock/", {"next": "/accounts/settings/#blocked-players"})
    assert done["Location"] == "/accounts/settings/#blocked-players"
    assert _rows() == []
