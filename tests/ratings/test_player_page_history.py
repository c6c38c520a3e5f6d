"""A player's page with a long history: games a page at a time, the same queries on any page."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games import services
from ratings.services import apply_pending

from ..games.conftest import Actor, play_random, started_table

pytestmark = pytest.mark.django_db


def table_ids(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'<td><a href="/tables/(\d+)/">#', html)]


def test_the_games_list_pages_back_through_every_table_with_constant_queries(alice: Actor) -> None:
    made = [services.table_create(creator=alice.player, game="pacru", players=2).pk for _ in range(45)]
    client = Client()
    seen: list[int] = []
    counts = []
    url = f"/players/{alice.player.pk}/"
    while url:
        with CaptureQueriesContext(connection) as queries:
            page = client.get(url)
        assert page.status_code == 200
        counts.append(len(queries))
        html = page.content.decode()
        seen += table_ids(html)
        older = re.search(r'href="\?before=(\d+)#games"', html)
        url = f"/players/{alice.player.pk}/?before={older.group(1)}" if older else ""
    assert seen == sorted(made, reverse=True), "newest first, every table once"
    assert len(counts) == 3 and len(set(counts)) == 1, counts


@pytest.mark.parametrize("before", ["x", "-1", "99999999999999999999999", ""])
def test_a_bad_page_marker_shows_the_first_page(alice: Actor, before: str) -> None:
    services.table_create(creator=alice.player, game="pacru", players=2)
    page = Client().get(f"/players/{alice.player.pk}/", {"before": before})
    assert page.status_code == 200 and len(table_ids(page.content.decode())) == 1


def test_the_rating_chart_is_styled_by_the_stylesheet_not_inline(alice: Actor, bob: Actor) -> None:
    """The Content-Security-Policy refuses inline styles: a chart styled inline draws black."""
    table = started_table([alice, bob])
    play_random(table, {1: alice.player, 2: bob.player}, None, seed=2)
    apply_pending(game="pacru")
    html = Client().get(f"/players/{alice.player.pk}/").content.decode()
    assert 'class="rating-chart"' in html and "<polygon" in html
    assert "<style" not in html and 'style="' not in html
