"""The rules pages: every page answers, and every diagram on them is a real position loaded into
the engine whose example move is legal there, with the before and after positions the page
embeds being exactly the engine's."""

from __future__ import annotations

import html
import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

import engine
from engine.board import CELL_NAMES
from engine.notation import parse
from web.rules_content import PAGES, diagrams

pytestmark = pytest.mark.django_db

GAMES = list(PAGES)
ALL_DIAGRAMS = [(game, d) for game in GAMES for d in diagrams(game)]


def embedded(page: str) -> dict[str, Any]:
    match = re.search(r'<script id="rules-diagrams" type="application/json">(.*?)</script>', page, re.S)
    assert match, "the page embeds no diagram data"
    return json.loads(match.group(1))


def fetch(client: Client, game: str) -> str:
    response = client.get(f"/rules/{game}/")
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("game", GAMES)
def test_each_rules_page_answers_with_its_sections_and_the_bot_link(client: Client, game: str) -> None:
    page = fetch(client, game)
    assert reverse("rules", args=[game]) == f"/rules/{game}/"
    assert f"<h1>{PAGES[game].label} rules</h1>" in page
    assert '<a href="/rules/pacru/">Rules</a>' in page  # the site bar
    # "Try it against the random bot": a one-click form to /play-bot/ for this game.
    form = re.search(r'<form method="post" action="/play-bot/" class="try">(.*?)</form>', page, re.S)
    assert form, "no play-bot form"
    assert f'name="game" value="{game}"' in form.group(1)
    assert 'name="level" value="random"' in form.group(1)
    assert "Try it against the random bot" in form.group(1)
    keys = {s.key for s in PAGES[game].sections}
    assert {"borderlands", "start", "moving", "crossing", "end"} <= keys
    for key in keys:
        assert f'id="{key}"' in page
    assert set(embedded(page)) == {d.key for d in diagrams(game)}


def test_unknown_game_is_not_found(client: Client) -> None:
    assert client.get("/rules/chess/").status_code == 404


def test_pacru_page_covers_its_own_rules_and_both_editions(client: Client) -> None:
    keys = {s.key for s in PAGES["pacru"].sections}
    assert {"connection", "pincer", "meeting", "reorient", "blocked"} <= keys
    editions = {d.position("pacru").edition for d in diagrams("pacru")}
    assert editions == {"302", "2011"}
    page = fetch(client, "pacru")
    assert "9 or more markers" in html.unescape(page)


@pytest.mark.parametrize("game", GAMES)
def test_start_diagrams_show_the_start_for_two_three_and_four_players(game: str) -> None:
    start = next(s for s in PAGES[game].sections if s.key == "start")
    positions = [d.position(game) for d in start.diagrams]
    assert [p.players for p in positions] == [2, 3, 4]
    for p in positions:
        assert p == engine.new_game(game, p.players, **({"edition": p.edition} if p.has_editions else {}))


@pytest.mark.parametrize(("game", "diagram"), ALL_DIAGRAMS, ids=[f"{g}-{d.key}" for g, d in ALL_DIAGRAMS])
def test_every_diagram_is_a_real_position_where_its_example_move_is_legal(
    client: Client, game: str, diagram: Any
) -> None:
    before = diagram.position(game)
    assert before.game == game
    assert not before.is_over
    # The position survives a round trip through the engine's own JSON format.
    assert engine.load(before.to_dict()) == before
    parsed = parse(diagram.move)
    if parsed.kind == "reorient":
        options = before.reorientations(CELL_NAMES[parsed.frm])
        turn = re.match(r"[a-i][1-9](<<|>>|<|>)", diagram.move)
        assert turn and turn.group(1) in options.turns
        assert set(parsed.tokens) <= set(options.removable)
    else:
        assert diagram.move in before.legal_moves()
    after = before.play(diagram.move)
    assert after.last_move == diagram.move, "examples are written in canonical notation"

    shown = embedded(fetch(client, game))[diagram.key]
    assert shown["move"] == diagram.move
    assert engine.load(shown["before"]) == before
    assert engine.load(shown["after"]) == after
    assert shown["before"] == before.to_dict() and shown["after"] == after.to_dict()
    if parsed.kind == "move":
        assert (shown["from"], shown["to"]) == (diagram.move[:2], diagram.move[3:5])
    if parsed.kind == "pass":
        assert shown["changed"] == [] and after.to_move != before.to_move
    else:
        assert shown["changed"], "the example move changes something on the board"
