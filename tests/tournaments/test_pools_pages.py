"""The lobby's "Play now": the pools grouped by game with their counts and waits, one-click join
(a form with CSRF), the waiting line with Cancel, and after the wave the fragment's link to the
table (``data-go``: the page goes there by itself). Anonymous visitors see the pools and a link
to log in."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Player
from tournaments.models import Pool, PoolEntry
from tournaments.pools import wave
from tournaments.pools.selectors import describe

from ..games.conftest import Actor

pytestmark = pytest.mark.django_db

CLOCK = {"kind": "fischer", "base": 420.0, "increment": 4.0}


@pytest.fixture
def pool() -> Pool:
    return Pool.objects.create(game="azacru", players=2, time_control=CLOCK, rated=False)


def signed_in(player: Player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


def block(html: str) -> str:
    return html.split('<section id="play-now"', 1)[1].split("</section>", 1)[0]


def test_anonymous_visitors_see_the_pools_by_game_and_a_sign_in_link(pool: Pool) -> None:
    html = block(Client().get("/").content.decode())
    assert "<h3>Azacru</h3>" in html and "<h3>Shacru</h3>" in html and "<h3>Pacru</h3>" in html
    assert f'data-pool="{pool.pk}"' in html
    assert "7+4" in html and "no recent tables" in html
    assert "Play now</button>" not in html
    assert 'href="/accounts/login/"' in html


def test_play_now_joins_shows_the_wait_and_cancel_leaves(pool: Pool) -> None:
    ann = Actor("ann").player
    client = signed_in(ann)
    page = block(client.get("/").content.decode())
    form = re.search(rf'<form method="post" action="/play-now/{pool.pk}/join/">.*?</form>', page, re.S)
    assert form and "csrfmiddlewaretoken" in form.group(0)
    r = client.post(f"/play-now/{pool.pk}/join/", follow=True)
    assert r.redirect_chain[-1][0] == "/#play-now"
    assert "You are waiting for a table in" in r.content.decode()
    html = block(client.get("/play-now/").content.decode())
    assert f"Waiting for a table in <strong>{describe(pool)}</strong> (1 waiting)" in html
    assert 'id="pool-cancel"' in html
    assert list(PoolEntry.objects.values_list("player_id", "pool_id")) == [(ann.pk, pool.pk)]
    client.post("/play-now/leave/")
    assert not PoolEntry.objects.exists()
    assert "Waiting for a table" not in block(client.get("/play-now/").content.decode())


def test_a_refused_join_says_why_and_changes_nothing(pool: Pool) -> None:
    guest_client = Client()
    guest_client.post("/play-bot/", {"game": "pacru", "level": "random"})  # makes a guest, signed in
    r = guest_client.post(f"/play-now/{pool.pk}/join/", follow=True)
    assert "guests play against bots only" in r.content.decode()
    assert not PoolEntry.objects.exists()
    assert Client().post(f"/play-now/{pool.pk}/join/").status_code == 302  # to the sign-in page
    assert not PoolEntry.objects.exists()


def test_after_the_wave_the_fragment_links_each_player_to_the_table(pool: Pool, settings: Any) -> None:
    ann, ben = Actor("ann").player, Actor("ben").player
    for p in (ann, ben):
        signed_in(p).post(f"/play-now/{pool.pk}/join/")
    assert wave.sweep(now=timezone.now())["tables"] == 1
    table = ann.seats.get().table
    for p in (ann, ben):
        html = block(signed_in(p).get("/play-now/").content.decode())
        assert f'data-go="/tables/{table.pk}/"' in html
        assert "Play now</button>" not in html  # playing now: no other pool offered


def test_the_lobby_block_is_a_live_fragment_of_the_lobby_and_the_players_topic(pool: Pool) -> None:
    ann = Actor("ann").player
    html = signed_in(ann).get("/").content.decode()
    assert f'data-live="/play-now/" data-topics="lobby player:{ann.pk}"' in html
    assert 'data-live="/play-now/" data-topics="lobby"' in Client().get("/").content.decode()
