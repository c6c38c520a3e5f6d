"""The table's JSON carries what the pages need to know about the game's rules (issue 32, item 2):
each chevron's power as the engine counts it, and the game's ``rules``, so that no script or
template tests the game's name."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

import engine
from engine.board import BORDERLAND, BORDERLAND_CELLS, CELL_INDEX
from games.models import Table

from .conftest import Actor, play_random, started_table

pytestmark = pytest.mark.django_db

RULES = {
    "shacru": {"reorientation": False, "twist": True, "notation_examples": ["a3-b4>", "e1-e2"]},
    "azacru": {"reorientation": False, "twist": True, "notation_examples": ["a3-b4>", "e1-e2"]},
    "pacru": {"reorientation": True, "twist": False, "notation_examples": ["a3-b4(c5)"]},
}


def counted(position: dict[str, Any]) -> dict[str, int]:
    """Each chevron's power counted from RULES by hand: Shacru 1; otherwise its owner's markers
    in its borderland, at least 1 (the tiles string lists rank 9 first)."""
    tiles = {}
    for i, ch in enumerate(position["tiles"]):
        tiles["abcdefghi"[i % 9] + str(9 - i // 9)] = ch
    names = {index: name for name, index in CELL_INDEX.items()}
    out = {}
    for chevron in position["chevrons"]:
        cell, seat, _ = chevron.split(":")
        if position["game"] == "shacru":
            out[cell] = 1
            continue
        land = BORDERLAND_CELLS[BORDERLAND[CELL_INDEX[cell]]]
        out[cell] = max(1, sum(1 for c in land if tiles[names[c]] == seat))
    return out


@pytest.mark.parametrize("game", ["shacru", "azacru", "pacru"])
def test_the_table_json_carries_each_chevrons_power_from_the_engine(
    game: str, alice: Actor, bob: Actor
) -> None:
    table = started_table([alice, bob], game=game)
    table = play_random(table, {1: alice.player, 2: bob.player}, plies=24, seed=7)
    assert table.status == Table.Status.ACTIVE
    body = alice.get(f"/api/v1/tables/{table.pk}/").json()
    powers = body["powers"]
    assert powers == engine.load(body["position"]).powers() == counted(body["position"])
    assert sorted(powers) == sorted(c.split(":")[0] for c in body["position"]["chevrons"])
    if game != "shacru":  # markers on the board give some chevron more than 1 by now
        assert max(powers.values()) > 1
    assert body["rules"] == RULES[game] == engine.variant(game).rules
    # Stepping back: every earlier position comes with its powers too.
    history = alice.get(f"/api/v1/tables/{table.pk}/positions/").json()
    assert history["start_powers"] == counted(history["start"])
    assert history["actions"] and all(a["powers"] == counted(a["position"]) for a in history["actions"])


def test_a_table_not_started_has_no_powers_yet(alice: Actor) -> None:
    created = alice.post("/api/v1/tables/", {"game": "azacru", "players": 2})
    assert created.status_code == 201, created.json()
    body = alice.get(f"/api/v1/tables/{created.json()['id']}/").json()
    assert body["powers"] == {} and body["rules"] == RULES["azacru"]


def test_the_reorientation_suggests_the_engines_cheapest_payment(alice: Actor, bob: Actor) -> None:
    table = started_table([alice, bob])
    url = f"/api/v1/tables/{table.pk}/"
    for ply, (actor, move) in enumerate(
        [(alice, "a3-b4(c5)"), (bob, "a7-b7"), (alice, "i3-h4(g5)"), (bob, "e9-e8")]
    ):
        assert actor.post(f"{url}moves/", {"ply": ply, "move": move}).status_code == 201
    reorient = alice.get(url).json()["reorient"]
    state = engine.load(alice.get(url).json()["position"])
    assert reorient["payments"] == {
        t: state.cheapest_payment(tuple(reorient["removable"]), 2 * len(t)) for t in reorient["turns"]
    }
    assert reorient["payments"][">"] == ["c5", "g5"]  # the only two markers pay for 45°


@pytest.mark.parametrize("game", ["shacru", "pacru"])
def test_the_table_page_reads_its_hints_from_the_rules(game: str, alice: Actor, bob: Actor) -> None:
    table = started_table([alice, bob], game=game)
    client = Client()
    client.force_login(alice.player.user)  # seated: the page offers the typed-move form
    page = client.get(f"/tables/{table.pk}/").content.decode()
    example = RULES[game]["notation_examples"][0].replace(">", "&gt;")
    assert f'placeholder="e.g. {example}"' in page
    assert ("To reorient the selected chevron" in page) is RULES[game]["reorientation"]
